// Stage 6 — collapse: one hit per document, the best chunk standing for it ("N more chunks folded"),
// then one hit per near-duplicate group (the duplicates stage found them), the best note standing for
// the group and counting the others ("also noted N times").
import type { RecallStage } from '../run.ts';
import { collapseByDocument, collapseNearDuplicates } from '../scoring.ts';

export const collapse: RecallStage = {
  name: 'collapse',
  run(candidates, run) {
    const byDocument = collapseByDocument(candidates);
    const { kept: out, folded } = collapseNearDuplicates(byDocument, run.duplicateGroups);
    run.collapsed = out.length;
    const nearDuplicates = folded.map((g) => ({ kept: g.kept, title: run.titleOf(run.deps.docOfChunk(g.kept) ?? ''), folded: g.folded }));
    const note = folded.length > 0 ? `one hit per document; ${folded.length} near-duplicate groups shown once` : 'one hit per document';
    return { candidates: out, record: { kept: out.length, dropped: candidates.length - out.length, note, explain: { nearDuplicates } } };
  },
};
