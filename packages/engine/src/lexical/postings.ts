// Posting lists for the lexical index, built for speed and a small GC footprint.
//
// Every term's list is a region of one shared Int32Array (the arena) holding pairs sorted by
// slot: (slot << 4 | field mask, weighted tf as float32 bits), 8 bytes per posting. A list that
// outgrows its region moves to the end of the arena; abandoned regions are reclaimed by sliding
// lists down.
// One arena instead of one typed array per term keeps tens of thousands of small buffers away from
// the garbage collector, whose full collections dominated bulk builds.
//
// New postings go to a sequential log first and are filed in batches grouped by term, because
// appending straight into tens of thousands of lists costs a few cache misses per posting.

export const POSTING_STRIDE = 2;
const LOG_STRIDE = 3;
/** Low bits of a posting's first word hold the field mask (one bit per field, 4 fields). */
const MASK_BITS = 4;
const MASK = (1 << MASK_BITS) - 1;
/** Slots must fit in the remaining 27 bits (the index compacts slots long before that). */
export const MAX_SLOT = 2 ** (31 - MASK_BITS) - 1;

export const packPosting = (slot: number, fieldMask: number): number => (slot << MASK_BITS) | fieldMask;
export const postingSlot = (packed: number): number => packed >>> MASK_BITS;
export const postingFieldMask = (packed: number): number => packed & MASK;

/** Postings buffered before an automatic flush (12 MB of log). */
const DEFAULT_LOG_CAPACITY = 1 << 20;
const MIN_REGION = 2;

const floatScratch = new Float32Array(1);
const intScratch = new Int32Array(floatScratch.buffer);

function floatToBits(value: number): number {
  floatScratch[0] = value;
  return intScratch[0]!;
}

export class PostingStore {
  /** [slot << 4 | fieldMask, tfBits] pairs; list t occupies postings [start[t], start[t] + length[t]). */
  arena = new Int32Array(POSTING_STRIDE * 4096);
  /** Float view of `arena` (weighted tf is the second word of each posting). */
  arenaTf = new Float32Array(this.arena.buffer);
  private used = 0;
  private garbage = 0;

  private start = new Int32Array(1024);
  private capacity = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  /** Entries whose slot was removed but are still in the list. */
  private deadCounts = new Int32Array(1024);
  private terms = 0;

  private log = new Int32Array(LOG_STRIDE * 1024);
  private logLength = 0;
  private readonly logCapacity: number;

  constructor(logCapacity = DEFAULT_LOG_CAPACITY) {
    this.logCapacity = logCapacity;
  }

  get termCount(): number {
    return this.terms;
  }

  addTerm(): number {
    if (this.terms === this.start.length) {
      const size = this.terms * 2;
      this.start = resized(this.start, size);
      this.capacity = resized(this.capacity, size);
      this.lengths = resized(this.lengths, size);
      this.deadCounts = resized(this.deadCounts, size);
    }
    return this.terms++;
  }

  /** Per term, slots must arrive in increasing order (they do: slots only grow). */
  append(termId: number, slot: number, fieldMask: number, weightedTf: number): void {
    if (this.logLength >= this.logCapacity) this.flush(false);
    if (this.logLength * LOG_STRIDE === this.log.length) this.log = resized(this.log, this.log.length * 2);
    const at = this.logLength * LOG_STRIDE;
    this.log[at] = termId;
    this.log[at + 1] = packPosting(slot, fieldMask);
    this.log[at + 2] = floatToBits(weightedTf);
    this.logLength++;
  }

  /** First posting of the term's list in `arena` (call flush() first). */
  startOf(termId: number): number {
    return this.start[termId]!;
  }

  lengthOf(termId: number): number {
    return this.lengths[termId]!;
  }

