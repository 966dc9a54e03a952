// How rare a query word is, for the gates (distinctive term, specificity, the hybrid gate's rarity).
// The store's own counts alone punish repetition: a fact noted thirty times makes its words look
// common, and the specificity gate then removes the very notes the question is about. So:
// - the store's document frequency counts a group of near-duplicate notes once (the groups found among
//   the recall's candidates, recall/near-duplicates.ts), and
// - a word the general-language table (jieba's IDF) rates as rarer than the store does keeps that
//   rarity, on the store's scale: a store full of one topic cannot make the topic's name look common.
// The ranking itself (BM25) still reads the store's plain counts. Pure.
import { bm25Idf } from '../lexical/bm25.ts';

/** Where a word's gate rarity came from. */
export type RaritySource = 'store' | 'language' | 'blend';

export interface TermRarity {
  token: string;
  /** Chunks of the store holding the word. */
  storeDf: number;
  /** The same, a near-duplicate group counted once. */
  groupedDf: number;
  /** The store's IDF of the word (what BM25 ranks with). */
  storeIdf: number;
  /** The general-language table's IDF, or null when the table does not know the word. */
  languageIdf: number | null;
  /** The IDF the gates read. */
  idf: number;
  /**
   * 'store': the table does not know the word, the grouped store count decides; 'blend': both were
   * read and the grouped store count was the rarer; 'language': both were read and the table's rarity
   * (on the store's scale) was the higher.
   */
  source: RaritySource;
}

/** Share of the store's highest IDF that a word as rare as the general table's rarest reaches. */
export const LANGUAGE_RARITY_SHARE = process.env.ENGRAM_EVAL_RARITY_SHARE !== undefined ? Number(process.env.ENGRAM_EVAL_RARITY_SHARE) : 0.8;

/** The document frequency behind a BM25 IDF over `n` chunks (the inverse of bm25Idf; 0 for an unknown word). */
export function documentFrequencyOf(idf: number, n: number): number {
  if (!(idf > 0) || n <= 0) return 0;
  const r = Math.exp(idf) - 1;
  return Math.max(1, Math.round((n + 0.5 - 0.5 * r) / (r + 1)));
}

/**
 * Copies beyond the first that a word has in each near-duplicate group: `holds(chunkId, token)`
 * says whether a candidate matched the word.
 */
export function redundantCopies(token: string, groups: readonly (readonly string[])[], holds: (chunkId: string, token: string) => boolean): number {
  let extra = 0;
  for (const members of groups) {
    let n = 0;
    for (const id of members) if (holds(id, token)) n++;
    if (n > 1) extra += n - 1;
  }
  return extra;
}

/**
 * The gate rarity of one word. `languageIdf` is the general table's IDF (null = unknown to it: a name,
 * a code, or a pair made across a word boundary — unknown is not rare, so the store decides);
 * `languageCeiling` is the table's value for its rarest words.
 */
export function termRarity(
  input: { token: string; storeIdf: number; chunkCount: number; redundant: number; languageIdf: number | null },
  languageCeiling: number,
  share = LANGUAGE_RARITY_SHARE,
): TermRarity {
  const n = Math.max(1, input.chunkCount);
  const storeDf = documentFrequencyOf(input.storeIdf, n);
  const groupedDf = storeDf > 0 ? Math.max(1, storeDf - input.redundant) : 0;
  const grouped = groupedDf > 0 ? bm25Idf(n, groupedDf) : 0;
  const base = { token: input.token, storeDf, groupedDf, storeIdf: input.storeIdf, languageIdf: input.languageIdf };
  if (input.languageIdf === null || storeDf === 0) return { ...base, idf: grouped, source: 'store' };
  const language = share * bm25Idf(n, 1) * Math.min(1, input.languageIdf / languageCeiling);
  return language > grouped ? { ...base, idf: language, source: 'language' } : { ...base, idf: grouped, source: 'blend' };
}
