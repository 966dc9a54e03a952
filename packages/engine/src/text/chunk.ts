import type { Chunk } from '../types.ts';

export interface ChunkOptions {
  /** Maximum chunk length in UTF-16 code units. Values below 2 are raised to 2. */
  size: number;
  /** Target overlap between consecutive chunks; capped at half the size. */
  overlap: number;
}

/** A place where a chunk may end: the position right after a sentence and its trailing whitespace. */
interface Boundary {
  pos: number;
  paragraph: boolean;
}

const SENTENCE_END = new Set(['。', '！', '？', '!', '?', '；', ';', '…']);
const CLOSING = new Set(['”', '’', '」', '』', '）', ')', '】', '》', '"', "'"]);
/** Inside an over-long sentence, prefer cutting after these rather than mid-phrase. */
const SOFT_BREAK = new Set(['，', ',', '、', '：', ':', ' ', '\t', '\n', '\u3000']);

const isSpace = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);

// The sentence scan reads every character of every note a build chunks: it reads them as codes
// through a table, not as one-character strings (a new string per Chinese character) in a Set.
const ENDS_SENTENCE = 1;
const CLOSES = 2;
const unitKind = new Uint8Array(0x10000);
for (const ch of SENTENCE_END) unitKind[ch.charCodeAt(0)] = ENDS_SENTENCE;
for (const ch of CLOSING) unitKind[ch.charCodeAt(0)] = CLOSES;

/**
 * Splits text into chunks of at most `size` code units. Chunks end at paragraph ends when one is in
 * the second half of the window, otherwise at the last sentence end that fits; a sentence longer
 * than `size` is split at a comma or space when possible, else hard, never inside a surrogate pair.
 * Consecutive chunks overlap by up to `overlap` code units, starting at a sentence start when one
 * is in reach. Chunks never start or end with whitespace, so `text === input.slice(start, end)`
 * and every non-whitespace character is in some chunk. No slack: every chunk is ≤ size.
 */
export function chunkText(text: string, options: ChunkOptions): Chunk[] {
  const size = Math.max(2, Math.floor(options.size));
  const overlap = Math.max(0, Math.min(Math.floor(options.overlap), Math.floor(size / 2)));
  let start = skipSpace(text, 0);
  if (start >= text.length) return [];

  // Pieces of an over-long sentence leave room for the overlap, so they still overlap each other.
  const boundaries = splitLongUnits(text, sentenceBoundaries(text), size - overlap);
  const chunks: Chunk[] = [];
  let previousEnd = start;
  for (;;) {
    // Each chunk must end past the previous one's untrimmed end: that is what guarantees progress.
    const end = chooseEnd(boundaries, start, size, previousEnd);
    const chunk = makeChunk(text, chunks.length, start, end);
    // A chunk that adds only whitespace past the previous one (possible after a hard cut inside a
    // run of spaces) would be a redundant copy: skip it.
    const previous = chunks.at(-1);
    if (previous === undefined || chunk.end > previous.end) chunks.push(chunk);
    if (skipSpace(text, end) >= text.length) return chunks;
    start = skipSpace(text, chooseNextStart(text, boundaries, { start, end, visibleEnd: chunk.end }, size, overlap));
    previousEnd = end;
  }
}

function makeChunk(text: string, ord: number, start: number, end: number): Chunk {
  let trimmedEnd = end;
  while (trimmedEnd > start && isSpace(text[trimmedEnd - 1])) trimmedEnd--;
  return { ord, text: text.slice(start, trimmedEnd), start, end: trimmedEnd };
}

/** Sorted unit ends; each unit owns its trailing whitespace so the next one starts on a visible char. */
function sentenceBoundaries(text: string): Boundary[] {
  const result: Boundary[] = [];
  let i = 0;
  while (i < text.length) {
    const cut = sentenceEndAt(text, i);
    if (cut < 0) {
      i++;
      continue;
    }
    let next = cut;
    let newlines = 0;
    while (next < text.length && isSpace(text[next])) {
      if (text[next] === '\n') newlines++;
      next++;
    }
    if (next >= text.length) break;
    result.push({ pos: next, paragraph: newlines >= 2 });
    i = next;
  }
  result.push({ pos: text.length, paragraph: true });
  return result;
}

/** Position right after the sentence ending at `i`, or -1 when `i` does not end one. */
function sentenceEndAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code === 0x0a) return i;
  if (code === 0x2e) return i + 1 === text.length || isSpace(text[i + 1]) ? i + 1 : -1;
  if (unitKind[code] !== ENDS_SENTENCE) return -1;
  let j = i + 1;
  while (j < text.length && unitKind[text.charCodeAt(j)] === ENDS_SENTENCE) j++;
  while (j < text.length && unitKind[text.charCodeAt(j)] === CLOSES) j++;
  return j;
}

