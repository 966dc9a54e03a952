// The per-query cosine background: the query's cosine distribution over a fixed, evenly spread sample
// of stored chunks. Nearly all of them are unrelated to any one query, so this is what "unrelated"
// scores for this model, corpus and query: the gates measure a hit's cosine against it instead of
// against a constant. Pure: the channel keeps the sample and embeds the reference texts.
import type { CosineBackground } from './channel-types.ts';
import { cosine, normalise, type VectorIndex } from './vector-index.ts';

/** Chunks sampled for the per-query cosine background. */
export const BACKGROUND_SAMPLE = 256;
/** Below this many chunks the corpus sample is topped up with reference texts. */
export const SMALL_CORPUS = 64;

export interface BackgroundSample {
  vectors: Float32Array[];
  /** The index size the sample was drawn at. */
  forSize: number;
}

/** Whether a sample drawn at `sample.forSize` still stands for an index of `size` chunks. */
export function sampleIsCurrent(sample: BackgroundSample | null, size: number): sample is BackgroundSample {
  return sample !== null && Math.abs(sample.forSize - size) <= (size < SMALL_CORPUS ? 0 : Math.max(16, size * 0.2));
}

/** Every n-th stored vector in id order (copies), at most BACKGROUND_SAMPLE of them. */
export function drawSample(index: VectorIndex): BackgroundSample {
  const size = index.size;
  const ids = index.idList().sort();
  const step = Math.max(1, Math.floor(ids.length / BACKGROUND_SAMPLE));
  const vectors: Float32Array[] = [];
  for (let i = 0; i < ids.length && vectors.length < BACKGROUND_SAMPLE; i += step) {
    const v = index.vectorOf(ids[i] as string);
    if (v) vectors.push(Float32Array.from(v));
  }
  return { vectors, forSize: size };
}

/** Mean and spread of the query's cosine over `vectors`; undefined for a zero query or fewer than 8 vectors. */
export function backgroundStats(query: Float32Array, vectors: Float32Array[]): CosineBackground | undefined {
  const q = Float32Array.from(query);
  if (!normalise(q)) return undefined;
  if (vectors.length < 8) return undefined;
  let sum = 0;
  let sq = 0;
  for (const v of vectors) {
    const c = cosine(q, v);
    sum += c;
    sq += c * c;
  }
  const n = vectors.length;
  const mean = sum / n;
  const std = Math.sqrt(Math.max(1e-8, sq / n - mean * mean));
  return { mean, std, n };
}
