import { GRAM_MARK } from '../text/grams.ts';
import { isSingleCjkChar } from '../text/scripts.ts';
import { INLINE_KINDS, MAX_SLOT, PostingStore, type PostingExport, type PostingState } from './postings.ts';
import { ChunkSlots, FIELD_COUNT, grown, type SlotExport, type SlotState } from './slots.ts';
import { selectTop } from './top.ts';
import { TermTable, type PackedTerms } from './terms.ts';
import { extended } from './room.ts';

/** Bits of one field mask: one per field. */
const MASK_BITS = 5;
const MASK_ALL = (1 << MASK_BITS) - 1;
/** Query terms whose field masks search() notes while scoring (MASK_BITS each in an Int32). */
const RECORDED_TERMS = 6;

// goal comes last so that every older field keeps its bit (body's is the common mask slots.ts stores without a byte).
export const LEXICAL_FIELDS = ['title', 'summary', 'tags', 'body', 'goal'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];
/** Fields a caller may leave out (read as empty / weight 0): indexes of other things than memories have no goal. */
type OptionalField = 'goal';
export type LexicalFields<T> = Record<Exclude<LexicalField, OptionalField>, T> & Partial<Record<OptionalField, T>>;
const NO_TOKENS: readonly string[] = [];
const GRAM_CODE = GRAM_MARK.charCodeAt(0);

export interface LexicalEntry {
  chunkId: string;
  docId: string;
  /** Tokens per field, as produced by the tokenizer (repeats count as term frequency). */
  fields: LexicalFields<string[]>;
}

export interface LexicalOptions {
  /** Term-frequency saturation. Config default 1.2. */
  k1: number;
  /** Length normalisation strength, 0..1. Config default 0.75. */
  b: number;
  /** Multipliers for term frequency and length per field (BM25F). Config default 3 / 2 / 2.5 / 1 / goal 1.4. */
  fieldWeights: LexicalFields<number>;
  /** Query weight of a single CJK character token; 0 ignores such tokens. Config default 0.15. */
  singleCharWeight: number;
}

export interface MatchedToken {
  token: string;
  idf: number;
  /** Query-side weight: as given to search, else singleCharWeight for a single CJK character, else 1. */
  weight: number;
  fields: LexicalField[];
}

export interface LexicalHit {
  chunkId: string;
  docId: string;
  score: number;
  /** 1-based. */
  rank: number;
  matched: MatchedToken[];
}

/** What exportState gives a snapshot writer: the state, with the posting lists as views (see PostingStore.exportState). */
export interface LexicalExport extends Omit<LexicalState, 'postings' | 'slots'> {
  postings: PostingExport;
  slots: SlotExport;
}

/** Everything an index holds, as plain arrays: lexical/snapshot.ts stores it in a file. */
export interface LexicalState {
  /** The vocabulary, packed for lookup (see terms.ts). */
  terms: PackedTerms;
  documentFrequency: Int32Array<ArrayBuffer>;
  fieldTotals: Float64Array<ArrayBuffer>;
  postings: PostingState;
  slots: SlotState;
}

/** Lucene's BM25 IDF: always positive, ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function bm25Idf(chunkCount: number, documentFrequency: number): number {
  return Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * In-memory BM25F index over chunks. Per chunk, a term's weighted frequency is Σ fieldWeight·tf and
 * the chunk length is Σ fieldWeight·len; the weighted frequency is saturated once:
 *   score = Σ_query terms  weight · idf · wtf / (wtf + k1·(1 − b + b·len/avgLen))
 * (Lucene's form without the constant (k1 + 1) factor, so one term contributes at most weight·idf).
 * Hits with score 0 (only zero-weight tokens matched) are not returned.
 */
export class LexicalIndex {
  private readonly options: LexicalOptions;
  private readonly weights: Float64Array;

  private termIds = TermTable.empty();
  private readonly postings = new PostingStore();
  private documentFrequency = new Int32Array(1024);
  private readonly slots: ChunkSlots;
  /** Integer token totals per field over live chunks; keeps avgLen exact under add/remove. */
  private readonly fieldTotals = new Float64Array(FIELD_COUNT);

  // Scratch buffers reused across calls (add and search are synchronous).
  private chunkTerms = new Int32Array(256);
  private termTf = new Float64Array(1024);
  private termMask = new Uint8Array(1024);
  private scores = new Float64Array(1024);
  private touched = new Int32Array(1024);
  /**
   * Per touched slot, the field masks of the first RECORDED_TERMS query terms (MASK_BITS each), when
   * search() has accumulate() note them while scoring. Only when every field weighs something: a
   * zero-weight field's postings never reach the scoring step.
   */
  private fieldBits = new Int32Array(1024);
  private readonly canRecordMasks: boolean;