  /** Field mask of the term's posting for `slot`, or -1 (binary search). */
  fieldMaskOf(termId: number, slot: number): number {
    const base = this.start[termId]!;
    let lo = 0;
    let hi = this.lengths[termId]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const packed = this.arena[(base + mid) * POSTING_STRIDE]!;
      const value = postingSlot(packed);
      if (value === slot) return postingFieldMask(packed);
      if (value < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Notes that one posting of the term now points at a removed slot. When such entries make up
   * more than half of a list they slow every search for that term, so the list is rewritten.
   */
  markDead(termId: number, isAlive: (slot: number) => boolean): void {
    this.flush();
    this.deadCounts[termId]!++;
    const length = this.lengths[termId]!;
    if (length >= 16 && this.deadCounts[termId]! * 2 > length) {
      this.rewrite(termId, (slot) => (isAlive(slot) ? slot : -1));
    }
  }

  /** Renumbers the slots of every list through `remap` (-1 drops the entry). */
  rewriteAll(remap: (slot: number) => number): void {
    this.flush();
    for (let termId = 0; termId < this.terms; termId++) this.rewrite(termId, remap);
  }

  /**
   * Files the log into the lists: count per term, make room once, then copy term by term.
   * `releaseLog` drops a large log buffer (after a bulk build, when the index is mostly read).
   */
  flush(releaseLog = true): void {
    const count = this.logLength;
    if (count === 0) return;
    const log = this.log;
    if (count * 8 < this.terms) {
      // A short log (a few chunks added between searches): file one posting at a time rather
      // than counting over the whole vocabulary.
      for (let i = 0; i < count; i++) {
        const from = i * LOG_STRIDE;
        const termId = log[from]!;
        this.reserve(termId, 1);
        const to = (this.start[termId]! + this.lengths[termId]!) * POSTING_STRIDE;
        this.arena.set(log.subarray(from + 1, from + LOG_STRIDE), to);
        this.lengths[termId]!++;
      }
    } else {
      this.fileSorted(count);
    }
    this.logLength = 0;
    if (releaseLog && this.log.length > LOG_STRIDE * 4096) this.log = new Int32Array(LOG_STRIDE * 1024);
  }

  private fileSorted(count: number): void {
    const log = this.log;
    const offsets = new Int32Array(this.terms + 1);
    for (let i = 0; i < count; i++) offsets[log[i * LOG_STRIDE]! + 1]!++;
    for (let t = 0; t < this.terms; t++) offsets[t + 1]! += offsets[t]!;
    for (let t = 0; t < this.terms; t++) {
      const n = offsets[t + 1]! - offsets[t]!;
      if (n > 0) this.reserve(t, n);
    }
    // Scatter straight into each list's free space; the log is in slot order, so lists stay sorted.
    const arena = this.arena;
    const cursor = new Int32Array(this.terms);
    for (let t = 0; t < this.terms; t++) cursor[t] = (this.start[t]! + this.lengths[t]!) * POSTING_STRIDE;
    for (let i = 0; i < count; i++) {
      const from = i * LOG_STRIDE;
      const termId = log[from]!;
      const to = cursor[termId]!;
      arena[to] = log[from + 1]!;
      arena[to + 1] = log[from + 2]!;
      cursor[termId] = to + POSTING_STRIDE;
    }
    for (let t = 0; t < this.terms; t++) this.lengths[t]! += offsets[t + 1]! - offsets[t]!;
  }

  /** Makes room for `extra` more postings in the term's region, moving it to the arena's end if needed. */
  private reserve(termId: number, extra: number): void {
    const needed = this.lengths[termId]! + extra;
    if (needed <= this.capacity[termId]!) return;
    // Growth by 1.5× bounds both the copying and the unused tail of each region.
    const capacity = Math.max(MIN_REGION, needed, Math.ceil(this.capacity[termId]! * 1.5));
    this.ensureFree(capacity);
    const from = this.start[termId]! * POSTING_STRIDE;
    this.arena.copyWithin(this.used * POSTING_STRIDE, from, from + this.lengths[termId]! * POSTING_STRIDE);
    this.garbage += this.capacity[termId]!;
    this.start[termId] = this.used;
    this.capacity[termId] = capacity;
    this.used += capacity;
  }

  /** Guarantees room for `postings` more at the arena's end: reclaim abandoned regions, else grow. */
  private ensureFree(postings: number): void {
    if ((this.used + postings) * POSTING_STRIDE <= this.arena.length) return;
    if (this.garbage * 4 > this.used) this.compactArena();
    if ((this.used + postings) * POSTING_STRIDE <= this.arena.length) return;
    const size = Math.max((this.used + postings) * POSTING_STRIDE, Math.ceil(this.arena.length * 1.5));
    this.arena = resized(this.arena, size, this.used * POSTING_STRIDE);
    this.arenaTf = new Float32Array(this.arena.buffer);
  }

  /**
   * Repacks every list tightly into a right-sized arena: after a bulk build, growth slack and
   * abandoned regions can be a third or more of the arena.
   */
  trim(): void {
    this.flush();
    let total = 0;
    for (let t = 0; t < this.terms; t++) total += this.lengths[t]!;
    // A little headroom so the next few additions do not immediately reallocate.
    const arena = new Int32Array((total + (total >> 4) + 1024) * POSTING_STRIDE);
    let next = 0;
    for (let t = 0; t < this.terms; t++) {
      const from = this.start[t]! * POSTING_STRIDE;
      const length = this.lengths[t]!;
      arena.set(this.arena.subarray(from, from + length * POSTING_STRIDE), next * POSTING_STRIDE);
      this.start[t] = next;
      this.capacity[t] = length;
      next += length;
    }
    this.arena = arena;
    this.arenaTf = new Float32Array(arena.buffer);
    this.used = next;
    this.garbage = 0;
  }

  /** Slides every region down over abandoned space, in place (regions ordered by start). */
  private compactArena(): void {
    const order = Array.from({ length: this.terms }, (_, t) => t).sort((a, b) => this.start[a]! - this.start[b]!);
    let next = 0;
    for (const termId of order) {
      const from = this.start[termId]! * POSTING_STRIDE;
      if (this.start[termId] !== next) {
        this.arena.copyWithin(next * POSTING_STRIDE, from, from + this.lengths[termId]! * POSTING_STRIDE);
        this.start[termId] = next;
      }
      next += this.capacity[termId]!;
    }
    this.used = next;
    this.garbage = 0;
  }

  private rewrite(termId: number, remap: (slot: number) => number): void {
    const base = this.start[termId]! * POSTING_STRIDE;
    const length = this.lengths[termId]!;
    const arena = this.arena;
    let write = base;
    for (let read = base; read < base + length * POSTING_STRIDE; read += POSTING_STRIDE) {
      const packed = arena[read]!;
      const slot = remap(postingSlot(packed));
      if (slot < 0) continue;
      arena[write] = packPosting(slot, postingFieldMask(packed));
      arena[write + 1] = arena[read + 1]!;
      write += POSTING_STRIDE;
    }
    this.lengths[termId] = (write - base) / POSTING_STRIDE;
    this.deadCounts[termId] = 0;
  }
}

function resized<T extends Int32Array>(array: T, length: number, keep = array.length): T {
  const next = new Int32Array(length) as T;
  next.set(array.subarray(0, Math.min(keep, length)));
  return next;
}
