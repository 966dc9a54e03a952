// A DSH session log is many zstd frames appended one after another, each holding JSONL rows.
// Pure over a byte buffer and never throws: a damaged frame, garbage between frames, a truncated
// tail or a line that is not a JSON object is skipped and counted, and every intact frame still
// yields its rows.
//
// Frames are found by their magic number, but a frame's end is computed by walking its block
// headers rather than by looking for the next magic: the four magic bytes can occur by chance
// inside compressed data, and jumping by the frame's own length steps over them. Only after a
// frame fails do we fall back to the next magic occurrence to resynchronise.
//
// fzstd does not bound the match and literal lengths it reads from a block, so some damaged
// frames make it loop for seconds or minutes (found by fuzzing). Each frame is therefore decoded
// under a time budget that scales with its size; a frame that overruns it counts as damaged.
// The budget is wall time (the only clock a vm timeout has), so on a busy machine a healthy frame
// can overrun it without having run: a frame whose overrun used less than half its budget in CPU
// was starved, not looping, and is tried again (up to MAX_STARVED_RETRIES times).
import vm from 'node:vm';
import { decompress } from 'fzstd';

export interface DecodedFrames {
  /** Parsed JSON objects, in file order. */
  rows: Record<string, unknown>[];
  /** Frames decoded. */
  frames: number;
  /** Frames (or frame-looking starts) that were damaged, truncated or too large, and skipped. */
  badFrames: number;
  /** Lines that were not a JSON object (broken text inside a decoded frame, a line cut by a lost frame). */
  badLines: number;
  /** Bytes outside any frame (garbage before, between or after frames). */
  skippedBytes: number;
}

export interface FrameDecodeOptions {
  /** Time one frame may take to decode, by its compressed size (default: 250 ms + 5 ms per KiB, at most 5 s). */
  frameBudgetMs?(frameBytes: number): number;
  /**
   * A frame that declares more content or window than this is treated as damaged: the decoder
   * would allocate what the header says, and a flipped bit there can ask for gigabytes.
   */
  maxFrameBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

const defaultBudget = (frameBytes: number): number => Math.min(5000, 250 + Math.ceil(frameBytes / 1024) * 5);

// A script run with a timeout is the one way Node interrupts synchronous code; the watchdog stops
// whatever runs on the thread, including the decoder function called from the script.
const sandbox = vm.createContext({ decode: (bytes: Uint8Array): Uint8Array => decompress(bytes), input: null as Uint8Array | null });
const decodeScript = new vm.Script('decode(input)');

function decodeOnce(bytes: Uint8Array, budgetMs: number): Uint8Array {
  sandbox.input = bytes;
  try {
    return decodeScript.runInContext(sandbox, { timeout: Math.max(1, Math.floor(budgetMs)) }) as Uint8Array;
  } finally {
    sandbox.input = null;
  }
}

export const MAX_STARVED_RETRIES = 3;

/** Whether a decode that hit its wall-time budget deserves another try: it used little CPU (starved by the machine), and tries remain. */
export function retryAfterTimeout(cpuMs: number, budgetMs: number, retriesSoFar: number): boolean {
  return retriesSoFar < MAX_STARVED_RETRIES && cpuMs < budgetMs / 2;
}

const isTimeout = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

function decodeWithin(bytes: Uint8Array, budgetMs: number): Uint8Array {
  for (let retries = 0; ; retries++) {
    const cpuBefore = process.cpuUsage();
    try {
      return decodeOnce(bytes, budgetMs);
    } catch (error) {
      if (!isTimeout(error)) throw error;
      const used = process.cpuUsage(cpuBefore);
      if (!retryAfterTimeout((used.user + used.system) / 1000, budgetMs, retries)) throw error;
    }
  }
}

const MAGIC = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd);
/** zstd's Block_Maximum_Size. */
const MAX_BLOCK = 128 * 1024;
const NEWLINE = 0x0a;

type FrameSpan = { ok: true; length: number } | { ok: false; reason: 'truncated' | 'invalid' };

const isMagicAt = (buf: Uint8Array, at: number): boolean =>
  at + 4 <= buf.length && buf[at] === 0x28 && buf[at + 1] === 0xb5 && buf[at + 2] === 0x2f && buf[at + 3] === 0xfd;

/** Skippable frames (magic 0x184D2A50–5F) are legal between data frames and carry nothing for us. */
const isSkippableAt = (buf: Uint8Array, at: number): boolean =>
  at + 8 <= buf.length && (buf[at]! & 0xf0) === 0x50 && buf[at + 1] === 0x2a && buf[at + 2] === 0x4d && buf[at + 3] === 0x18;

const u32At = (buf: Uint8Array, at: number): number => (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16)) + buf[at + 3]! * 0x1000000;

function indexOfMagic(buf: Uint8Array, from: number): number {
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return from >= buf.length ? -1 : view.indexOf(MAGIC, from);
}

/** Little-endian unsigned integer of `n` bytes (n ≤ 8) as a double: exact up to 2^53, big enough to compare. */
function readUint(buf: Uint8Array, at: number, n: number): number {
  let value = 0;
  for (let i = n - 1; i >= 0; i--) value = value * 256 + buf[at + i]!;
  return value;
}

