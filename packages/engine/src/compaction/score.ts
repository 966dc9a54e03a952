// Local lexical scoring of a session's stored blocks against a question: the engine's BM25F index
// (lexical/bm25.ts) over title / keywords / body with their own weights (3 / 4 / 1 by default), the
// engine's tokenizer, and a score normalised to 0..1 so one threshold means the same thing in a
// session of ten blocks and of a thousand. Pure apart from the in-memory index it builds.
import { bm25Idf, LexicalIndex } from '../lexical/bm25.ts';
import { isSingleCjkChar } from '../text/scripts.ts';
import { jaccard } from './text.ts';

/** The least a question's unknown words can scale a score down to. */
export const COVERAGE_FLOOR = 0.5;

export interface ScorableBlock {
  id: string;
  title: string;
  keywords: readonly string[];
  body: string;
}

export interface ScoreWeights {
  title: number;
  keywords: number;
  body: number;
}

export interface ScorerOptions {
  weights: ScoreWeights;
  singleCharWeight: number;
  k1?: number;
  b?: number;
}

export interface ScoredBlock {
  id: string;
  /** Share of the question's weight this block explains, 0..1 (see `normalisedScores`). */
  score: number;
  raw: number;
  matched: string[];
}

export class BlockScorer {
  private readonly index: LexicalIndex;
  private readonly singleCharWeight: number;

  constructor(
    blocks: readonly ScorableBlock[],
    private readonly tokenize: (text: string) => string[],
    options: ScorerOptions,
  ) {
    this.singleCharWeight = options.singleCharWeight;
    this.index = new LexicalIndex({
      k1: options.k1 ?? 1.2,
      b: options.b ?? 0.75,
      fieldWeights: { title: options.weights.title, summary: 0, tags: options.weights.keywords, body: options.weights.body },
      singleCharWeight: options.singleCharWeight,
    });
    for (const block of blocks) {
      this.index.add({
        chunkId: block.id,
        docId: block.id,
        fields: { title: tokenize(block.title), summary: [], tags: block.keywords.flatMap((k) => tokenize(k)), body: tokenize(block.body) },
      });
    }
    this.index.finishBulkAdd();
  }

  get size(): number {
    return this.index.size;
  }

  /**
   * Blocks that match the question, best first, with a score in 0..1:
   *   quality  = raw BM25F / Σ weight · idf over the question's tokens the session has used
   *              (1 would be every known token saturated in every field);
   *   coverage = share of the question's words (tokens of two or more characters) the session has used;
   *   score    = quality · (COVERAGE_FLOOR + (1 − COVERAGE_FLOOR) · coverage).
   * Coverage only scales the score down to half: conversational filler ("来着", "之前") and the
   * bigrams around single characters are rarely in the history, and must not sink a question whose
   * topic word is. A question with no known word scores nothing (single characters alone never hit).
   */
  score(query: string, limit = 20): ScoredBlock[] {
    const tokens = [...new Set(this.tokenize(query))];
    const n = this.index.size;
    if (n === 0 || tokens.length === 0) return [];
    let ceiling = 0;
    let words = 0;
    let knownWords = 0;
    for (const token of tokens) {
      const single = isSingleCjkChar(token);
      const df = this.index.documentFrequencyOf(token);
      if (!single) {
        words++;
        if (df > 0) knownWords++;
      }
      const weight = single ? this.singleCharWeight : 1;
      if (weight > 0 && df > 0) ceiling += weight * bm25Idf(n, df);
    }
    if (knownWords === 0 || ceiling <= 0) return [];
    const scale = COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * (knownWords / words);
    return this.index.search(tokens, limit).map((hit) => ({
      id: hit.chunkId,
      score: Math.min(1, hit.score / ceiling) * scale,
      raw: hit.score,
      matched: hit.matched.map((m) => m.token),
    }));
  }
}

/** Same topic as the previous question: skip scoring (the blocks it found are still in place). */
export function sameTopic(previous: ReadonlySet<string> | null, current: ReadonlySet<string>, threshold: number): boolean {
  if (!previous || previous.size === 0 || current.size === 0) return false;
  return jaccard(previous, current) >= threshold;
}
