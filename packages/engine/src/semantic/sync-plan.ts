// What a sync has to do, worked out before anything is embedded: which stored vectors go, which
// chunks keep theirs, which borrow one already embedded for the same text, and which are embedded in
// which batch. Pure: the channel reads the index and writes the result.
import type { SyncChunk, SyncOptions } from './channel-types.ts';
import { docIdOfChunk } from './chunk-id.ts';
import type { StoredVector } from './vector-store.ts';

/** What the plan needs of the in-memory index. */
export interface IndexView {
  idList(): string[];
  fingerprintOf(id: string): string | undefined;
  vectorOf(id: string): Float32Array | undefined;
}

/**
 * The stored vectors to drop: `removedIds`, and of the `present` ids those not among `chunks` — all
 * of them in a full sync, those of removed or re-chunked documents in an incremental one.
 */
export async function staleIds(chunks: readonly SyncChunk[], opts: SyncOptions, present: () => Promise<string[]> | string[]): Promise<string[]> {
  const stale: string[] = [...(opts.removedIds ?? [])];
  const byDoc = new Set([...(opts.removedDocIds ?? []), ...(opts.changedDocIds ?? [])]);
  if (opts.mode !== 'full' && byDoc.size === 0) return stale;
  const listed = new Set(chunks.map((c) => c.id));
  for (const id of await present()) {
    if (listed.has(id)) continue;
    if (opts.mode === 'full' || byDoc.has(docIdOfChunk(id))) stale.push(id);
  }
  return stale;
}

export interface ReusePlan {
  /** Chunks whose stored vector is still theirs (same id, same fingerprint). */
  reused: number;
  /** Chunks whose text is already embedded under another id (a moved document): that vector, copied. */
  copies: StoredVector[];
  /** Chunks to embed, grouped by fingerprint (one embedding per distinct text). */
  groups: Map<string, SyncChunk[]>;
}

/** Reuse: same id and fingerprint, or the same text already embedded under another id. */
export function planReuse(chunks: readonly SyncChunk[], index: IndexView | null): ReusePlan {
  const plan: ReusePlan = { reused: 0, copies: [], groups: new Map() };
  const byFingerprint = new Map<string, string>();
  if (index) for (const id of index.idList()) byFingerprint.set(index.fingerprintOf(id) as string, id);
  for (const c of chunks) {
    if (index?.fingerprintOf(c.id) === c.fingerprint) {
      plan.reused++;
      continue;
    }
    const donor = byFingerprint.get(c.fingerprint);
    const vector = donor !== undefined ? index?.vectorOf(donor) : undefined;
    if (vector) {
      plan.copies.push({ id: c.id, fingerprint: c.fingerprint, vector });
      continue;
    }
    const group = plan.groups.get(c.fingerprint);
    if (group) group.push(c);
    else plan.groups.set(c.fingerprint, [c]);
  }
  return plan;
}

/** Batches of text groups, longest texts first: a batch is padded to its longest text, so similar lengths go together. */
export function batchesOf(groups: Map<string, SyncChunk[]>, batchSize: number): SyncChunk[][][] {
  const unique = [...groups.values()].sort((a, b) => (b[0] as SyncChunk).text.length - (a[0] as SyncChunk).text.length);
  const size = Math.max(1, batchSize);
  const batches: SyncChunk[][][] = [];
  for (let i = 0; i < unique.length; i += size) batches.push(unique.slice(i, i + size));
  return batches;
}

/** How many chunks a batch of groups stands for. */
export const chunkCount = (batch: SyncChunk[][]): number => batch.reduce((n, g) => n + g.length, 0);
