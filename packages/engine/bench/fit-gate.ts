// Fits the hybrid gate (recall/hybrid-gate.ts) on a dump from bench/semantic-dump.ts: a logistic
// regression over the candidate evidence (positives: the gold paragraph's chunks for in-corpus
// questions; negatives: every candidate of out-of-corpus questions and chatter), then the
// probability threshold and the semantic fusion weight chosen on the same half by replaying the
// recall (gate → weighted RRF → one hit per document → top 5). Reported on the other half, both ways.
//
//   node --import tsx packages/engine/bench/fit-gate.ts DUMP.jsonl
import { readFileSync } from 'node:fs';
import { FEATURES, probability, QUERY_FEATURES, queryEvidence, type Evidence } from '../src/recall/hybrid-gate.ts';
import type { DumpRow } from './semantic-dump.ts';
import { fitLogistic, type Sample } from './logistic.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: fit-gate.ts DUMP.jsonl');
const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as DumpRow);

const vec = (e: Record<string, number>) => [1, ...FEATURES.map((f) => e[f] ?? 0)];

function samples(rs: DumpRow[]): Sample[] {
  const out: Sample[] = [];
  for (const r of rs) {
    if (r.blocked) continue;
    for (const c of r.candidates) {
      if (r.kind === 'in') {
        if (c.path === r.gold) out.push({ x: vec(c.evidence), y: 1, w: 1 });
      } else out.push({ x: vec(c.evidence), y: 0, w: 1 });
    }
  }
  const pos = out.filter((s) => s.y === 1).length;
  const neg = out.length - pos;
  for (const s of out) s.w = s.y === 1 ? 0.5 / pos : 0.5 / neg;
  return out;
}


interface Score { r1: number; r5: number; inEmpty: number; ooc: number; chatter: number; n: number }

interface QueryGate { weights: number[]; threshold: number }

/** Replays the gate and the fusion of the recall pipeline on dumped candidates. */
function replay(rs: DumpRow[], weights: number[], threshold: number, semanticWeight: number, veto = 0, rrfK = 60, queryGate?: QueryGate): Score {
  let r1 = 0, r5 = 0, inN = 0, inEmpty = 0, ooc = 0, oocN = 0, chat = 0, chatN = 0;
  for (const r of rs) {
    let top: string[] = [];
    const silenced = queryGate ? queryProbability(r, weights, queryGate.weights) < queryGate.threshold : false;
    if (!r.blocked && !silenced) {
      const best = new Map<string, number>();
      for (const c of r.candidates) {
        const p = probability(c.evidence as unknown as Evidence, weights);
        if (p < (c.lexicalPass ? Math.min(veto, threshold) : threshold)) continue;
        const fused = (c.lexRank ? 1 / (rrfK + c.lexRank) : 0) + (c.semRank ? semanticWeight / (rrfK + c.semRank) : 0);
        if ((best.get(c.path) ?? -1) < fused) best.set(c.path, fused);
      }
      top = [...best].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([p]) => p);
    }
    if (r.kind === 'in') {
      inN++;
      const at = top.indexOf(r.gold ?? '');
      if (at === 0) r1++;
      if (at >= 0) r5++;
      if (top.length === 0) inEmpty++;
    } else if (r.kind === 'ooc') {
      oocN++;
      if (top.length === 0) ooc++;
    } else {
      chatN++;
      if (top.length === 0) chat++;
    }
  }
  return { r1: r1 / inN, r5: r5 / inN, inEmpty: inEmpty / inN, ooc: ooc / oocN, chatter: chat / chatN, n: rs.length };
}

function lexicalScore(rs: DumpRow[]): Score {
  const ins = rs.filter((r) => r.kind === 'in');
  const oocs = rs.filter((r) => r.kind === 'ooc');
  const chats = rs.filter((r) => r.kind === 'chatter');
  return {
    r1: ins.filter((r) => r.lexical.goldRank === 1).length / ins.length,
    r5: ins.filter((r) => r.lexical.goldRank !== null && r.lexical.goldRank <= 5).length / ins.length,
    inEmpty: ins.filter((r) => r.lexical.empty).length / ins.length,
    ooc: oocs.filter((r) => r.lexical.empty).length / oocs.length,
    chatter: chats.filter((r) => r.lexical.empty).length / chats.length,
    n: rs.length,
  };
}

