// Posting lists for the lexical index, compressed and kept away from the garbage collector.
//
// Every term's list is a byte region of one shared Uint8Array (the arena), sorted by slot. A
// posting is the gap to the previous posting's slot (the first one counts from 0) and its kind —
// the pair (field mask, weighted tf) numbered by the store — written as one LEB128 varint
// gap · 8 + min(kind, 7), followed by a second varint kind − 7 when kind ≥ 7. Gaps are small in the
// long lists that hold most postings and a handful of kinds covers almost all of them, so a posting
// takes 1.5–2 bytes instead of 8. A list that outgrows its region moves to the end of the arena;
// abandoned regions are reclaimed by sliding lists down.
// One arena instead of one buffer per term keeps tens of thousands of small buffers away from the
// garbage collector, whose full collections dominated bulk builds.
//
// New postings go to a sequential log first and are filed in batches grouped by term, because
// appending straight into tens of thousands of lists costs a few cache misses per posting.

import { LazyArena, type LazyBytes } from './lazy-bytes.ts';
import { roomOf, withRoom } from './room.ts';
import { readVarint, varintSize, writeVarint } from './varint.ts';

const LOG_STRIDE = 3;
/** Kinds below this are stored inside the gap varint; the rest need one more varint. */
export const INLINE_KINDS = 7;
const INLINE_BITS = 3;
/** Gaps · 8 must stay below 2^31 for the bitwise varint decoder (slots compact long before that). */
export const MAX_SLOT = 2 ** (31 - INLINE_BITS) - 1;

/** Postings buffered before an automatic flush (3 MB of log). */
const DEFAULT_LOG_CAPACITY = 1 << 18;
const MIN_REGION = 8;

const floatScratch = new Float32Array(1);
const bitsScratch = new Uint32Array(floatScratch.buffer);

/** The key of a (field mask, weighted tf) pair: tf as float32 bits; the mask has 5 bits (one per field), so ×32 stays exact below 2^53. */
function kindKey(fieldMask: number, weightedTf: number): number {
  floatScratch[0] = weightedTf;
  return bitsScratch[0]! * 32 + fieldMask;
}

const postingSize = (gap: number, kind: number): number =>
  kind < INLINE_KINDS ? varintSize(gap * 8 + kind) : varintSize(gap * 8 + INLINE_KINDS) + varintSize(kind - INLINE_KINDS);

function writePosting(bytes: Uint8Array, at: number, gap: number, kind: number): number {
  if (kind < INLINE_KINDS) return writeVarint(bytes, at, gap * 8 + kind);
  return writeVarint(bytes, writeVarint(bytes, at, gap * 8 + INLINE_KINDS), kind - INLINE_KINDS);
}

/** Sequential reader of one list: call next() until it returns false; `slot` and `kind` then hold the posting. */
export class PostingCursor {
  slot = 0;
  kind = 0;
  value = 0;
  private at = 0;
  private end = 0;
  private bytes: Uint8Array = new Uint8Array(0);

  /** Positions the cursor before the first posting of the region [begin, end). */
  reset(bytes: Uint8Array, begin: number, end: number): this {
    this.bytes = bytes;
    this.at = begin;
    this.end = end;
    this.slot = 0;
    return this;
  }

  next(): boolean {
    if (this.at >= this.end) return false;
    this.at = readVarint(this.bytes, this.at, this);
    const head = this.value;
    this.slot += head >>> INLINE_BITS;
    this.kind = head & INLINE_KINDS;
    if (this.kind === INLINE_KINDS) {
      this.at = readVarint(this.bytes, this.at, this);
      this.kind += this.value;
    }
    return true;
  }

  /** Byte position after the current posting. */
  get position(): number {
    return this.at;
  }
}

/** A store's content, flushed and packed (no slack, no abandoned regions): what a snapshot holds. */
export interface PostingState {
  /** The lists; or, from a snapshot, the section they are in, read a list at a time until the store changes (lazy-bytes.ts). */
  bytes: Uint8Array<ArrayBuffer> | LazyBytes;
  /** Per term: first byte in `bytes`, byte length, postings, last slot, dead postings. */
  start: Int32Array<ArrayBuffer>;
  byteLengths: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  lastSlot: Int32Array<ArrayBuffer>;
  deadCounts: Int32Array<ArrayBuffer>;
  kindTf: Float64Array<ArrayBuffer>;
  kindMask: Uint8Array<ArrayBuffer>;
}

