// Stage 9 — select: the first K candidates within the maxChars budget (the last one cut to fit), as
// the hits that would be injected, each with its channel ranks, matched words, coverage and scope.
import { fitToBudget } from '../render.ts';
import type { RecallStage } from '../run.ts';
import { blankDocMeta, hitScope } from '../scope.ts';
import type { RecallHit } from '../types.ts';

export const select: RecallStage = {
  name: 'select',
  run(candidates, run) {
    const { deps, cfg } = run;
    const top = candidates.slice(0, run.k).map((c) => ({ c, text: run.texts.get(c.chunkId) ?? '' }));
    const budget = fitToBudget(top, cfg.maxChars);
    run.hits = budget.kept.map(({ c, text }): RecallHit => {
      const meta = deps.doc(c.docId) ?? blankDocMeta(c.docId);
      return {
        ...meta,
        chunkId: c.chunkId,
        scope: hitScope(run.scope, meta.workspace),
        score: c.score,
        channels: { lexical: c.lexical, semantic: c.semantic, fused: c.fused, decay: c.decay, phrase: c.phrase ?? null },
        matched: c.matched,
        coverage: c.coverage,
        folded: c.folded,
        ...(c.duplicates ? { duplicates: c.duplicates } : {}),
        text,
        evidence: c.evidence,
      };
    });
    return {
      candidates: budget.kept.map(({ c }) => c),
      record: {
        kept: budget.kept.length,
        dropped: run.collapsed - budget.kept.length,
        note: `k=${run.k}, maxChars=${cfg.maxChars}`,
        explain: { maxChars: { limit: cfg.maxChars, used: budget.used, truncatedItems: budget.truncated } },
      },
    };
  },
};
