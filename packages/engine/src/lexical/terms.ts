// The vocabulary of the lexical index: term → id, ids handed out in order.
//
// A snapshot stores it packed, ready to look up: the terms' UTF-8 back to back (`text`), where each
// one starts (`offsets`, one more than there are terms) and an open-addressing hash table of ids
// (`slots`, FNV-1a over the UTF-8, linear probing, 0 = empty, id + 1 otherwise). Opening a snapshot
// then parses nothing: a one-shot command at 5,000 memories (50,000 terms) spent ~30 ms turning a
// JSON list into a Map before its first lookup, for the few dozen terms a write or a query looks up.
// Terms added after opening (every term, in a build from nothing) go to a TermHash beside the packed ones.

import { TermHash } from './term-hash.ts';

const encoder = new TextEncoder();
const textDecoder = new TextDecoder();
const scratch = new Uint8Array(1024);

/** The packed vocabulary (see above). Changing the hash changes the snapshot format. */
export interface PackedTerms {
  text: Uint8Array<ArrayBuffer>;
  offsets: Int32Array<ArrayBuffer>;
  slots: Int32Array<ArrayBuffer>;
}

function fnv1a(bytes: Uint8Array, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** A table with at least twice as many slots as terms (a power of two). */
const slotCountFor = (terms: number) => {
  let n = 16;
  while (n < terms * 2) n *= 2;
  return n;
};

function utf8(term: string): { bytes: Uint8Array; length: number } {
  if (term.length * 3 <= scratch.length) {
    const { written } = encoder.encodeInto(term, scratch);
    return { bytes: scratch, length: written };
  }
  const bytes = encoder.encode(term);
  return { bytes, length: bytes.length };
}

export class TermTable {
  /** Terms added since the packed ones, their ids counted after them. */
  private readonly added = new TermHash();

  private constructor(private readonly packed: PackedTerms | null) {}

  static empty(): TermTable {
    return new TermTable(null);
  }

  /** The table of a snapshot, checked for shape (not re-hashed: the snapshot's checksum guards the bytes). */
  static fromPacked(packed: PackedTerms): TermTable {
    const { text, offsets, slots } = packed;
    const n = offsets.length - 1;
    if (n < 0 || offsets[0] !== 0 || offsets[n] !== text.length) throw new Error('term table: offsets do not span the text');
    for (let i = 0; i < n; i++) if (offsets[i + 1]! < offsets[i]!) throw new Error('term table: offsets go backwards');
    if (slots.length !== slotCountFor(n)) throw new Error('term table: wrong number of hash slots');
    // Each term exactly once (and so free slots left, which ends every probe).
    const seen = new Uint8Array(n);
    let filled = 0;
    for (let i = 0; i < slots.length; i++) {
      const entry = slots[i]!;
      if (entry === 0) continue;
      if (entry < 0 || entry > n || seen[entry - 1] === 1) throw new Error('term table: a hash slot names no term, or one twice');
      seen[entry - 1] = 1;
      filled++;
    }
    if (filled !== n) throw new Error('term table: a term has no hash slot');
    return new TermTable(packed);
  }

  /** Packs `terms` (by id) into the snapshot form. */
  static pack(terms: readonly string[]): PackedTerms {
    // Encoded straight into the one text buffer: an array of its own per term (50,000 ids and as
    // many titles at the end of a 50,000-note pass) added ~9 MB to the pass's peak for a moment.
    const offsets = new Int32Array(terms.length + 1);
    for (let id = 0; id < terms.length; id++) offsets[id + 1] = offsets[id]! + Buffer.byteLength(terms[id]!, 'utf8');
    const text = new Uint8Array(offsets[terms.length]!);
    const slots = new Int32Array(slotCountFor(terms.length));
    const mask = slots.length - 1;
    for (let id = 0; id < terms.length; id++) {
      const begin = offsets[id]!;
      const bytes = text.subarray(begin, offsets[id + 1]!);
      encoder.encodeInto(terms[id]!, bytes);
      let at = fnv1a(bytes, bytes.length) & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = id + 1;
    }
    return { text, offsets, slots };
  }

  private get packedCount(): number {
    return this.packed ? this.packed.offsets.length - 1 : 0;
  }

  get size(): number {
    return this.packedCount + this.added.size;
  }

  get(term: string): number | undefined {
    if (this.packed) {
      const found = this.lookUpPacked(term);
      if (found !== undefined) return found;
    }
    const local = this.added.get(term);
    return local < 0 ? undefined : this.packedCount + local;
  }

  /** Records a new term under the next id (the caller checked it is not there). */
  add(term: string, id: number): void {
    if (id !== this.size) throw new Error(`term ids are handed out in order: expected ${this.size}, got ${id}`);
    this.added.add(term);
  }

  /** The packed form for a snapshot: the opened one as it is when nothing was added. */
  packedForExport(): PackedTerms {
    return this.packed && this.added.size === 0 ? this.packed : TermTable.pack(this.list());
  }

  /** The term with this id. */
  termAt(id: number): string {
    const n = this.packedCount;
    if (id >= n) return this.added.termAt(id - n);
    const { text, offsets } = this.packed!;
    return textDecoder.decode(text.subarray(offsets[id]!, offsets[id + 1]!));
  }

  /** Every term, by id. */
  list(): string[] {
    const out = new Array<string>(this.size);
    const n = this.packedCount;
    if (this.packed) {
      const { text, offsets } = this.packed;
      const decoder = new TextDecoder();
      for (let id = 0; id < n; id++) out[id] = decoder.decode(text.subarray(offsets[id]!, offsets[id + 1]!));
    }
    for (let i = 0; i < this.added.size; i++) out[n + i] = this.added.termAt(i);
    return out;
  }

  /**
   * Every packed id whose term is `term`, for a table packed from a list with repeats (the title
   * keys of the stored rows: one per row). Repeats lie on one probe chain, so the walk ends at the
   * first free slot like a plain lookup.
   */
  packedMatches(term: string): number[] {
    const out: number[] = [];
    if (this.packed) this.probe(term, (id) => void out.push(id));
    return out;
  }

  private lookUpPacked(term: string): number | undefined {
    let found: number | undefined;
    this.probe(term, (id) => ((found = id), true));
    return found;
  }

  /** Walks the term's probe chain, calling `onMatch` with each id whose bytes equal it, until it returns true or the chain ends. */
  private probe(term: string, onMatch: (id: number) => boolean | void): void {
    const { text, offsets, slots } = this.packed!;
    const { bytes, length } = utf8(term);
    const mask = slots.length - 1;
    for (let at = fnv1a(bytes, length) & mask; slots[at] !== 0; at = (at + 1) & mask) {
      const id = slots[at]! - 1;
      const begin = offsets[id]!;
      if (offsets[id + 1]! - begin !== length) continue;
      let same = true;
      for (let i = 0; i < length && same; i++) same = text[begin + i] === bytes[i];
      if (same && onMatch(id) === true) return;
    }
  }
}