/** Bytes handed to a writer piece by piece: views of a live arena, written out before it changes. */
export interface PackedBytes {
  readonly byteLength: number;
  pieces(): Iterable<Uint8Array>;
}

/** What exportState gives a snapshot: the state, with the lists as views of the arena in term order instead of a packed copy. */
export interface PostingExport extends Omit<PostingState, 'bytes'> {
  bytes: PackedBytes;
}

export class PostingStore {
  /** The lists; from a snapshot, still in its file until the store changes. */
  private readonly arena = new LazyArena(new Uint8Array(64 * 1024));
  private used = 0;
  private garbage = 0;

  private start = new Int32Array(1024);
  private capacity = new Int32Array(1024);
  private byteLengths = new Int32Array(1024);
  private counts = new Int32Array(1024);
  /** Slot of each list's last posting (0 for an empty list): the base of the next gap. */
  private lastSlot = new Int32Array(1024);
  /** Entries whose slot was removed but are still in the list. */
  private deadCounts = new Int32Array(1024);
  private terms = 0;

  /** Weighted tf (as float32, widened) and field mask of each posting kind. */
  kindTf = new Float64Array(16);
  kindMask = new Uint8Array(16);
  private kinds = 0;
  private readonly kindByKey = new Map<number, number>();

  private log = new Int32Array(LOG_STRIDE * 1024);
  private logLength = 0;
  private readonly logCapacity: number;
  private readonly cursor = new PostingCursor();

  constructor(logCapacity = DEFAULT_LOG_CAPACITY) {
    this.logCapacity = logCapacity;
  }

  get termCount(): number {
    return this.terms;
  }

  /** The byte arena; list t occupies [startOf(t), endOf(t)). Reads a snapshot's lists whole first. */
  get bytes(): Uint8Array<ArrayBuffer> {
    return this.arena.bytes;
  }

  private set bytes(bytes: Uint8Array<ArrayBuffer>) {
    this.arena.bytes = bytes;
  }

  /** Reads the lists a snapshot left in its file (before the file closes, or the store changes). */
  loadDeferred(): void {
    this.arena.loadDeferred();
  }

  /**
   * The term's list: the bytes it is in and where (call flush() first). Read alone from the
   * snapshot file while the lists are still there, and checked against the list's posting count
   * and last slot (the section's CRC covers only whole reads).
   */
  region(termId: number): { bytes: Uint8Array; begin: number; end: number } {
    const length = this.byteLengths[termId]!;
    const readsBack = (bytes: Uint8Array) => {
      const cursor = new PostingCursor().reset(bytes, 0, length);
      let count = 0;
      while (cursor.next()) count++;
      return count === this.counts[termId] && (count > 0 ? cursor.slot : 0) === this.lastSlot[termId] && cursor.position === length;
    };
    return this.arena.piece(this.start[termId]!, length, readsBack, `posting list ${termId}`);
  }

  /** Bytes of typed arrays held (arena, per-term tables, log). */
  memoryBytes(): number {
    const perTerm = [this.start, this.capacity, this.byteLengths, this.counts, this.lastSlot, this.deadCounts];
    return this.arena.inMemory.byteLength + this.log.byteLength + this.kindTf.byteLength + this.kindMask.byteLength + perTerm.reduce((sum, a) => sum + a.byteLength, 0);
  }

  addTerm(): number {
    if (this.terms === this.start.length) {
      const size = this.terms * 2;
      this.start = resized(this.start, size);
      this.capacity = resized(this.capacity, size);
      this.byteLengths = resized(this.byteLengths, size);
      this.counts = resized(this.counts, size);
      this.lastSlot = resized(this.lastSlot, size);
      this.deadCounts = resized(this.deadCounts, size);
    }
    return this.terms++;
  }

  /**
   * The number of the (field mask, weighted tf) pair; tf is kept as float32, as the index always
   * has. Kinds numbered first take the fewest bytes, so callers may register the common ones early.
   */
  kindOf(fieldMask: number, weightedTf: number): number {
    const key = kindKey(fieldMask, weightedTf);
    let kind = this.kindByKey.get(key);
    if (kind !== undefined) return kind;
    kind = this.kinds++;
    if (kind === this.kindTf.length) {
      this.kindTf = grownCopy(this.kindTf, kind * 2);
      this.kindMask = grownCopy(this.kindMask, kind * 2);
    }
    this.kindTf[kind] = Math.fround(weightedTf);
    this.kindMask[kind] = fieldMask;
    this.kindByKey.set(key, kind);
    return kind;
  }