/** The byte length of the frame starting at `at` (which holds the magic), from its header and block headers. */
export function frameSpan(buf: Uint8Array, at: number, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): FrameSpan {
  if (at + 5 > buf.length) return { ok: false, reason: 'truncated' };
  const fhd = buf[at + 4]!;
  if (fhd & 0x08) return { ok: false, reason: 'invalid' }; // reserved bit
  const fcsFlag = fhd >> 6;
  const singleSegment = (fhd >> 5) & 1;
  const checksum = (fhd >> 2) & 1;
  const dictBytes = [0, 1, 2, 4][fhd & 3]!;
  const fcsBytes = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag]!;
  let p = at + 5;
  if (!singleSegment) {
    if (p + 1 > buf.length) return { ok: false, reason: 'truncated' };
    const wd = buf[p]!;
    const base = 2 ** (10 + (wd >> 3));
    const window = base + (base / 8) * (wd & 7);
    if (window > maxFrameBytes) return { ok: false, reason: 'invalid' };
    p += 1;
  }
  p += dictBytes;
  if (p + fcsBytes > buf.length) return { ok: false, reason: 'truncated' };
  if (fcsBytes > 0) {
    const size = readUint(buf, p, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
    if (size > maxFrameBytes) return { ok: false, reason: 'invalid' };
  }
  p += fcsBytes;
  for (;;) {
    if (p + 3 > buf.length) return { ok: false, reason: 'truncated' };
    const header = buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16);
    const last = header & 1;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 3 || size > MAX_BLOCK) return { ok: false, reason: 'invalid' };
    p += 3 + (type === 1 ? 1 : size);
    if (p > buf.length) return { ok: false, reason: 'truncated' };
    if (last) break;
  }
  if (checksum) {
    p += 4;
    if (p > buf.length) return { ok: false, reason: 'truncated' };
  }
  return { ok: true, length: p - at };
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export function decodeFrames(input: Uint8Array, options: FrameDecodeOptions = {}): DecodedFrames {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const budget = options.frameBudgetMs ?? defaultBudget;
  const buf = input instanceof Uint8Array ? input : new Uint8Array(0);
  const out: DecodedFrames = { rows: [], frames: 0, badFrames: 0, badLines: 0, skippedBytes: 0 };
  const decoder = new TextDecoder('utf-8', { fatal: false });
  // A row may in principle straddle two frames; its first part waits here for the next frame.
  let carry: Uint8Array | null = null;

  const dropCarry = () => {
    if (carry && carry.some((b) => b > 0x20)) out.badLines++;
    carry = null;
  };

  const parseLine = (bytes: Uint8Array): boolean => {
    const text = decoder.decode(bytes).trim();
    if (text === '') return true;
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        out.rows.push(value as Record<string, unknown>);
        return true;
      }
    } catch {
      // counted by the caller
    }
    return false;
  };

  const takeText = (data: Uint8Array) => {
    let start = 0;
    if (carry) {
      const nl = data.indexOf(NEWLINE);
      const firstEnd = nl === -1 ? data.length : nl;
      const joined = concatBytes(carry, data.subarray(0, firstEnd));
      carry = null;
      // A damaged frame's cut-off last line must not take the next frame's first row with it.
      if (parseLine(joined)) start = nl === -1 ? data.length : nl + 1;
      else out.badLines++;
    }
    for (;;) {
      const nl = data.indexOf(NEWLINE, start);
      if (nl === -1) break;
      if (!parseLine(data.subarray(start, nl))) out.badLines++;
      start = nl + 1;
    }
    if (start >= data.length) return;
    const tail = data.subarray(start);
    if (parseLine(tail)) return;
    if (tail.length <= maxFrameBytes) carry = tail.slice();
    else out.badLines++;
  };

  /** Bytes from `from` up to the next frame start, counted as skipped; returns that start or -1. */
  const skipTo = (from: number): number => {
    const next = indexOfMagic(buf, from);
    // Skippable frames in the gap are legal and silent.
    let at = from;
    while (at < buf.length && (next === -1 || at < next) && isSkippableAt(buf, at)) {
      const end = at + 8 + u32At(buf, at + 4);
      if (end > buf.length || (next !== -1 && end > next)) break;
      at = end;
    }
    const gapEnd = next === -1 ? buf.length : next;
    if (gapEnd > at) {
      out.skippedBytes += gapEnd - at;
      dropCarry();
    }
    return next;
  };

  let pos = skipTo(0);
  while (pos !== -1 && pos < buf.length) {
    const span = frameSpan(buf, pos, maxFrameBytes);
    if (span.ok) {
      let decoded: Uint8Array | null = null;
      try {
        decoded = decodeWithin(buf.subarray(pos, pos + span.length), budget(span.length));
      } catch {
        decoded = null;
      }
      if (decoded) {
        out.frames++;
        takeText(decoded);
        const end = pos + span.length;
        pos = isMagicAt(buf, end) ? end : skipTo(end);
        continue;
      }
    }
    out.badFrames++;
    dropCarry();
    // The walk may have misjudged a damaged frame's length, so resynchronise on the next magic
    // after this one's, not after the computed end.
    const next = indexOfMagic(buf, pos + 1);
    pos = next;
  }
  dropCarry();
  return out;
}
