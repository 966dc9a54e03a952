import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../../src/config/schema.ts';
import { fitToBudget, renderRecallBlock, sanitizeTagName } from '../../src/recall/render.ts';
import { applyGates, specificityOf, chooseK, collapseByDocument, decayFactor, describeTokens, expandAliases, fuse } from '../../src/recall/scoring.ts';

const cfg = configSchema.parse({});

test('weighted RRF: with semantic weight 2, a semantic #1 outranks a lexical #1', () => {
  const fused = fuse(
    [{ chunkId: 'lex', docId: 'a', score: 9, matched: [] }],
    [{ chunkId: 'sem', docId: 'b', score: 0.8 }],
    { ...cfg.recall, semanticWeight: 2 },
  );
  assert.equal(fused[0]!.chunkId, 'sem');
  const equal = fuse([{ chunkId: 'lex', docId: 'a', score: 9, matched: [] }], [{ chunkId: 'sem', docId: 'b', score: 0.8 }], { ...cfg.recall, semanticWeight: 0.5 });
  assert.equal(equal[0]!.chunkId, 'lex');
  // The fitted default (0.25, docs/benchmarks.md): a lexical #1 stays ahead of a semantic #1.
  assert.equal(fuse([{ chunkId: 'lex', docId: 'a', score: 9, matched: [] }], [{ chunkId: 'sem', docId: 'b', score: 0.8 }], cfg.recall)[0]!.chunkId, 'lex');
});

test('fusion: a chunk found by both channels outranks chunks found by one', () => {
  const fused = fuse(
    [
      { chunkId: 'x', docId: 'a', score: 5, matched: [] },
      { chunkId: 'both', docId: 'b', score: 4, matched: [] },
    ],
    [
      { chunkId: 'y', docId: 'c', score: 0.9 },
      { chunkId: 'both', docId: 'b', score: 0.8 },
    ],
    cfg.recall,
  );
  assert.equal(fused[0]!.chunkId, 'both');
  assert.ok(fused[0]!.lexical && fused[0]!.semantic);
});

test('distinctive tokens need length and IDF; without an IDF table, length alone', () => {
  const idf = (t: string) => ({ 上限: 3.1, 工具: 1.2, 上: 0.3 })[t] ?? 0;
  const toks = ['上限', '工具', '上'].map((token) => ({ token, fromAlias: false }));
  const d = describeTokens(toks, idf, true, cfg.recall);
  assert.deepEqual(d.filter((x) => x.distinctive).map((x) => x.token), ['上限']);
  assert.equal(d.find((x) => x.token === '上')!.weight, cfg.recall.singleCharWeight);
  const noIdf = describeTokens(toks, () => 0, false, cfg.recall);
  assert.deepEqual(noIdf.filter((x) => x.distinctive).map((x) => x.token), ['上限', '工具']);
});

const cand = (chunkId: string, docId: string, opts: { lex?: string[]; cos?: number | null }) => {
  const [c] = fuse(
    opts.lex ? [{ chunkId, docId, score: 1, matched: opts.lex.map((token) => ({ token, idf: 1, fields: ['body'] })) }] : [],
    opts.cos != null ? [{ chunkId, docId, score: opts.cos }] : [],
    cfg.recall,
  );
  return c!;
};

test('gates: the distinctive-term gate judges lexical hits; semantic gates only when semantic ran', () => {
  const cands = [
    cand('a#0', 'a', { lex: ['上限'], cos: 0.7 }),
    cand('b#0', 'b', { lex: ['工具'], cos: 0.7 }),
    cand('c#0', 'c', { lex: ['上限'] }),
    cand('d#0', 'd', { cos: 0.4 }),
    cand('e#0', 'e', { cos: 0.6 }),
  ];
  const base = { distinctive: new Set(['上限']), cfg: cfg.recall, titleOf: (d: string) => d };
  const ran = applyGates(cands, { ...base, semanticRan: true });
  assert.deepEqual(ran.kept.map((c) => c.docId).sort(), ['a', 'e']);
  assert.deepEqual(Object.fromEntries(ran.removals.map((r) => [r.docId, r.gate])), {
    b: 'distinctive-term',
    c: 'semantic-required',
    d: 'semantic-min',
  });
  // The per-candidate rules alone (the lexical query gate, query-gate.test.ts, off).
  const skipped = applyGates(cands, { ...base, semanticRan: false, lexicalQueryGate: null });
  assert.deepEqual(skipped.kept.map((c) => c.docId).sort(), ['a', 'c', 'd', 'e'], 'cosine gates never cut when semantic did not run');
});

