// What a set of stored vectors was built with, and whether a new embedding setup can keep using
// them. Vectors from another model, endpoint or dimension live in a different space: comparing a
// query against them gives confident nonsense, so those changes switch the semantic channel off
// until a rebuild. Chunk parameters only change which texts exist; vectors stay comparable.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngramConfig } from '../config/schema.ts';
import { filesKey, MODEL_META_FILE, type InstalledModelMeta } from '../model/manifest.ts';
import { DEFAULT_WINDOWING, poolingFor } from './local-embedder.ts';

export interface EmbeddingFingerprint {
  provider: string;
  model: string;
  /** OpenAI-compatible: the base URL without credentials or query; local: the model directory. */
  endpoint: string;
  /** 0 = not known yet (taken from the first response). */
  dimensions: number;
  chunkSize: number;
  chunkOverlap: number;
  /** Local models: 'cls' or 'mean' (vectors pooled differently live in different spaces); '' for remote models. */
  pooling: string;
  /**
   * Local models installed by Engram: the key of the weights' pinned hashes (model/manifest.ts), so
   * the same model read from another folder (the shared cache) is known to be the same. Absent for
   * folders without Engram's metadata and for vectors stored before it was recorded.
   */
  modelKey?: string;
  /**
   * Local models: how a chunk is cut into model windows, `tokens/overlap/all|first`
   * (windowingKey). Absent for remote models and for vectors stored before it was recorded (those
   * were embedded with LEGACY_WINDOWING). Vectors windowed differently stay in the same space, so
   * a change is not fatal: the next index run re-embeds every chunk (per-chunk fingerprints change).
   */
  windowing?: string;
}

/** Chunk settings that shape the stored vectors (config `chunk`). */
export interface ChunkParams {
  size: number;
  overlap: number;
  windowTokens?: number;
  windowOverlap?: number;
  embed?: 'header+body' | 'body' | 'header+first-window';
}

/** The windowing every local vector stored before it was recorded was embedded with. */
export const LEGACY_WINDOWING = '512/64/all';

/** The windowing key of chunk settings (defaults filled in). */
export function windowingKey(chunk: ChunkParams): string {
  const tokens = chunk.windowTokens ?? DEFAULT_WINDOWING.tokens;
  const overlap = chunk.windowOverlap ?? DEFAULT_WINDOWING.overlap;
  return `${tokens}/${overlap}/${chunk.embed === 'header+first-window' ? 'first' : 'all'}`;
}

export interface FingerprintComparison {
  /** The stored vectors cannot be used with the proposed setup. */
  fatal: boolean;
  reasons: string[];
  /** Non-fatal differences that make a rebuild worthwhile. */
  advise: string[];
}

export type EmbeddingConfig = EngramConfig['embedding'];

