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
// The index is read in parts (scripts/jieba-words.mjs, format 2): opening it reads the header and
// hashes the body through a small buffer (every byte checked, few pages of memory touched), then the
// directory of blocks; a text loads only the blocks of its own first characters. Reading the whole
// 5 MB into memory cost ~25 ms per process here (mostly faulting in fresh pages), hashing it ~3-15.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

const MAGIC = 'ENGJBW02';
const FORMAT = 2;
/** Private-use characters: outside every script jieba segments, so this word is never matched. */
const FILLER_WORD = '\uE000\uE001\uE002';
const CHUNK = 64 * 1024;

/** The words with one first unit: ids lo … lo + n - 1. */
interface Block {
  lo: number;
  n: number;
  starts: Int32Array;
  freqs: Int32Array;
  units: Uint16Array;
  tags: Uint8Array;
}

/**
 * An open word index. Holds its file open: blocks are read from the file that was checked, even if
 * the path is replaced meanwhile (a rebuild of the CLI swaps dist/cli/).
 */
export interface WordIndex {
  total: number;
  count: number;
  tagNames: string[];
  /** @internal */ fd: number;
  /** @internal Byte offset of the body in the file. */ bodyAt: number;
  /** @internal */ firstUnits: Uint16Array;
  /** @internal */ blockLo: Int32Array;
  /** @internal */ blockAt: Int32Array;
  /** @internal Loaded blocks, by block number. */ blocks: (Block | undefined)[];
}

interface Header {
  format: number;
  dictSize: number;
  dictSha1: string;
  dictMtimeMs?: number;
  total: number;
  count: number;
  units: number;
  blocks: number;
  bodyBytes: number;
  tags: string[];
  bodySha1: string;
}

export type WordIndexRead = { ok: true; index: WordIndex } | { ok: false; reason: string };

/**
 * Opens the word index at `file` and checks it belongs to the dictionary at `dictPath` (size, and
 * the SHA-1 when the dictionary's mtime is not the one recorded) and is undamaged (the body's SHA-1).
 */
export function readWordIndex(file: string, dictPath: string): WordIndexRead {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no word index' : `unreadable: ${(e as Error).message}` };
  }
  let keep = false;
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK, Math.max(size, 12)));
    const first = readSync(fd, chunk, 0, chunk.length, 0);
    if (first < 12 || chunk.toString('latin1', 0, 8) !== MAGIC) return { ok: false, reason: 'not a jieba word index' };
    const headerLength = chunk.readUInt32LE(8);
    const headerBytes = headerLength + 12 <= first ? chunk.subarray(12, 12 + headerLength) : readAt(fd, 12, headerLength);
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    if (header.format !== FORMAT) return { ok: false, reason: `format ${header.format}, expected ${FORMAT}` };
    const dict = statSync(dictPath);
    if (dict.size !== header.dictSize) return { ok: false, reason: 'built from another dictionary (size differs)' };
    if (dict.mtimeMs !== header.dictMtimeMs && createHash('sha1').update(readFileSync(dictPath)).digest('hex') !== header.dictSha1)
      return { ok: false, reason: 'built from another dictionary (SHA-1 differs)' };
    let at = 12 + headerLength;
    at += (8 - (at % 8)) % 8;
    const { blocks } = header;
    if (at + header.bodyBytes !== size) return { ok: false, reason: 'damaged (length)' };
    const hash = createHash('sha1');
    for (let pos = at; pos < size; ) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - pos), pos);
      if (n <= 0) return { ok: false, reason: 'damaged (length)' };
      hash.update(chunk.subarray(0, n));
      pos += n;
    }
    if (hash.digest('hex') !== header.bodySha1) return { ok: false, reason: 'damaged (checksum)' };
    const unitsBytes = blocks * 2 + ((4 - ((blocks * 2) % 4)) % 4);
    const directory = readAligned(fd, at, unitsBytes + 2 * (blocks + 1) * 4);
    const index: WordIndex = {
      total: header.total,
      count: header.count,
      tagNames: header.tags,
      fd,
      bodyAt: at,
      firstUnits: new Uint16Array(directory, 0, blocks),
      blockLo: new Int32Array(directory, unitsBytes, blocks + 1),
      blockAt: new Int32Array(directory, unitsBytes + (blocks + 1) * 4, blocks + 1),
      blocks: new Array<Block | undefined>(blocks),
    };
    keep = true;
    return { ok: true, index };
  } catch (e) {
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  } finally {
    if (!keep) closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.allocUnsafeSlow(length);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n <= 0) throw new Error('word index shorter than its header says');
    done += n;
  }
  return out;
}