  /** Per term, slots must arrive in increasing order (they do: slots only grow). */
  append(termId: number, slot: number, fieldMask: number, weightedTf: number): void {
    if (this.logLength >= this.logCapacity) this.flush(false);
    if (this.logLength * LOG_STRIDE === this.log.length) this.log = resized(this.log, this.log.length * 2);
    const at = this.logLength * LOG_STRIDE;
    this.log[at] = termId;
    this.log[at + 1] = slot;
    this.log[at + 2] = this.kindOf(fieldMask, weightedTf);
    this.logLength++;
  }

  /** First byte of the term's list in `bytes` (call flush() first). */
  startOf(termId: number): number {
    return this.start[termId]!;
  }

  /** Byte after the term's list. */
  endOf(termId: number): number {
    return this.start[termId]! + this.byteLengths[termId]!;
  }

  /** Postings in the term's list, dead ones included. */
  lengthOf(termId: number): number {
    return this.counts[termId]!;
  }

  /** Reader positioned before the term's first posting (shared: one list at a time). */
  read(termId: number): PostingCursor {
    this.flush();
    const { bytes, begin, end } = this.region(termId);
    return this.cursor.reset(bytes, begin, end);
  }

  /** The term's postings as [slot, field mask, weighted tf] (tests and diagnostics). */
  entries(termId: number): [number, number, number][] {
    const out: [number, number, number][] = [];
    const cursor = this.read(termId);
    while (cursor.next()) out.push([cursor.slot, this.kindMask[cursor.kind]!, this.kindTf[cursor.kind]!]);
    return out;
  }

  /**
   * For each of `slots` (ascending), the field mask of the term's posting for it, or -1, into `out`.
   * One pass over the list serves every slot.
   */
  fieldMasksOf(termId: number, slots: ArrayLike<number>, out: Int32Array): void {
    const cursor = this.read(termId);
    let k = 0;
    while (k < slots.length && cursor.next()) {
      while (k < slots.length && slots[k]! < cursor.slot) out[k++] = -1;
      if (k < slots.length && slots[k] === cursor.slot) out[k++] = this.kindMask[cursor.kind]!;
    }
    while (k < slots.length) out[k++] = -1;
  }

  /**
   * Notes that one posting of the term now points at a removed slot. When such entries make up
   * more than half of a list they slow every search for that term, so the list is rewritten.
   */
  markDead(termId: number, isAlive: (slot: number) => boolean): void {
    this.flush();
    this.deadCounts[termId]!++;
    const count = this.counts[termId]!;
    if (count >= 16 && this.deadCounts[termId]! * 2 > count) {
      this.rewrite(termId, (slot) => (isAlive(slot) ? slot : -1));
    }
  }

  /**
   * Renumbers the slots of every list through `remap` (-1 drops the entry). The remap must keep
   * order and never widen the distance between two kept slots (dense renumbering does neither).
   */
  rewriteAll(remap: (slot: number) => number): void {
    this.flush();
    for (let termId = 0; termId < this.terms; termId++) this.rewrite(termId, remap);
  }

  /**
   * Files the log into the lists: size per term, make room once, then write term by term.
   * `releaseLog` drops a large log buffer (after a bulk build, when the index is mostly read).
   */
  flush(releaseLog = true): void {
    const count = this.logLength;
    if (count === 0) return;
    const log = this.log;
    if (count * 8 < this.terms) {
      // A short log (a few chunks added between searches): file one posting at a time rather
      // than going over the whole vocabulary.
      for (let i = 0; i < count; i++) {
        const from = i * LOG_STRIDE;
        this.appendNow(log[from]!, log[from + 1]!, log[from + 2]!);
      }
    } else {
      this.fileSorted(count);
    }
    this.logLength = 0;
    if (releaseLog && this.log.length > LOG_STRIDE * 4096) this.log = new Int32Array(LOG_STRIDE * 1024);
  }

  private appendNow(termId: number, slot: number, kind: number): void {
    const gap = slot - this.lastSlot[termId]!;
    const size = postingSize(gap, kind);
    this.reserve(termId, size);
    writePosting(this.bytes, this.endOf(termId), gap, kind);
    this.byteLengths[termId]! += size;
    this.counts[termId]!++;
    this.lastSlot[termId] = slot;
  }

