// The explanation of a recall, derived from its stage records (#18): the candidate counts the CLI,
// `--json` and the console list are the listed records, the gate removals are those the stages
// reported (in stage order), each other part of the explanation is the part a stage supplied, and
// the timings sum the stages' times by kind. Both the relevance pipeline and the time channel build
// their RecallResult here, so the two answer in one shape.
import { writtenForms } from '../text/latin.ts';
import { foldedWrittenForms } from '../text/script-fold.ts';
import { taiwanWrittenForms } from '../text/taiwan-words.ts';
import type { TimedRecord } from './stage.ts';
import type { GateName, GateRemoval, QueryToken, RecallExplanation, RecallHit, RecallResult, SilenceExplanation, TimeExplanation } from './types.ts';

type GateFacts = Omit<RecallExplanation['gate'], 'removed' | 'byGate' | 'removals'>;

/** A stage's part of the explanation (merged in stage order; a later stage's part wins). */
export interface ExplainPart {
  /** What the query analysis found (the gate section's query facts). */
  query?: GateFacts;
  /** Candidates this stage removed, with the gate that removed each. */
  removals?: GateRemoval[];
  semantic?: RecallExplanation['semantic'];
  lexical?: RecallExplanation['lexical'];
  judge?: RecallExplanation['judge'];
  k?: RecallExplanation['k'];
  maxChars?: RecallExplanation['maxChars'];
  time?: TimeExplanation | null;
  terms?: RecallExplanation['terms'];
  nearDuplicates?: RecallExplanation['nearDuplicates'];
  redundant?: RecallExplanation['redundant'];
  language?: RecallExplanation['language'];
  silencedBy?: RecallExplanation['gate']['silencedBy'];
  queryGate?: RecallExplanation['gate']['queryGate'];
  namedByQuery?: RecallExplanation['gate']['namedByQuery'];
}

/** The query facts both the relevance pipeline and the time channel report (the gate section's head). */
export function queryFacts(q: { distinctive: Iterable<string>; information: number; idfAvailable: boolean; minIdf: number }): GateFacts {
  const distinctiveTokens = [...q.distinctive];
  return {
    distinctiveTokens,
    noDistinctiveTokens: distinctiveTokens.length === 0,
    queryInformation: Math.round(q.information * 100) / 100,
    idfAvailable: q.idfAvailable,
    idfThreshold: q.minIdf,
  };
}

export type RecallRecord = TimedRecord<ExplainPart>;

type TimingKey = Exclude<keyof RecallResult['timing'], 'totalMs' | 'stages'>;

/** Which timing field a stage's time counts in (stages not named here are only in `timing.stages`). */
const TIMING_OF: Record<string, TimingKey> = {
  tokenize: 'tokenizeMs',
  lexical: 'lexicalMs',
  time: 'lexicalMs',
  semantic: 'semanticMs',
  fuse: 'fuseMs',
  gate: 'gateMs',
  collapse: 'gateMs',
  judge: 'judgeMs',
};

const round2 = (n: number) => Math.round(n * 100) / 100;

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`recall: no stage supplied the explanation's ${what}`);
  return value;
}

/**
 * The query's tokens, each with the word as the query writes it where the term differs: an English
 * word stemmed or lower-cased (text/latin.ts writtenForms), Chinese written in traditional characters
 * (text/script-fold.ts foldedWrittenForms) or a Taiwan word read as the mainland's (text/taiwan-words.ts).
 */
function withWrittenForms(tokens: QueryToken[], query: string): QueryToken[] {
  const written = writtenForms(query);
  const terms = tokens.map((t) => t.token);
  const read = query.normalize('NFKC');
  for (const [term, form] of [...foldedWrittenForms(read, terms), ...taiwanWrittenForms(read, terms)]) if (!written.has(term)) written.set(term, form);
  if (written.size === 0) return tokens;
  return tokens.map((t) => {
    const w = written.get(t.token);
    return w === undefined || t.fromAlias ? t : { ...t, written: w };
  });
}

