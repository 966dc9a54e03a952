// Search inside one session: which turns a query is about, by BM25 over the turns with the engine's
// index class and tokenizer (so a word matches here exactly when it matches in recall: jieba words,
// not substrings), and the text that shows them with a little context — the turn before and after
// each hit, shortened. No hit: the last turns, said as such (where the seed's mem_source falls back).
// Pure.
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { isSingleCjk } from '../recall/scoring.ts';
import { previewAround } from '../segments/locate.ts';
import type { Tokenizer } from '../types.ts';
import type { SessionLog, SessionTurn } from './log.ts';
import { renderTurn, sessionHead, type SessionView } from './read.ts';
import { clipChars } from './text.ts';

export interface SessionSearchHit {
  turn: number;
  score: number;
  /** Query words found in the turn, most informative first. */
  matched: string[];
}

// The person's words weigh most (what the turn is about), then tools (paths, commands), the answer,
// and the reasoning (searched only in the thinking view, where it is shown).
const SESSION_LEXICAL: LexicalOptions = {
  k1: 1.2,
  b: 0.75,
  fieldWeights: { title: 2, tags: 1.5, body: 1, summary: 0.7 },
  singleCharWeight: 0.15,
};

export interface SessionSearchOptions {
  /** Most turns returned (default 3). */
  limit?: number;
  /** Search the reasoning too (default false: only what was said and done). */
  thinking?: boolean;
}

const toolsText = (turn: SessionTurn): string => turn.tools.map((t) => `${t.name} ${t.argsPreview}`).join('\n');

/** The turns of `log` that `query` is about, best first; [] when no word matches. */
export function searchSession(log: SessionLog, query: string, tokenizer: Tokenizer, options: SessionSearchOptions = {}): SessionSearchHit[] {
  const queryTokens = [...new Set(tokenizer.tokenize(query))];
  if (log.turns.length === 0 || queryTokens.length === 0) return [];
  tokenizer.prepare?.(log.turns.flatMap((t) => [t.user, t.assistant]));
  const index = new LexicalIndex(SESSION_LEXICAL);
  for (const t of log.turns)
    index.add({
      chunkId: String(t.turn),
      docId: 'session',
      fields: {
        title: tokenizer.tokenize(t.user),
        summary: options.thinking ? tokenizer.tokenize(t.thinking) : [],
        tags: tokenizer.tokenize(toolsText(t)),
        body: tokenizer.tokenize(t.assistant),
      },
    });
  index.finishBulkAdd();
  const found = index.search(queryTokens, Math.max(1, options.limit ?? 3));
  // A lone CJK character matching is noise when the query has words: 端 in 端口 and in 终端.
  const hasWords = queryTokens.some((q) => !isSingleCjk(q));
  return found
    .map((h) => ({
      turn: Number(h.chunkId),
      score: h.score,
      matched: [...h.matched].sort((a, b) => b.weight * b.idf - a.weight * a.idf || b.token.length - a.token.length).map((m) => m.token),
    }))
    .filter((h) => !hasWords || h.matched.some((m) => !isSingleCjk(m)));
}

export interface SessionSearchPageOptions extends SessionSearchOptions {
  maxChars: number;
  view?: SessionView;
  /** A line under the header (e.g. the memory whose source this is). */
  note?: string;
  /** The zone times are shown in (see SessionReadOptions). */
  timeZone?: string;
}

export interface SessionSearchPage {
  text: string;
  hits: SessionSearchHit[];
}

/** A neighbour of a hit, in two short lines. */
function contextTurn(turn: SessionTurn, query: string[]): string {
  const user = turn.user !== '' ? previewAround(turn.user, query, 120) : '(本轮没有用户发言)';
  const lines = [`·· 第 ${turn.turn} 轮(上下文)`, `用户:${user}`];
  if (turn.assistant !== '') lines.push(`助手:${clipChars(turn.assistant.replace(/\s+/g, ' '), 120)}`);
  return lines.join('\n');
}

/** The text session_read returns for `q`: the hits in turn order, each with its neighbours shortened. */
export function sessionSearchPage(log: SessionLog, query: string, tokenizer: Tokenizer, options: SessionSearchPageOptions): SessionSearchPage {
  const view = options.view ?? 'turns';
  const hits = searchSession(log, query, tokenizer, { limit: options.limit, thinking: options.thinking ?? view !== 'turns' });
  const idShort = log.id.slice(0, 8);
  const maxChars = Math.max(500, Math.floor(options.maxChars) || 0);
  const head = sessionHead(log, view, options.note, options.timeZone);
  const q = clipChars(query.replace(/\s+/g, ' ').trim(), 60);
  let shown: number[];
  let intro: string;
  if (hits.length === 0) {
    shown = log.turns.slice(-2).map((t) => t.turn);
    intro = log.turns.length === 0 ? `这次会话没有可读的对话。` : `没有哪一轮提到「${q}」;下面是最后 ${shown.length} 轮。可换个说法再搜,或按轮读:session_read({ id: "${idShort}", from: 1 })`;
  } else {
    shown = hits.map((h) => h.turn).sort((a, b) => a - b);
    intro = `在这次会话里搜「${q}」:命中 ${hits.length} 轮(${hits.map((h) => `第 ${h.turn} 轮`).join('、')},按相关度),按轮次列出,前后各附一轮上下文。`;
  }
  const hitSet = new Set(shown);
  const matchedOf = new Map(hits.map((h) => [h.turn, h.matched]));
  const words = [...new Set(hits.flatMap((h) => h.matched))];
  let budget = maxChars - head.length - intro.length - 160;
  const blocks: string[] = [];
  const done = new Set<number>();
  // Each hit gets an equal share of the room, so the last hit is not squeezed out by the first.
  const share = Math.max(300, Math.floor(budget / Math.max(1, shown.length)));
  for (const n of shown) {
    const parts: string[] = [];
    for (const c of [n - 1, n, n + 1]) {
      if (c < 1 || c > log.turns.length || done.has(c) || (c !== n && hitSet.has(c))) continue;
      const turn = log.turns[c - 1]!;
      if (c === n) {
        const matched = matchedOf.get(n);
        const block = `${matched ? `★ 命中:${matched.slice(0, 6).join(' ')}\n` : ''}${renderTurn(turn, view, options.timeZone)}`;
        parts.push(block.length > share ? `${clipChars(block, share)}\n(本轮原文 ${block.length} 字,已截断;全文:session_read({ id: "${idShort}", from: ${n}, to: ${n}${view === 'turns' ? '' : `, view: "${view}"`} }))` : block);
      } else parts.push(contextTurn(turn, words));
      done.add(c);
    }
    const text = parts.join('\n\n');
    if (text.length + 2 > budget && blocks.length > 0) {
      blocks.push(`(其余命中未显示:第 ${shown.filter((s) => !done.has(s)).join('、')} 轮)`);
      break;
    }
    blocks.push(text);
    budget -= text.length + 2;
  }
  return { text: [head, '', intro, '', blocks.join('\n\n')].join('\n'), hits };
}