// The query-level decision: "does the corpus hold the answer at all?", over what the best
// candidates of the query show (recall/hybrid-gate.ts queryEvidence computes the same in the engine).
// FIT_QUERY_EXTRA=a,b: also the rows' `queryExtra` features of those names (bench/ooc-query-features.ts
// adds them to a dump), to try a feature on held-out halves before it goes into the engine.
const EXTRA = (process.env.FIT_QUERY_EXTRA ?? '').split(',').filter(Boolean);
const queryVec = (r: DumpRow, weights: number[]) => [
  1,
  ...QUERY_FEATURES.map((f) => queryEvidence(r.candidates.map((c) => ({ ...(c.evidence as unknown as Evidence), p: probability(c.evidence as unknown as Evidence, weights), lexicalPass: c.lexicalPass ? 1 : 0 })))[f]),
  ...EXTRA.map((f) => (r as DumpRow & { queryExtra?: Record<string, number> }).queryExtra?.[f] ?? 0),
];

function queryProbability(r: DumpRow, weights: number[], qWeights: number[]): number {
  if (r.candidates.length === 0) return 0;
  const x = queryVec(r, weights);
  let z = 0;
  x.forEach((v, i) => (z += (qWeights[i] ?? 0) * v));
  return 1 / (1 + Math.exp(-z));
}

function querySamples(rs: DumpRow[], weights: number[]): Sample[] {
  const out: Sample[] = [];
  for (const r of rs) {
    if (r.blocked || r.candidates.length === 0) continue;
    out.push({ x: queryVec(r, weights), y: r.kind === 'in' ? 1 : 0, w: 1 });
  }
  const pos = out.filter((s) => s.y === 1).length;
  const neg = out.length - pos;
  for (const s of out) s.w = s.y === 1 ? 0.5 / pos : 0.5 / neg;
  return out;
}

const QUERY_THRESHOLDS = [0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];

/** The query gate's threshold: the most "nothing" for out-of-corpus questions with R@5 ≥ the floor on this half. */
function chooseQuery(rs: DumpRow[], weights: number[], c: { threshold: number; veto: number; semanticWeight: number }, qWeights: number[], r5Floor: number) {
  let best: { threshold: number; s: Score } | null = null;
  for (const t of QUERY_THRESHOLDS) {
    const s = replay(rs, weights, c.threshold, c.semanticWeight, c.veto, 60, { weights: qWeights, threshold: t });
    if (s.r5 >= r5Floor && (!best || s.ooc + 0.5 * s.chatter > best.s.ooc + 0.5 * best.s.chatter)) best = { threshold: t, s };
  }
  return best ?? { threshold: 0, s: replay(rs, weights, c.threshold, c.semanticWeight, c.veto) };
}

/**
 * The R@5 the query gate must keep on the fitting half: FIT_R5_FLOOR (default 0.98); with FIT_R5_DROP=d,
 * the candidate gate's own R@5 on that half minus d instead (never below 0.98 nor lexical's), so a
 * half whose candidate gate sits just under a fixed floor still gets a query gate.
 */
function r5Floor(rs: DumpRow[], weights: number[], c: { threshold: number; veto: number; semanticWeight: number }): number {
  if (!process.env.FIT_R5_DROP) return Number(process.env.FIT_R5_FLOOR ?? 0.98);
  const own = replay(rs, weights, c.threshold, c.semanticWeight, c.veto).r5;
  return Math.max(0.98, lexicalScore(rs).r5, own - Number(process.env.FIT_R5_DROP)) - 1e-9;
}

