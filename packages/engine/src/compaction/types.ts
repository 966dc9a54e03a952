// Shapes shared by the compaction channel's modules.

/** L1 = the host's summary (conclusion level); L2 = what the folded range said, verbatim. */
export type BlockLayer = 'L1' | 'L2';
export type BlockKind = 'summary' | 'dialogue' | 'tool';

/** A block as extracted from one compaction, before it is stored. */
export interface DraftBlock {
  layer: BlockLayer;
  kind: BlockKind;
  title: string;
  keywords: string[];
  body: string;
  /** 16 hex digits of sha1 over title + body: the same block is never stored or injected twice. */
  fingerprint: string;
  /** First and last event seq the block came from (null for summary sections). */
  seqStart: number | null;
  seqEnd: number | null;
  /** Characters of the source before a recorded cut (tool results over maxToolResultChars); null = whole. */
  cutFrom: number | null;
}

/** A stored block of one session. */
export interface StoredBlock extends DraftBlock {
  id: string;
  workspace: string;
  sessionId: string;
  compactionId: string;
  ord: number;
  /** Keywords a model suggested at ingest (empty when model assistance is off or failed). */
  modelKeywords: string[];
  createdAt: string;
  injectedAt: string | null;
  deletedAt: string | null;
}

/** The slice of a host event the extractors read (see dsh-contract.md, Events). */
export interface TranscriptEvent {
  type: string;
  seq: number;
  data?: any;
}

/** Which session a memory belongs to: the session's workspace (its cwd) and its id. */
export interface SessionScope {
  workspace: string;
  sessionId: string;
}

/** What "look again" needs of a compacted session: its last question and the session's own model. */
export interface LookAgainState {
  question: string;
  mainRoute: { provider: string; model: string } | null;
  /** ISO time it was written. */
  at: string;
}
