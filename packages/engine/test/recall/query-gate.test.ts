import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FITTED_LEXICAL_QUERY_GATE, LEXICAL_QUERY_FEATURES, lexicalQueryGateFor, queryEvidence, queryGateThreshold, queryProbability, QUERY_FEATURES, type Evidence } from '../../src/recall/hybrid-gate.ts';
import { applyGates, mostlyCjk, type Candidate, type GateContext } from '../../src/recall/scoring.ts';
import { recallText } from '../../src/cli/output.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

const ev = (o: Partial<Evidence>): Evidence => ({ lexical: 1, coverage: 0.5, rarity: 0.5, z: 2, semantic: 1, semInvRank: 1, lexInvRank: 1, zTop: 3, margin: 0.5, p: 0.5, ...o });
// Ranks differ by candidate: a candidate first in both channels overrides the query gate (channelsAgree).
const cand = (id: string, e: Evidence, ranks: { lex: number; sem: number } = { lex: id === 'a' ? 1 : 2, sem: id === 'a' ? 2 : 1 }): Candidate => ({
  chunkId: id,
  docId: id,
  lexical: { score: 1, rank: ranks.lex },
  semantic: { score: 0.6, rank: ranks.sem },
  matched: [{ token: '司马', idf: 5, field: 'body' } as never],
  coverage: e.coverage,
  fused: 1,
  decay: 1,
  score: 1,
  folded: 0,
  evidence: e,
});
const ctx = (queryGate: GateContext['queryGate']): GateContext => ({
  distinctive: new Set(['司马', '儿子']),
  semanticRan: true,
  cfg: { minSemantic: 0, requireSemantic: false, minCoverage: 0.3 },
  titleOf: () => '',
  maxIdf: 6,
  queryGate,
});

test('query evidence: best probabilities, coverage, rarity and the share the rules let through', () => {
  const q = queryEvidence([{ ...ev({ p: 0.9, coverage: 0.4 }), lexicalPass: 1 }, { ...ev({ p: 0.95, coverage: 0.7, rarity: 0.9 }), lexicalPass: 0 }]);
  assert.equal(q.maxP, 0.95);
  assert.equal(q.maxPassP, 0.9);
  assert.equal(q.maxCoverage, 0.7);
  assert.equal(q.maxRarity, 0.9);
  assert.equal(q.passShare, 0.5);
  assert.equal(q.zTop, 3);
});

