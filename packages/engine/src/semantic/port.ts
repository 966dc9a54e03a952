// What the engine needs from the semantic channel. semantic/channel.ts implements it.
import type { SemanticSearchResult } from '../recall/pipeline.ts';

export interface SemanticPortStatus {
  state: 'off' | 'ready' | 'mismatch' | 'error';
  reason: string | null;
  action: string | null;
  provider: string;
  fingerprint: unknown;
  vectors: number;
  dimensions: number;
  degradedBatches: number;
  /** The stored vectors were windowed otherwise than the settings now window chunks: sync every chunk. */
  outdated?: boolean;
}

export interface SemanticPort {
  status(): SemanticPortStatus;
  sync(
    chunks: { id: string; text: string; fingerprint: string }[],
    opts: {
      mode: 'full' | 'incremental';
      removedDocIds?: string[];
      changedDocIds?: string[];
      onProgress?: (done: number, total: number) => void;
      signal?: AbortSignal;
    },
  ): Promise<{ embedded: number; reused: number; removed: number; degradedBatches: unknown[] }>;
  search(query: string, limit: number, opts?: { signal?: AbortSignal }): Promise<SemanticSearchResult>;
  /** Whether this chunk has a vector (a chunk without one cannot be judged by the semantic gates). */
  hasVector?(chunkId: string): boolean;
  /** Before a full rebuild: back up and clear the vectors when they cannot be reused. */
  prepareRebuild?(): Promise<unknown>;
  integrityCheck(sample: { id: string; text: string }[]): Promise<{ checked: number; minCos: number; ok: boolean }>;
  close(): void;
}
