import { isSingleCjkChar } from '../text/scripts.ts';
import { MAX_SLOT, POSTING_STRIDE, PostingStore, postingSlot } from './postings.ts';
import { ChunkSlots, FIELD_COUNT, grown } from './slots.ts';
import { selectTop } from './top.ts';

export const LEXICAL_FIELDS = ['title', 'summary', 'tags', 'body'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];

export interface LexicalEntry {
  chunkId: string;
  docId: string;
  /** Tokens per field, as produced by the tokenizer (repeats count as term frequency). */
  fields: Record<LexicalField, string[]>;
}

export interface LexicalOptions {
  /** Term-frequency saturation. Config default 1.2. */
  k1: number;
  /** Length normalisation strength, 0..1. Config default 0.75. */
  b: number;
  /** Multipliers for term frequency and length per field (BM25F). Config default 3 / 2 / 2.5 / 1. */
  fieldWeights: Record<LexicalField, number>;
  /** Query weight of a single CJK character token; 0 ignores such tokens. Config default 0.15. */
  singleCharWeight: number;
}

export interface MatchedToken {
  token: string;
  idf: number;
  /** Query-side weight: singleCharWeight for a single CJK character, else 1. */
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

  private readonly termIds = new Map<string, number>();
  private readonly postings = new PostingStore();
  private documentFrequency = new Int32Array(1024);
  private readonly slots = new ChunkSlots();
  /** Integer token totals per field over live chunks; keeps avgLen exact under add/remove. */
  private readonly fieldTotals = new Float64Array(FIELD_COUNT);

  // Scratch buffers reused across calls (add and search are synchronous).
  private chunkTerms = new Int32Array(256);
  private termTf = new Float64Array(1024);
  private termMask = new Uint8Array(1024);
  private scores = new Float64Array(1024);
  private touched = new Int32Array(1024);

  private readonly isAlive = (slot: number): boolean => this.slots.alive[slot] === 1;

  constructor(options: LexicalOptions) {
    this.options = options;
    this.weights = Float64Array.from(LEXICAL_FIELDS, (field) => options.fieldWeights[field]);
  }

  /** Live chunks. */
  get size(): number {
    return this.slots.size;
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
    for (const field of LEXICAL_FIELDS) tokenCount += entry.fields[field].length;
    this.chunkTerms = grown(this.chunkTerms, tokenCount);
    const chunkTerms = this.chunkTerms;
    const fieldLengths = LEXICAL_FIELDS.map((field) => entry.fields[field].length);
    let termCount = 0;
    let length = 0;
    for (let field = 0; field < FIELD_COUNT; field++) {
      const tokens = entry.fields[LEXICAL_FIELDS[field]!];
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
    const terms = chunkTerms.subarray(0, termCount);
    const slot = this.slots.add(entry.chunkId, entry.docId, length, fieldLengths, terms);
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

  /**
   * Top `limit` chunks for the query tokens. Duplicate tokens count once; unknown tokens are
   * ignored. Equal scores are ordered by chunkId so results are deterministic.
   */
  search(queryTokens: readonly string[], limit: number): LexicalHit[] {
    if (limit <= 0 || this.size === 0) return [];
    const terms = this.queryTerms(queryTokens);
    if (terms.length === 0) return [];
    const touchedCount = this.accumulate(terms);
    const byChunkId = (a: number, b: number) => this.slots.chunkIdAt(a) < this.slots.chunkIdAt(b);
    const top = selectTop(this.touched, touchedCount, this.scores, limit, byChunkId);
    // Reset only what was written, so a search costs O(postings read), not O(chunks).
    for (let i = 0; i < touchedCount; i++) this.scores[this.touched[i]!] = 0;
    return top.map(({ slot, score }, index) => ({
      chunkId: this.slots.chunkIdAt(slot),
      docId: this.slots.docIdAt(slot),
      score,
      rank: index + 1,
      matched: this.matchedTokens(slot, terms),
    }));
  }

  /** Adds every query term's contribution into `scores`; returns how many slots were touched. */
  private accumulate(terms: QueryTerm[]): number {
    if (this.scores.length < this.slots.slotLimit) {
      this.scores = grown(this.scores, this.slots.slotLimit);
      this.touched = grown(this.touched, this.slots.slotLimit);
    }
    const { k1, b } = this.options;
    const avgLength = this.averageWeightedLength();
    const lengthScale = avgLength > 0 ? (k1 * b) / avgLength : 0;
    const lengthBase = k1 * (1 - b);
    const { scores, touched } = this;
    const { alive, weightedLength } = this.slots;
    this.postings.flush();
    const { arena, arenaTf } = this.postings;
    let touchedCount = 0;
    for (const term of terms) {
      const factor = term.weight * term.idf;
      const begin = this.postings.startOf(term.termId) * POSTING_STRIDE;
      const end = begin + this.postings.lengthOf(term.termId) * POSTING_STRIDE;
      for (let at = begin; at < end; at += POSTING_STRIDE) {
        const slot = postingSlot(arena[at]!);
        const wtf = arenaTf[at + 1]!;
        // wtf is 0 when the token only occurs in zero-weight fields: no contribution.
        if (alive[slot] === 0 || wtf <= 0) continue;
        // Every contribution is > 0, so a score of 0 means "first time this slot is seen".
        const previous = scores[slot]!;
        if (previous === 0) touched[touchedCount++] = slot;
        scores[slot] = previous + (factor * wtf) / (wtf + lengthBase + lengthScale * weightedLength[slot]!);
      }
    }
    return touchedCount;
  }

  private queryTerms(queryTokens: readonly string[]): QueryTerm[] {
    const seen = new Set<string>();
    const terms: QueryTerm[] = [];
    for (const token of queryTokens) {
      if (seen.has(token)) continue;
      seen.add(token);
      const termId = this.termIds.get(token);
      if (termId === undefined || this.documentFrequency[termId] === 0) continue;
      const weight = isSingleCjkChar(token) ? this.options.singleCharWeight : 1;
      if (weight <= 0) continue;
      terms.push({ token, termId, weight, idf: bm25Idf(this.size, this.documentFrequency[termId]!) });
    }
    return terms;
  }

  private matchedTokens(slot: number, terms: QueryTerm[]): MatchedToken[] {
    const matched: MatchedToken[] = [];
    for (const term of terms) {
      const mask = this.postings.fieldMaskOf(term.termId, slot);
      if (mask < 0) continue;
      const fields = LEXICAL_FIELDS.filter((_, field) => (mask & (1 << field)) !== 0);
      matched.push({ token: term.token, idf: term.idf, weight: term.weight, fields });
    }
    return matched;
  }

  private averageWeightedLength(): number {
    let total = 0;
    for (let f = 0; f < FIELD_COUNT; f++) total += this.weights[f]! * this.fieldTotals[f]!;
    return total / this.size;
  }

  private termIdFor(token: string): number {
    let termId = this.termIds.get(token);
    if (termId !== undefined) return termId;
    termId = this.postings.addTerm();
    this.termIds.set(token, termId);
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
