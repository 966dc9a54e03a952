import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The part of @node-rs/jieba's `Jieba` class the tokenizer uses. */
export interface JiebaSegmenter {
  cut(sentence: string, hmm?: boolean): string[];
  cutForSearch(sentence: string, hmm?: boolean): string[];
  loadDict(dict: Uint8Array): void;
}

/** Returns a ready segmenter or throws; injectable so tests can simulate a missing native module. */
export type JiebaLoader = () => JiebaSegmenter;

/**
 * Loads @node-rs/jieba with its bundled dictionary. `require` (not a static import) keeps the
 * package optional at run time: when the native binary is missing, the throw is caught by the
 * caller, which falls back to 1-/2-grams instead of failing the whole engine at import time.
 */
export const loadBundledJieba: JiebaLoader = () => {
  const require = createRequire(import.meta.url);
  const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): JiebaSegmenter } };
  // The file itself, not dict.js: that module keeps both dictionaries (11 MB) in require's cache
  // for the life of the process, while the segmenter has its own copy once built.
  return Jieba.withDict(readFileSync(join(jiebaPackageDir(), 'dict.txt')));
};

/**
 * The folder @node-rs/jieba is installed in. Not `require.resolve('…/package.json')`: Turbopack (the
 * console's production build) rewrites that call into a bundler module number, and jieba failed
 * with "The "path" argument must be of type string" — the console then ran 1-/2-grams and
 * re-tokenised the index the CLI and the plugin had built with jieba. Node's own module API, reached
 * at run time, is out of the bundler's sight.
 */
export function jiebaPackageDir(): string {
  const nodeModule = process.getBuiltinModule?.('node:module') ?? { createRequire };
  const id = ['@node-rs', 'jieba', 'package.json'].join('/');
  const anchors = [import.meta.url, join(process.cwd(), 'package.json')];
  let lastError: unknown;
  for (const anchor of anchors) {
    try {
      const found: unknown = nodeModule.createRequire(anchor).resolve(id);
      if (typeof found === 'string') return dirname(found);
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('cannot find @node-rs/jieba');
}

type LoadResult = { ok: true; jieba: JiebaSegmenter } | { ok: false; reason: string };

// Loading the dictionary costs ~350 ms and ~80 MB, so the bundled segmenter is built once per process.
let bundled: LoadResult | undefined;

/** Loads (once for the bundled loader) and reports why loading failed instead of throwing. */
export function obtainJieba(loader: JiebaLoader = loadBundledJieba): LoadResult {
  if (loader === loadBundledJieba && bundled) return bundled;
  let result: LoadResult;
  try {
    result = { ok: true, jieba: loader() };
  } catch (error) {
    result = { ok: false, reason: `jieba unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (loader === loadBundledJieba) bundled = result;
  return result;
}

/** Frequency given to user words written without one: high enough that the word wins over its parts. */
const DEFAULT_USER_WORD_FREQ = 2000;

export interface UserDictResult {
  loaded: number;
  /** "line: problem" for lines that were skipped. */
  errors: string[];
}

// User words are added to the shared segmenter; remember what it already has so repeated
// tokenizers with the same config do not reload them.
const loadedLines = new WeakMap<JiebaSegmenter, Set<string>>();

/**
 * Adds user dictionary lines ("word [freq] [tag]") to the segmenter. Additions are process-wide
 * (the segmenter is shared); malformed lines are skipped and reported, never thrown.
 */
export function loadUserDict(jieba: JiebaSegmenter, lines: readonly string[]): UserDictResult {
  const known = loadedLines.get(jieba) ?? new Set<string>();
  loadedLines.set(jieba, known);
  const errors: string[] = [];
  const fresh: string[] = [];
  for (const raw of lines) {
    const parsed = parseUserDictLine(raw);
    if (parsed === null) continue;
    if ('error' in parsed) errors.push(`${raw.trim()}: ${parsed.error}`);
    else if (!known.has(parsed.line)) fresh.push(parsed.line);
  }
  if (fresh.length > 0) {
    try {
      jieba.loadDict(Buffer.from(fresh.join('\n') + '\n'));
      for (const line of fresh) known.add(line);
    } catch (error) {
      errors.push(`user dictionary rejected: ${error instanceof Error ? error.message : String(error)}`);
      return { loaded: 0, errors };
    }
  }
  return { loaded: fresh.length, errors };
}

/** null for blank/comment lines. */
export function parseUserDictLine(raw: string): { line: string } | { error: string } | null {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  const parts = trimmed.split(/\s+/);
  if (parts.length > 3) return { error: 'expected "word [freq] [tag]"' };
  const [word, freqText, tag] = parts as [string, string | undefined, string | undefined];
  if (freqText !== undefined && !/^\d+$/.test(freqText)) return { error: 'frequency must be a whole number' };
  const freq = freqText === undefined ? DEFAULT_USER_WORD_FREQ : Number(freqText);
  return { line: tag === undefined ? `${word} ${freq}` : `${word} ${freq} ${tag}` };
}
