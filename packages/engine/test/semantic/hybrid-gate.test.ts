import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evidenceOf, FEATURES, probability } from '../../src/recall/hybrid-gate.ts';
import { applyGates, attachEvidence, titleNamedBy, type Candidate } from '../../src/recall/scoring.ts';

const cand = (over: Partial<Candidate> & { chunkId: string }): Candidate => ({
  docId: over.chunkId.split('#')[0] as string,
  lexical: null,
  semantic: null,
  matched: [],
  coverage: 1,
  fused: 0,
  decay: 1,
  score: 0,
  folded: 0,
  ...over,
});

const ctx = (over: Record<string, unknown> = {}) => ({
  distinctive: new Set(['司马晏', '儿子']),
  semanticRan: true,
  cfg: { minSemantic: 0.55, requireSemantic: true, minCoverage: 0.3, minSpecificity: 1.05 },
  maxIdf: 8,
  titleOf: () => 't',
  hybridThreshold: 0.6,
  hybridVeto: 0.1,
  // The candidate gates alone: the query-level gate has tests of its own (test/recall/query-gate.test.ts).
  queryGate: null,
  ...over,
});

describe('hybrid gate evidence', () => {
  it('measures cosines against the query background, so a shifted, rescaled model gives the same evidence', () => {
    const c = { matched: false, coverage: 0, rarestIdf: 0, maxIdf: 8, cosine: 0.62, semRank: 1, lexRank: null };
    const bge = evidenceOf(c, { background: { mean: 0.35, std: 0.06 }, cosines: [0.62, 0.5, 0.45] });
    // A hashed-n-gram embedder: unrelated ≈ 0.02, a related passage ≈ 0.19 — the same picture in its own units.
    const scale = (x: number) => 0.02 + (x - 0.35) * (0.03 / 0.06);
    const hashed = evidenceOf({ ...c, cosine: scale(0.62) }, { background: { mean: 0.02, std: 0.03 }, cosines: [0.62, 0.5, 0.45].map(scale) });
    for (const f of FEATURES) assert.ok(Math.abs(bge[f] - hashed[f]) < 1e-9, f);
    assert.ok(Math.abs(bge.p - hashed.p) < 1e-9);
    assert.ok(bge.z > 4);
  });

  it('a candidate outside the semantic list gets the last candidate\'s z (an upper bound) and semantic = 0', () => {
    const e = evidenceOf({ matched: true, coverage: 0.5, rarestIdf: 4, maxIdf: 8, cosine: null, semRank: null, lexRank: 2 }, { background: { mean: 0.3, std: 0.05 }, cosines: [0.6, 0.4] });
    assert.equal(e.semantic, 0);
    assert.equal(e.semInvRank, 0);
    assert.ok(Math.abs(e.z - 2) < 1e-9);
    assert.equal(e.rarity, 0.5);
    assert.equal(e.lexInvRank, 0.5);
  });

  it('probability rises with every evidence weight that is positive', () => {
    const base = { lexical: 1, coverage: 0.5, rarity: 0.5, z: 1, semantic: 1, semInvRank: 0.5, lexInvRank: 0.5, zTop: 2, margin: 0.5 };
    const w = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    assert.ok(probability({ ...base, z: 3 }, w) > probability(base, w));
    assert.ok(probability({ ...base, coverage: 0.9 }, w) > probability(base, w));
  });
});