/** Strips credentials, query, fragment and trailing slashes: the key must never end up stored. */
export function normaliseEndpoint(url: string): string {
  const trimmed = url.trim();
  if (!trimmed) return '';
  try {
    const u = new URL(trimmed);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return trimmed.replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
}

/** The name a local model is known by: the configured model name, else its directory name. */
export function localModelName(embedding: EmbeddingConfig): string {
  if (embedding.model.trim()) return embedding.model.trim();
  const dir = embedding.modelDir.trim().replace(/[\\/]+$/, '');
  return dir.split(/[\\/]/).pop() ?? '';
}

/** hidden_size from a local model's config.json, 0 when unreadable. */
export function localModelDimensions(modelDir: string): number {
  try {
    const file = join(resolve(modelDir), 'config.json');
    if (!existsSync(file)) return 0;
    const cfg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const n = Number(cfg.hidden_size ?? cfg.d_model ?? cfg.dim ?? 0);
    return Number.isInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** The weights' key of a model folder installed by Engram ('' when it has no metadata). */
export function localModelKey(modelDir: string): string {
  try {
    const meta = JSON.parse(readFileSync(join(resolve(modelDir), MODEL_META_FILE), 'utf8')) as Partial<InstalledModelMeta>;
    return Array.isArray(meta.files) && meta.files.length > 0 ? filesKey(meta.files) : '';
  } catch {
    return '';
  }
}

/**
 * The fingerprint a configuration would produce. `dimensions` overrides the configured value (the
 * channel passes what the model or the stored vectors actually have).
 */
export function fingerprintOf(embedding: EmbeddingConfig, chunk: ChunkParams, dimensions?: number): EmbeddingFingerprint {
  const provider = embedding.provider;
  const base = { provider, chunkSize: chunk.size, chunkOverlap: chunk.overlap };
  if (provider === 'openai') {
    return { ...base, model: embedding.model.trim(), endpoint: normaliseEndpoint(embedding.baseUrl), dimensions: dimensions ?? embedding.dimensions, pooling: '' };
  }
  if (provider === 'local') {
    const dir = embedding.modelDir.trim() ? resolve(embedding.modelDir.trim()) : '';
    const dims = dimensions ?? (embedding.dimensions || (dir ? localModelDimensions(dir) : 0));
    const model = localModelName(embedding);
    const modelKey = dir ? localModelKey(dir) : '';
    return {
      ...base,
      model,
      endpoint: dir,
      dimensions: dims,
      pooling: poolingFor(embedding.pooling ?? 'auto', dir, model),
      ...(modelKey ? { modelKey } : {}),
      windowing: windowingKey(chunk),
    };
  }
  return { ...base, model: '', endpoint: '', dimensions: 0, pooling: '' };
}

/** The shared judgement of the three gates (start-up, rebuild, settings save). Pure. */
export function compareFingerprints(stored: EmbeddingFingerprint | null, proposed: EmbeddingFingerprint): FingerprintComparison {
  const reasons: string[] = [];
  const advise: string[] = [];
  // Nothing stored, or nothing to compare against (provider none keeps the old vectors untouched).
  if (!stored || proposed.provider === 'none') return { fatal: false, reasons, advise };
  if (stored.provider !== proposed.provider) reasons.push(`embedding provider changed: ${stored.provider} → ${proposed.provider}`);
  if (stored.model !== proposed.model) reasons.push(`embedding model changed: ${stored.model || '(none)'} → ${proposed.model || '(none)'}`);
  const sameWeights = sameLocalWeights(stored, proposed);
  if (sameWeights === false) reasons.push(`embedding model weights changed: ${stored.modelKey} → ${proposed.modelKey}`);
  if (stored.endpoint !== proposed.endpoint && sameWeights !== true) reasons.push(`embedding endpoint changed: ${stored.endpoint || '(none)'} → ${proposed.endpoint || '(none)'}`);
  if (stored.pooling !== proposed.pooling) reasons.push(`embedding pooling changed: ${stored.pooling || '(none)'} → ${proposed.pooling || '(none)'}`);
  if (stored.dimensions > 0 && proposed.dimensions > 0 && stored.dimensions !== proposed.dimensions) {
    reasons.push(`embedding dimensions changed: ${stored.dimensions} → ${proposed.dimensions}`);
  }
  if (windowingChanged(stored, proposed)) {
    advise.push(`model windows changed: ${storedWindowing(stored)} → ${proposed.windowing}; the next index run embeds every chunk again (the old vectors serve until then)`);
  }
  if (stored.chunkSize !== proposed.chunkSize || stored.chunkOverlap !== proposed.chunkOverlap) {
    advise.push(
      `chunk parameters changed: size ${stored.chunkSize}/overlap ${stored.chunkOverlap} → ${proposed.chunkSize}/${proposed.chunkOverlap}; a rebuild re-chunks the corpus`,
    );
  }
  return { fatal: reasons.length > 0, reasons, advise };
}

/** A local fingerprint's windowing (LEGACY_WINDOWING when it predates the field); '' for remote ones. */
export const storedWindowing = (f: EmbeddingFingerprint): string => (f.provider === 'local' ? (f.windowing ?? LEGACY_WINDOWING) : '');

/** Whether stored local vectors were windowed otherwise than the proposed setup windows them. */
export function windowingChanged(stored: EmbeddingFingerprint | null, proposed: EmbeddingFingerprint): boolean {
  if (!stored || stored.provider !== 'local' || proposed.provider !== 'local') return false;
  return storedWindowing(stored) !== storedWindowing(proposed);
}

/** Last two parts of a folder path (`BAAI/bge-small-zh-v1.5`): the model id of an Engram install. */
const modelIdOfDir = (dir: string) => dir.split(/[\\/]+/).filter(Boolean).slice(-2).join('/');

/**
 * Whether two local fingerprints name the same weights: true / false when known, null when it
 * cannot be told (then the folder decides, as before). Vectors stored before the weights' key was
 * recorded came from an Engram install (metadata present now) when the model id folder is the same.
 */
function sameLocalWeights(stored: EmbeddingFingerprint, proposed: EmbeddingFingerprint): boolean | null {
  if (stored.provider !== 'local' || proposed.provider !== 'local') return null;
  if (stored.modelKey && proposed.modelKey) return stored.modelKey === proposed.modelKey;
  if (!stored.modelKey && proposed.modelKey && stored.model === proposed.model && modelIdOfDir(stored.endpoint) === modelIdOfDir(proposed.endpoint)) return true;
  return null;
}

export const canonical = (f: EmbeddingFingerprint): EmbeddingFingerprint => ({
  provider: f.provider,
  model: f.model,
  endpoint: f.endpoint,
  dimensions: f.dimensions,
  chunkSize: f.chunkSize,
  chunkOverlap: f.chunkOverlap,
  pooling: f.pooling,
  ...(f.modelKey ? { modelKey: f.modelKey } : {}),
  ...(f.windowing ? { windowing: f.windowing } : {}),
});

/** Parses a stored fingerprint; null when absent or malformed. */
export function parseFingerprint(json: string | null | undefined): EmbeddingFingerprint | null {
  if (!json) return null;
  try {
    const o = JSON.parse(json) as Partial<EmbeddingFingerprint>;
    if (typeof o.provider !== 'string' || typeof o.model !== 'string' || typeof o.endpoint !== 'string') return null;
    return canonical({
      provider: o.provider,
      model: o.model,
      endpoint: o.endpoint,
      dimensions: Number(o.dimensions) || 0,
      chunkSize: Number(o.chunkSize) || 0,
      chunkOverlap: Number(o.chunkOverlap) || 0,
      // Vectors stored before pooling was recorded: local ones were mean-pooled (the old hard-coded choice).
      pooling: typeof o.pooling === 'string' ? o.pooling : o.provider === 'local' ? 'mean' : '',
      ...(typeof o.modelKey === 'string' && o.modelKey ? { modelKey: o.modelKey } : {}),
      ...(typeof o.windowing === 'string' && o.windowing ? { windowing: o.windowing } : {}),
    });
  } catch {
    return null;
  }
}