/** Threshold and semantic weight: best R@5 + out-of-corpus + chatter "nothing", with R@5 and "nothing" never below lexical on this half. */
function choose(rs: DumpRow[], weights: number[]) {
  const lex = lexicalScore(rs);
  let best: { threshold: number; veto: number; semanticWeight: number; s: Score; objective: number } | null = null;
  for (const semanticWeight of [0.25, 0.5, 1, 2]) {
    for (let t = 0.3; t < 0.99; t += 0.05) {
      for (const veto of process.env.FIT_VETO ? [Number(process.env.FIT_VETO)] : [0, 0.02, 0.05, 0.1, 0.2, 0.3]) {
        const s = replay(rs, weights, t, semanticWeight, veto);
        const feasible = s.r5 >= lex.r5 && s.ooc >= lex.ooc && s.chatter >= lex.chatter;
        const objective = (feasible ? 10 : 0) + 2 * s.r5 + s.ooc + 0.5 * s.chatter;
        if (!best || objective > best.objective) best = { threshold: Math.round(t * 1000) / 1000, veto, semanticWeight, s, objective };
      }
    }
  }
  return best!;
}

const f = (n: number) => n.toFixed(3);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const line = (name: string, s: Score) => `| ${name} | ${f(s.r1)} | ${f(s.r5)} | ${pct(s.inEmpty)} | ${pct(s.ooc)} | ${pct(s.chatter)} |`;
console.log('| fold / system | R@1 | R@5 | in-corpus → nothing | out-of-corpus → nothing | chatter → nothing |');
console.log('|---|---|---|---|---|---|');
for (const [fit, test] of [[0, 1], [1, 0]] as const) {
  const train = rows.filter((r) => r.half === fit);
  const held = rows.filter((r) => r.half === test);
  const w = fitLogistic(samples(train));
  const c = choose(train, w);
  console.log(line(`fit on half ${fit}, test on half ${test}: lexical only`, lexicalScore(held)));
  console.log(line(`fit on half ${fit}, test on half ${test}: hybrid (admit p ≥ ${c.threshold}, veto < ${c.veto}, semantic weight ${c.semanticWeight})`, replay(held, w, c.threshold, c.semanticWeight, c.veto)));
  const qw = fitLogistic(querySamples(train, w));
  const qc = chooseQuery(train, w, c, qw, r5Floor(train, w, c));
  const qs = replay(held, w, c.threshold, c.semanticWeight, c.veto, 60, { weights: qw, threshold: qc.threshold });
  if (process.env.FIT_CURVE) {
    // Analysis only (nothing is chosen from it): R@5 / out-of-corpus "nothing" per threshold on both halves.
    for (const t of QUERY_THRESHOLDS) {
      const a = replay(train, w, c.threshold, c.semanticWeight, c.veto, 60, { weights: qw, threshold: t });
      const b = replay(held, w, c.threshold, c.semanticWeight, c.veto, 60, { weights: qw, threshold: t });
      console.log(`  q ≥ ${t}: fitting R@5 ${f(a.r5)} ooc ${pct(a.ooc)} | held out R@5 ${f(b.r5)} ooc ${pct(b.ooc)} chatter ${pct(b.chatter)}`);
    }
  }
  console.log(line(`fit on half ${fit}, test on half ${test}: hybrid + query gate (q ≥ ${qc.threshold}; on the fitting half R@5 ${f(qc.s.r5)}, out-of-corpus ${pct(qc.s.ooc)})`, qs));
}
const all = fitLogistic(samples(rows));
const c = choose(rows, all);
console.log('');
console.log(`fitted on all of CMRC dev: weights [${all.map((x) => Math.round(x * 1000) / 1000).join(', ')}] (bias, ${FEATURES.join(', ')}); threshold ${c.threshold}; veto ${c.veto}; semantic weight ${c.semanticWeight}`);
console.log(line('all (in-sample)', c.s));
const qAll = fitLogistic(querySamples(rows, all));
const qcAll = chooseQuery(rows, all, c, qAll, r5Floor(rows, all, c));
console.log(`query gate fitted on all: weights [${qAll.map((x) => Math.round(x * 1000) / 1000).join(', ')}] (bias, ${[...QUERY_FEATURES, ...EXTRA].join(', ')}); threshold ${qcAll.threshold}`);
console.log(line('all with the query gate (in-sample)', qcAll.s));
