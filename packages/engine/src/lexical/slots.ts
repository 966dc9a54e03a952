// Per-chunk storage of the lexical index. Each added chunk gets a slot (a dense integer the posting
// lists refer to); a removed chunk's slot stays dead until compact() renumbers the live ones.
import { DocChunks } from './doc-chunks.ts';
import { grownArena, trimmedArena } from './growable.ts';
import { LazyArena, type LazyBytes } from './lazy-bytes.ts';
import { roomOf, withRoom } from './room.ts';
import { readVarint, writeVarint } from './varint.ts';

export const FIELD_COUNT = 5;

/** Dead slots are compacted away once they outnumber live ones and there are enough to matter. */
const MIN_DEAD_TO_COMPACT = 1024;

/** A slot table's content (slots 0 … used − 1, dead ones included): what a snapshot holds. */
export interface SlotState {
  alive: Uint8Array<ArrayBuffer>;
  weightedLength: Float64Array<ArrayBuffer>;
  fieldLengths: Int32Array<ArrayBuffer>;
  termStart: Int32Array<ArrayBuffer>;
  termBytes: Int32Array<ArrayBuffer>;
  termCount: Int32Array<ArrayBuffer>;
  /** The term lists; or, from a snapshot, the section they are in, read a chunk at a time until the table changes (lazy-bytes.ts). */
  termArena: Uint8Array<ArrayBuffer> | LazyBytes;
  chunkIds: string[];
  docIds: string[];
}

/** What exportState gives a snapshot: the state, its term lists in memory. */
export interface SlotExport extends Omit<SlotState, 'termArena'> {
  termArena: Uint8Array<ArrayBuffer>;
}

export class ChunkSlots {
  private capacity = 1024;
  /** 1 while the slot's chunk is indexed. */
  alive = new Uint8Array(this.capacity);
  /** Σ fieldWeight · tokenCount of the slot's chunk. */
  weightedLength = new Float64Array(this.capacity);
  private fieldLengths = new Int32Array(this.capacity * FIELD_COUNT);
  // The distinct terms of each slot's chunk with their field masks, ascending by id, in one shared
  // byte arena: [termStart, + termBytes). A term is the varint gap · 2 + flag (the first gap from
  // 0); flag 1 means a mask byte follows, flag 0 that the mask is the common one (body only for
  // almost every term). About 1.4 bytes per term instead of 4.
  private termStart = new Int32Array(this.capacity);
  private termBytes = new Int32Array(this.capacity);
  private termCount = new Int32Array(this.capacity);
  /** The term lists; from a snapshot, still in its file until the table changes. */
  private readonly arena = new LazyArena(new Uint8Array(64 * 1024));
  private termArenaLength = 0;
  private termTotal = 0;
  private termScratch = new Int32Array(256);
  private readonly varint = { value: 0 };
  private chunkIds: string[] = [];
  private docIds: string[] = [];
  private used = 0;
  private dead = 0;

  // Chunk → slot and document → chunks, built on first use after a snapshot's import: a search
  // needs neither (50,000 documents' sets cost a one-shot command ~0.1 s of building and collection).
  private maps: { slotByChunk: Map<string, number>; chunksByDoc: DocChunks } | null = { slotByChunk: new Map(), chunksByDoc: new DocChunks() };
  private live = 0;

  private get slotByChunk(): Map<string, number> {
    return (this.maps ??= this.buildMaps()).slotByChunk;
  }

  private get chunksByDoc(): DocChunks {
    return (this.maps ??= this.buildMaps()).chunksByDoc;
  }

  private buildMaps(): { slotByChunk: Map<string, number>; chunksByDoc: DocChunks } {
    const slotByChunk = new Map<string, number>();
    const chunksByDoc = new DocChunks();
    for (let slot = 0; slot < this.used; slot++) {
      if (this.alive[slot] !== 1) continue;
      const chunkId = this.chunkIds[slot]!;
      const docId = this.docIds[slot]!;
      if (slotByChunk.has(chunkId)) throw new Error(`slot state: chunk ${chunkId} is live twice`);
      slotByChunk.set(chunkId, slot);
      chunksByDoc.add(docId, chunkId);
    }
    return { slotByChunk, chunksByDoc };
  }

