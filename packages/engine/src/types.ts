import type { MemoryMeta, SummarySource } from './diary/meta.ts';
// Shared shapes between the engine's modules. Each capability folder owns its logic; these are the
// contracts between them.

/** A parsed diary / legacy document, before indexing. */
export interface ParsedDocument {
  /** Which corpus root: writable diaries or the read-only legacy corpus. */
  root: 'diary' | 'legacy';
  /** Path relative to its root, forward slashes. */
  path: string;
  title: string;
  /** YYYY-MM-DD local date. */
  date: string;
  /** HH:MM anchor, null when missing. */
  time: string | null;
  /** Sub-folder path under the root ('' for the root itself). */
  category: string;
  summary: string;
  tags: string[];
  /** The body text that gets chunked (without the title line, summary paragraph and Tag line). */
  body: string;
  /** Whole file content as read. */
  raw: string;
  archived: boolean;
  /** Non-fatal problems: "<path>:<line>: message". */
  warnings: string[];
  /** Id embedded in the file name or front matter, if any. */
  embeddedId: string | null;
  /** Workspace, session, origin, pinned/locked, supersedes (see diary/meta.ts). */
  meta: MemoryMeta;
  summarySource: SummarySource;
  mtimeMs: number;
  size: number;
}

export type TokenizerKind = 'auto' | 'jieba' | 'gram';

export interface Tokenizer {
  /** The engine actually in use: 'jieba' or 'gram' (auto resolves to one of them). */
  readonly engine: 'jieba' | 'gram';
  /** Why auto/jieba fell back to gram, if it did. */
  readonly fallbackReason: string | null;
  /** Tokens for indexing and querying: lower-cased, stop words and punctuation removed. */
  tokenize(text: string): string[];
  /**
   * A hint that these texts are tokenized next: the on-demand jieba builds one dictionary for all of
   * them. 'bulk': many more follow (an index pass over many notes), so it builds the whole one now.
   */
  prepare?(texts: readonly string[], hint?: 'bulk'): void;
}

export interface Chunk {
  ord: number;
  text: string;
  start: number;
  end: number;
}
