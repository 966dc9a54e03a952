// Per-chunk storage of the lexical index. Each added chunk gets a slot (a dense integer the posting
// lists refer to); a removed chunk's slot stays dead until compact() renumbers the live ones.

export const FIELD_COUNT = 4;

/** Dead slots are compacted away once they outnumber live ones and there are enough to matter. */
const MIN_DEAD_TO_COMPACT = 1024;

export class ChunkSlots {
  private capacity = 1024;
  /** 1 while the slot's chunk is indexed. */
  alive = new Uint8Array(this.capacity);
  /** Σ fieldWeight · tokenCount of the slot's chunk. */
  weightedLength = new Float64Array(this.capacity);
  private fieldLengths = new Int32Array(this.capacity * FIELD_COUNT);
  // The distinct term ids of each slot's chunk, in one shared arena: [termStart, + termCount).
  private termStart = new Int32Array(this.capacity);
  private termCount = new Int32Array(this.capacity);
  private termArena = new Int32Array(16 * 1024);
  private termArenaLength = 0;
  private chunkIds: string[] = [];
  private docIds: string[] = [];
  private used = 0;
  private dead = 0;

  private readonly slotByChunk = new Map<string, number>();
  private readonly chunksByDoc = new Map<string, Set<string>>();

  /** Live chunks. */
  get size(): number {
    return this.slotByChunk.size;
  }

  /** Upper bound (exclusive) of slot numbers in use. */
  get slotLimit(): number {
    return this.used;
  }

  slotOf(chunkId: string): number | undefined {
    return this.slotByChunk.get(chunkId);
  }

  chunkIdAt(slot: number): string {
    return this.chunkIds[slot]!;
  }

  docIdAt(slot: number): string {
    return this.docIds[slot]!;
  }

  chunkIdsOf(docId: string): string[] {
    return [...(this.chunksByDoc.get(docId) ?? [])];
  }

  /** The chunk's distinct term ids (a view: valid until the next add or compact). */
  termsOf(slot: number): Int32Array {
    const start = this.termStart[slot]!;
    return this.termArena.subarray(start, start + this.termCount[slot]!);
  }

  fieldLength(slot: number, field: number): number {
    return this.fieldLengths[slot * FIELD_COUNT + field]!;
  }

  /** Stores a new chunk (its id must not be live) and returns its slot. */
  add(
    chunkId: string,
    docId: string,
    weightedLength: number,
    fieldLengths: ArrayLike<number>,
    terms: Int32Array,
  ): number {
    if (this.used === this.capacity) this.grow(this.capacity * 2);
    const slot = this.used++;
    this.alive[slot] = 1;
    this.weightedLength[slot] = weightedLength;
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldLengths[slot * FIELD_COUNT + f] = fieldLengths[f]!;
    if (this.termArenaLength + terms.length > this.termArena.length) {
      this.termArena = grown(this.termArena, this.termArenaLength + terms.length);
    }
    this.termArena.set(terms, this.termArenaLength);
    this.termStart[slot] = this.termArenaLength;
    this.termCount[slot] = terms.length;
    this.termArenaLength += terms.length;
    this.chunkIds[slot] = chunkId;
    this.docIds[slot] = docId;
    this.slotByChunk.set(chunkId, slot);
    let siblings = this.chunksByDoc.get(docId);
    if (!siblings) this.chunksByDoc.set(docId, (siblings = new Set()));
    siblings.add(chunkId);
    return slot;
  }

  /** Marks the chunk's slot dead; its data stays readable until compact(). */
  remove(chunkId: string): number | undefined {
    const slot = this.slotByChunk.get(chunkId);
    if (slot === undefined) return undefined;
    this.slotByChunk.delete(chunkId);
    const docId = this.docIds[slot]!;
    const siblings = this.chunksByDoc.get(docId);
    siblings?.delete(chunkId);
    if (siblings?.size === 0) this.chunksByDoc.delete(docId);
    this.alive[slot] = 0;
    this.dead++;
    return slot;
  }

  /** Drops spare capacity of the term arena (after a bulk build). */
  trim(): void {
    this.termArena = this.termArena.slice(0, this.termArenaLength + 1024);
  }

  /**
   * Renumbers live slots densely (order preserved, so posting lists stay sorted) when dead slots
   * dominate. Returns old slot → new slot (-1 for dead), or null when nothing was done.
   */
  compactIfWorthwhile(): Int32Array | null {
    if (this.dead <= MIN_DEAD_TO_COMPACT || this.dead * 2 <= this.used) return null;
    const remap = new Int32Array(this.used).fill(-1);
    const arena = new Int32Array(Math.max(1024, this.termArenaLength));
    let arenaLength = 0;
    let next = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (!this.alive[slot]) continue;
      remap[slot] = next;
      this.alive[next] = 1;
      this.weightedLength[next] = this.weightedLength[slot]!;
      this.fieldLengths.copyWithin(next * FIELD_COUNT, slot * FIELD_COUNT, (slot + 1) * FIELD_COUNT);
      arena.set(this.termsOf(slot), arenaLength);
      this.termStart[next] = arenaLength;
      this.termCount[next] = this.termCount[slot]!;
      arenaLength += this.termCount[slot]!;
      this.chunkIds[next] = this.chunkIds[slot]!;
      this.docIds[next] = this.docIds[slot]!;
      this.slotByChunk.set(this.chunkIds[next]!, next);
      next++;
    }
    this.alive.fill(0, next, this.used);
    this.termArena = arena;
    this.termArenaLength = arenaLength;
    this.chunkIds.length = next;
    this.docIds.length = next;
    this.used = next;
    this.dead = 0;
    return remap;
  }

  private grow(capacity: number): void {
    this.capacity = capacity;
    this.alive = grown(this.alive, capacity);
    this.weightedLength = grown(this.weightedLength, capacity);
    this.fieldLengths = grown(this.fieldLengths, capacity * FIELD_COUNT);
    this.termStart = grown(this.termStart, capacity);
    this.termCount = grown(this.termCount, capacity);
  }
}

export type GrowableArray = Uint8Array | Int32Array | Float64Array;

/** The same array when long enough, else a copy at least `minLength` long (capacity doubles). */
export function grown<T extends GrowableArray>(array: T, minLength: number): T {
  let length = Math.max(array.length, 16);
  while (length < minLength) length *= 2;
  if (length === array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}