  /** `commonMask`: the field mask stored without its byte. */
  constructor(private readonly commonMask: number) {}

  /** The term lists' arena; reads a snapshot's lists whole first. */
  private get termArena(): Uint8Array<ArrayBuffer> {
    return this.arena.bytes;
  }

  private set termArena(bytes: Uint8Array<ArrayBuffer>) {
    this.arena.bytes = bytes;
  }

  /** Reads the term lists a snapshot left in its file (before the file closes, or the table changes). */
  loadDeferred(): void {
    this.arena.loadDeferred();
  }

  /**
   * The slot's term list: the bytes it is in and where. Read alone from the snapshot file while the
   * lists are still there, and checked against the slot's term count (the section's CRC covers only
   * whole reads).
   */
  private termListOf(slot: number): { bytes: Uint8Array; begin: number; end: number } {
    const length = this.termBytes[slot]!;
    const readsBack = (bytes: Uint8Array) => {
      let at = 0;
      for (let i = 0; i < this.termCount[slot]! && at < length; i++) {
        at = readVarint(bytes, at, this.varint);
        if ((this.varint.value & 1) === 1) at++;
      }
      return at === length;
    };
    return this.arena.piece(this.termStart[slot]!, length, readsBack, `the term list of slot ${slot}`);
  }

  /** Live chunks. */
  get size(): number {
    return this.live;
  }