  private readonly isAlive = (slot: number): boolean => this.slots.alive[slot] === 1;

  constructor(options: LexicalOptions) {
    this.options = options;
    this.weights = Float64Array.from(LEXICAL_FIELDS, (field) => options.fieldWeights[field] ?? 0);
    // Most postings are a body word seen once or twice: give them the one-byte kinds, and let
    // per-chunk term lists store "body only" without a mask byte.
    const body = LEXICAL_FIELDS.indexOf('body');
    for (let tf = 1; tf <= 2; tf++) this.postings.kindOf(1 << body, tf * this.weights[body]!);
    this.slots = new ChunkSlots(1 << body);
    this.canRecordMasks = this.weights.every((weight) => weight > 0);
  }

  /** Live chunks. */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes held in typed arrays: posting lists, per-chunk data, per-term tables, scratch. */
  memoryBytes(): number {
    const scratch = [this.documentFrequency, this.chunkTerms, this.termTf, this.termMask, this.scores, this.touched, this.fieldBits];
    return this.postings.memoryBytes() + this.slots.memoryBytes() + scratch.reduce((sum, a) => sum + a.byteLength, 0);
  }

  hasIdf(): boolean {
    return this.size > 0;
  }

  /** IDF of a token over live chunks; 0 when no live chunk contains it. */
  idf(token: string): number {
    const df = this.documentFrequencyOf(token);
    return df > 0 ? bm25Idf(this.size, df) : 0;
  }

  /** Number of live chunks containing the token. */
  documentFrequencyOf(token: string): number {
    const termId = this.termIds.get(token);
    return termId === undefined ? 0 : this.documentFrequency[termId]!;
  }