test('the query gate removes every candidate below its threshold and says why; off (null) it changes nothing', () => {
  // Weights that look only at maxP: q = sigmoid(10 * maxP - 5).
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const weak = [cand('a', ev({ p: 0.3 })), cand('b', ev({ p: 0.2 }))];
  const gated = applyGates(weak, ctx({ weights, threshold: 0.5 }));
  assert.equal(gated.kept.length, 0);
  assert.equal(gated.removals.length, 2);
  assert.match(gated.removals[0]!.detail, /query gate: q 0\.12 < 0\.5 \(maxP 0\.30/);
  const strong = [cand('a', ev({ p: 0.8 })), cand('b', ev({ p: 0.2 }))];
  // Above the threshold the candidate gate decides alone: both pass the lexical rules and clear the veto.
  assert.equal(applyGates(strong, ctx({ weights, threshold: 0.5 })).kept.length, 2);
  assert.equal(applyGates(weak, ctx(null)).kept.length, 2);
  assert.ok(Math.abs(queryProbability(queryEvidence([{ ...ev({ p: 0.5 }), lexicalPass: 1 }]), weights) - 0.5) < 1e-9);
});

test('the query gate judges only queries whose distinctive words are mostly Chinese (it was fitted on Chinese)', () => {
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const weak = [cand('a', ev({ p: 0.3 })), cand('b', ev({ p: 0.2 }))];
  const english = { ...ctx({ weights, threshold: 0.5 }), distinctive: new Set(['lighthouse', 'keeper', '司马']) };
  assert.equal(applyGates(weak, english).kept.length, 2);
  assert.equal(mostlyCjk(['灯塔', 'keeper', '守护']), true);
  assert.equal(mostlyCjk([]), false);
});

test('the fitted query gate applies to the model it was fitted on; auto leaves other embedders alone, on/off override', async () => {
  const { queryGateFor, FITTED_QUERY_GATE } = await import('../../src/recall/hybrid-gate.ts');
  assert.equal(queryGateFor('bge-small-zh-v1.5', 'auto'), FITTED_QUERY_GATE);
  assert.equal(queryGateFor('BAAI/bge-small-zh-v1.5', 'auto'), FITTED_QUERY_GATE);
  assert.equal(queryGateFor('text-embedding-3-small', 'auto'), null);
  assert.equal(queryGateFor(undefined, 'auto'), null);
  assert.equal(queryGateFor('text-embedding-3-small', 'on'), FITTED_QUERY_GATE);
  assert.equal(queryGateFor('bge-small-zh-v1.5', 'off'), null);
});

test('the query gate\'s bar falls with the store\'s size, between the small and the large store', () => {
  const gate = { weights: [0], threshold: 0.3, smallStore: 600, largeStore: { chunks: 5000, threshold: 0.1 } };
  assert.equal(queryGateThreshold(gate, 100), 0.3);
  assert.equal(queryGateThreshold(gate, 600), 0.3);
  const mid = queryGateThreshold(gate, 2000);
  assert.ok(mid < 0.3 && mid > 0.1, String(mid));
  assert.ok(queryGateThreshold(gate, 3000) < mid);
  assert.equal(queryGateThreshold(gate, 5000), 0.1);
  assert.equal(queryGateThreshold(gate, 50_000), 0.1);
  assert.equal(queryGateThreshold({ weights: [0], threshold: 0.3 }, 50_000), 0.3, 'a gate without a large-store bar keeps its one bar');
  // The same weak query: silenced in a small store, answered in a large one.
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const weak = [cand('a', ev({ p: 0.35 })), cand('b', ev({ p: 0.2 }))];
  const small = applyGates(weak, { ...ctx({ ...gate, weights }), chunkCount: 500 });
  const large = applyGates(weak, { ...ctx({ ...gate, weights }), chunkCount: 20_000 });
  assert.equal(small.kept.length, 0);
  assert.equal(small.queryGate?.threshold, 0.3);
  assert.equal(large.kept.length, 2);
  assert.equal(large.queryGate?.threshold, 0.1);
});

test('the query gate reads the phrase: the most of the wording one of the first five candidates repeats raises its probability', async () => {
  const { FITTED_QUERY_GATE } = await import('../../src/recall/hybrid-gate.ts');
  const five = (phrases: number[]) => phrases.map((phrase) => ({ ...ev({ p: 0.9 }), lexicalPass: 1, phrase }));
  assert.equal(queryEvidence(five([0.2, 0.9, 0.1])).maxPhrase, 0.9);
  assert.equal(queryEvidence(five([0.1, 0.1, 0.1, 0.1, 0.1, 1])).maxPhrase, 0.1, 'only the first five count');
  assert.equal(queryEvidence([{ ...ev({}), lexicalPass: 1 }]).maxPhrase, 0, 'no phrase read: 0');
  const weights = FITTED_QUERY_GATE!.weights;
  assert.ok(queryProbability(queryEvidence(five([0.9])), weights) > queryProbability(queryEvidence(five([0.2])), weights));
  // Silenced with a scattered best match, kept when one candidate repeats the question's wording.
  const at = (phrase: number) => applyGates([{ ...cand('a', ev({ p: 0.9, coverage: 0.5 })), phrase }, { ...cand('b', ev({ p: 0.5 })), phrase: 0 }], ctx(FITTED_QUERY_GATE)).queryGate?.p ?? 0;
  assert.ok(at(1) > at(0), `${at(1)} vs ${at(0)}`);
});

test('channels that agree are evidence for the query gate, not a veto over it; so is the longest stretch of the question a candidate repeats', async () => {
  const { FITTED_QUERY_GATE } = await import('../../src/recall/hybrid-gate.ts');
  // agreePass: a candidate first in both channels that the lexical rules let through.
  const first = { ...ev({ lexInvRank: 1, semInvRank: 1 }), lexicalPass: 1 };
  assert.equal(queryEvidence([first]).agreePass, 1);
  assert.equal(queryEvidence([{ ...first, lexicalPass: 0 }]).agreePass, 0, 'the words only graze it');
  assert.equal(queryEvidence([{ ...first, lexicalPass: 0 }]).agree, 1);
  assert.equal(queryEvidence([{ ...first, semInvRank: 0.5 }]).agreePass, 0);
  // spanShare: the most of the first five candidates.
  const spans = (xs: number[]) => queryEvidence(xs.map((span) => ({ ...ev({}), lexicalPass: 1, span }))).spanShare;
  assert.equal(spans([0.2, 0.6, 0.1]), 0.6);
  assert.equal(spans([0.1, 0.1, 0.1, 0.1, 0.1, 0.9]), 0.1, 'only the first five count');
  // A weak query whose first candidate leads both channels: judged (and here silenced) like any other.
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const agreeing = [cand('a', ev({ p: 0.3 }), { lex: 1, sem: 1 }), cand('b', ev({ p: 0.2 }), { lex: 2, sem: 2 })];
  const gated = applyGates(agreeing, ctx({ weights, threshold: 0.5 }));
  assert.equal(gated.kept.length, 0);
  assert.equal(gated.queryGate?.features.agreePass, 1);
  assert.ok((gated.queryGate?.p ?? 1) < 0.5);
  // The fitted gate gives both more weight than nothing.
  const fitted = FITTED_QUERY_GATE!.weights;
  const base = { ...ev({ p: 0.8 }), lexicalPass: 1, phrase: 0.5, span: 0.2 };
  assert.ok(queryProbability(queryEvidence([{ ...base, span: 0.7 }]), fitted) > queryProbability(queryEvidence([base]), fitted));
  assert.ok(queryProbability(queryEvidence([{ ...base, lexInvRank: 1, semInvRank: 1 }]), fitted) > queryProbability(queryEvidence([{ ...base, lexInvRank: 1, semInvRank: 0.5 }]), fitted));
});

// Lexical recall (no semantic channel): the query gate reads what the words alone show.
const lexCand = (id: string, o: { coverage: number; phrase: number; span?: number; sentence?: number; idf?: number; rank?: number }): Candidate => ({
  chunkId: id,
  docId: id,
  lexical: { score: 1, rank: o.rank ?? 1 },
  semantic: null,
  matched: [{ token: '司马', idf: o.idf ?? 5, fields: ['body'] }],
  coverage: o.coverage,
  fused: 1,
  decay: 1,
  score: 1,
  folded: 0,
  phrase: o.phrase,
  span: o.span ?? 0,
  sentence: o.sentence ?? 0,
});
const lexCtx = (lexicalQueryGate: GateContext['lexicalQueryGate']): GateContext => ({
  distinctive: new Set(['司马', '儿子']),
  semanticRan: false,
  cfg: { minSemantic: 0, requireSemantic: false, minCoverage: 0.3 },
  titleOf: () => '',
  maxIdf: 10,
  lexicalQueryGate,
});

test('lexical recall has a query gate of its own: the words alone decide whether the question looks answered', () => {
  // Weights that read only maxPhrase: q = sigmoid(10 * maxPhrase - 5).
  const gate = { weights: [-5, ...LEXICAL_QUERY_FEATURES.map((f) => (f === 'maxPhrase' ? 10 : 0))], features: LEXICAL_QUERY_FEATURES, threshold: 0.5 };
  // Both pass the rule gates (coverage 0.6 ≥ 0.3): without the query gate both would be injected.
  const echoesNothing = [lexCand('a', { coverage: 0.6, phrase: 0.1 }), lexCand('b', { coverage: 0.6, phrase: 0.2, rank: 2 })];
  const gated = applyGates(echoesNothing, lexCtx(gate));
  assert.equal(gated.kept.length, 0);
  assert.match(gated.removals[0]!.detail, /^query gate \(words only\): q 0\.05 < 0\.5 \(maxCoverage 0\.60, maxRarity 0\.50, passShare 1\.00, maxPhrase 0\.20/);
  assert.equal(gated.queryGate?.features.maxPhrase, 0.2);
  const echoes = [lexCand('a', { coverage: 0.6, phrase: 0.8 }), lexCand('b', { coverage: 0.6, phrase: 0.2, rank: 2 })];
  assert.equal(applyGates(echoes, lexCtx(gate)).kept.length, 2);
  // Off, and for a question that is not mostly Chinese, it changes nothing.
  assert.equal(applyGates(echoesNothing, lexCtx(null)).kept.length, 2);
  assert.equal(applyGates(echoesNothing, { ...lexCtx(gate), distinctive: new Set(['lighthouse', 'keeper', '司马']) }).kept.length, 2);
  // The rule gates still judge each candidate of a question the gate lets through.
  assert.deepEqual(applyGates([...echoes, lexCand('c', { coverage: 0.1, phrase: 0.9, rank: 3 })], lexCtx(gate)).removals.map((r) => r.gate), ['coverage']);
});

test('the fitted lexical query gate is on unless the query gate is turned off', () => {
  assert.equal(lexicalQueryGateFor('auto'), FITTED_LEXICAL_QUERY_GATE);
  assert.equal(lexicalQueryGateFor('on'), FITTED_LEXICAL_QUERY_GATE);
  assert.equal(lexicalQueryGateFor('off'), null);
});

test('lexical recall through the engine: of two questions about one note, the one it does not answer gets nothing, and says why', async () => {
  const dirs = tempDirs();
  writeFileSync(join(dirs.diaryDir, '2026-10-21-sima.txt'), '[09:00] 读书笔记\n\n司马迁写了史记，记录了从黄帝到汉武帝三千多年的历史。\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-20-dinner.txt'), '[19:00] 聚餐\n\n周六在川菜馆聚餐，水煮鱼很好吃。\n');
  const open = async (queryGate: 'auto' | 'off') => {
    const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, recall: { hybridGate: { queryGate } } });
    await engine.index({ full: true });
    return engine;
  };
  const engine = await open('auto');
  try {
    assert.deepEqual((await engine.recall('司马迁写了什么书', { k: 5 })).hits.map((h) => h.path), ['2026-10-21-sima.txt']);
    // The note names 司马迁 (its rarest word) but says nothing of his son: the rules alone let it through.
    const unanswered = await engine.recall('司马迁的儿子叫什么名字', { k: 5 });
    assert.deepEqual(unanswered.hits, []);
    assert.equal(unanswered.explain.gate.silencedBy?.rule, 'query-gate');
    assert.match(unanswered.explain.gate.silencedBy?.detail ?? '', /^query gate \(words only\): q 0\.\d+ < 0\.3 \(maxCoverage/);
    assert.ok((unanswered.explain.gate.queryGate?.p ?? 1) < (unanswered.explain.gate.queryGate?.threshold ?? 0));
    // `engram recall` prints the rule and what it read.
    assert.match(recallText(unanswered), /^silenced by query-gate: query gate \(words only\): q 0\.\d+ < 0\.3 \(maxCoverage .*sentenceShare [\d.]+\)$/m);
    // A caller asking a question completed from the conversation sets the query gates aside; the rules still judge.
    const completed = await engine.recall('司马迁的儿子叫什么名字', { k: 5, queryGate: false });
    assert.deepEqual(completed.hits.map((h) => h.path), ['2026-10-21-sima.txt']);
    assert.match(completed.explain.stages.find((st) => st.name === 'gate')?.note ?? '', /query gates stood aside/);
  } finally {
    engine.close();
  }
  const off = await open('off');
  try {
    assert.deepEqual((await off.recall('司马迁的儿子叫什么名字', { k: 5 })).hits.map((h) => h.path), ['2026-10-21-sima.txt']);
  } finally {
    off.close();
  }
});