  private fileSorted(count: number): void {
    const log = this.log;
    // Sizes depend on the gaps, so the first pass replays each list's last slot.
    const need = new Int32Array(this.terms);
    const last = this.lastSlot.slice(0, this.terms);
    for (let i = 0; i < count; i++) {
      const from = i * LOG_STRIDE;
      const termId = log[from]!;
      const slot = log[from + 1]!;
      need[termId]! += postingSize(slot - last[termId]!, log[from + 2]!);
      last[termId] = slot;
    }
    for (let t = 0; t < this.terms; t++) if (need[t]! > 0) this.reserve(t, need[t]!);
    // Write straight into each list's free space; the log is in slot order, so lists stay sorted.
    const bytes = this.bytes;
    const cursor = need; // reused: write position per term
    for (let t = 0; t < this.terms; t++) cursor[t] = this.endOf(t);
    for (let i = 0; i < count; i++) {
      const from = i * LOG_STRIDE;
      const termId = log[from]!;
      const slot = log[from + 1]!;
      cursor[termId] = writePosting(bytes, cursor[termId]!, slot - this.lastSlot[termId]!, log[from + 2]!);
      this.lastSlot[termId] = slot;
      this.counts[termId]!++;
    }
    for (let t = 0; t < this.terms; t++) this.byteLengths[t] = cursor[t]! - this.start[t]!;
  }

  /**
   * The content as it would be packed (lists in term order, no slack), without the packed copy: the
   * lists are views of the arena (a 50,000-document build's is ~25 MB), so write them out before
   * the store changes.
   */
  exportState(): PostingExport {
    this.flush();
    const n = this.terms;
    const start = new Int32Array(n);
    let total = 0;
    for (let t = 0; t < n; t++) {
      start[t] = total;
      total += this.byteLengths[t]!;
    }
    const arena = this.bytes;
    const from = this.start.subarray(0, n);
    const lengths = this.byteLengths.subarray(0, n);
    return {
      bytes: {
        byteLength: total,
        *pieces() {
          // Neighbouring lists that already lie back to back in the arena go out as one view.
          let t = 0;
          while (t < n) {
            const begin = from[t]!;
            let end = begin + lengths[t]!;
            t++;
            while (t < n && from[t] === end) end += lengths[t++]!;
            if (end > begin) yield arena.subarray(begin, end);
          }
        },
      },
      start,
      byteLengths: lengths,
      counts: this.counts.subarray(0, n),
      lastSlot: this.lastSlot.subarray(0, n),
      deadCounts: this.deadCounts.slice(0, n),
      kindTf: this.kindTf.slice(0, this.kinds),
      kindMask: this.kindMask.slice(0, this.kinds),
    };
  }

  /**
   * Replaces the content with an exported state (taken over, not copied). Throws when the state
   * does not hold together, so a damaged snapshot is rebuilt instead of answering wrongly.
   */
  importState(state: PostingState): void {
    const n = state.start.length;
    const perTerm = [state.byteLengths, state.counts, state.lastSlot, state.deadCounts];
    if (perTerm.some((a) => a.length !== n) || state.kindTf.length !== state.kindMask.length) throw new Error('posting state: table lengths differ');
    let total = 0;
    for (let t = 0; t < n; t++) {
      const begin = state.start[t]!;
      const length = state.byteLengths[t]!;
      if (begin < 0 || length < 0 || begin + length > state.bytes.length) throw new Error('posting state: a list lies outside the arena');
      total += length;
    }
    if (total > state.bytes.length) throw new Error('posting state: lists overlap');
    // Tables read with room after them are grown into in place (room.ts); the rest are copied.
    const rooms = [state.start, state.byteLengths, state.counts, state.lastSlot, state.deadCounts].map(roomOf);
    const size = Math.max(1024, n, Math.min(...rooms));
    const fit = (a: Int32Array<ArrayBuffer>) => withRoom(a, size) ?? resized(a, size);
    this.capacity = resized(state.byteLengths, size);
    this.start = fit(state.start);
    this.byteLengths = fit(state.byteLengths);
    this.counts = fit(state.counts);
    this.lastSlot = fit(state.lastSlot);
    this.deadCounts = fit(state.deadCounts);
    this.terms = n;
    this.arena.take(state.bytes);
    this.used = state.bytes.length;
    this.garbage = 0;
    this.kinds = state.kindTf.length;
    this.kindTf = grownCopy(state.kindTf, Math.max(16, this.kinds));
    this.kindMask = grownCopy(state.kindMask, Math.max(16, this.kinds));
    this.kindByKey.clear();
    for (let kind = 0; kind < this.kinds; kind++) {
      this.kindByKey.set(kindKey(this.kindMask[kind]!, this.kindTf[kind]!), kind);
    }
    this.logLength = 0;
  }

