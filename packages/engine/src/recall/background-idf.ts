// General-language IDF (jieba's table, built from a large Chinese corpus): how informative a word is
// in Chinese at large, independent of the memory corpus. English words have their own table
// (languageIdfTable below: SUBTLEX-US on the same scale), since jieba's has no Latin words. Used to weigh query words that the corpus
// has never seen, which corpus IDF cannot rate. Loaded once, lazily; absent when jieba is not installed.
//
// The compiled CLI ships the kept words prebuilt (dist/cli/jieba-idf.bin, scripts/jieba-idf.mjs):
// sorted keys and float64 values in blocks by first character; a lookup reads its word's block and
// binary-searches it, so a one-shot `write` or `recall` hashes the 730 KB file through a small buffer
// and reads a few KB, instead of parsing the 6 MB idf.txt into a Map (~100-140 ms of CPU). Without that file
// (the TypeScript source, the console's bundle), or when it does not match the installed idf.txt,
// idf.txt is parsed as before. Both give the same value for every word
// (test/recall/background-idf.test.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBlockFile, readAligned } from '../text/block-file.ts';
import { englishRarity, isLatinTerm } from '../text/english-rarity.ts';
import { jiebaPackageDir } from '../text/jieba.ts';

let table: Map<string, number> | null | undefined;

/** A word the general table does not know (or knows as rare) weighs this much: a name, a code, a term of art. */
export const UNKNOWN_WORD_IDF = 12;
// Only common words are kept (idf < KEEP_BELOW: ~44k of 270k entries, ~10 MB instead of ~80 MB as a
// Map): every other word weighs UNKNOWN_WORD_IDF, which is within a point or two of its real value.
const KEEP_BELOW = 10;

export const IDF_TABLE_FILE = 'jieba-idf.bin';
const MAGIC = 'ENGIDF02';
const FORMAT = 2;

/** The compiled CLI's prebuilt table (scripts/jieba-idf.mjs writes it next to the bundle). */
let prebuiltPath: string | null = (() => {
  try {
    // Not `new URL('./…', import.meta.url)`: bundlers (Turbopack, in the console) treat that form as
    // an asset import and fail when the file is absent, which it is everywhere but the CLI bundle.
    return join(dirname(fileURLToPath(import.meta.url)), IDF_TABLE_FILE);
  } catch {
    return null;
  }
})();
/** Why the prebuilt table was not used, once looked for (diagnostics, tests); null when it was. */
let prebuiltUnavailable: string | null = null;

/** Points the table at another prebuilt file, or none, and forgets the loaded table (tests and benchmarks). */
export function setBackgroundIdfPath(path: string | null): void {
  prebuiltPath = path;
  table = undefined;
  prebuiltUnavailable = null;
}

/** Where the loaded table came from: the prebuilt file, idf.txt (with why not the prebuilt one), or nowhere. */
export function backgroundIdfSource(): { source: 'prebuilt' | 'idf.txt' | 'none'; prebuiltUnavailable: string | null } {
  const t = backgroundIdfTable();
  return { source: t instanceof PrebuiltIdfTable ? 'prebuilt' : t ? 'idf.txt' : 'none', prebuiltUnavailable };
}

function idfPath(): string {
  // The file itself, not dict.js, which would keep both of jieba's tables in require's cache.
  // jiebaPackageDir, not require.resolve: the console's production bundle rewrites that call.
  return join(jiebaPackageDir(), 'idf.txt');
}

function load(): Map<string, number> | null {
  let path: string;
  try {
    path = idfPath();
  } catch {
    return null;
  }
  if (prebuiltPath !== null) {
    const read = readIdfTable(prebuiltPath, path);
    if (read.ok) return read.table;
    prebuiltUnavailable = read.reason;
  } else prebuiltUnavailable = 'no prebuilt table';
  try {
    const map = parseIdfText(readFileSync(path));
    return map.size > 0 ? map : null;
  } catch {
    return null;
  }
}

/** The kept words of idf.txt's bytes ("word idf" per line) as a Map. scripts/jieba-idf.mjs mirrors this parse. */
export function parseIdfText(idf: Uint8Array): Map<string, number> {
  const map = new Map<string, number>();
  const text = Buffer.from(idf).toString('utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const space = text.lastIndexOf(' ', end);
    if (space > start) {
      const value = Number(text.slice(space + 1, end));
      // A copy, not a slice: a long slice would pin the whole 6 MB text in memory.
      if (value < KEEP_BELOW) map.set(copyOf(text.slice(start, space)), value);
    }
    start = end + 1;
  }
  return map;
}

/** A string with its own storage (V8 makes long slices views into their parent). */
const copyOf = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));

export function backgroundIdfTable(): Map<string, number> | null {
  if (table === undefined) table = load();
  return table;
}

interface Header {
  format: number;
  idfSize: number;
  idfSha1: string;
  idfMtimeMs?: number;
  keepBelow: number;
  count: number;
  units: number;
  blocks: number;
  bodyBytes: number;
  bodySha1: string;
}

/**
 * Opens the prebuilt table at `file` and checks it was built from the idf.txt at `idfPath` (size, and
 * the SHA-1 when its mtime is not the one recorded) with this KEEP_BELOW, and is undamaged (the
 * body's SHA-1, hashed through a small buffer: every byte checked, few pages of memory touched).
 * The table keeps the file open and reads a block when a word needs it.
 */