test('the lexical query gate\'s lower specificity bar: for what ranks above the first note clearing the configured bar, or repeats as much of the question', () => {
  // Admits every question (q = sigmoid(5)); fitted with specificity 0.75 (the configured bar here 1.05).
  const gate = { weights: [5, ...LEXICAL_QUERY_FEATURES.map(() => 0)], features: LEXICAL_QUERY_FEATURES, threshold: 0.5, minSpecificity: 0.75 };
  // specificity = 0.75 × coverage + idf / maxIdf (10): 0.75 × 0.4 + 0.6 = 0.9, between the two bars; 0.75 × 0.4 + 0.9 = 1.2 clears both.
  const between = (id: string, rank: number, phrase: number) => lexCand(id, { coverage: 0.4, idf: 6, phrase, rank });
  const clears = (id: string, rank: number, phrase: number) => lexCand(id, { coverage: 0.4, idf: 9, phrase, rank });
  const cfg = { minSemantic: 0, requireSemantic: false, minCoverage: 0.3, minSpecificity: 1.05 };
  const kept = (cands: Candidate[]) => applyGates(cands, { ...lexCtx(gate), cfg }).kept.map((c) => c.chunkId);
  // No note clears 1.05: the lower bar rescues the question.
  assert.deepEqual(kept([between('a', 1, 0.3), between('b', 2, 0.2)]), ['a', 'b']);
  // Above the first note that clears it: the lower bar; below it, a companion sharing its words: the configured one…
  assert.deepEqual(kept([between('a', 1, 0.3), clears('b', 2, 0.5), between('c', 3, 0.2)]), ['a', 'b']);
  // …unless it repeats at least as much of the question's wording as that note.
  assert.deepEqual(kept([clears('b', 1, 0.5), between('c', 2, 0.6)]), ['b', 'c']);
  // Without the gate the configured bar judges every candidate.
  assert.deepEqual(applyGates([between('a', 1, 0.3), clears('b', 2, 0.5)], { ...lexCtx(null), cfg }).kept.map((c) => c.chunkId), ['b']);
});