/** Adds cut points inside units longer than `size`, so every unit fits in one chunk. */
function splitLongUnits(text: string, boundaries: Boundary[], pieceSize: number): Boundary[] {
  const result: Boundary[] = [];
  let unitStart = 0;
  for (const boundary of boundaries) {
    let from = unitStart;
    while (boundary.pos - from > pieceSize) {
      const cut = hardCut(text, from, pieceSize);
      result.push({ pos: cut, paragraph: false });
      from = cut;
    }
    result.push(boundary);
    unitStart = boundary.pos;
  }
  return result;
}

/** Cut point for a window of `size` from `from`: after the last soft break in its second half, else at the edge. */
function hardCut(text: string, from: number, size: number): number {
  const edge = from + size;
  for (let p = edge; p > from + size / 2; p--) {
    if (SOFT_BREAK.has(text[p - 1]!) && !isSpace(text[p])) return p;
  }
  return avoidSurrogateSplit(text, edge, -1, from);
}

/** Moves `pos` by `direction` when it would separate a surrogate pair; never to or past `floor`. */
function avoidSurrogateSplit(text: string, pos: number, direction: -1 | 1, floor = -1): number {
  const high = text.charCodeAt(pos - 1);
  const low = text.charCodeAt(pos);
  const splitsPair = high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
  if (!splitsPair) return pos;
  const moved = pos + direction;
  return moved > floor ? moved : pos + 1;
}

/**
 * The furthest boundary within `size` of `start` that makes progress past `minEnd`, preferring a
 * paragraph end in the second half of the window.
 */
function chooseEnd(boundaries: Boundary[], start: number, size: number, minEnd: number): number {
  const limit = start + size;
  let best = -1;
  let bestParagraph = -1;
  for (let i = firstIndexAfter(boundaries, Math.max(start, minEnd)); i < boundaries.length; i++) {
    const boundary = boundaries[i]!;
    if (boundary.pos > limit) break;
    best = boundary.pos;
    if (boundary.paragraph && boundary.pos >= start + size / 2) bestParagraph = boundary.pos;
  }
  if (bestParagraph >= 0) return bestParagraph;
  // Unreachable while every unit fits in `size`; kept so a logic slip cannot loop forever.
  return best >= 0 ? best : Math.min(limit, boundaries.at(-1)!.pos);
}

/**
 * Start of the chunk after one spanning [prevStart, prevEnd) (visible text up to `visibleEnd`):
 * the earliest sentence start that keeps the overlap within `overlap` and still lets the next
 * sentence fit. When that leaves less than half the wanted overlap (the last sentence is long),
 * fall back to a comma/space, then to a raw position moved off the middle of a latin word.
 */
function chooseNextStart(
  text: string,
  boundaries: Boundary[],
  prev: { start: number; end: number; visibleEnd: number },
  size: number,
  overlap: number,
): number {
  if (overlap === 0) return prev.end;
  const nextSentenceEnd = boundaries[firstIndexAfter(boundaries, prev.end)]!.pos;
  const lowest = Math.max(prev.visibleEnd - overlap, nextSentenceEnd - size, prev.start + 1);
  // prev.end is itself a boundary, so the earliest boundary at or after `lowest` is at most prev.end.
  const sentenceStart = boundaries[firstIndexAfter(boundaries, lowest - 1)]!.pos;
  const enough = (pos: number): boolean => prev.visibleEnd - pos >= overlap / 2;
  if (enough(sentenceStart)) return sentenceStart;
  for (let p = Math.max(lowest, 1); p < sentenceStart; p++) {
    if (SOFT_BREAK.has(text[p - 1]!)) {
      if (enough(p)) return p;
      break;
    }
  }
  if (lowest >= sentenceStart) return sentenceStart;
  const raw = avoidSurrogateSplit(text, lowest, 1);
  let wordStart = raw;
  const insideWord = (pos: number) => isLatinWordChar(text[pos - 1]) && isLatinWordChar(text[pos]);
  while (wordStart < sentenceStart && insideWord(wordStart)) wordStart++;
  // A word running all the way to the sentence start (a hard-split blob) is cut mid-word instead.
  return wordStart < sentenceStart ? wordStart : raw;
}

const isLatinWordChar = (ch: string | undefined): boolean => ch !== undefined && /[A-Za-z0-9_]/.test(ch);

/** Index of the first boundary with pos > value (binary search). */
function firstIndexAfter(boundaries: Boundary[], value: number): number {
  let lo = 0;
  let hi = boundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (boundaries[mid]!.pos > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function skipSpace(text: string, pos: number): number {
  let p = pos;
  while (p < text.length && isSpace(text[p])) p++;
  return p;
}