  /** Makes room for `extra` more bytes in the term's region, moving it to the arena's end if needed. */
  private reserve(termId: number, extra: number): void {
    const needed = this.byteLengths[termId]! + extra;
    if (needed <= this.capacity[termId]!) return;
    // Growth by 1.5× bounds both the copying and the unused tail of each region.
    const capacity = Math.max(MIN_REGION, needed, Math.ceil(this.capacity[termId]! * 1.5));
    this.ensureFree(capacity);
    const from = this.start[termId]!;
    this.bytes.copyWithin(this.used, from, from + this.byteLengths[termId]!);
    this.garbage += this.capacity[termId]!;
    this.start[termId] = this.used;
    this.capacity[termId] = capacity;
    this.used += capacity;
  }

  /** Guarantees room for `size` more bytes at the arena's end: reclaim abandoned regions, else grow. */
  private ensureFree(size: number): void {
    if (this.used + size <= this.bytes.length) return;
    if (this.garbage * 4 > this.used) this.compactArena();
    if (this.used + size <= this.bytes.length) return;
    const length = Math.max(this.used + size, Math.ceil(this.bytes.length * 1.5));
    const bytes = new Uint8Array(length);
    bytes.set(this.bytes.subarray(0, this.used));
    this.bytes = bytes;
  }

  /**
   * Repacks every list tightly into a right-sized arena: after a bulk build, growth slack and
   * abandoned regions can be a third or more of the arena.
   */
  trim(): void {
    this.flush();
    let total = 0;
    for (let t = 0; t < this.terms; t++) total += this.byteLengths[t]!;
    // A little headroom so the next few additions do not immediately reallocate.
    const bytes = new Uint8Array(total + (total >> 4) + 4096);
    let next = 0;
    for (let t = 0; t < this.terms; t++) {
      const from = this.start[t]!;
      const length = this.byteLengths[t]!;
      bytes.set(this.bytes.subarray(from, from + length), next);
      this.start[t] = next;
      this.capacity[t] = length;
      next += length;
    }
    this.bytes = bytes;
    this.used = next;
    this.garbage = 0;
  }

  /** Slides every region down over abandoned space, in place (regions ordered by start). */
  private compactArena(): void {
    const order = Array.from({ length: this.terms }, (_, t) => t).sort((a, b) => this.start[a]! - this.start[b]!);
    let next = 0;
    for (const termId of order) {
      const from = this.start[termId]!;
      if (from !== next) {
        this.bytes.copyWithin(next, from, from + this.byteLengths[termId]!);
        this.start[termId] = next;
      }
      next += this.capacity[termId]!;
    }
    this.used = next;
    this.garbage = 0;
  }

  /**
   * Rewrites the list in place. Safe because a kept posting's new gap is at most the sum of the
   * gaps read since the previous kept one, and a varint of a sum is no longer than the varints of
   * its parts: the write position never passes the read position.
   */
  private rewrite(termId: number, remap: (slot: number) => number): void {
    const begin = this.start[termId]!;
    const cursor = new PostingCursor().reset(this.bytes, begin, this.endOf(termId));
    let write = begin;
    let previous = 0;
    let kept = 0;
    while (cursor.next()) {
      const slot = remap(cursor.slot);
      if (slot < 0) continue;
      write = writePosting(this.bytes, write, slot - previous, cursor.kind);
      previous = slot;
      kept++;
    }
    this.byteLengths[termId] = write - begin;
    this.counts[termId] = kept;
    this.lastSlot[termId] = previous;
    this.deadCounts[termId] = 0;
  }
}

function resized(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(length);
  next.set(array.subarray(0, Math.min(array.length, length)));
  return next;
}

function grownCopy<T extends Float64Array | Uint8Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array.subarray(0, Math.min(array.length, length)));
  return next;
}