test('specificity gate: a hit needs coverage or a rare matched word; hits without lexical matches are not judged by it', () => {
  const withIdf = (chunkId: string, coverage: number, idfs: number[]) => ({
    ...cand(chunkId, chunkId, { lex: idfs.map((_, i) => `词${i}`) }),
    coverage,
    matched: idfs.map((idf, i) => ({ token: `词${i}`, idf, fields: ['body'] })),
  });
  const maxIdf = 8;
  const rare = withIdf('rare', 0.4, [7.6, 1.0]); // 0.3 + 0.95 = 1.25
  const common = withIdf('common', 0.4, [2.0, 1.5]); // 0.3 + 0.25 = 0.55
  const covered = withIdf('covered', 1, [3.0]); // 0.75 + 0.375 = 1.125
  const semanticOnly = cand('sem', 'sem', { cos: 0.9 });
  assert.ok(Math.abs(specificityOf(rare, maxIdf) - 1.25) < 1e-9);
  // The rule alone: the lexical query gate (tested in query-gate.test.ts) off.
  const base = { distinctive: new Set(['词0', '词1']), semanticRan: false, titleOf: (d: string) => d, maxIdf, lexicalQueryGate: null };
  const on = applyGates([rare, common, covered, semanticOnly], { ...base, cfg: { ...cfg.recall, minCoverage: 0, minSpecificity: 1.05 } });
  assert.deepEqual(on.kept.map((c) => c.docId).sort(), ['covered', 'rare', 'sem']);
  assert.deepEqual(on.removals.map((r) => [r.docId, r.gate]), [['common', 'specificity']]);
  assert.match(on.removals[0]!.detail, /rarest matched word 词0 \(IDF 2\.00\)/);
  const off = applyGates([rare, common, covered], { ...base, cfg: { ...cfg.recall, minCoverage: 0, minSpecificity: 0 } });
  assert.equal(off.kept.length, 3, '0 turns the gate off');
});

test('collapse keeps one hit per document and counts the folded chunks', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 9 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 40 }), (rows) => {
      const uniq = new Map(rows.map(([d, c, s]) => [`${d}#${c}`, { d: String(d), s }]));
      const cands = [...uniq.entries()].map(([id, { d, s }]) => ({ ...cand(id, d, { cos: 0.9 }), score: s }));
      const out = collapseByDocument(cands);
      assert.equal(new Set(out.map((c) => c.docId)).size, out.length);
      assert.equal(out.reduce((n, c) => n + 1 + c.folded, 0), cands.length);
      for (const c of out) assert.equal(c.score, Math.max(...cands.filter((x) => x.docId === c.docId).map((x) => x.score)));
    }),
  );
});

test('time decay halves at the half-life, never drops below the floor, ignores the future', () => {
  const now = new Date('2026-11-29T00:00:00');
  const td = cfg.timeDecay;
  assert.equal(decayFactor('2026-11-29', now, td), 1);
  const halfLifeAgo = new Date(now.getTime() - td.halfLifeDays * 86_400_000).toISOString().slice(0, 10);
  assert.ok(Math.abs(decayFactor(halfLifeAgo, now, { ...td, floor: 0 }) - 0.5) < 0.01);
  assert.ok(Math.abs(decayFactor('2026-06-02', now, { ...td, halfLifeDays: 180, floor: 0 }) - 0.5) < 0.01);
  assert.equal(decayFactor('2010-01-01', now, td), td.floor);
  assert.equal(decayFactor('2027-01-01', now, td), 1);
  assert.equal(decayFactor('2010-01-01', now, { ...td, enabled: false }), 1);
});

test('dynamic K stays within kMin..kMax and grows with distinctive tokens', () => {
  const ks = [0, 1, 2, 3, 4, 6, 20].map((n) => chooseK(n, cfg.recall).k);
  for (const k of ks) assert.ok(k >= cfg.recall.kMin && k <= cfg.recall.kMax);
  assert.ok(ks[ks.length - 1]! > ks[0]!);
  assert.deepEqual([...ks].sort((a, b) => a - b), ks, 'monotone');
  assert.equal(chooseK(3, cfg.recall, 7).k, 7);
});

test('aliases pull the whole group into the query', () => {
  const tok = (s: string) => s.split(/\s+/).filter(Boolean);
  const out = expandAliases(['vps', '重启'], [['vps', '东京节点'], ['foo', 'bar']], tok);
  assert.deepEqual(out.map((t) => t.token), ['vps', '重启', '东京节点']);
  assert.equal(out[2]!.fromAlias, true);
});

test('render: budget keeps order, cuts one item at most, and the block name is sanitised', () => {
  const items = [{ text: 'a'.repeat(100) }, { text: 'b'.repeat(300) }, { text: 'c'.repeat(50) }];
  const fit = fitToBudget(items, 250);
  assert.equal(fit.kept.length, 2);
  assert.equal(fit.truncated, 1);
  assert.ok(fit.kept.reduce((n, i) => n + i.text.length, 0) <= 250);
  assert.equal(sanitizeTagName('<bad name>"'), 'bad-name');
  const block = renderRecallBlock([{ date: '2026-01-02', title: 'T', text: 'body' }], { ...cfg.inject, blockName: 'x y' });
  assert.match(block, /^<x-y>/);
  assert.match(block, /\[1\] 2026-01-02 · T\nbody/);
  assert.equal(renderRecallBlock([], cfg.inject), '');
});

test('the IDF bar is capped in small corpora so a two-document corpus still has distinctive terms', async () => {
  const { idfThreshold } = await import('../../src/recall/scoring.ts');
  const { bm25Idf } = await import('../../src/lexical/bm25.ts');
  assert.equal(idfThreshold(2, 100_000), 2);
  const small = idfThreshold(2, 2);
  assert.ok(bm25Idf(2, 1) >= small, 'a term in one of two docs is distinctive');
  assert.ok(bm25Idf(2, 2) < small, 'a term in every doc is not');
});

test('semantic-required spares chunks that have no vector (written while the endpoint was down)', () => {
  const c = cand('x#0', 'x', { lex: ['上限'] });
  const base = { distinctive: new Set(['上限']), cfg: cfg.recall, titleOf: (d: string) => d, semanticRan: true };
  assert.equal(applyGates([c], { ...base, hasVector: () => true }).kept.length, 0);
  assert.equal(applyGates([c], { ...base, hasVector: () => false }).kept.length, 1);
});
