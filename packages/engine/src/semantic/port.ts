// What the engine needs from the semantic channel. semantic/channel.ts implements it.
import type { SemanticSearchResult } from '../recall/pipeline.ts';
import type { FillOptions } from './channel-types.ts';

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
      /** false: drop what is stale, embed nothing (the vectors are filled in later by `fill`). */
      embed?: boolean;
    },
  ): Promise<{ embedded: number; reused: number; removed: number; degradedBatches: unknown[]; skipped?: string | null }>;
  /**
   * Embeds the chunks without a current vector outside any lock, storing each batch through
   * `opts.commit` (the caller's writer lock and re-check). A port without it embeds inside `sync`.
   */
  fill?(chunks: { id: string; text: string; fingerprint: string }[], opts: FillOptions): Promise<{ embedded: number; reused: number; removed: number; degradedBatches: unknown[]; skipped?: string | null; aborted?: boolean }>;
  search(query: string, limit: number, opts?: { signal?: AbortSignal }): Promise<SemanticSearchResult>;
  /** Whether this chunk has a vector (a chunk without one cannot be judged by the semantic gates). */
  hasVector?(chunkId: string): boolean;
  /** Before a full rebuild: back up and clear the vectors when they cannot be reused. */
  prepareRebuild?(): Promise<unknown>;
  integrityCheck(sample: { id: string; text: string }[]): Promise<{ checked: number; minCos: number; ok: boolean }>;
  close(): void;
}
