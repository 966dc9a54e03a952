import type { Evidence, QueryEvidence } from './hybrid-gate.ts';
// The shapes a recall produces. Every stage records what it kept, dropped and why, so a recall can
// always explain itself (CLI --json, console Recall debug, plugin logs all print these).

export interface QueryToken {
  token: string;
  /** IDF over the live chunk set; 0 when unknown. */
  idf: number;
  /** The weight it ranks with in the words' channel: single CJK characters less, words with no CJK character more (recall/scoring.ts). */
  weight: number;
  /** Counts for the distinctive-term gate (length and IDF thresholds). */
  distinctive: boolean;
  /** Added by an alias group rather than typed in the query. */
  fromAlias: boolean;
  /** The word as the query writes it, when the term differs (an English word stemmed or lower-cased: redis → redi, getUserProfile; Chinese in traditional characters: 會議室 → 会议室). */
  written?: string;
}

export interface ChannelScore {
  rank: number;
  score: number;
}

export interface MatchedTerm {
  token: string;
  /** The rarity the gates read (recall/term-rarity.ts); the store's plain IDF is `storeIdf` when they differ. */
  idf: number;
  fields: string[];
  /** The store's IDF of the word (what BM25 ranked with). */
  storeIdf?: number;
  /** Where the gates' `idf` came from: the store's counts (near duplicates once), the language table, or both. */
  idfSource?: 'store' | 'language' | 'blend';
}

/** Which memory a hit (or a candidate) belongs to. */
export interface DocMeta {
  docId: string;
  root: 'diary' | 'legacy';
  /** File path relative to its root. */
  path: string;
  title: string;
  date: string;
  category: string;
  tags: string[];
  /** Workspace id or 'global'. */
  workspace: string;
  /** The session that wrote it, when known. */
  sessionId: string | null;
  /** Who wrote it: agent, console, cli, import, or '' (hand-written / unknown). */
  origin: string;
  pinned: boolean;
  locked: boolean;
  /** A newer memory replaces this one: it stays, ranked down. */
  supersededBy: string | null;
  /** What sort of memory: fact / pref / lesson / task / proj (aliases folded), another word as written, '' = not said. */
  kind: string;
  /** What the memory is meant to achieve (one line), '' = none. */
  goal: string;
}

export interface RecallHit extends DocMeta {
  chunkId: string;
  /** Final score after fusion and decay (what the order is by). */
  score: number;
  channels: {
    lexical: ChannelScore | null;
    semantic: ChannelScore | null;
    /** Weighted reciprocal-rank fusion before decay. */
    fused: number;
    /** Time-decay multiplier applied to `fused`. */
    decay: number;
    /** Share of the query's character pairs this memory repeats, added to the score (recall/phrase.ts); null = not read. */
    phrase: number | null;
  };
  matched: MatchedTerm[];
  /** Share of the query's weight explained by the matched tokens. */
  coverage: number;
  /** Other chunks of the same document that also matched and were folded into this hit. */
  folded: number;
  /** Near-duplicate notes folded into this hit ("also noted N times"); absent when there are none. */
  duplicates?: number;
  /** The chunk text that would be injected. */
  text: string;
  /** The hybrid gate's features and probability (when the semantic channel ran). */
  evidence?: Evidence;
  /** Where the hit comes from relative to the recall's workspace ('all' when the recall was not scoped). */
  scope: 'workspace' | 'global' | 'all';
}

export type GateName = 'distinctive-term' | 'coverage' | 'specificity' | 'vague-query' | 'semantic-min' | 'semantic-required' | 'hybrid' | 'judge' | 'no-distinctive-query';

export interface GateRemoval {
  gate: GateName;
  chunkId: string;
  docId: string;
  title: string;
  detail: string;
  /** The hybrid gate's features and probability for this candidate (when the semantic channel ran). */
  evidence?: Evidence;
}

export interface RedundantExplanation {
  chunkId: string;
  title: string;
  coveredBy: string;
  coveredByTitle: string;
  /** How many of its sentences matched the query. */
  sentences: number;
}

/** A candidate the hybrid gate kept below its bar because the question names it by title (recall/scoring.ts titleNamedBy). */
export interface NamedKeepExplanation {
  chunkId: string;
  title: string;
  p: number;
  bar: number;
}

