import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectWordsIn, readWordIndex, subsetDictionary, wordIndexOf, type WordIndex } from './jieba-words.ts';

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

type JiebaClass = { withDict(dict: Uint8Array): JiebaSegmenter; new (): JiebaSegmenter };

/**
 * Text (in UTF-16 units) segmented with dictionary subsets before the whole dictionary is built:
 * a subset costs ~15 µs per character, the whole dictionary ~300 ms once, so a process that
 * tokenizes more than this (an index run, a console) builds the whole one.
 */
const SUBSET_BUDGET = 40_000;

export const WORD_INDEX_FILE = 'jieba-words.bin';

/** The compiled CLI's word index of the bundled dictionary (scripts/jieba-words.mjs writes it next to the bundle). */
let wordIndexPath: string | null = (() => {
  try {
    // Not `new URL('./…', import.meta.url)`: bundlers (Turbopack, in the console) treat that form as
    // an asset import and fail when the file is absent, which it is everywhere but the CLI bundle.
    return join(dirname(fileURLToPath(import.meta.url)), WORD_INDEX_FILE);
  } catch {
    return null;
  }
})();

/** Points the bundled jieba at another word index, or none (tests and benchmarks). */
export function setJiebaWordIndexPath(path: string | null): void {
  wordIndexPath = path;
  if (lazy) lazy.resetWords();
}

/**
 * The bundled jieba, built when first needed: loading the native module says whether jieba works
 * here (what `engram status` reports) without building its dictionary; the first texts are then
 * segmented with just the dictionary words they contain (jieba-words.ts), and the whole
 * dictionary is built once the texts add up to SUBSET_BUDGET. Output is the same either way.
 */
export class LazyBundledJieba {
  private full: JiebaSegmenter | null = null;
  private words: WordIndex | null | undefined = undefined;
  /** Why the word index is not used (diagnostics), once looked for. */
  wordsUnavailable: string | null = null;
  private budget = SUBSET_BUDGET;
  /** User dictionary lines added so far, in order: every segmenter handed out gets all of them. */
  private readonly userLines: string[] = [];
  private readonly userLineSet = new Set<string>();
  private userWordIds: Set<number> | null = null;

  constructor(
    private readonly Jieba: JiebaClass,
    private readonly dictPath: string,
  ) {}

  resetWords(): void {
    this.words = undefined;
    this.wordsUnavailable = null;
    this.userWordIds = null;
    this.subset = null;
  }

  /** Whether the whole dictionary has been built (tests and benchmarks). */
  get built(): boolean {
    return this.full !== null;
  }

  /** Adds user dictionary lines (process-wide, like the shared segmenter); bad lines are reported. */
  addUserDict(lines: readonly string[]): UserDictResult {
    const { fresh, errors } = freshUserDictLines(lines, this.userLineSet);
    if (fresh.length === 0) return { loaded: 0, errors };
    try {
      // Checked against an empty segmenter now, so a rejection is reported where it was before.
      new this.Jieba().loadDict(Buffer.from(`${fresh.join('\n')}\n`));
    } catch (error) {
      errors.push(`user dictionary rejected: ${error instanceof Error ? error.message : String(error)}`);
      return { loaded: 0, errors };
    }
    for (const line of fresh) {
      this.userLines.push(line);
      this.userLineSet.add(line);
    }
    this.userWordIds = null;
    this.subset = null;
    if (this.full) loadUserDict(this.full, fresh);
    return { loaded: fresh.length, errors };
  }

  /**
   * A segmenter that segments `text` exactly as the whole dictionary does. The last subset
   * segmenter is kept: a text whose dictionary words it already holds is segmented with it (extra
   * words change nothing for a text that does not contain them, and the filler keeps the total), so
   * texts prepared together (`prepare`) cost one build instead of one each.
   */
  segmenterFor(text: string): JiebaSegmenter {
    if (this.full) return this.full;
    const words = this.wordIndex();
    if (!words) return this.buildFull();
    const ids = new Set(this.userWords(words));
    collectWordsIn(words, text, ids);
    if (this.subset && [...ids].every((id) => this.subset!.ids.has(id))) return this.subset.jieba;
    return this.buildSubset(words, ids, text.length);
  }