  /** Adds a chunk; an existing chunk with the same id is replaced. */
  add(entry: LexicalEntry): void {
    this.remove(entry.chunkId);
    if (this.slots.slotLimit >= MAX_SLOT) throw new Error(`lexical index cannot address more than ${MAX_SLOT} slots`);
    let tokenCount = 0;
    const fieldTokens = LEXICAL_FIELDS.map((field) => entry.fields[field] ?? NO_TOKENS);
    for (const tokens of fieldTokens) tokenCount += tokens.length;
    this.chunkTerms = grown(this.chunkTerms, tokenCount);
    const chunkTerms = this.chunkTerms;
    const fieldLengths = fieldTokens.map((tokens) => tokens.length);
    let termCount = 0;
    let length = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const tokens = fieldTokens[field]!;
      const weight = this.weights[field]!;
      const bit = 1 << field;
      length += weight * tokens.length;
      for (let i = 0; i < tokens.length; i++) {
        const termId = this.termIdFor(tokens[i]!);
        // Read the scratch arrays after termIdFor: it may have replaced them with larger ones.
        const mask = this.termMask;
        if (mask[termId] === 0) chunkTerms[termCount++] = termId;
        mask[termId] = mask[termId]! | bit;
        this.termTf[termId] = this.termTf[termId]! + weight;
      }
    }
    const terms = chunkTerms.subarray(0, termCount).sort();
    const slot = this.slots.add(entry.chunkId, entry.docId, length, fieldLengths, terms, this.termMask);
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldTotals[f]! += fieldLengths[f]!;
    const mask = this.termMask;
    const tf = this.termTf;
    for (const termId of terms) {
      this.postings.append(termId, slot, mask[termId]!, tf[termId]!);
      this.documentFrequency[termId]!++;
      mask[termId] = 0;
      tf[termId] = 0;
    }
  }

  /** Removes a chunk; false when it was not indexed. IDF and average length stay exact. */
  remove(chunkId: string): boolean {
    const slot = this.slots.remove(chunkId);
    if (slot === undefined) return false;
    for (let f = 0; f < FIELD_COUNT; f++) this.fieldTotals[f]! -= this.slots.fieldLength(slot, f);
    for (const termId of this.slots.termsOf(slot)) {
      this.documentFrequency[termId]!--;
      this.postings.markDead(termId, this.isAlive);
    }
    const remap = this.slots.compactIfWorthwhile();
    if (remap) this.postings.rewriteAll((old) => remap[old]!);
    return true;
  }

  /** Removes every chunk of a document; returns how many were removed. */
  removeDocument(docId: string): number {
    const chunkIds = this.slots.chunkIdsOf(docId);
    for (const chunkId of chunkIds) this.remove(chunkId);
    return chunkIds.length;
  }

  /**
   * Finishes a bulk build: files the postings added since the last search (searches otherwise do
   * this on demand, in the first query) and releases spare capacity (about a third of the memory).
   */
  finishBulkAdd(): void {
    this.postings.trim();
    this.slots.trim();
  }

  /** The index's tables for a snapshot: views where they can be (see ChunkSlots.exportState), written out at once. */
  exportState(): LexicalExport {
    return {
      terms: this.termIds.packedForExport(),
      documentFrequency: this.documentFrequency.subarray(0, this.termIds.size),
      fieldTotals: this.fieldTotals.slice(),
      postings: this.postings.exportState(),
      slots: this.slots.exportState(),
    };
  }

  /** Reads whatever of the index a snapshot left in its file (before the file closes). */
  loadDeferred(): void {
    this.postings.loadDeferred();
    this.slots.loadDeferred();
  }

  /**
   * An index with the content of `state` (taken over, not copied), searching exactly as the index
   * it was exported from. Throws when the state does not hold together.
   */
  static fromState(options: LexicalOptions, state: LexicalState): LexicalIndex {
    const index = new LexicalIndex(options);
    index.termIds = TermTable.fromPacked(state.terms);
    const n = index.termIds.size;
    if (state.documentFrequency.length !== n || state.postings.start.length !== n || state.fieldTotals.length !== FIELD_COUNT) throw new Error('lexical state: term tables differ in length');
    index.postings.importState(state.postings);
    index.slots.importState(state.slots);
    // Room for the terms later additions bring: untouched, it costs nothing (see room.ts).
    index.documentFrequency = grown(extended(state.documentFrequency), Math.max(1024, n));
    const room = Math.max(1024, n + (n >> 1));
    index.fieldTotals.set(state.fieldTotals);
    // Scratch tables are indexed by term id: as long as the vocabulary.
    index.termTf = new Float64Array(room);
    index.termMask = new Uint8Array(room);
    return index;
  }

  /** Live chunks as [chunkId, docId], in slot order. */
  liveChunks(): IterableIterator<[string, string]> {
    return this.slots.liveChunks();
  }

  /** The document a live chunk belongs to. */
  docOfChunk(chunkId: string): string | undefined {
    const slot = this.slots.slotOf(chunkId);
    return slot === undefined ? undefined : this.slots.docIdAt(slot);
  }

  /** How many live chunks a document has. */
  chunkCountOf(docId: string): number {
    return this.slots.chunkCountOf(docId);
  }

  /** The documents that have a live chunk (a view: do not change the index while reading it). */
  liveDocIds(): IterableIterator<string> {
    return this.slots.liveDocIds();
  }

  /** How many documents have a live chunk. */
  liveDocCount(): number {
    return this.slots.liveDocCount();
  }

  /**
   * Top `limit` chunks for the query tokens. Duplicate tokens count once; unknown tokens are
   * ignored. Equal scores are ordered by chunkId so results are deterministic. `weights` gives the
   * query-side weight of the tokens it names (the others: singleCharWeight for a single CJK
   * character, else 1).
   */
  search(queryTokens: readonly string[], limit: number, weights?: ReadonlyMap<string, number>): LexicalHit[] {
    if (limit <= 0 || this.size === 0) return [];
    const terms = this.queryTerms(queryTokens, weights);
    if (terms.length === 0) return [];
    const recorded = this.termsToRecord(terms, limit);
    const touchedCount = this.accumulate(terms, recorded);
    const byChunkId = (a: number, b: number) => this.slots.chunkIdAt(a) < this.slots.chunkIdAt(b);
    const top = selectTop(this.touched, touchedCount, this.scores, limit, byChunkId);
    const matched = this.matchedTokens(top.map((hit) => hit.slot), terms, recorded);
    // Reset only what was written, so a search costs O(postings read), not O(chunks).
    for (let i = 0; i < touchedCount; i++) {
      this.scores[this.touched[i]!] = 0;
      this.fieldBits[this.touched[i]!] = 0;
    }
    return top.map(({ slot, score }, index) => ({
      chunkId: this.slots.chunkIdAt(slot),
      docId: this.slots.docIdAt(slot),
      score,
      rank: index + 1,
      matched: matched[index]!,
    }));
  }

  /**
   * How many leading query terms accumulate() should note field masks for. Noting costs a little
   * per posting scored; reading the hits' own term lists afterwards costs a few hundred terms per
   * hit, whatever the corpus size. The cheaper wins (noting a posting costs roughly half of reading
   * a term); the matched fields come out the same either way.
   */
  private termsToRecord(terms: QueryTerm[], limit: number): number {
    if (!this.canRecordMasks) return 0;
    const count = Math.min(terms.length, RECORDED_TERMS);
    let postings = 0;
    for (let q = 0; q < count; q++) postings += this.postings.lengthOf(terms[q]!.termId);
    const hits = Math.min(limit, postings);
    return postings < 2 * hits * this.slots.averageTermCount() ? count : 0;
  }

  /**
   * Adds every query term's contribution into `scores`, and the field masks of the first
   * `recorded` terms into `fieldBits`; returns how many slots were touched.
   */
  private accumulate(terms: QueryTerm[], recorded: number): number {
    if (this.scores.length < this.slots.slotLimit) {
      this.scores = grown(this.scores, this.slots.slotLimit);
      this.touched = grown(this.touched, this.slots.slotLimit);
      this.fieldBits = grown(this.fieldBits, this.slots.slotLimit);
    }
    const { k1, b } = this.options;
    const avgLength = this.averageWeightedLength();
    const lengthScale = avgLength > 0 ? (k1 * b) / avgLength : 0;
    const lengthBase = k1 * (1 - b);
    const { scores, touched } = this;
    const { alive, weightedLength } = this.slots;
    this.postings.flush();
    const { kindTf, kindMask } = this.postings;
    const { fieldBits } = this;
    let touchedCount = 0;
    for (let q = 0; q < terms.length; q++) {
      const term = terms[q]!;
      const factor = term.weight * term.idf;
      const maskShift = q < recorded ? q * MASK_BITS : -1;
      // The term's list alone (a snapshot's lists stay in its file until the index changes).
      const list = this.postings.region(term.termId);
      const bytes = list.bytes;
      let at = list.begin;
      const end = list.end;
      let slot = 0;
      // The posting format of postings.ts, decoded inline: this loop is most of a search.
      while (at < end) {
        let head = bytes[at++]!;
        if (head >= 0x80) {
          head &= 0x7f;
          let shift = 7;
          let byte: number;
          do {
            byte = bytes[at++]!;
            head |= (byte & 0x7f) << shift;
            shift += 7;
          } while (byte >= 0x80);
        }
        slot += head >>> 3;
        let kind = head & INLINE_KINDS;
        if (kind === INLINE_KINDS) {
          let extra = bytes[at++]!;
          if (extra >= 0x80) {
            extra &= 0x7f;
            let shift = 7;
            let byte: number;
            do {
              byte = bytes[at++]!;
              extra |= (byte & 0x7f) << shift;
              shift += 7;
            } while (byte >= 0x80);
          }
          kind += extra;
        }
        const wtf = kindTf[kind]!;
        // wtf is 0 when the token only occurs in zero-weight fields: no contribution.
        if (alive[slot] === 0 || wtf <= 0) continue;
        // Every contribution is > 0, so a score of 0 means "first time this slot is seen".
        const previous = scores[slot]!;
        if (previous === 0) touched[touchedCount++] = slot;
        scores[slot] = previous + (factor * wtf) / (wtf + lengthBase + lengthScale * weightedLength[slot]!);
        if (maskShift >= 0) fieldBits[slot] = fieldBits[slot]! | (kindMask[kind]! << maskShift);
      }
    }
    return touchedCount;
  }

  private queryTerms(queryTokens: readonly string[], weights: ReadonlyMap<string, number> | undefined): QueryTerm[] {
    const seen = new Set<string>();
    const terms: QueryTerm[] = [];
    for (const token of queryTokens) {
      if (seen.has(token)) continue;
      seen.add(token);
      const termId = this.termIds.get(token);
      if (termId === undefined || this.documentFrequency[termId] === 0) continue;
      const weight = weights?.get(token) ?? (isSingleCjkChar(token) ? this.options.singleCharWeight : 1);
      if (weight <= 0) continue;
      terms.push({ token, termId, weight, idf: bm25Idf(this.size, this.documentFrequency[termId]!) });
    }
    return terms;
  }

  /**
   * Per hit (in the order of `slots`), the query terms it contains and in which fields. The terms
   * accumulate() noted come from there; the others are read from whichever is shorter: the hits'
   * own term lists (a few hundred terms each, whatever the corpus size) or one pass over each
   * term's posting list (when there are many hits).
   */
  private matchedTokens(slots: number[], terms: QueryTerm[], recorded: number): MatchedToken[][] {
    const rest = terms.slice(recorded);
    let restMasks: Int32Array | null = null;
    if (rest.length > 0) {
      let chunkCost = 0;
      for (const slot of slots) chunkCost += this.slots.termCountOf(slot);
      let postingCost = 0;
      for (const term of rest) postingCost += this.postings.lengthOf(term.termId);
      restMasks = chunkCost <= postingCost ? this.masksFromChunks(slots, rest) : this.masksFromPostings(slots, rest);
    }
    const fieldsOf = (mask: number) => LEXICAL_FIELDS.filter((_, field) => (mask & (1 << field)) !== 0);
    return slots.map((slot, hit) => {
      const matched: MatchedToken[] = [];
      const bits = this.fieldBits[slot]!;
      terms.forEach((term, t) => {
        const mask = t < recorded ? (bits >>> (t * MASK_BITS)) & MASK_ALL : restMasks![hit * rest.length + t - recorded]!;
        if (mask > 0) matched.push({ token: term.token, idf: term.idf, weight: term.weight, fields: fieldsOf(mask) });
      });
      return matched;
    });
  }

  /** masks[hit · terms + t]: field mask of term t in hit, or -1. */
  private masksFromChunks(slots: number[], terms: QueryTerm[]): Int32Array {
    const byTermId = terms.map((_, t) => t).sort((x, y) => terms[x]!.termId - terms[y]!.termId);
    const termIds = byTermId.map((t) => terms[t]!.termId);
    const found = new Int32Array(terms.length);
    const masks = new Int32Array(slots.length * terms.length);
    slots.forEach((slot, hit) => {
      this.slots.fieldMasksOf(slot, termIds, found);
      for (let k = 0; k < byTermId.length; k++) masks[hit * terms.length + byTermId[k]!] = found[k]!;
    });
    return masks;
  }

  private masksFromPostings(slots: number[], terms: QueryTerm[]): Int32Array {
    // Posting lists are read sequentially, so the hits are looked up in slot order.
    const bySlot = slots.map((_, hit) => hit).sort((x, y) => slots[x]! - slots[y]!);
    const sortedSlots = bySlot.map((hit) => slots[hit]!);
    const found = new Int32Array(slots.length);
    const masks = new Int32Array(slots.length * terms.length);
    terms.forEach((term, t) => {
      this.postings.fieldMasksOf(term.termId, sortedSlots, found);
      for (let k = 0; k < bySlot.length; k++) masks[bySlot[k]! * terms.length + t] = found[k]!;
    });
    return masks;
  }

  private averageWeightedLength(): number {
    let total = 0;
    for (let f = 0; f < FIELD_COUNT; f++) total += this.weights[f]! * this.fieldTotals[f]!;
    return total / this.size;
  }

  /**
   * Term id + 1 of each basic-plane character term (GRAM_MARK + the character), 0 = not looked up
   * yet: they are 60 % of a Chinese note's terms, and a lookup by character code needs no hash of
   * the string nor a comparison with the stored one (adding 10,000 synthetic notes' chunks took about
   * a tenth less time).
   */
  private gramIds: Int32Array | null = null;

  private termIdFor(token: string): number {
    if (token.length === 2 && token.charCodeAt(0) === GRAM_CODE) {
      const gramIds = (this.gramIds ??= new Int32Array(0x10000));
      const code = token.charCodeAt(1);
      const known = gramIds[code]!;
      if (known !== 0) return known - 1;
      const termId = this.termIdOf(token);
      gramIds[code] = termId + 1;
      return termId;
    }
    return this.termIdOf(token);
  }

  private termIdOf(token: string): number {
    let termId = this.termIds.get(token);
    if (termId !== undefined) return termId;
    termId = this.postings.addTerm();
    this.termIds.add(token, termId);
    this.documentFrequency = grown(this.documentFrequency, termId + 1);
    this.termTf = grown(this.termTf, termId + 1);
    this.termMask = grown(this.termMask, termId + 1);
    return termId;
  }
}

interface QueryTerm {
  token: string;
  termId: number;
  weight: number;
  idf: number;
}
