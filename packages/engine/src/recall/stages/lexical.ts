// Stage 2 — lexical: BM25F over title / summary / tags / body, limited to the recall's workspace +
// global (over-fetching when scoped, so other workspaces cannot crowd ours out).
import { SCOPED_OVERFETCH, type RecallStage } from '../run.ts';

export const lexical: RecallStage = {
  name: 'lexical',
  run(candidates, run) {
    const { deps, cfg, options } = run;
    const tokens = run.analysis.tokens;
    const scoped = run.scope.workspace !== null;
    const all = options.only === 'semantic' || tokens.length === 0 ? [] : deps.lexical.search(tokens.map((x) => x.token), scoped ? cfg.lexicalLimit * SCOPED_OVERFETCH : cfg.lexicalLimit);
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
