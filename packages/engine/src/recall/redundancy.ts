// Notes that repeat a better note's matching sentences, moved down. A memory store repeats its
// sentences: a fact noted again inside a longer note, a paragraph quoted in a summary, an import that
// mixes old lines into new notes. Near-duplicate folding (near-duplicates.ts) catches copies of a
// whole note; this catches notes that share only the sentences a question matches. When every
// sentence of a candidate that holds a query word is already in a candidate ranked above it, showing
// it adds nothing the injected memory does not already say, and it takes a slot from a note that says
// more — often the one the question is about, whose other sentences hold the answer. Such candidates
// keep their order but go after the others; nothing is removed. Pure.

import { latinTerms } from '../text/latin.ts';
import { comparedWording } from '../text/taiwan-words.ts';
import { forEachRun } from '../text/scripts.ts';
import { HAS_CJK, SENTENCE_END } from './phrase.ts';

/** How many of the first candidates are compared (only the first K·2 reach the injected memory). */
export const REDUNDANCY_WINDOW = 64;

/** The terms the index reads from a sentence's Latin and digit words (text/latin.ts: stems, identifier parts). */
function latinTermsOf(sentence: string): Set<string> {
  const out: string[] = [];
  forEachRun(sentence.normalize('NFKC'), () => {}, (word) => latinTerms(word, out));
  return new Set(out);
}

/**
 * The sentences of `text` (lower-cased, trimmed) that hold at least one of the query's `words` as the
 * index reads them: a word with a CJK character anywhere in the sentence (traditional characters
 * folded and Taiwan words read as the mainland's, as the words are: text/taiwan-words.ts), a Latin or digit term (lower-cased, stemmed: "studi")
 * among the sentence's own terms.
 */
export function matchingSentences(text: string, words: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (words.length === 0) return out;
  const cjk = words.filter((w) => HAS_CJK.test(w));
  const latin = words.filter((w) => !HAS_CJK.test(w));
  for (const raw of comparedWording(text).split(SENTENCE_END)) {
    const sentence = raw.trim().toLowerCase();
    if (!sentence) continue;
    if (cjk.some((w) => sentence.includes(w))) out.add(sentence);
    else if (latin.length > 0) {
      const terms = latinTermsOf(raw);
      if (latin.some((w) => terms.has(w))) out.add(sentence);
    }
  }
  return out;
}

export interface RedundantMove<T> {
  moved: T;
  /** The candidate above it that holds all of its matching sentences. */
  coveredBy: T;
  /** How many matching sentences it had. */
  sentences: number;
}

/**
 * `candidates` in rank order with each one that repeats an earlier kept candidate's matching
 * sentences moved after the others of the window (the first REDUNDANCY_WINDOW), in their order;
 * candidates past the window follow unchanged. A candidate with no matching sentence (found by the
 * semantic channel alone, or by characters) is never moved and covers nothing.
 */
export function demoteRedundant<T>(candidates: readonly T[], textOf: (c: T) => string | undefined, words: readonly string[], window = REDUNDANCY_WINDOW): { ordered: T[]; moves: RedundantMove<T>[] } {
  const head = candidates.slice(0, window);
  if (words.length === 0 || head.length < 2) return { ordered: [...candidates], moves: [] };
  const kept: { c: T; sentences: Set<string> }[] = [];
  const moves: RedundantMove<T>[] = [];
  for (const c of head) {
    const sentences = matchingSentences(textOf(c) ?? '', words);
    const cover = sentences.size === 0 ? undefined : kept.find((k) => k.sentences.size >= sentences.size && [...sentences].every((s) => k.sentences.has(s)));
    if (cover) moves.push({ moved: c, coveredBy: cover.c, sentences: sentences.size });
    else kept.push({ c, sentences });
  }
  if (moves.length === 0) return { ordered: [...candidates], moves };
  return { ordered: [...kept.map((k) => k.c), ...moves.map((m) => m.moved), ...candidates.slice(window)], moves };
}
