// Terms added to the vocabulary as the index runs (a build adds every term it meets): term → id by
// open addressing over the terms' UTF-16 code units, instead of a Map keyed by the strings.
//
// A build looks a term up for every word of every note, and the words come from jieba as new
// strings each time: a Map hashes each one in V8's runtime before it can compare it with the key it
// holds. Under `perf`, a 50,000-note build spent 12 % of its samples finding ids in that Map; here
// the hash is a loop over the code units, a slot holds the hash beside the id, and the terms lie back
// to back in one array, so a lookup reads the slot and the term's few code units (6 % of the samples
// for the same work). No term is kept as a string of its own.

import { grown } from './slots.ts';

/** FNV-1a over UTF-16 code units (not the snapshot's UTF-8 hash: these tables are never stored). */
function hashOf(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Small to begin with: every vocabulary has one, and most opened from a snapshot never add a term. */
const MIN_SLOTS = 64;

export class TermHash {
  /** Slot i: [hash, id + 1] at 2i, 2i + 1; id + 1 = 0 marks a free slot. Never more than half full. */
  private slots = new Int32Array(MIN_SLOTS * 2);
  private mask = MIN_SLOTS - 1;
  /** The terms' code units back to back; term `id` is units[starts[id] .. starts[id + 1]). */
  private units = new Uint16Array(256);
  private starts = new Int32Array(MIN_SLOTS / 2 + 1);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The term's id, or -1. */
  get(term: string): number {
    const hash = hashOf(term);
    const slots = this.slots;
    for (let at = hash & this.mask; ; at = (at + 1) & this.mask) {
      const entry = slots[2 * at + 1]!;
      if (entry === 0) return -1;
      if (slots[2 * at] === hash && this.holds(entry - 1, term)) return entry - 1;
    }
  }

  /** Adds a term that is not there yet under the next id, and returns that id. */
  add(term: string): number {
    const id = this.count;
    const start = this.starts[id]!;
    const end = start + term.length;
    this.units = grown(this.units, end);
    this.starts = grown(this.starts, id + 2);
    for (let i = 0; i < term.length; i++) this.units[start + i] = term.charCodeAt(i);
    this.starts[id + 1] = end;
    this.count = id + 1;
    if (this.count * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    this.place(hashOf(term), id + 1);
    return id;
  }

  /** The term with this id. */
  termAt(id: number): string {
    if (!(id >= 0 && id < this.count)) throw new RangeError(`no term ${id}`);
    const start = this.starts[id]!;
    const end = this.starts[id + 1]!;
    // Code unit by code unit, so a lone surrogate comes back as it went in (a UTF-16 decoder would replace it).
    let out = '';
    for (let at = start; at < end; at += 4096) out += String.fromCharCode(...this.units.subarray(at, Math.min(end, at + 4096)));
    return out;
  }

  private holds(id: number, term: string): boolean {
    const start = this.starts[id]!;
    if (this.starts[id + 1]! - start !== term.length) return false;
    const units = this.units;
    for (let i = 0; i < term.length; i++) if (units[start + i] !== term.charCodeAt(i)) return false;
    return true;
  }

  private place(hash: number, entry: number): void {
    let at = hash & this.mask;
    while (this.slots[2 * at + 1] !== 0) at = (at + 1) & this.mask;
    this.slots[2 * at] = hash;
    this.slots[2 * at + 1] = entry;
  }

  private rehash(slotCount: number): void {
    const old = this.slots;
    this.slots = new Int32Array(slotCount * 2);
    this.mask = slotCount - 1;
    for (let i = 1; i < old.length; i += 2) if (old[i] !== 0) this.place(old[i - 1]!, old[i]!);
  }
}
