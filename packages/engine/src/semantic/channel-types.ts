// The semantic channel's public shapes: its status, what a sync takes and reports, what a search
// and an integrity check answer, and how it is opened. channel.ts re-exports every one of them.
import type { EngramConfig } from '../config/schema.ts';
import type { Client } from '@libsql/client';
import type { ChunkParams, EmbeddingFingerprint } from './fingerprint.ts';

export interface SemanticStatus {
  state: 'off' | 'ready' | 'mismatch' | 'error';
  /** Why the channel is not ready (null when ready). */
  reason: string | null;
  /** What the user can do about it. */
  action: string | null;
  provider: EngramConfig['embedding']['provider'];
  /** What the current configuration produces. */
  fingerprint: EmbeddingFingerprint | null;
  /** What the stored vectors were built with. */
  storedFingerprint: EmbeddingFingerprint | null;
  vectors: number;
  dimensions: number;
  lastError: string | null;
  /** Batches given up since the channel opened. */
  degradedBatches: number;
  /** Non-fatal differences (chunk parameters) that make a rebuild worthwhile. */
  advice: string[];
  /** Stored vectors were windowed otherwise than the settings now window chunks: the next index run syncs every chunk. */
  outdated?: boolean;
}

export interface SyncChunk {
  id: string;
  text: string;
  /** Hash of the text: a stored vector is reused while it is unchanged. */
  fingerprint: string;
}

export interface SyncOptions {
  mode: 'full' | 'incremental';
  /** Chunk ids whose vectors go (incremental). */
  removedIds?: string[];
  /** Documents deleted: every vector of their chunks goes (incremental). */
  removedDocIds?: string[];
  /** Documents re-chunked: their vectors not among `chunks` go (incremental). */
  changedDocIds?: string[];
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * false: only drop what is stale (removed chunks, and the vectors of listed chunks whose text or
   * context changed) and embed nothing — the caller fills the vectors in later (`fill`), outside
   * its writer lock. The model is not loaded for it.
   */
  embed?: boolean;
}

/** A background fill (SemanticChannel.fill): embeds outside any lock, stores each batch through `commit`. */
export interface FillOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * Stores one batch: the caller takes its writer lock, reads these chunks as they are now (gone
   * ones left out) and hands them to `write`, which keeps the vectors whose chunk is unchanged.
   * Resolves to how many were stored.
   */
  commit: (ids: string[], write: (current: SyncChunk[]) => Promise<number>) => Promise<number>;
}

export interface DegradedBatch {
  index: number;
  /** Chunks left without a vector by this batch. */
  size: number;
  reason: string;
}

export interface SyncResult {
  embedded: number;
  reused: number;
  removed: number;
  degradedBatches: DegradedBatch[];
  /** Set when nothing was embedded because the channel is not ready (off / error / mismatch). */
  skipped: string | null;
  /** The signal fired before every batch was handled. */
  aborted: boolean;
}

export interface SemanticHit {
  chunkId: string;
  /** Cosine similarity. */
  score: number;
  /** 1-based. */
  rank: number;
}

/** The query's cosine against a fixed sample of the corpus: what an unrelated chunk scores for this query and model. */
export interface CosineBackground {
  mean: number;
  std: number;
  n: number;
}

export type SemanticSearchResult =
  | {
      ran: true;
      hits: SemanticHit[];
      ms: number;
      background?: CosineBackground;
      model?: string;
      /** Set while vectors are still being filled in: only the chunks that have one could be found. */
      partial?: string;
    }
  | { ran: false; skipped: string };

export interface IntegrityReport {
  /** Sample chunks re-embedded and compared (chunks without a stored vector are skipped). */
  checked: number;
  minCos: number;
  ok: boolean;
  failures: { id: string; cos: number }[];
  /** Why some or all of the sample could not be checked. */
  errors: string[];
  /** The floor a sample had to reach (INTEGRITY_MIN_COS for this embedder). */
  threshold?: number;
}

export type SemanticLog = (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

export interface SemanticChannelOptions {
  client: Client;
  embedding: EngramConfig['embedding'];
  chunk: ChunkParams;
  log?: SemanticLog;
  fetchImpl?: typeof fetch;
  /** Wall-clock limit of a query embedding (default min(embedding.timeoutMs, 5000)). */
  queryTimeoutMs?: number;
  /** First retry wait when the server gives none (default 500 ms, doubling). */
  backoffBaseMs?: number;
  /** A Retry-After longer than this gives the batch up instead of stalling (default 120 s). */
  maxRetryWaitMs?: number;
  /** Share big scans with a helper thread (default true). */
  parallelSearch?: boolean;
  /** Data directory: where a local model's runtime may be installed. */
  dataDir?: string;
  /** Per document of these chunks, the lines embedded in front of each chunk (title, summary, tags). */
  contextOf?: (chunkIds: string[]) => Promise<Map<string, string>>;
  /** When the model (and the stored vectors) load; see ModelLoading. */
  model?: ModelLoading;
  /**
   * The model is Engram's choice (`embedding.provider: auto`), not the user's: when the stored
   * vectors came from another model, back them up and embed again instead of asking for a rebuild.
   */
  rebuildOnModelChange?: boolean;
}

/**
 * When the embedding model loads. `at-open` (long-lived hosts): when the channel opens. `on-demand`
 * (one-shot commands): on the first search, integrity check or sync with something to embed, so a
 * command that never needs a vector never pays for the model. `embedLater`: syncs only drop stale
 * vectors; new chunks are embedded by whoever holds the index (the plugin, the console) or `engram index`.
 */
export interface ModelLoading {
  load: 'at-open' | 'on-demand';
  embedLater?: boolean;
  /**
   * Where a local model runs. `main` (default): in this thread. `worker`: in a worker that loads and
   * runs it (semantic/worker-embedder.ts), so a host's event loop never waits on the ONNX runtime;
   * the worker is ended after `idleMs` without an embed request and started again by the next one.
   */
  thread?: 'main' | 'worker';
  /**
   * `worker` only: a worker thread (default) or a child process. A process gives all of the model's
   * memory back when it ends, a thread only part (docs/benchmarks.md); a process costs a second Node
   * runtime (~40 MB) while it runs.
   */
  isolation?: 'thread' | 'process';
  /** `worker` only: idle time before the worker ends (default 10 minutes; 0 = never). */
  idleMs?: number;
}