  /**
   * Builds one segmenter for all of `texts` (a write compares itself with up to a dozen memories; an
   * index pass tells each batch): a subset for a few texts, the whole dictionary when they add up to
   * more than the subsets' budget left or more follow ('bulk'), without reading their words first.
   */
  prepare(texts: readonly string[], normalize: (text: string) => string = (t) => t, hint?: 'bulk'): void {
    if (this.full) return;
    let length = 0;
    for (const text of texts) length += text.length;
    if (hint === 'bulk' || length > this.budget) {
      this.buildFull();
      return;
    }
    const words = this.wordIndex();
    if (!words) return;
    const ids = new Set(this.userWords(words));
    for (const text of texts) collectWordsIn(words, normalize(text), ids);
    if (this.subset && [...ids].every((id) => this.subset!.ids.has(id))) return;
    this.buildSubset(words, ids, length);
  }

  private subset: { ids: Set<number>; jieba: JiebaSegmenter } | null = null;

  private buildSubset(words: WordIndex, ids: Set<number>, length: number): JiebaSegmenter {
    if (this.budget < length) return this.buildFull();
    this.budget -= length;
    if (this.subset) for (const id of this.subset.ids) ids.add(id);
    const jieba = this.Jieba.withDict(Buffer.from(subsetDictionary(words, ids)));
    if (this.userLines.length > 0) jieba.loadDict(Buffer.from(`${this.userLines.join('\n')}\n`));
    this.subset = { ids, jieba };
    return jieba;
  }

  private buildFull(): JiebaSegmenter {
    // Its own segmenter (not obtainJieba's shared one): user words added here stay here.
    const full = this.Jieba.withDict(readFileSync(this.dictPath));
    loadUserDict(full, this.userLines);
    this.full = full;
    return full;
  }

  private wordIndex(): WordIndex | null {
    if (this.words !== undefined) return this.words;
    const read = wordIndexPath === null ? { ok: false as const, reason: 'no word index' } : readWordIndex(wordIndexPath, this.dictPath);
    this.words = read.ok ? read.index : null;
    this.wordsUnavailable = read.ok ? null : read.reason;
    return this.words;
  }

  /** Dictionary entries of the user words: a user line replaces a word's entry, so it must be there to replace. */
  private userWords(words: WordIndex): Set<number> {
    if (this.userWordIds) return this.userWordIds;
    const ids = new Set<number>();
    for (const line of this.userLines) {
      const k = wordIndexOf(words, line.split(' ')[0]!);
      if (k >= 0) ids.add(k);
    }
    this.userWordIds = ids;
    return ids;
  }
}

let lazy: LazyBundledJieba | undefined;
let lazyFailure: string | undefined;

/** The process's lazily built bundled jieba, or why jieba cannot run here (the native module or its dictionary is missing). */
export function lazyBundledJieba(): { ok: true; jieba: LazyBundledJieba } | { ok: false; reason: string } {
  if (lazy) return { ok: true, jieba: lazy };
  if (lazyFailure === undefined) {
    try {
      const require = createRequire(import.meta.url);
      const { Jieba } = require('@node-rs/jieba') as { Jieba: JiebaClass };
      const dictPath = join(jiebaPackageDir(), 'dict.txt');
      statSync(dictPath);
      lazy = new LazyBundledJieba(Jieba, dictPath);
      return { ok: true, jieba: lazy };
    } catch (error) {
      lazyFailure = `jieba unavailable: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { ok: false, reason: lazyFailure };
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
  const { fresh, errors } = freshUserDictLines(lines, known);
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

/** The well-formed lines not in `known` (each once, in order) and a report of the malformed ones. */
function freshUserDictLines(lines: readonly string[], known: ReadonlySet<string>): { fresh: string[]; errors: string[] } {
  const errors: string[] = [];
  const fresh: string[] = [];
  for (const raw of lines) {
    const parsed = parseUserDictLine(raw);
    if (parsed === null) continue;
    if ('error' in parsed) errors.push(`${raw.trim()}: ${parsed.error}`);
    else if (!known.has(parsed.line) && !fresh.includes(parsed.line)) fresh.push(parsed.line);
  }
  return { fresh, errors };
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
