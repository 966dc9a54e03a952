// Stage 8 — judge: the optional LLM relevance verdict (judge/judge.ts builds it from the settings).
// It never adds a candidate; a failing judge leaves the pool as it was and says why.
import type { JudgeVerdict } from '../deps.ts';
import type { RecallStage } from '../run.ts';
import type { GateRemoval } from '../types.ts';

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export const judge: RecallStage = {
  name: 'judge',
  async run(candidates, run) {
    const ask = run.options.gates === 'off' ? undefined : run.deps.judge;
    if (!ask || candidates.length === 0) return { candidates, record: { kept: candidates.length, dropped: 0, listed: false, explain: { judge: null } } };
    const t0 = performance.now();
    let verdict: JudgeVerdict;
    try {
      verdict = await ask(run.query, candidates.map((c) => ({ chunkId: c.chunkId, title: run.titleOf(c.docId), text: run.texts.get(c.chunkId) ?? '' })));
    } catch (e) {
      verdict = { applied: false, reason: `judge failed: ${e instanceof Error ? e.message : String(e)}`, dropped: [] };
    }
    const removals: GateRemoval[] = [];
    let kept = candidates;
    if (verdict.applied) {
      const dropIds = new Set(verdict.dropped.map((d) => d.chunkId));
      for (const d of verdict.dropped) {
        const c = candidates.find((p) => p.chunkId === d.chunkId);
        if (c) removals.push({ gate: 'judge', chunkId: c.chunkId, docId: c.docId, title: run.titleOf(c.docId), detail: `judge probability ${d.probability ?? 'unknown'}` });
      }
      kept = candidates.filter((c) => !dropIds.has(c.chunkId));
    }
    const info = { applied: verdict.applied, dropped: verdict.applied ? verdict.dropped.length : 0, reason: verdict.reason, ms: ms(t0) };
    return { candidates: kept, record: { kept: kept.length, dropped: candidates.length - kept.length, listed: false, explain: { judge: info, removals } } };
  },
};
