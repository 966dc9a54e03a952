// Stage 3 — semantic: cosine over the in-memory vectors, in scope. Skipped, with the reason, when the
// channel is excluded (only=lexical), not configured or failing; recall then goes on lexical only.
import type { SemanticSearchResult } from '../deps.ts';
import { SCOPED_OVERFETCH, type RecallStage } from '../run.ts';

export const semantic: RecallStage = {
  name: 'semantic',
  async run(candidates, run) {
    const { deps, cfg, options } = run;
    const scoped = run.scope.workspace !== null;
    let result: SemanticSearchResult;
    if (options.only === 'lexical') result = { ran: false, skipped: 'excluded by only=lexical' };
    else if (!deps.semantic) result = { ran: false, skipped: 'semantic channel not configured' };
    else {
      try {
        result = await deps.semantic.search(run.query, scoped ? cfg.semanticLimit * SCOPED_OVERFETCH : cfg.semanticLimit, { signal: options.signal });
      } catch (e) {
        result = { ran: false, skipped: `semantic search failed: ${e instanceof Error ? e.message : String(e)}` };
      }
    }
    run.semantic = result;
    run.semanticHits = result.ran
      ? result.hits.flatMap((h) => {
          const docId = deps.docOfChunk(h.chunkId);
          return docId && (!scoped || run.inScope(docId)) ? [{ chunkId: h.chunkId, docId, score: h.score }] : [];
        }).slice(0, cfg.semanticLimit)
      : [];
    return {
      candidates,
      record: {
        kept: run.semanticHits.length,
        dropped: 0,
        ...(result.ran ? (result.partial ? { note: result.partial } : {}) : { note: result.skipped }),
        explain: {
          semantic: {
            ran: result.ran,
            skipped: result.ran ? null : result.skipped,
            candidates: run.semanticHits.length,
            background: result.ran ? (result.background ?? null) : null,
            ...(result.ran && result.partial ? { partial: result.partial } : {}),
          },
        },
      },
    };
  },
};
