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
import { readSync } from 'node:fs';
import { openBlockFile } from './block-file.ts';

const MAGIC = 'ENGJBW02';
const FORMAT = 2;
/** Private-use characters: outside every script jieba segments, so this word is never matched. */
const FILLER_WORD = '\uE000\uE001\uE002';

/**
 * The words with one first unit: ids lo … lo + n - 1, read into an arena chunk; s, f, u, t are where
 * its starts, freqs (in i32), units (in u16) and tags (in u8) begin. Offsets into shared views, not
 * views of its own: a typed array costs more to make than the read of a small block.
 */
interface Block {
  lo: number;
  n: number;
  i32: Int32Array;
  u16: Uint16Array;
  u8: Uint8Array;
  s: number;
  f: number;
  u: number;
  t: number;
}

/** Where blocks are read to: chunks of ARENA bytes, each with its three views. */
interface Arena {
  buffer: ArrayBuffer;
  i32: Int32Array;
  u16: Uint16Array;
  u8: Uint8Array;
  used: number;
}
const ARENA = 256 * 1024;

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
  /** @internal */ arena: Arena | null;
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
  const opened = openBlockFile<Header>(file, {
    magic: MAGIC,
    format: FORMAT,
    missing: 'no word index',
    notThis: 'not a jieba word index',
    short: SHORT,
    source: (h) => ({ path: dictPath, size: h.dictSize, mtimeMs: h.dictMtimeMs, sha1: h.dictSha1, another: 'another dictionary' }),
  });
  if (!opened.ok) return opened;
  const { fd, bodyAt, header, firstUnits, blockLo, blockAt } = opened.file;
  const index: WordIndex = {
    total: header.total,
    count: header.count,
    tagNames: header.tags,
    fd,
    bodyAt,
    firstUnits,
    blockLo,
    blockAt,
    blocks: new Array<Block | undefined>(header.blocks),
    arena: null,
  };
  return { ok: true, index };
}

const SHORT = 'word index shorter than its header says';

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
  loadBlocks(index, [b]);
  return index.blocks[b]!;
}

/** Blocks closer than this in the file are read with one read (a read costs about what 4 KB more does). */
const READ_GAP = 4096;

/** Reads the blocks `wanted` (sorted, not loaded yet) into the arena, neighbours in one read. */
function loadBlocks(index: WordIndex, wanted: number[]): void {
  const { blockAt, bodyAt } = index;
  for (let r = 0; r < wanted.length; ) {
    // A run of blocks r … e - 1 whose gaps are small: one read from the first's start to the last's end.
    let e = r + 1;
    while (e < wanted.length && blockAt[wanted[e]!]! - blockAt[wanted[e - 1]! + 1]! <= READ_GAP) e++;
    const from = blockAt[wanted[r]!]!;
    const bytes = blockAt[wanted[e - 1]! + 1]! - from; // a multiple of 4
    let arena = index.arena;
    if (!arena || arena.used + bytes > arena.buffer.byteLength) {
      const buffer = new ArrayBuffer(Math.max(ARENA, bytes));
      arena = index.arena = { buffer, i32: new Int32Array(buffer), u16: new Uint16Array(buffer), u8: new Uint8Array(buffer), used: 0 };
    }
    const at = arena.used;
    for (let done = 0; done < bytes; ) {
      const got = readSync(index.fd, arena.u8, at + done, bytes - done, bodyAt + from + done);
      if (got <= 0) throw new Error('word index shorter than its directory says');
      done += got;
    }
    arena.used += bytes;
    for (let w = r; w < e; w++) {
      const b = wanted[w]!;
      const lo = index.blockLo[b]!;
      const n = index.blockLo[b + 1]! - lo;
      const s = (at + blockAt[b]! - from) / 4;
      const f = s + n + 1;
      const u = (f + n) * 2;
      index.blocks[b] = { lo, n, i32: arena.i32, u16: arena.u16, u8: arena.u8, s, f, u, t: u * 2 + arena.i32[s + n]! * 2 };
    }
    r = e;
  }
}

/** Adds to `out` the index of every dictionary word that occurs in `text`. */
export function collectWordsIn(index: WordIndex, text: string, out: Set<number>): void {
  const n = text.length;
  // Each position's block, looked up once (a write collects the words of its draft and a dozen
  // memories at every position of their texts; the lookup and a closure per position were most of it).
  const blockAtPosition = new Int32Array(n);
  const wanted = new Set<number>();
  for (let i = 0; i < n; i++) {
    const b = blockOfUnit(index, text.charCodeAt(i));
    blockAtPosition[i] = b;
    if (b >= 0 && !index.blocks[b]) wanted.add(b);
  }
  if (wanted.size > 0) loadBlocks(index, [...wanted].sort((x, y) => x - y));
  for (let i = 0; i < n; i++) {
    const b = blockAtPosition[i]!;
    if (b < 0) continue;
    const { lo: id0, n: count, i32, u16, s: starts, u: units } = block(index, b);
    // [lo, hi): the words that start with text[i, i + depth + 1); every word of the block starts with
    // text[i]. The unit of (block-local) word k at `depth` is -1 when the word is shorter (it sorts
    // before longer ones).
    let lo = 0;
    let hi = count;
    if (i32[starts + 1]! - i32[starts]! === 1) out.add(id0);
    for (let depth = 1; i + depth < n; depth++) {
      const c = text.charCodeAt(i + depth);
      let a = lo;
      let z = hi;
      while (a < z) {
        const m = (a + z) >>> 1;
        const at = i32[starts + m]! + depth;
        if ((at < i32[starts + m + 1]! ? u16[units + at]! : -1) < c) a = m + 1;
        else z = m;
      }
      const first = a;
      z = hi;
      while (a < z) {
        const m = (a + z) >>> 1;
        const at = i32[starts + m]! + depth;
        if ((at < i32[starts + m + 1]! ? u16[units + at]! : -1) <= c) a = m + 1;
        else z = m;
      }
      lo = first;
      hi = a;
      if (lo >= hi) break;
      if (i32[starts + lo + 1]! - i32[starts + lo]! === depth + 1) out.add(id0 + lo);
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
  const { lo, i32, u16, u8, s, f, u, t } = block(index, blockOfId(index, k));
  const i = k - lo;
  let word = '';
  for (let x = u + i32[s + i]!, end = u + i32[s + i + 1]!; x < end; x++) word += String.fromCharCode(u16[x]!);
  return { word, freq: i32[f + i]!, tag: u8[t + i]! };
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
