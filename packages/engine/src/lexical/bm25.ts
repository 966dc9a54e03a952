import { isSingleCjkChar } from '../text/scripts.ts';
import { MAX_SLOT, POSTING_STRIDE, PostingStore, slotOf } from './postings.ts';

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

/** Removed slots are compacted away once they outnumber live ones (and there are enough to matter). */
const MIN_DEAD_SLOTS_TO_COMPACT = 1024;

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

  // Per slot (a slot is one added chunk; slots are renumbered only by compaction).
  private slotCapacity = 1024;
  private alive = new Uint8Array(this.slotCapacity);
  private weightedLength = new Float64Array(this.slotCapacity);
  /** Each slot's distinct term ids live in one shared arena: [slotTermStart, +slotTermCount). */
  private slotTermStart = new Int32Array(this.slotCapacity);
  private slotTermCount = new Int32Array(this.slotCapacity);
  private termArena = new Int32Array(16 * 1024);
  private termArenaLength = 0;
  private slotFieldLengths = new Int32Array(this.slotCapacity * LEXICAL_FIELDS.length);
  private slotChunkIds: string[] = [];
  private slotDocIds: string[] = [];
  private slotCount = 0;
  private deadSlots = 0;

  private readonly slotByChunk = new Map<string, number>();
  private readonly chunksByDoc = new Map<string, Set<string>>();
  /** Integer token totals per field over live chunks; keeps avgLen exact under add/remove. */
  private readonly fieldTotals = [0, 0, 0, 0];

  // Scratch buffers reused across calls (search and add are synchronous).
  private scores = new Float64Array(this.slotCapacity);
  private touched = new Int32Array(this.slotCapacity);
  private termScratchTf = new Float64Array(1024);
  private termScratchMask = new Uint8Array(1024);

  private readonly isAlive = (slot: number): boolean => this.alive[slot] === 1;

  constructor(options: LexicalOptions) {
    this.options = options;
    this.weights = Float64Array.from(LEXICAL_FIELDS, (field) => options.fieldWeights[field]);
  }

  /** Live chunks. */
  get size(): number {
    return this.slotByChunk.size;
  }

  hasIdf(): boolean {
    return this.size > 0;
  }

  /** IDF of a token over live chunks; 0 when no live chunk contains it. */
  idf(token: string): number {
    const termId = this.termIds.get(token);
    if (termId === undefined) return 0;
    const df = this.documentFrequency[termId]!;
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
    const slot = this.allocateSlot(entry);
    let tokenCount = 0;
    for (const field of LEXICAL_FIELDS) tokenCount += entry.fields[field].length;
    if (this.termArenaLength + tokenCount > this.termArena.length) {
      this.termArena = grow(this.termArena, this.termArenaLength + tokenCount);
    }
    const arena = this.termArena;
    const arenaStart = this.termArenaLength;
    let termCount = 0;
    let length = 0;
    for (let fieldIndex = 0; fieldIndex < LEXICAL_FIELDS.length; fieldIndex++) {
      const tokens = entry.fields[LEXICAL_FIELDS[fieldIndex]!];
      const weight = this.weights[fieldIndex]!;
      const bit = 1 << fieldIndex;
      this.slotFieldLengths[slot * LEXICAL_FIELDS.length + fieldIndex] = tokens.length;
      this.fieldTotals[fieldIndex]! += tokens.length;
      length += weight * tokens.length;
      for (let i = 0; i < tokens.length; i++) {
        const termId = this.termIdFor(tokens[i]!);
        // Read the scratch arrays after termIdFor: it may have replaced them with larger ones.
        const mask = this.termScratchMask;
        if (mask[termId] === 0) arena[arenaStart + termCount++] = termId;
        mask[termId] = mask[termId]! | bit;
        this.termScratchTf[termId] = this.termScratchTf[termId]! + weight;
      }
    }
    this.weightedLength[slot] = length;
    const mask = this.termScratchMask;
    const tf = this.termScratchTf;
    for (let i = arenaStart; i < arenaStart + termCount; i++) {
      const termId = arena[i]!;
      this.postings.append(termId, slot, mask[termId]!, tf[termId]!);
      this.documentFrequency[termId]!++;
      mask[termId] = 0;
      tf[termId] = 0;
    }
    this.slotTermStart[slot] = arenaStart;
    this.slotTermCount[slot] = termCount;
    this.termArenaLength += termCount;
  }

  /** Removes a chunk; false when it was not indexed. IDF and average length stay exact. */
  remove(chunkId: string): boolean {
    const slot = this.slotByChunk.get(chunkId);
    if (slot === undefined) return false;
    this.slotByChunk.delete(chunkId);
    const docId = this.slotDocIds[slot]!;
    const siblings = this.chunksByDoc.get(docId);
    siblings?.delete(chunkId);
    if (siblings?.size === 0) this.chunksByDoc.delete(docId);

    this.alive[slot] = 0;
    for (let f = 0; f < LEXICAL_FIELDS.length; f++) {
      this.fieldTotals[f]! -= this.slotFieldLengths[slot * LEXICAL_FIELDS.length + f]!;
    }
    const termStart = this.slotTermStart[slot]!;
    for (let i = termStart; i < termStart + this.slotTermCount[slot]!; i++) {
      const termId = this.termArena[i]!;
      this.documentFrequency[termId]!--;
      this.postings.markDead(termId, this.isAlive);
    }
    this.deadSlots++;
    if (this.deadSlots > MIN_DEAD_SLOTS_TO_COMPACT && this.deadSlots * 2 > this.slotCount) this.compactSlots();
    return true;
  }

  /**
   * Files postings added since the last search. Searches do this on demand; call it after a bulk
   * build to keep that one-off cost out of the first query.
   */
  flush(): void {
    this.postings.flush();
  }

  /** Removes every chunk of a document; returns how many were removed. */
  removeDocument(docId: string): number {
    const chunkIds = [...(this.chunksByDoc.get(docId) ?? [])];
    for (const chunkId of chunkIds) this.remove(chunkId);
    return chunkIds.length;
  }

  /**
   * Top `limit` chunks for the query tokens. Duplicate tokens count once; unknown tokens are
   * ignored. Equal scores are ordered by chunkId so results are deterministic.
   */
  search(queryTokens: readonly string[], limit: number): LexicalHit[] {
    if (limit <= 0 || this.size === 0) return [];
    const terms = this.queryTerms(queryTokens);
    if (terms.length === 0) return [];

    const { k1, b } = this.options;
    const avgLength = this.averageWeightedLength();
    const lengthScale = avgLength > 0 ? (k1 * b) / avgLength : 0;
    const lengthBase = k1 * (1 - b);
    const scores = this.scores;
    const touched = this.touched;
    const alive = this.alive;
    const weightedLength = this.weightedLength;
    let touchedCount = 0;

    this.postings.flush();
    const data = this.postings.arena;
    const tf = this.postings.arenaTf;
    for (const term of terms) {
      const factor = term.weight * term.idf;
      const begin = this.postings.startOf(term.termId) * POSTING_STRIDE;
      const end = begin + this.postings.lengthOf(term.termId) * POSTING_STRIDE;
      for (let at = begin; at < end; at += POSTING_STRIDE) {
        const slot = slotOf(data[at]!);
        const wtf = tf[at + 1]!;
        // wtf is 0 when the token only occurs in zero-weight fields: no contribution.
        if (alive[slot] === 0 || wtf <= 0) continue;
        // Every contribution is > 0, so a score of 0 means "first time this slot is seen".
        const previous = scores[slot]!;
        if (previous === 0) touched[touchedCount++] = slot;
        scores[slot] = previous + (factor * wtf) / (wtf + lengthBase + lengthScale * weightedLength[slot]!);
      }
    }

    const top = this.selectTop(touchedCount, limit);
    // Reset only what was written, so a search costs O(postings read), not O(chunks).
    for (let i = 0; i < touchedCount; i++) scores[touched[i]!] = 0;
    return top.map(({ slot, score }, index) => ({
      chunkId: this.slotChunkIds[slot]!,
      docId: this.slotDocIds[slot]!,
      score,
      rank: index + 1,
      matched: this.matchedTokens(slot, terms),
    }));
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

  /** Keeps the best `limit` touched slots in a small sorted buffer (limit is tens, touched up to N). */
  private selectTop(touchedCount: number, limit: number): { slot: number; score: number }[] {
    const best: { slot: number; score: number }[] = [];
    for (let i = 0; i < touchedCount; i++) {
      const slot = this.touched[i]!;
      const score = this.scores[slot]!;
      if (best.length === limit && !this.ranksBefore(slot, score, best[limit - 1]!)) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      if (best.length < limit) best.push({ slot, score });
      while (at > 0 && this.ranksBefore(slot, score, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = { slot, score };
    }
    return best;
  }

  private ranksBefore(slot: number, score: number, other: { slot: number; score: number }): boolean {
    if (score !== other.score) return score > other.score;
    return this.slotChunkIds[slot]! < this.slotChunkIds[other.slot]!;
  }

  private matchedTokens(slot: number, terms: QueryTerm[]): MatchedToken[] {
    const matched: MatchedToken[] = [];
    for (const term of terms) {
      const mask = this.postings.fieldMaskOf(term.termId, slot);
      if (mask < 0) continue;
      const fields = LEXICAL_FIELDS.filter((_, fieldIndex) => (mask & (1 << fieldIndex)) !== 0);
      matched.push({ token: term.token, idf: term.idf, weight: term.weight, fields });
    }
    return matched;
  }

  private averageWeightedLength(): number {
    let total = 0;
    for (let f = 0; f < LEXICAL_FIELDS.length; f++) total += this.weights[f]! * this.fieldTotals[f]!;
    return total / this.size;
  }

  private termIdFor(token: string): number {
    let termId = this.termIds.get(token);
    if (termId !== undefined) return termId;
    termId = this.postings.addTerm();
    this.termIds.set(token, termId);
    if (termId >= this.documentFrequency.length) {
      this.documentFrequency = grow(this.documentFrequency, termId + 1);
      this.termScratchTf = grow(this.termScratchTf, termId + 1);
      this.termScratchMask = grow(this.termScratchMask, termId + 1);
    }
    return termId;
  }

  private allocateSlot(entry: LexicalEntry): number {
    if (this.slotCount === this.slotCapacity) this.growSlots(this.slotCapacity * 2);
    if (this.slotCount > MAX_SLOT) throw new Error(`lexical index holds more than ${MAX_SLOT} chunks`);
    const slot = this.slotCount++;
    this.alive[slot] = 1;
    this.slotChunkIds[slot] = entry.chunkId;
    this.slotDocIds[slot] = entry.docId;
    this.slotByChunk.set(entry.chunkId, slot);
    let siblings = this.chunksByDoc.get(entry.docId);
    if (!siblings) this.chunksByDoc.set(entry.docId, (siblings = new Set()));
    siblings.add(entry.chunkId);
    return slot;
  }

  private growSlots(capacity: number): void {
    this.slotCapacity = capacity;
    this.alive = grow(this.alive, capacity);
    this.weightedLength = grow(this.weightedLength, capacity);
    this.slotFieldLengths = grow(this.slotFieldLengths, capacity * LEXICAL_FIELDS.length);
    this.slotTermStart = grow(this.slotTermStart, capacity);
    this.slotTermCount = grow(this.slotTermCount, capacity);
    this.scores = grow(this.scores, capacity);
    this.touched = grow(this.touched, capacity);
  }

  /** Renumbers live slots densely (order preserved, so posting lists stay sorted). */
  private compactSlots(): void {
    const remap = new Int32Array(this.slotCount).fill(-1);
    const arena = new Int32Array(this.termArena.length);
    let arenaLength = 0;
    let next = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (!this.alive[slot]) continue;
      remap[slot] = next;
      this.alive[next] = 1;
      this.weightedLength[next] = this.weightedLength[slot]!;
      const termStart = this.slotTermStart[slot]!;
      const termCount = this.slotTermCount[slot]!;
      arena.set(this.termArena.subarray(termStart, termStart + termCount), arenaLength);
      this.slotTermStart[next] = arenaLength;
      this.slotTermCount[next] = termCount;
      arenaLength += termCount;
      this.slotChunkIds[next] = this.slotChunkIds[slot]!;
      this.slotDocIds[next] = this.slotDocIds[slot]!;
      this.slotFieldLengths.copyWithin(
        next * LEXICAL_FIELDS.length,
        slot * LEXICAL_FIELDS.length,
        (slot + 1) * LEXICAL_FIELDS.length,
      );
      this.slotByChunk.set(this.slotChunkIds[next]!, next);
      next++;
    }
    this.alive.fill(0, next, this.slotCount);
    this.termArena = arena;
    this.termArenaLength = arenaLength;
    this.slotChunkIds.length = next;
    this.slotDocIds.length = next;
    this.postings.rewriteAll((slot) => remap[slot]!);
    this.slotCount = next;
    this.deadSlots = 0;
  }
}

interface QueryTerm {
  token: string;
  termId: number;
  weight: number;
  idf: number;
}

type GrowableArray = Uint8Array | Int32Array | Float64Array;

function grow<T extends GrowableArray>(array: T, minLength: number): T {
  let length = Math.max(array.length, 16);
  while (length < minLength) length *= 2;
  if (length === array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(length);
  grown.set(array);
  return grown;
}
