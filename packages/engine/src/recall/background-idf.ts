// General-language IDF (jieba's table, built from a large Chinese corpus): how informative a word is
// in Chinese at large, independent of the memory corpus. Used to weigh query words that the corpus
// has never seen, which corpus IDF cannot rate. Loaded once, lazily; absent when jieba is not installed.
//
// The compiled CLI ships the kept words prebuilt (dist/cli/jieba-idf.bin, scripts/jieba-idf.mjs):
// sorted keys and float64 values that a lookup binary-searches, so a one-shot `write` or `recall`
// reads ~1 MB instead of parsing the 6 MB idf.txt into a Map (~100-140 ms of CPU). Without that file
// (the TypeScript source, the console's bundle), or when it does not match the installed idf.txt,
// idf.txt is parsed as before. Both give the same value for every word
// (test/recall/background-idf.test.ts).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let table: Map<string, number> | null | undefined;

/** A word the general table does not know (or knows as rare) weighs this much: a name, a code, a term of art. */
export const UNKNOWN_WORD_IDF = 12;
// Only common words are kept (idf < KEEP_BELOW: ~44k of 270k entries, ~10 MB instead of ~80 MB as a
// Map): every other word weighs UNKNOWN_WORD_IDF, which is within a point or two of its real value.
const KEEP_BELOW = 10;

export const IDF_TABLE_FILE = 'jieba-idf.bin';
const MAGIC = 'ENGIDF01';
const FORMAT = 1;

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
  const require = createRequire(import.meta.url);
  // The file itself, not dict.js, which would keep both of jieba's tables in require's cache.
  return join(dirname(require.resolve('@node-rs/jieba/package.json')), 'idf.txt');
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
  bodySha1: string;
}

/**
 * Reads the prebuilt table at `file` and checks it was built from the idf.txt at `idfPath` (size, and
 * the SHA-1 when its mtime is not the one recorded) with this KEEP_BELOW, and is undamaged.
 */
export function readIdfTable(file: string, idfPath: string): { ok: true; table: Map<string, number> } | { ok: false; reason: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no prebuilt table' : `unreadable: ${(e as Error).message}` };
  }
  try {
    if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) return { ok: false, reason: 'not a background IDF table' };
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
    if (header.format !== FORMAT) return { ok: false, reason: `format ${header.format}, expected ${FORMAT}` };
    if (header.keepBelow !== KEEP_BELOW) return { ok: false, reason: `kept below ${header.keepBelow}, expected ${KEEP_BELOW}` };
    const idf = statSync(idfPath);
    if (idf.size !== header.idfSize) return { ok: false, reason: 'built from another idf.txt (size differs)' };
    if (idf.mtimeMs !== header.idfMtimeMs && createHash('sha1').update(readFileSync(idfPath)).digest('hex') !== header.idfSha1)
      return { ok: false, reason: 'built from another idf.txt (SHA-1 differs)' };
    let at = 12 + headerLength;
    at += (8 - (at % 8)) % 8;
    const { count, units } = header;
    if (at + count * 8 + (count + 1) * 4 + units * 2 !== bytes.length) return { ok: false, reason: 'damaged (length)' };
    if (createHash('sha1').update(bytes.subarray(at)).digest('hex') !== header.bodySha1) return { ok: false, reason: 'damaged (checksum)' };
    const base = bytes.byteOffset + at;
    // Typed arrays need aligned offsets; a Buffer from the pool may not start on 8.
    const buffer = base % 8 === 0 ? (bytes.buffer as ArrayBuffer) : bytes.buffer.slice(base, base + bytes.length - at);
    const offset = base % 8 === 0 ? base : 0;
    const values = new Float64Array(buffer, offset, count);
    const starts = new Int32Array(buffer, offset + count * 8, count + 1);
    const unitArray = new Uint16Array(buffer, offset + count * 8 + (count + 1) * 4, units);
    return { ok: true, table: new PrebuiltIdfTable(values, starts, unitArray) };
  } catch (e) {
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  }
}

/**
 * The prebuilt table behind the Map interface its readers use (get, has, size, iteration): keys are
 * found by binary search over the sorted UTF-16 units, nothing is decoded until asked for. Read-only.
 */
class PrebuiltIdfTable extends Map<string, number> {
  constructor(
    private readonly vals: Float64Array,
    private readonly keyStarts: Int32Array,
    private readonly keyUnits: Uint16Array,
  ) {
    super();
    // An own accessor: Map's `size` reads the (empty) internal storage.
    Object.defineProperty(this, 'size', { get: () => vals.length });
  }

  /** The index of `word` among the sorted keys, or -1. */
  private find(word: unknown): number {
    if (typeof word !== 'string') return -1;
    const { keyStarts: starts, keyUnits: units } = this;
    let lo = 0;
    let hi = this.vals.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >>> 1;
      const a = starts[m]!;
      const n = starts[m + 1]! - a;
      let c = 0;
      for (let i = 0; c === 0 && i < n && i < word.length; i++) c = word.charCodeAt(i) - units[a + i]!;
      if (c === 0) c = word.length - n;
      if (c === 0) return m;
      if (c < 0) hi = m - 1;
      else lo = m + 1;
    }
    return -1;
  }

  private keyAt(k: number): string {
    let s = '';
    for (let i = this.keyStarts[k]!; i < this.keyStarts[k + 1]!; i++) s += String.fromCharCode(this.keyUnits[i]!);
    return s;
  }

  override get(word: string): number | undefined {
    const k = this.find(word);
    return k < 0 ? undefined : this.vals[k];
  }

  override has(word: string): boolean {
    return this.find(word) >= 0;
  }

  override *entries(): MapIterator<[string, number]> {
    for (let k = 0; k < this.vals.length; k++) yield [this.keyAt(k), this.vals[k]!];
  }

  override *keys(): MapIterator<string> {
    for (let k = 0; k < this.vals.length; k++) yield this.keyAt(k);
  }

  override *values(): MapIterator<number> {
    yield* this.vals;
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