/** `length` bytes at `position` in an ArrayBuffer of their own (typed arrays need aligned offsets). */
function readAligned(fd: number, position: number, length: number): ArrayBuffer {
  const buffer = new ArrayBuffer(length);
  const view = new Uint8Array(buffer);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, view, done, length - done, position + done);
    if (n <= 0) throw new Error('word index shorter than its header says');
    done += n;
  }
  return buffer;
}

/** The block of words starting with unit `c`, or -1. */
function blockOfUnit(index: WordIndex, c: number): number {
  const units = index.firstUnits;
  let a = 0;
  let b = units.length;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (units[m]! < c) a = m + 1;
    else b = m;
  }
  return a < units.length && units[a] === c ? a : -1;
}

/** The block holding word id `k`. */
function blockOfId(index: WordIndex, k: number): number {
  const lo = index.blockLo;
  let a = 0;
  let b = lo.length - 1;
  while (a < b) {
    const m = (a + b + 1) >>> 1;
    if (lo[m]! <= k) a = m;
    else b = m - 1;
  }
  return a;
}

function block(index: WordIndex, b: number): Block {
  const cached = index.blocks[b];
  if (cached) return cached;
  const lo = index.blockLo[b]!;
  const n = index.blockLo[b + 1]! - lo;
  const start = index.blockAt[b]!;
  const buffer = readAligned(index.fd, index.bodyAt + start, index.blockAt[b + 1]! - start);
  const starts = new Int32Array(buffer, 0, n + 1);
  const loaded: Block = {
    lo,
    n,
    starts,
    freqs: new Int32Array(buffer, (n + 1) * 4, n),
    units: new Uint16Array(buffer, (2 * n + 1) * 4, starts[n]!),
    tags: new Uint8Array(buffer, (2 * n + 1) * 4 + starts[n]! * 2, n),
  };
  index.blocks[b] = loaded;
  return loaded;
}

/** Adds to `out` the index of every dictionary word that occurs in `text`. */
export function collectWordsIn(index: WordIndex, text: string, out: Set<number>): void {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const b = blockOfUnit(index, text.charCodeAt(i));
    if (b < 0) continue;
    const { lo: id0, n: count, starts, units } = block(index, b);
    // The unit of (block-local) word k at `depth`, or -1 when the word is shorter (it sorts before longer ones).
    const unitAt = (k: number, depth: number) => (starts[k]! + depth < starts[k + 1]! ? units[starts[k]! + depth]! : -1);
    // [lo, hi): the words that start with text[i, i + depth + 1); every word of the block starts with text[i].
    let lo = 0;
    let hi = count;
    if (starts[1]! - starts[0]! === 1) out.add(id0);
    for (let depth = 1; i + depth < n; depth++) {
      const c = text.charCodeAt(i + depth);
      let a = lo;
      let z = hi;
      while (a < z) {
        const m = (a + z) >>> 1;
        if (unitAt(m, depth) < c) a = m + 1;
        else z = m;
      }
      const first = a;
      z = hi;
      while (a < z) {
        const m = (a + z) >>> 1;
        if (unitAt(m, depth) <= c) a = m + 1;
        else z = m;
      }
      lo = first;
      hi = a;
      if (lo >= hi) break;
      if (starts[lo + 1]! - starts[lo]! === depth + 1) out.add(id0 + lo);
    }
  }
}

/** The index of exactly this word, or -1. */
export function wordIndexOf(index: WordIndex, word: string): number {
  const found = new Set<number>();
  collectWordsIn(index, word, found);
  for (const k of found) if (wordAt(index, k) === word) return k;
  return -1;
}

/** Word id `k`: its text, frequency and tag number. */
function entryAt(index: WordIndex, k: number): { word: string; freq: number; tag: number } {
  const { lo, starts, units, freqs, tags } = block(index, blockOfId(index, k));
  const i = k - lo;
  return { word: String.fromCharCode(...units.subarray(starts[i]!, starts[i + 1]!)), freq: freqs[i]!, tag: tags[i]! };
}

function wordAt(index: WordIndex, k: number): string {
  return entryAt(index, k).word;
}

/**
 * Dictionary lines ("word freq tag") for the words `ids`, plus the filler line that makes the total
 * frequency the whole dictionary's: what jieba needs to segment text containing only those words.
 */
export function subsetDictionary(index: WordIndex, ids: Iterable<number>): string {
  const lines: string[] = [];
  let sum = 0;
  for (const k of ids) {
    const { word, freq, tag: tagId } = entryAt(index, k);
    const tag = index.tagNames[tagId] ?? '';
    lines.push(tag === '' ? `${word} ${freq}` : `${word} ${freq} ${tag}`);
    sum += freq;
  }
  lines.push(`${FILLER_WORD} ${index.total - sum} x`);
  return `${lines.join('\n')}\n`;
}
