// What a recall reads of the engine (channels, documents, chunk texts, the judge, the time channel)
// and the options a caller passes. Kept apart from pipeline.ts so the stage files can name them
// without importing the pipeline that imports them.
import type { EngramConfig } from '../config/schema.ts';
import type { TimeChannelDeps } from '../timeq/types.ts';
import type { Tokenizer } from '../types.ts';
import type { DocMeta, MatchedTerm, SilenceExplanation } from './types.ts';

export interface LexicalSearcher {
  readonly size: number;
  idf(token: string): number;
  hasIdf(): boolean;
  /** `weights`: the query-side weight of the tokens it names (lexical/bm25.ts). */
  search(tokens: string[], limit: number, weights?: ReadonlyMap<string, number>): { chunkId: string; docId: string; score: number; matched: MatchedTerm[] }[];
}

export type SemanticSearchResult =
  | { ran: true; hits: { chunkId: string; score: number; rank: number }[]; ms: number; background?: { mean: number; std: number; n: number }; /** The embedding model's name (its fitted gates apply to it only). */ model?: string; /** Vectors are still being filled in: only chunks with one could be found (N of M). */ partial?: string }
  | { ran: false; skipped: string };

export interface SemanticSearcher {
  search(query: string, limit: number, opts?: { signal?: AbortSignal }): Promise<SemanticSearchResult>;
  hasVector?(chunkId: string): boolean;
}

export interface JudgeVerdict {
  applied: boolean;
  reason: string | null;
  /** chunkIds the judge dropped, with their probability. */
  dropped: { chunkId: string; probability: number | null }[];
}

export type Judge = (query: string, candidates: { chunkId: string; title: string; text: string }[]) => Promise<JudgeVerdict>;

export interface RecallDeps {
  config: EngramConfig;
  tokenizer: Tokenizer;
  lexical: LexicalSearcher;
  doc(docId: string): DocMeta | undefined;
  docOfChunk(chunkId: string): string | undefined;
  semantic: SemanticSearcher | null;
  chunkTexts(chunkIds: string[]): Promise<Map<string, string>>;
  judge?: Judge | null;
  now?: () => Date;
  /** The time channel's view of the corpus; absent = no time channel. */
  time?: TimeChannelDeps | null;
  /** Why nothing may be recalled now, whatever the query (the diary folder is gone): no stage runs. Absent/null = recall. */
  silenced?: SilenceExplanation | null;
}

export interface RecallOptions {
  k?: number;
  /** Debug: run one channel only. Excluding a channel names the *other* one (pitfall #13). */
  only?: 'lexical' | 'semantic';
  signal?: AbortSignal;
  /** false: ignore time words in the query (no time channel for this recall). */
  time?: boolean;
  /** The recall's workspace: it sees that workspace's memories and global ones. Absent/null = all. */
  workspace?: string | null;
  /**
   * 'off': the relevance gates and the judge stand aside and the ranking is returned as it is (a
   * search that asks to see past the filter; the explanation says so). Default 'on'.
   */
  gates?: 'on' | 'off';
  /**
   * false: the query-level gates (the hybrid one and lexical recall's) stand aside and the candidate
   * gates judge alone — for a question completed from the conversation (a follow-up asked again with
   * the person's previous message): its words are two messages', so how much of "the question" a
   * note repeats reads low although the conversation is about that note. Default true.
   */
  queryGate?: boolean;
  /**
   * 'search': the words were typed as a search (a memory tool, a search box), never as small talk, so
   * the words about the conversation count (text/talk-words.ts) and one English word alone may ask
   * (recall.english.minLoneWordInformation stands aside): "revert" or "password" searched alone find
   * their notes. Default 'message': a person's message, which may be small talk.
   */
  typedAs?: 'message' | 'search';
}