  /** Bytes of typed arrays held. */
  memoryBytes(): number {
    const arrays = [this.alive, this.weightedLength, this.fieldLengths, this.termStart, this.termBytes, this.termCount, this.arena.inMemory, this.termScratch];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0);
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
    return this.chunksByDoc.chunksOf(docId);
  }

  chunkCountOf(docId: string): number {
    return this.chunksByDoc.countOf(docId);
  }

  liveDocIds(): IterableIterator<string> {
    return this.chunksByDoc.docIds();
  }

  liveDocCount(): number {
    return this.chunksByDoc.size;
  }

  /** Mean distinct terms per chunk (dead slots included: an estimate for cost decisions). */
  averageTermCount(): number {
    return this.used === 0 ? 0 : this.termTotal / this.used;
  }

  /** Distinct terms of the slot's chunk. */
  termCountOf(slot: number): number {
    return this.termCount[slot]!;
  }

  /** The chunk's distinct term ids, ascending (a view: valid until the next termsOf, add or compact). */
  termsOf(slot: number): Int32Array {
    const count = this.termCount[slot]!;
    this.termScratch = grown(this.termScratch, count);
    const out = this.termScratch;
    const arena = this.termArena;
    let at = this.termStart[slot]!;
    let termId = 0;
    for (let i = 0; i < count; i++) {
      at = readVarint(arena, at, this.varint);
      termId += this.varint.value >>> 1;
      if ((this.varint.value & 1) === 1) at++;
      out[i] = termId;
    }
    return out.subarray(0, count);
  }

  /**
   * For each of `termIds` (ascending), the field mask with which the slot's chunk contains it, or
   * -1, into `out`. One pass over the chunk's term list serves every term.
   */
  fieldMasksOf(slot: number, termIds: ArrayLike<number>, out: Int32Array): void {
    const list = this.termListOf(slot);
    const arena = list.bytes;
    const end = list.end;
    const wanted = termIds.length;
    let at = list.begin;
    let termId = 0;
    let k = 0;
    let next = wanted > 0 ? termIds[0]! : -1;
    // The varint read is inlined: this loop runs over a few hundred terms for every hit.
    while (k < wanted && at < end) {
      let value = arena[at++]!;
      if (value >= 0x80) {
        value &= 0x7f;
        let shift = 7;
        let byte: number;
        do {
          byte = arena[at++]!;
          value |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte >= 0x80);
      }
      termId += value >>> 1;
      const hasMask = (value & 1) === 1;
      if (termId < next) {
        if (hasMask) at++;
        continue;
      }
      const mask = hasMask ? arena[at++]! : this.commonMask;
      while (next < termId) {
        out[k++] = -1;
        next = k < wanted ? termIds[k]! : 2 ** 31;
      }
      if (next === termId) {
        out[k++] = mask;
        next = k < wanted ? termIds[k]! : 2 ** 31;
      }
    }
    while (k < wanted) out[k++] = -1;
  }

  fieldLength(slot: number, field: number): number {
    return this.fieldLengths[slot * FIELD_COUNT + field]!;
  }

  /**
   * Stores a new chunk (its id must not be live) and returns its slot. `terms`: distinct ids,
   * ascending; `maskOf[termId]`: the fields each occurs in.
   */
  add(
    chunkId: string,
    docId: string,
    weightedLength: number,
    fieldLengths: ArrayLike<number>,
    terms: Int32Array,
    maskOf: ArrayLike<number>,
  ): number {
    if (this.used === this.capacity) this.grow(this.capacity * 2);
    const slot = this.used++;
    this.alive[slot] = 1;
    this.weightedLength[slot] = weightedLength;
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldLengths[slot * FIELD_COUNT + f] = fieldLengths[f]!;
    // Term ids stay below 2^30, so a term takes at most 5 bytes and a mask byte.
    this.termArena = grownArena(this.termArena, this.termArenaLength + terms.length * 6);
    const arena = this.termArena;
    let at = this.termArenaLength;
    let previous = 0;
    for (let i = 0; i < terms.length; i++) {
      const termId = terms[i]!;
      const mask = maskOf[termId]!;
      const common = mask === this.commonMask;
      at = writeVarint(arena, at, (termId - previous) * 2 + (common ? 0 : 1));
      if (!common) arena[at++] = mask;
      previous = termId;
    }
    this.termStart[slot] = this.termArenaLength;
    this.termBytes[slot] = at - this.termArenaLength;
    this.termCount[slot] = terms.length;
    this.termTotal += terms.length;
    this.termArenaLength = at;
    this.chunkIds[slot] = chunkId;
    this.docIds[slot] = docId;
    this.slotByChunk.set(chunkId, slot);
    this.chunksByDoc.add(docId, chunkId);
    this.live++;
    return slot;
  }

  /** Marks the chunk's slot dead; its data stays readable until compact(). */
  remove(chunkId: string): number | undefined {
    const slot = this.slotByChunk.get(chunkId);
    if (slot === undefined) return undefined;
    this.slotByChunk.delete(chunkId);
    this.live--;
    const docId = this.docIds[slot]!;
    this.chunksByDoc.delete(docId, chunkId);
    this.alive[slot] = 0;
    this.dead++;
    return slot;
  }

  /** The content as copies (the table itself is left as it is). */
  /** Views of the live tables, not copies (a 50,000-document index is tens of MB): write them out before the index changes. */
  exportState(): SlotExport {
    const n = this.used;
    return {
      alive: this.alive.subarray(0, n),
      weightedLength: this.weightedLength.subarray(0, n),
      fieldLengths: this.fieldLengths.subarray(0, n * FIELD_COUNT),
      termStart: this.termStart.subarray(0, n),
      termBytes: this.termBytes.subarray(0, n),
      termCount: this.termCount.subarray(0, n),
      termArena: this.termArena.subarray(0, this.termArenaLength),
      chunkIds: this.chunkIds.slice(0, n),
      docIds: this.docIds.slice(0, n),
    };
  }

  /** Replaces the content with an exported state; throws when it does not hold together. */
  importState(state: SlotState): void {
    const n = state.alive.length;
    const perSlot = [state.weightedLength, state.termStart, state.termBytes, state.termCount];
    if (perSlot.some((a) => a.length !== n) || state.fieldLengths.length !== n * FIELD_COUNT || state.chunkIds.length !== n || state.docIds.length !== n)
      throw new Error('slot state: table lengths differ');
    for (let slot = 0; slot < n; slot++) {
      if (state.termStart[slot]! < 0 || state.termStart[slot]! + state.termBytes[slot]! > state.termArena.length) throw new Error('slot state: a term list lies outside the arena');
    }
    // Tables read with room after them are grown into in place (room.ts); the rest are copied when they grow.
    const rooms = [roomOf(state.alive), roomOf(state.weightedLength), Math.floor(roomOf(state.fieldLengths) / FIELD_COUNT), roomOf(state.termStart), roomOf(state.termBytes), roomOf(state.termCount)];
    this.capacity = Math.max(1024, n, Math.min(...rooms));
    const fit = <T extends GrowableArray>(a: T, length: number): T => withRoom(a, length) ?? grown(a, length);
    this.alive = fit(state.alive, this.capacity);
    this.weightedLength = fit(state.weightedLength, this.capacity);
    this.fieldLengths = fit(state.fieldLengths, this.capacity * FIELD_COUNT);
    this.termStart = fit(state.termStart, this.capacity);
    this.termBytes = fit(state.termBytes, this.capacity);
    this.termCount = fit(state.termCount, this.capacity);
    this.arena.take(state.termArena);
    this.termArenaLength = state.termArena.length;
    this.chunkIds = state.chunkIds;
    this.docIds = state.docIds;
    this.used = n;
    this.dead = 0;
    this.termTotal = 0;
    for (let slot = 0; slot < n; slot++) {
      this.termTotal += this.termCount[slot]!;
      if (this.alive[slot] !== 1) this.dead++;
    }
    this.live = n - this.dead;
    // Built when first needed (a change, a lookup by chunk or document), not for a search.
    this.maps = null;
  }

  /** Live chunks as [chunkId, docId], in slot order. */
  *liveChunks(): IterableIterator<[string, string]> {
    for (let slot = 0; slot < this.used; slot++) if (this.alive[slot] === 1) yield [this.chunkIds[slot]!, this.docIds[slot]!];
  }

  /** Drops spare capacity of the term arena (after a bulk build). */
  trim(): void {
    this.termArena = trimmedArena(this.termArena, this.termArenaLength + 4096);
  }

  /**
   * Renumbers live slots densely (order preserved, so posting lists stay sorted) when dead slots
   * dominate. Returns old slot → new slot (-1 for dead), or null when nothing was done.
   */
  compactIfWorthwhile(): Int32Array | null {
    if (this.dead <= MIN_DEAD_TO_COMPACT || this.dead * 2 <= this.used) return null;
    const remap = new Int32Array(this.used).fill(-1);
    const arena = new Uint8Array(Math.max(64 * 1024, this.termArenaLength));
    let arenaLength = 0;
    let next = 0;
    this.termTotal = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (!this.alive[slot]) continue;
      remap[slot] = next;
      this.alive[next] = 1;
      this.weightedLength[next] = this.weightedLength[slot]!;
      this.fieldLengths.copyWithin(next * FIELD_COUNT, slot * FIELD_COUNT, (slot + 1) * FIELD_COUNT);
      const start = this.termStart[slot]!;
      const size = this.termBytes[slot]!;
      arena.set(this.termArena.subarray(start, start + size), arenaLength);
      this.termStart[next] = arenaLength;
      this.termBytes[next] = size;
      this.termCount[next] = this.termCount[slot]!;
      this.termTotal += this.termCount[next]!;
      arenaLength += size;
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
    this.termBytes = grown(this.termBytes, capacity);
    this.termCount = grown(this.termCount, capacity);
  }
}

export type GrowableArray = Uint8Array | Int32Array | Float64Array;

/** The same array when long enough, else a copy at least `minLength` long (capacity doubles). */
export function grown<T extends GrowableArray | Uint16Array>(array: T, minLength: number): T {
  let length = Math.max(array.length, 16);
  while (length < minLength) length *= 2;
  if (length === array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(length);
  copy.set(array);
  return copy;
}
