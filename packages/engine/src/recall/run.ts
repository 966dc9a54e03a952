// One recall in progress: what the caller asked, what the engine offers (deps), and what earlier
// stages found that later ones read (the query analysis, the channels' hits, K, chunk texts). The
// candidates themselves travel from stage to stage through the runner (recall/stage.ts).
import type { EngramConfig } from '../config/schema.ts';
import type { LanguageGuess } from '../text/language.ts';
import type { RecallDeps, RecallOptions, SemanticSearchResult } from './deps.ts';
import type { ExplainPart } from './explain.ts';
import { visibleIn, type RecallScope } from './scope.ts';
import type { Stage } from './stage.ts';
import type { Candidate } from './scoring.ts';
import type { TermRarity } from './term-rarity.ts';
import type { MatchedTerm, QueryToken, RecallHit } from './types.ts';

export interface QueryAnalysis {
  tokens: QueryToken[];
  distinctive: Set<string>;
  idfAvailable: boolean;
  minIdf: number;
  /** General-language weight of each query word (coverage and the vague-query gate use it). */
  weights: Map<string, number>;
  /** Their sum without talk words (text/talk-words.ts): how much the query says. */
  information: number;
  /** How many words it is the sum of. */
  informationWords: number;
  /** The query's words about the conversation in hand, not counted in `information`. */
  talkWords: string[];
  aliasTokens: Set<string>;
  /** The query's language by script (text/language.ts): which channel weights and gate bars apply. */
  language: LanguageGuess;
}

export interface RecallRun {
  readonly deps: RecallDeps;
  readonly query: string;
  readonly options: RecallOptions;
  readonly cfg: EngramConfig['recall'];
  readonly scope: RecallScope;
  /** The clock read once per recall, so every candidate decays against the same moment. */
  readonly now: Date;
  inScope(docId: string): boolean;
  titleOf(docId: string): string;
  /** Set by the tokenize stage. */
  analysis: QueryAnalysis;
  /** Set by the channel stages (their hits are not candidates yet: fuse makes them so). */
  lexicalHits: { chunkId: string; docId: string; score: number; matched: MatchedTerm[] }[];
  semantic: SemanticSearchResult;
  semanticHits: { chunkId: string; docId: string; score: number }[];
  /** Set by fuse: an English query whose model (the Chinese one) only reorders what the words found (recall/channel-weights.ts). */
  reordered: boolean;
  /** Near-duplicate groups among the candidates (chunk ids, two or more each; set by the duplicates stage). */
  duplicateGroups: string[][];
  /** The gate rarity of each query word (set by the duplicates stage). */
  rarity: Map<string, TermRarity>;
  /** The corpus's highest possible IDF (the specificity and hybrid gates' scale). */
  maxIdf: number;
  /** Candidates left after one hit per document (select counts its drops from there). */
  collapsed: number;
  /** How many hits to inject (chosen with the candidate pool). */
  k: number;
  /** Chunk texts of the pool the judge and select read. */
  texts: Map<string, string>;
  /** What would be injected (set by select). */
  hits: RecallHit[];
}

/** A stage of the relevance pipeline: candidates and the recall in, candidates and a record out. */
export type RecallStage = Stage<Candidate, RecallRun, ExplainPart>;

export function newRun(deps: RecallDeps, query: string, options: RecallOptions): RecallRun {
  const scope: RecallScope = { workspace: options.workspace ?? null };
  return {
    deps,
    query,
    options,
    cfg: deps.config.recall,
    scope,
    now: (deps.now ?? (() => new Date()))(),
    inScope: (docId) => {
      const d = deps.doc(docId);
      return d !== undefined && visibleIn(scope, d.workspace);
    },
    titleOf: (docId) => deps.doc(docId)?.title ?? '',
    analysis: { tokens: [], distinctive: new Set(), idfAvailable: false, minIdf: 0, weights: new Map(), information: 0, informationWords: 0, talkWords: [], aliasTokens: new Set(), language: { language: 'none', cjkChars: 0, latinWords: 0 } },
    lexicalHits: [],
    semantic: { ran: false, skipped: 'not run' },
    semanticHits: [],
    reordered: false,
    duplicateGroups: [],
    rarity: new Map(),
    maxIdf: 0,
    collapsed: 0,
    k: 0,
    texts: new Map(),
    hits: [],
  };
}

/** Candidates searched per channel when a scope filters them afterwards: other workspaces' hits must not crowd ours out. */
export const SCOPED_OVERFETCH = 4;