export function readIdfTable(file: string, idfPath: string): { ok: true; table: Map<string, number> } | { ok: false; reason: string } {
  const opened = openBlockFile<Header>(file, {
    magic: MAGIC,
    format: FORMAT,
    missing: 'no prebuilt table',
    notThis: 'not a background IDF table',
    short: SHORT,
    check: (h) => (h.keepBelow !== KEEP_BELOW ? `kept below ${h.keepBelow}, expected ${KEEP_BELOW}` : null),
    source: (h) => ({ path: idfPath, size: h.idfSize, mtimeMs: h.idfMtimeMs, sha1: h.idfSha1, another: 'another idf.txt' }),
  });
  if (!opened.ok) return opened;
  const { fd, bodyAt, header, firstUnits, blockLo, blockAt } = opened.file;
  return { ok: true, table: new PrebuiltIdfTable(fd, bodyAt, header.count, firstUnits, blockLo, blockAt) };
}

const SHORT = 'background IDF table shorter than its header says';

/** The words with one first character. */
interface Block {
  values: Float64Array;
  starts: Int32Array;
  units: Uint16Array;
}

/**
 * The prebuilt table behind the Map interface its readers use (get, has, size, iteration): a word's
 * block is read from the (open, checked) file when first needed, then binary-searched. Read-only.
 */
class PrebuiltIdfTable extends Map<string, number> {
  private readonly loaded: (Block | undefined)[];

  constructor(
    private readonly fd: number,
    private readonly bodyAt: number,
    count: number,
    private readonly firstUnits: Uint16Array,
    private readonly blockLo: Int32Array,
    private readonly blockAt: Int32Array,
  ) {
    super();
    this.loaded = new Array<Block | undefined>(firstUnits.length);
    // An own accessor: Map's `size` reads the (empty) internal storage.
    Object.defineProperty(this, 'size', { get: () => count });
  }

  private block(b: number): Block {
    const cached = this.loaded[b];
    if (cached) return cached;
    const n = this.blockLo[b + 1]! - this.blockLo[b]!;
    const buffer = readAligned(this.fd, this.bodyAt + this.blockAt[b]!, this.blockAt[b + 1]! - this.blockAt[b]!, SHORT);
    const starts = new Int32Array(buffer, n * 8, n + 1);
    const block: Block = { values: new Float64Array(buffer, 0, n), starts, units: new Uint16Array(buffer, n * 8 + (n + 1) * 4, starts[n]!) };
    this.loaded[b] = block;
    return block;
  }

  /** The block and position of `word`, or null. */
  private find(word: unknown): { block: Block; k: number } | null {
    if (typeof word !== 'string' || word.length === 0) return null;
    const c0 = word.charCodeAt(0);
    const units0 = this.firstUnits;
    let a = 0;
    let z = units0.length;
    while (a < z) {
      const m = (a + z) >>> 1;
      if (units0[m]! < c0) a = m + 1;
      else z = m;
    }
    if (a >= units0.length || units0[a] !== c0) return null;
    const block = this.block(a);
    const { starts, units } = block;
    let lo = 0;
    let hi = block.values.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >>> 1;
      const s = starts[m]!;
      const n = starts[m + 1]! - s;
      let c = 0;
      for (let i = 1; c === 0 && i < n && i < word.length; i++) c = word.charCodeAt(i) - units[s + i]!;
      if (c === 0) c = word.length - n;
      if (c === 0) return { block, k: m };
      if (c < 0) hi = m - 1;
      else lo = m + 1;
    }
    return null;
  }

  override get(word: string): number | undefined {
    const found = this.find(word);
    return found ? found.block.values[found.k] : undefined;
  }

  override has(word: string): boolean {
    return this.find(word) !== null;
  }

  override *entries(): MapIterator<[string, number]> {
    for (let b = 0; b < this.firstUnits.length; b++) {
      const { values, starts, units } = this.block(b);
      for (let k = 0; k < values.length; k++) yield [String.fromCharCode(...units.subarray(starts[k]!, starts[k + 1]!)), values[k]!];
    }
  }

  override *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<number> {
    for (let b = 0; b < this.firstUnits.length; b++) yield* this.block(b).values;
  }

  override [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  override forEach(fn: (value: number, key: string, map: Map<string, number>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }

  override set(): this {
    throw new Error('the background IDF table is read-only');
  }

  override delete(): boolean {
    throw new Error('the background IDF table is read-only');
  }

  override clear(): void {
    throw new Error('the background IDF table is read-only');
  }
}

/** Which general-language table answers for a term: jieba's (Chinese, and digits as before) or the English one. */
export type LanguageTable = 'zh' | 'en';

export const languageTableOf = (term: string): LanguageTable => (isLatinTerm(term) ? 'en' : 'zh');

let languageTable: LanguageIdfTable | undefined;

/**
 * The general-language IDF of any term: English terms (starting with a Latin letter) from the English
 * table (text/english-rarity.ts, SUBTLEX-US on jieba's scale), every other term from jieba's table
 * (backgroundIdfTable, unchanged). A term neither knows is absent (callers weigh it UNKNOWN_WORD_IDF).
 * Null when jieba's table is unavailable, as backgroundIdfTable is (callers then use the store's IDF).
 */
export function languageIdfTable(): Map<string, number> | null {
  const zh = backgroundIdfTable();
  if (!zh) return null;
  if (languageTable?.zh !== zh) languageTable = new LanguageIdfTable(zh);
  return languageTable;
}

/** Looks terms up by their script. Only get and has answer: its size and iteration are those of an empty Map. */
class LanguageIdfTable extends Map<string, number> {
  constructor(readonly zh: Map<string, number>) {
    super();
  }

  override get(term: string): number | undefined {
    if (typeof term !== 'string') return undefined;
    return isLatinTerm(term) ? englishRarity(term) : this.zh.get(term);
  }

  override has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  override set(): this {
    throw new Error('the language IDF table is read-only');
  }
}
