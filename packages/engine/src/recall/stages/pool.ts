// Stage 7 — pool: dynamic K (kBase + one per distinctive token beyond two, within kMin..kMax, or the
// caller's k), and the chunk texts of the candidates the judge and select look at. The judge sees a
// few more than K, so its drops can be refilled from the next ranks.
import type { RecallStage } from '../run.ts';
import { chooseK } from '../scoring.ts';

export const pool: RecallStage = {
  name: 'pool',
  async run(candidates, run) {
    const { k, reason } = chooseK(run.analysis.distinctive.size, run.cfg, run.options.k);
    run.k = k;
    const kept = candidates.slice(0, Math.max(k * 2, k));
    // The duplicates stage read most of these already.
    const missing = kept.map((c) => c.chunkId).filter((id) => !run.texts.has(id));
    const read = missing.length > 0 ? await run.deps.chunkTexts(missing) : new Map<string, string>();
    run.texts = new Map(kept.flatMap((c) => {
      const text = run.texts.get(c.chunkId) ?? read.get(c.chunkId);
      return text === undefined ? [] : [[c.chunkId, text] as [string, string]];
    }));
    return { candidates: kept, record: { kept: kept.length, dropped: candidates.length - kept.length, listed: false, explain: { k: { chosen: k, reason } } } };
  },
};
