// jieba for a process that tokenizes little (a CLI recall or write): the segmenter is given only
// the dictionary words that occur in the text, found in a prebuilt word index of the dictionary
// (scripts/jieba-words.mjs writes it into the compiled CLI), instead of all 349,000 words.
//
// Why the segmentation is the same: jieba picks, over the graph of dictionary words found in the
// text, the path with the highest Σ ln(freq / total). Words that do not occur in the text never
// enter that graph, so only `total` ties them to the result — and a filler entry (a word that
// never occurs in text jieba segments: private-use characters) carries exactly the frequency of
// the words left out, so `total` is the dictionary's own. test/text/jieba-words.test.ts checks
// byte-identical output against the full dictionary over CMRC-style text, user words included.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

const MAGIC = 'ENGJBW01';
const FORMAT = 1;
/** Private-use characters: outside every script jieba segments, so this word is never matched. */
const FILLER_WORD = '\uE000\uE001\uE002';

export interface WordIndex {
  total: number;
  count: number;
  starts: Int32Array;
  freqs: Int32Array;
  units: Uint16Array;
  tags: Uint8Array;
  tagNames: string[];
}

interface Header {
  format: number;
  dictSize: number;
  dictSha1: string;
  dictMtimeMs?: number;
  total: number;
  count: number;
  units: number;
  tags: string[];
  bodySha1: string;
}

export type WordIndexRead = { ok: true; index: WordIndex } | { ok: false; reason: string };

/**
 * Reads the word index at `file` and checks it belongs to the dictionary at `dictPath` (size, and
 * the SHA-1 when the dictionary's mtime is not the one recorded) and is undamaged (the body's SHA-1).
 */
export function readWordIndex(file: string, dictPath: string): WordIndexRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no word index' : `unreadable: ${(e as Error).message}` };
  }
  try {
    if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== MAGIC) return { ok: false, reason: 'not a jieba word index' };
    const headerLength = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
    if (header.format !== FORMAT) return { ok: false, reason: `format ${header.format}, expected ${FORMAT}` };
    const dict = statSync(dictPath);
    if (dict.size !== header.dictSize) return { ok: false, reason: 'built from another dictionary (size differs)' };
    if (dict.mtimeMs !== header.dictMtimeMs && createHash('sha1').update(readFileSync(dictPath)).digest('hex') !== header.dictSha1)
      return { ok: false, reason: 'built from another dictionary (SHA-1 differs)' };
    let at = 12 + headerLength;
    at += (8 - (at % 8)) % 8;
    const { count, units } = header;
    const size = (count + 1) * 4 + count * 4 + units * 2 + count;
    if (at + size !== bytes.length) return { ok: false, reason: 'damaged (length)' };
    if (createHash('sha1').update(bytes.subarray(at)).digest('hex') !== header.bodySha1) return { ok: false, reason: 'damaged (checksum)' };
    const buffer = bytes.buffer as ArrayBuffer;
    const base = bytes.byteOffset + at;
    const aligned = base % 4 === 0;
    const take = <T>(Type: new (b: ArrayBuffer, o: number, n: number) => T, offset: number, n: number, width: number): T =>
      aligned ? new Type(buffer, base + offset, n) : new Type(buffer.slice(base + offset, base + offset + n * width), 0, n);
    const starts = take(Int32Array, 0, count + 1, 4);
    const freqs = take(Int32Array, (count + 1) * 4, count, 4);
    const unitArray = take(Uint16Array, (count + 1) * 4 + count * 4, units, 2);
    const tags = take(Uint8Array, (count + 1) * 4 + count * 4 + units * 2, count, 1);
    return { ok: true, index: { total: header.total, count, starts, freqs, units: unitArray, tags, tagNames: header.tags } };
  } catch (e) {
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  }
}

/** Adds to `out` the index of every dictionary word that occurs in `text`. */
export function collectWordsIn(index: WordIndex, text: string, out: Set<number>): void {
  const { starts, units, count } = index;
  const n = text.length;
  // The unit of word k at `depth`, or -1 when the word is shorter (it sorts before longer ones).
  const unitAt = (k: number, depth: number) => (starts[k]! + depth < starts[k + 1]! ? units[starts[k]! + depth]! : -1);
  for (let i = 0; i < n; i++) {
    // [lo, hi): the words that start with text[i, i + depth).
    let lo = 0;
    let hi = count;
    for (let depth = 0; i + depth < n; depth++) {
      const c = text.charCodeAt(i + depth);
      let a = lo;
      let b = hi;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (unitAt(m, depth) < c) a = m + 1;
        else b = m;
      }
      const first = a;
      b = hi;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (unitAt(m, depth) <= c) a = m + 1;
        else b = m;
      }
      lo = first;
      hi = a;
      if (lo >= hi) break;
      if (starts[lo + 1]! - starts[lo]! === depth + 1) out.add(lo);
    }
  }
}

/** The index of exactly this word, or -1. */
export function wordIndexOf(index: WordIndex, word: string): number {
  const found = new Set<number>();
  collectWordsIn(index, word, found);
  for (const k of found) if (index.starts[k + 1]! - index.starts[k]! === word.length && wordAt(index, k) === word) return k;
  return -1;
}

function wordAt(index: WordIndex, k: number): string {
  return String.fromCharCode(...index.units.subarray(index.starts[k]!, index.starts[k + 1]!));
}

/**
 * Dictionary lines ("word freq tag") for the words `ids`, plus the filler line that makes the total
 * frequency the whole dictionary's: what jieba needs to segment text containing only those words.
 */
export function subsetDictionary(index: WordIndex, ids: Iterable<number>): string {
  const lines: string[] = [];
  let sum = 0;
  for (const k of ids) {
    const tag = index.tagNames[index.tags[k]!] ?? '';
    lines.push(tag === '' ? `${wordAt(index, k)} ${index.freqs[k]}` : `${wordAt(index, k)} ${index.freqs[k]} ${tag}`);
    sum += index.freqs[k]!;
  }
  lines.push(`${FILLER_WORD} ${index.total - sum} x`);
  return `${lines.join('\n')}\n`;
}
