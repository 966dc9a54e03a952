// The time channel of recall. "10月6日做了什么" or "九天前我问了什么" cannot be answered by
// relevance: no memory's text contains the words 九天前, so lexical and semantic scores only bring
// up whatever shares the other words. When the query names days, the answer is the memories of
// those days, in the order they happened; the rest of the query, when it has distinctive words,
// picks among them.
import { fitToBudget } from '../recall/render.ts';
import { languageIdfTable, UNKNOWN_WORD_IDF } from '../recall/background-idf.ts';
import { analyseQuery, coverageOf, queryDeps, queryInformation, queryWeights } from '../recall/scoring.ts';
import { queryFacts, recallResultOf, type RecallRecord } from '../recall/explain.ts';
import type { MatchedTerm, RecallHit, RecallResult, TimeExplanation } from '../recall/types.ts';
import { parseTimeExpression } from './parse.ts';
import { hitScope, visibleIn } from '../recall/scope.ts';
import type { RecallDeps } from '../recall/deps.ts';
import type { DayMemory } from './types.ts';

export type { DayMemory, TimeChannelDeps } from './types.ts';

/** What planning a time answer reads of a recall's dependencies (recall/deps.ts, which calls nothing here). */
export type TimePlanDeps = Pick<RecallDeps, 'config' | 'tokenizer' | 'lexical' | 'chunkTexts' | 'now' | 'time'>;

export interface TimePlanOptions {
  k?: number;
  /** A single-channel debug recall (any value): the time channel stays out of it. */
  only?: string;
  /** false: ignore time words in the query. */
  time?: boolean;
  workspace?: string | null;
}

export type TimePlan =
  /** The answer is those days' memories. */
  | { kind: 'answer'; result: RecallResult }
  /** The query names days, but ordinary recall answers it; the explanation says why. */
  | { kind: 'relevance'; explain: TimeExplanation };

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

// Words that seek a memory of the days: what was done, said or decided then ("做了什么", "聊了哪些",
// "定了什么", "回顾一下"), or the record itself ("日记", "情况", "进展"). A generic question word
// next to a time word is small talk, not a memory question: 「今天中午吃什么好呢」, 「今天有啥新闻」,
// 「今天天气怎么样」 ask about now, and listing the day's memories would inject noise, which recall
// must not do. Without a topic the day's notes hold, one of these is needed.
const SEEKS_A_MEMORY = /干了|做了|做过|弄了|聊了|聊过|说了|说过|问了|问过|谈了|谈过|提到|提过|讨论|发生|记录|记了|记下|记得|写了|改了|修了|定了|定下|决定|结论|进展|经过|情况|总结|回顾|回忆|复盘|经历|日记|记忆|之前|上次|那次|当时/;

/** Whether a rest without distinctive words still seeks a memory of the days (or is nothing but the time). */
export function asksAboutTheDays(rest: string): boolean {
  const bare = rest.replace(/[\s\p{P}\p{S}]/gu, '');
  return bare === '' || SEEKS_A_MEMORY.test(bare);
}

/** Chronological: by day, then HH:MM (entries without a time last), then path. */
export function byWhen(a: DayMemory, b: DayMemory): number {
  if (a.meta.date !== b.meta.date) return a.meta.date < b.meta.date ? -1 : 1;
  if (a.time !== b.time) return a.time === null ? 1 : b.time === null ? -1 : a.time < b.time ? -1 : 1;
  return a.meta.path < b.meta.path ? -1 : a.meta.path > b.meta.path ? 1 : 0;
}

interface DayMatch {
  chunkId: string;
  score: number;
  rank: number;
  matched: MatchedTerm[];
  folded: number;
}

/**
 * Decides whether the time channel answers `query`. Null: no time words (or the channel is off),
 * recall is exactly the ordinary one.
 */
