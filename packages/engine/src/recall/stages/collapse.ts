// Stage 6 — collapse: one hit per document, the best chunk standing for it ("N more chunks folded"),
// then one hit per near-duplicate group (the duplicates stage found them), the best note standing for
// the group and counting the others ("also noted N times"); then a note whose sentences matching the
// query a better one already holds goes after the others (recall/redundancy.ts).
import { demoteRedundant } from '../redundancy.ts';
import type { RecallStage } from '../run.ts';
import { collapseByDocument, collapseNearDuplicates } from '../scoring.ts';

export const collapse: RecallStage = {
  name: 'collapse',
  run(candidates, run) {
    const byDocument = collapseByDocument(candidates);
    const { kept, folded } = collapseNearDuplicates(byDocument, run.duplicateGroups);
    const words = run.analysis.tokens.filter((t) => t.weight > 0 && [...t.token].length >= 2).map((t) => t.token.toLowerCase());
    const { ordered: out, moves } = demoteRedundant(kept, (c) => run.texts.get(c.chunkId), words);
    run.collapsed = out.length;
    const nearDuplicates = folded.map((g) => ({ kept: g.kept, title: run.titleOf(run.deps.docOfChunk(g.kept) ?? ''), folded: g.folded }));
    const redundant = moves.map((m) => ({ chunkId: m.moved.chunkId, title: run.titleOf(m.moved.docId), coveredBy: m.coveredBy.chunkId, coveredByTitle: run.titleOf(m.coveredBy.docId), sentences: m.sentences }));
    const notes = ['one hit per document'];
    if (folded.length > 0) notes.push(`${folded.length} near-duplicate groups shown once`);
    if (moves.length > 0) notes.push(`${moves.length} moved down: a better hit holds their matching sentences`);
    return { candidates: out, record: { kept: out.length, dropped: candidates.length - out.length, note: notes.join('; '), explain: { nearDuplicates, ...(redundant.length > 0 ? { redundant } : {}) } } };
  },
};