export function recallResultOf(input: {
  query: string;
  tokenizer: RecallResult['tokenizer'];
  tokens: QueryToken[];
  hits: RecallHit[];
  records: RecallRecord[];
  totalMs: number;
}): RecallResult {
  const part: Omit<ExplainPart, 'removals'> = {};
  const removals: GateRemoval[] = [];
  for (const r of input.records) {
    if (!r.explain) continue;
    const { removals: removed, ...rest } = r.explain;
    Object.assign(part, rest);
    if (removed) removals.push(...removed);
  }
  const byGate: Partial<Record<GateName, number>> = {};
  for (const r of removals) byGate[r.gate] = (byGate[r.gate] ?? 0) + 1;
  const timing: RecallResult['timing'] = { totalMs: input.totalMs, tokenizeMs: 0, lexicalMs: 0, semanticMs: 0, fuseMs: 0, gateMs: 0, judgeMs: 0 };
  for (const r of input.records) {
    const key = TIMING_OF[r.name];
    if (key) timing[key] = round2(timing[key] + r.ms);
  }
  timing.stages = input.records.map((r) => ({ name: r.name, ms: r.ms }));
  return {
    query: input.query,
    tokenizer: input.tokenizer,
    tokens: withWrittenForms(input.tokens, input.query),
    hits: input.hits,
    explain: {
      stages: input.records
        .filter((r) => r.listed !== false)
        .map((r) => ({ name: r.name, kept: r.kept, dropped: r.dropped, ...(r.note !== undefined ? { note: r.note } : {}), ms: r.ms })),
      gate: { removed: removals.length, byGate, removals, ...required(part.query, 'query facts'), ...(part.silencedBy !== undefined ? { silencedBy: part.silencedBy } : {}), ...(part.queryGate ? { queryGate: part.queryGate } : {}), ...(part.namedByQuery ? { namedByQuery: part.namedByQuery } : {}) },
      ...(part.terms ? { terms: part.terms } : {}),
      ...(part.nearDuplicates ? { nearDuplicates: part.nearDuplicates } : {}),
      ...(part.redundant ? { redundant: part.redundant } : {}),
      ...(part.language ? { language: part.language } : {}),
      semantic: required(part.semantic, 'semantic section'),
      lexical: required(part.lexical, 'lexical section'),
      judge: part.judge ?? null,
      k: required(part.k, 'k'),
      maxChars: required(part.maxChars, 'maxChars'),
      time: part.time ?? null,
    },
    timing,
  };
}

/** Whether a recall read nothing because the diary folder is gone (its own reason, explain.gate.silencedBy): no hits then say nothing about the memories. */
export const pausedForMissingDiary = (result: Pick<RecallResult, 'explain'>): boolean => result.explain.gate.silencedBy?.rule === 'diary-missing';

/**
 * The result of a recall silenced before any stage ran (RecallDeps.silenced: the diary folder is
 * gone): no hits, and the reason where every silenced recall carries it, explain.gate.silencedBy.
 */
export function silencedResult(input: { query: string; tokenizer: RecallResult['tokenizer']; silencedBy: SilenceExplanation; maxChars: number }): RecallResult {
  const why = `silenced: ${input.silencedBy.rule}`;
  return recallResultOf({
    query: input.query,
    tokenizer: input.tokenizer,
    tokens: [],
    hits: [],
    totalMs: 0,
    records: [
      {
        name: 'silenced',
        kept: 0,
        dropped: 0,
        listed: false,
        ms: 0,
        explain: {
          query: queryFacts({ distinctive: [], information: 0, idfAvailable: false, minIdf: 0 }),
          silencedBy: input.silencedBy,
          semantic: { ran: false, skipped: why, candidates: 0 },
          lexical: { candidates: 0 },
          k: { chosen: 0, reason: why },
          maxChars: { limit: input.maxChars, used: 0, truncatedItems: 0 },
        },
      },
    ],
  });
}