export interface RecallExplanation {
  /** Candidate counts after each stage (the pipeline's stage records, in order; `ms` = the stage's time). */
  stages: { name: string; kept: number; dropped: number; note?: string; ms?: number }[];
  gate: {
    removed: number;
    byGate: Partial<Record<GateName, number>>;
    removals: GateRemoval[];
    /** Tokens that counted as distinctive for this query. */
    distinctiveTokens: string[];
    noDistinctiveTokens: boolean;
    /** Sum of the general-language weights of the query's words (the vague-query gate's measure). */
    queryInformation: number;
    /** When the IDF table is unavailable the distinctive gate falls back to length only. */
    idfAvailable: boolean;
    /** The IDF a query token needed to count as distinctive (capped in small corpora). */
    idfThreshold: number;
    /** When candidates existed and none was kept, or the engine read none (diary-missing): the rule that silenced the query. */
    silencedBy?: SilenceExplanation | null;
    /** The query-level gate's probability, its bar, what it read (recall/hybrid-gate.ts QueryEvidence) and why it let a question below the bar through (hybrid recall). */
    queryGate?: { p: number; threshold: number; features: QueryEvidence; overriddenBy?: 'channels agree' } | null;
    /** Candidates the hybrid gate kept below their bar because the question names them by title. */
    namedByQuery?: NamedKeepExplanation[];
  };
  /** Each query word: its weight in coverage and where it came from, and the rarity the gates read. */
  terms?: TermExplanation[];
  /** Near-duplicate notes among the candidates, each group shown once. */
  nearDuplicates?: NearDuplicateGroupExplanation[];
  /**
   * Candidates moved after the others because one ranked above already holds every sentence of theirs
   * that matches the query (recall/redundancy.ts): `coveredBy` is that candidate's chunk.
   */
  redundant?: RedundantExplanation[];
  /** The query's language (by script) and the semantic fusion weight it chose (recall/channel-weights.ts). */
  language?: LanguageExplanation;
  /** `partial`: the channel ran while vectors were still being filled in (N of M chunks have one). */
  semantic: { ran: boolean; skipped: string | null; candidates: number; background?: { mean: number; std: number; n: number } | null; partial?: string | null };
  lexical: { candidates: number };
  judge: { applied: boolean; dropped: number; reason: string | null; ms: number } | null;
  k: { chosen: number; reason: string };
  maxChars: { limit: number; used: number; truncatedItems: number };
  /** The time channel: null when the query names no day (or the channel is off). */
  time?: TimeExplanation | null;
}

export interface SilenceExplanation {
  /**
   * The query-level rule (no-distinctive-query, vague-query, query-gate), 'every-candidate' when the
   * candidate gates removed all, or 'diary-missing' when the engine read nothing: its diary folder is
   * gone (deleted, its drive unmounted), and the index of files that are not there is not shown.
   */
  rule: 'no-distinctive-query' | 'vague-query' | 'query-gate' | 'every-candidate' | 'diary-missing';
  detail: string;
}

export interface TermExplanation {
  token: string;
  /** Its share-weight in coverage and query information (0: not counted). */
  weight: number;
  /** 'language': jieba's general table; 'unknown-word': absent from the table, weighed as a name; 'store': corpus IDF (no table); 'none': not counted. */
  weightSource: 'language' | 'unknown-word' | 'store' | 'none';
  /** Which general-language table gave the weight ('language' only): jieba's (zh) or the English one (en, SUBTLEX-US). */
  languageTable?: 'zh' | 'en';
  /** The rarity the gates read and its sources (recall/term-rarity.ts). */
  rarity: { idf: number; source: 'store' | 'language' | 'blend'; storeIdf: number; storeDf: number; groupedDf: number; languageIdf: number | null } | null;
  /** A word about the conversation in hand (text/talk-words.ts): searched, but not counted in the query's information. */
  talk?: true;
}

export interface LanguageExplanation {
  query: 'zh' | 'en' | 'mixed' | 'none';
  cjkChars: number;
  latinWords: number;
  /** The semantic channel's weight in fusion for this query. */
  semanticWeight: number;
  /** 'calibrated': the configured weight, judged by the hybrid gate (Chinese, mixed); 'reorder': English with the Chinese model, which only reorders what the words found (the gates judge by the words). */
  rule: 'calibrated' | 'reorder';
}

export interface NearDuplicateGroupExplanation {
  /** The chunk shown for the group. */
  kept: string;
  title: string;
  /** The other chunks of the group (not shown). */
  folded: string[];
}

/** What the time channel made of a query that names days (今天, 九天前, 10月6日, 上周三…). */
export interface TimeExplanation {
  /** The time words as found in the query. */
  matched: string;
  /** Local calendar days (YYYY-MM-DD) they stand for, in the data directory's time zone. */
  days: string[];
  /** Memories dated on those days (diary entries only: their date is when it happened). */
  memories: number;
  /** true: the hits are those days' memories; false: ordinary recall answered (see note). */
  applied: boolean;
  note: string | null;
  /** Sessions the answered memories came from (ids as recorded on them), in order of appearance. */
  sessions?: string[];
}

export interface RecallResult {
  query: string;
  tokenizer: 'jieba' | 'gram';
  tokens: QueryToken[];
  /** Exactly what would be injected; empty when the gates decide to inject nothing. */
  hits: RecallHit[];
  explain: RecallExplanation;
  timing: {
    totalMs: number;
    tokenizeMs: number;
    lexicalMs: number;
    semanticMs: number;
    fuseMs: number;
    gateMs: number;
    judgeMs: number;
    /** Every stage the recall ran, in order, with its time (the fields above sum them by kind). */
    stages?: { name: string; ms: number }[];
  };
}
