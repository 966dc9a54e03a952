// Stage 6 — collapse: one hit per document, the best chunk standing for it ("N more chunks folded").
import type { RecallStage } from '../run.ts';
import { collapseByDocument } from '../stages.ts';

export const collapse: RecallStage = {
  name: 'collapse',
  run(candidates, run) {
    const out = collapseByDocument(candidates);
    run.collapsed = out.length;
    return { candidates: out, record: { kept: out.length, dropped: candidates.length - out.length, note: 'one hit per document' } };
  },
};
