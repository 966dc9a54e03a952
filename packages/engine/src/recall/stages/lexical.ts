// Stage 2 — lexical: BM25F over title / summary / tags / body, limited to the recall's workspace +
// global (over-fetching when scoped, so other workspaces cannot crowd ours out).
import { cjkGrams, isGram } from '../../text/grams.ts';
import { SCOPED_OVERFETCH, type RecallStage } from '../run.ts';
import type { QueryToken } from '../types.ts';

/** The weight each query word ranks with (QueryToken.weight); a word typed and added by an alias ranks as typed. */
function rankingWeights(tokens: readonly QueryToken[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const t of tokens) if (!t.fromAlias || !weights.has(t.token)) weights.set(t.token, t.weight);
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
    const found = options.only === 'semantic' || tokens.length === 0 ? [] : deps.lexical.search(terms, limit, rankingWeights(tokens));
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
