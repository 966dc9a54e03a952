// What the channel needs from an embedding backend: one attempt at one batch.
import { EmbeddingFault } from './embedding-fault.ts';

export interface EmbedOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Queries may get an instruction prefix (local models that were trained with one); documents never do. */
  purpose?: 'query' | 'document';
}

export interface Embedder {
  readonly provider: 'openai' | 'local';
  readonly model: string;
  /** As in the fingerprint: normalised base URL, or the model directory. */
  readonly endpoint: string;
  /** Known dimension (configured or probed); null until the first vector arrives. */
  readonly dimensions: number | null;
  /** Remote embedders go through pacing and retries; local ones run one batch at a time. */
  readonly remote: boolean;
  /**
   * Weights and activations quantised to 8 bits: a text's vector then moves a little with the
   * texts batched beside it (activations are quantised over the whole padded batch).
   */
  readonly quantised?: boolean;
  /** One attempt; throws EmbeddingFault. `timeoutMs` bounds the whole attempt (wall clock). */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
  dispose?(): Promise<void> | void;
}

/** Checks count, length and finiteness; every embedder's output passes through this. */
export function validateVectors(vectors: ArrayLike<number>[], count: number, dims: number | null, source: string): Float32Array[] {
  if (vectors.length !== count) throw new EmbeddingFault('bad-response', `${source} returned ${vectors.length} vectors for ${count} inputs`);
  const expected = dims ?? vectors[0]?.length ?? 0;
  const out: Float32Array[] = [];
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i] as ArrayLike<number>;
    if (v.length !== expected || v.length === 0) {
      throw new EmbeddingFault('dimensions', `${source} returned ${v.length}-dimensional vectors, expected ${expected}`);
    }
    const f = v instanceof Float32Array ? v : Float32Array.from(v);
    let norm = 0;
    for (let j = 0; j < f.length; j++) {
      const x = f[j] as number;
      if (!Number.isFinite(x)) throw new EmbeddingFault('bad-response', `${source} returned a non-finite value in vector ${i}`);
      norm += x * x;
    }
    if (norm === 0) throw new EmbeddingFault('bad-response', `${source} returned an all-zero vector for input ${i}`);
    out.push(f);
  }
  return out;
}
