// Stage 2 — lexical: BM25F over title / summary / tags / body, limited to the recall's workspace +
// global (over-fetching when scoped, so other workspaces cannot crowd ours out).
import { cjkGrams, isGram } from '../../text/grams.ts';
import { HAS_CJK } from '../phrase.ts';
import { SCOPED_OVERFETCH, type RecallStage } from '../run.ts';

/**
 * The query weight of a word with no CJK character (an English word, a number, a code identifier).
 * A Chinese word ranks twice, as itself and as its characters; such a word has one spelling, so at
 * weight 1 it counted about half: at 20,000 notes 能给我介绍一下什么是BCPL么 ranked the one note on
 * BCPL below thirty that only say 介绍. Chosen on the growth benchmark's tuning half (2 and 3 gave
 * the same; docs/benchmarks.md). A question in English alone ranks as at 1: all its words scale.
 */
export const UNSPELLED_WORD_WEIGHT = 2;

/** The query weights that differ from the index's own: the words the characters do not spell again. */
function unspelledWeights(words: readonly { token: string; fromAlias?: boolean }[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const w of words) if (!w.fromAlias && !HAS_CJK.test(w.token)) weights.set(w.token, UNSPELLED_WORD_WEIGHT);
  return weights;
}

export const lexical: RecallStage = {
  name: 'lexical',
  run(candidates, run) {
    const { deps, cfg, options } = run;
    const tokens = run.analysis.tokens;
    const scoped = run.scope.workspace !== null;
    // The words and their character grams rank together (text/grams.ts); the gates read the words only.
    const words = tokens.map((x) => x.token);
    const terms = [...words, ...cjkGrams(tokens.filter((x) => !x.fromAlias).map((x) => x.token))];
    const limit = scoped ? cfg.lexicalLimit * SCOPED_OVERFETCH : cfg.lexicalLimit;
    const found = options.only === 'semantic' || tokens.length === 0 ? [] : deps.lexical.search(terms, limit, unspelledWeights(tokens));
    const all = found.map((h) => ({ ...h, matched: h.matched.filter((m) => !isGram(m.token)) }));
    run.lexicalHits = scoped ? all.filter((h) => run.inScope(h.docId)).slice(0, cfg.lexicalLimit) : all;
    return {
      candidates,
      record: {
        kept: run.lexicalHits.length,
        dropped: all.length - run.lexicalHits.length,
        ...(scoped ? { note: `scope: ${run.scope.workspace} + global` } : {}),
        explain: { lexical: { candidates: run.lexicalHits.length } },
      },
    };
  },
};