describe('applyGates with evidence', () => {
  const q = { background: { mean: 0.3, std: 0.05 }, cosines: [0.6, 0.45, 0.4] };
  const weights = [-4, 0, 0, 0, 1, 0, 0, 0, 0, 0]; // p depends on z only: z 6 → 0.88, z 3 → 0.27, z 2 → 0.12, z 0 → 0.018

  it('keeps what the lexical rules keep unless the evidence is below the veto; admits others only above the bar', () => {
    const strongSemanticOnly = cand({ chunkId: 'a#0', semantic: { rank: 1, score: 0.6 } });
    const weakSemanticOnly = cand({ chunkId: 'b#0', semantic: { rank: 2, score: 0.45 } });
    const lexicalGood = cand({ chunkId: 'c#0', lexical: { rank: 1, score: 9 }, matched: [{ token: '司马晏', idf: 7, fields: ['body'] }], coverage: 0.8, semantic: { rank: 3, score: 0.4 } });
    const lexicalNoise = cand({ chunkId: 'd#0', lexical: { rank: 2, score: 3 }, matched: [{ token: '司马晏', idf: 7, fields: ['body'] }], coverage: 0.8 });
    const lowCoverageButSemantic = cand({ chunkId: 'e#0', lexical: { rank: 3, score: 2 }, matched: [{ token: '儿子', idf: 3, fields: ['body'] }], coverage: 0.1, semantic: { rank: 1, score: 0.6 } });
    const all = [strongSemanticOnly, weakSemanticOnly, lexicalGood, lexicalNoise, lowCoverageButSemantic];
    attachEvidence(all, q, 8, weights);
    // lexicalNoise: not a semantic candidate, so z = last (0.4 → z 2, p 0.12) ≥ veto 0.1: kept. Raise the veto and it goes.
    const { kept, removals } = applyGates(all, ctx());
    assert.deepEqual(kept.map((c) => c.chunkId).sort(), ['a#0', 'c#0', 'd#0', 'e#0']);
    assert.equal(removals.find((r) => r.chunkId === 'b#0')?.gate, 'hybrid');
    const stricter = applyGates(all, ctx({ hybridVeto: 0.2 }));
    assert.ok(!stricter.kept.some((c) => c.chunkId === 'd#0'));
    assert.match(stricter.removals.find((r) => r.chunkId === 'd#0')?.detail ?? '', /veto/);
  });

  it('a note the question names by its title stays below the bar, and the explanation says so', () => {
    // 《子不语》又叫做什么？ — the note titled 子不语 answers with 又名, so it shares little wording with the
    // question and its evidence is weak; a note with the same evidence and another title goes.
    const named = cand({ chunkId: 'n#0', lexical: { rank: 2, score: 3 }, matched: [{ token: '不语', idf: 7, fields: ['body', 'title'] }], coverage: 0.5 });
    const other = cand({ chunkId: 'o#0', lexical: { rank: 3, score: 3 }, matched: [{ token: '不语', idf: 7, fields: ['body'] }], coverage: 0.5 });
    attachEvidence([named, other], q, 8, weights);
    const titles: Record<string, string> = { n: '子不语', o: '不语的人' };
    const query = '《子不语》又叫做什么？';
    const gates = (withNames: boolean) =>
      applyGates([named, other], ctx({ distinctive: new Set(['不语', '叫做']), titleOf: (d: string) => titles[d], hybridVeto: 0.6, ...(withNames ? { namedByQuery: (d: string) => titleNamedBy(query, new Set(['不语']))(titles[d] as string) } : {}) }));
    const without = gates(false);
    assert.deepEqual(without.kept, [], 'below the bar, both go when names are not read');
    const r = gates(true);
    assert.deepEqual(r.kept.map((c) => c.chunkId), ['n#0']);
    assert.deepEqual(r.removals.map((x) => x.chunkId), ['o#0']);
    assert.equal(r.named.length, 1);
    assert.equal(r.named[0]?.title, '子不语');
    assert.ok((r.named[0]?.p ?? 1) < (r.named[0]?.bar ?? 0), 'its probability and the bar it was under are reported');
  });

  it('without evidence (semantic channel off) the rule gates decide as before', () => {
    const lowCoverage = cand({ chunkId: 'e#0', lexical: { rank: 1, score: 2 }, matched: [{ token: '儿子', idf: 3, fields: ['body'] }], coverage: 0.1 });
    const r = applyGates([lowCoverage], ctx({ semanticRan: false }));
    assert.equal(r.kept.length, 0);
    assert.equal(r.removals[0]?.gate, 'coverage');
  });
});

it('query evidence: agree is 1 only when one candidate is first in both channels', async () => {
  const { queryEvidence } = await import('../../src/recall/hybrid-gate.ts');
  const e = { lexical: 1, coverage: 0.5, rarity: 0.5, z: 2, semantic: 1, semInvRank: 1, lexInvRank: 1, zTop: 3, margin: 0.5, p: 0.5, lexicalPass: 1 };
  assert.equal(queryEvidence([e]).agree, 1);
  // Lexical first and semantic first are different candidates: they disagree.
  assert.equal(queryEvidence([{ ...e, semInvRank: 0.5 }, { ...e, lexInvRank: 0.5 }]).agree, 0);
  assert.equal(queryEvidence([{ ...e, lexical: 0, lexInvRank: 0 }]).agree, 0);
  assert.equal(queryEvidence([]).agree, 0);
});

it('titleNamedBy: the whole title stands in the question and holds a distinctive word', () => {
  assert.equal(titleNamedBy('《子不语》又叫做什么？', new Set(['不语']))('子不语'), true);
  assert.equal(titleNamedBy('子不语又叫做什么', new Set(['不语']))('《子不语》'), true, 'book-title marks aside');
  assert.equal(titleNamedBy('How does the Backup Rotation work?', new Set(['backup', 'rotat']))('backup rotation'), true, 'case and spaces aside');
  assert.equal(titleNamedBy('笔记里关于端口写了什么？', new Set(['端口']))('笔记'), false, 'a generic title with no distinctive word is not a name');
  assert.equal(titleNamedBy('子不语又叫做什么？', new Set(['子']))('子'), false, 'one character is not a name');
  assert.equal(titleNamedBy('不语是什么意思？', new Set(['不语']))('子不语'), false, 'part of a title is not the title');
  assert.equal(titleNamedBy('任何问题', new Set(['问题']))(''), false);
});