export async function planTimeChannel(deps: TimePlanDeps, query: string, options: TimePlanOptions): Promise<TimePlan | null> {
  // A single-channel debug recall (options.only) compares channels: the time channel stays out of it.
  if (options.time === false || options.only !== undefined || !deps.config.recall.timeChannel || !deps.time) return null;
  const tStart = performance.now();
  const now = (deps.now ?? (() => new Date()))();
  const parsed = parseTimeExpression(query, now, deps.time.timeZone);
  if (!parsed) return null;
  const base = { matched: parsed.matched, days: parsed.days };
  const scope = { workspace: options.workspace ?? null };
  const memories = deps.time.memoriesOn(parsed.days).filter((m) => visibleIn(scope, m.meta.workspace)).sort(byWhen);
  if (memories.length === 0) return { kind: 'relevance', explain: { ...base, memories: 0, applied: false, note: 'no memory is dated on those days' } };

  const cfg = deps.config.recall;
  let t = performance.now();
  const { tokens, distinctive, idfAvailable, minIdf } = analyseQuery(parsed.rest, queryDeps(deps), cfg);
  const tokenizeMs = ms(t);

  t = performance.now();
  // The rest of the query ranks within the days: the best chunk of each memory that matches it.
  const onDays = new Set(memories.map((m) => m.meta.docId));
  const best = new Map<string, DayMatch>();
  let lexicalCandidates = 0;
  if (distinctive.size > 0) {
    const hits = deps.lexical.search(tokens.map((x) => x.token), Math.max(1, deps.lexical.size));
    for (const h of hits) {
      if (!onDays.has(h.docId) || !h.matched.some((m) => distinctive.has(m.token))) continue;
      lexicalCandidates++;
      const b = best.get(h.docId);
      if (b) b.folded++;
      else best.set(h.docId, { chunkId: h.chunkId, score: h.score, rank: best.size + 1, matched: h.matched, folded: 0 });
    }
  }
  const lexicalMs = ms(t);
  if (distinctive.size === 0 && !asksAboutTheDays(parsed.rest)) {
    return { kind: 'relevance', explain: { ...base, memories: memories.length, applied: false, note: 'the query names days but asks nothing about them' } };
  }
  if (distinctive.size > 0 && best.size === 0) {
    // Time narrows a topic; when the topic is on none of those days, the date was incidental or
    // misremembered, and ordinary recall over all memories is the better answer.
    return {
      kind: 'relevance',
      explain: { ...base, memories: memories.length, applied: false, note: `none of the ${memories.length} memories of those days mentions ${[...distinctive].join(' ')}` },
    };
  }

  t = performance.now();
  // With distinctive words only the memories that match them stay, best first within a day (days
  // stay chronological); without, every memory of those days, in the order it happened.
  const chosen =
    distinctive.size > 0
      ? memories.filter((m) => best.has(m.meta.docId)).sort((a, b) => (a.meta.date !== b.meta.date ? byWhen(a, b) : best.get(b.meta.docId)!.score - best.get(a.meta.docId)!.score || byWhen(a, b)))
      : memories;
  const k = options.k !== undefined ? Math.max(1, Math.floor(options.k)) : Math.max(cfg.kMin, cfg.kMax);
  // More memories than fit: without topic words the latest ones are kept (「最近几天」, 「这个月」 ask
  // what has happened up to now), still shown in the order they happened; with topic words the
  // order is by day then match, and the first k stay.
  const top = distinctive.size === 0 && chosen.length > k ? chosen.slice(chosen.length - k) : chosen.slice(0, k);
  const chunkOf = (m: DayMemory) => best.get(m.meta.docId)?.chunkId ?? m.firstChunkId;
  const texts = await deps.chunkTexts(top.map(chunkOf).filter((id): id is string => id !== null));
  const weights = queryWeights(tokens, languageIdfTable(), UNKNOWN_WORD_IDF, Math.log(1 + (Math.max(1, deps.lexical.size) - 0.5) / 1.5));
  const aliasTokens = new Set(tokens.filter((x) => x.fromAlias).map((x) => x.token));
  const budget = fitToBudget(
    top.map((m) => ({ m, text: texts.get(chunkOf(m) ?? '') ?? m.meta.title })),
    cfg.maxChars,
  );
  const hits: RecallHit[] = budget.kept.map(({ m, text }) => {
    const match = best.get(m.meta.docId);
    return {
      ...m.meta,
      chunkId: chunkOf(m) ?? '',
      scope: hitScope(scope, m.meta.workspace),
      score: match?.score ?? 0,
      channels: { lexical: match ? { rank: match.rank, score: match.score } : null, semantic: null, fused: 0, decay: 1, phrase: null },
      matched: match?.matched ?? [],
      coverage: match ? coverageOf(match.matched, weights, aliasTokens) : 1,
      folded: match?.folded ?? 0,
      text,
    };
  });
  const selectMs = ms(t);

  const dropped = memories.length - chosen.length;
  // The same records and explanation shape as the relevance pipeline (recall/explain.ts).
  const records: RecallRecord[] = [
    {
      name: 'tokenize',
      ms: tokenizeMs,
      kept: 0,
      dropped: 0,
      listed: false,
      explain: {
        query: queryFacts({ distinctive, information: queryInformation(weights).information, idfAvailable, minIdf }),
      },
    },
    {
      name: 'time',
      ms: lexicalMs,
      kept: chosen.length,
      dropped,
      note: `${parsed.matched} → ${parsed.days.length === 1 ? parsed.days[0] : `${parsed.days[0]}..${parsed.days[parsed.days.length - 1]}`}${dropped > 0 ? `; ${dropped} not about ${[...distinctive].join(' ')}` : ''}`,
      explain: {
        lexical: { candidates: lexicalCandidates },
        semantic: { ran: false, skipped: 'time channel: memories are chosen by date', candidates: 0 },
        time: {
          ...base,
          memories: memories.length,
          applied: true,
          note: distinctive.size > 0 ? `ranked within the day by ${[...distinctive].join(' ')}` : null,
          sessions: [...new Set(hits.map((h) => h.sessionId).filter((id): id is string => id !== null))],
        },
      },
    },
    {
      name: 'select',
      ms: selectMs,
      kept: hits.length,
      dropped: chosen.length - hits.length,
      note: `k=${k}, maxChars=${cfg.maxChars}`,
      explain: {
        judge: null,
        k: {
          chosen: k,
          reason: `${options.k !== undefined ? `explicit k=${options.k}` : `time channel: up to kMax ${k} memories of those days`}${distinctive.size === 0 && chosen.length > k ? `, the latest ${k} of ${chosen.length}` : ''}`,
        },
        maxChars: { limit: cfg.maxChars, used: budget.used, truncatedItems: budget.truncated },
      },
    },
  ];
  const result: RecallResult = recallResultOf({ query, tokenizer: deps.tokenizer.engine, tokens, hits, records, totalMs: ms(tStart) });
  return { kind: 'answer', result };
}
