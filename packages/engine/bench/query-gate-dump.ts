// Analysis for the query gate (recall/hybrid-gate.ts FITTED_QUERY_GATE): for every question of a kept
// growth store (GROWTH_KEEP of bench/growth.ts, with the model), what the gate read and whether the
// answering note is in the top 5 when the gate lets the question through. Two passes over one store:
// the default recall (the gate's features, from the explanation) and one with the query gate off
// (the hits it would let through). bench/fit-query-gate.ts fits and sweeps on the output.
//
//   STORE='20k' WORK=/tmp/gk/zh-20k-model OUT=/tmp/qd-20k.json node --import tsx packages/engine/bench/query-gate-dump.ts
// MODEL=none: a store kept without the model (GROWTH_MODEL=none), the lexical query gate's features
// (FITTED_LEXICAL_QUERY_GATE); with RECALL='{"minSpecificity":0.75}' (merged into the recall options
// of both passes) the pass with the query gate off keeps the rule bars the gate judges with.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import type { QueryEvidence } from '../src/recall/hybrid-gate.ts';
import { modelDirOf } from '../src/model/install.ts';
import { buildStore, GROWTH_STORES } from './growth-data.ts';
import { growthSets } from './growth-sets.ts';
import { fileOf, modelDataDir } from './growth.ts';

export interface QueryGateRecord {
  kind: 'asked' | 'ooc' | 'chatter';
  half: 0 | 1;
  q: string;
  /** The answering note among the top 5 with the query gate off. */
  hit: boolean;
  /** Nothing came back even with the query gate off. */
  empty: boolean;
  /** What the gate read (null: it did not judge the question: no candidates, not mostly Chinese, no semantic channel). */
  features: QueryEvidence | null;
  /** The store's bar for this question. */
  threshold: number | null;
  /** Chunks in the store (the gate's bar and whether agreement counts depend on it). */
  chunks?: number;
}

const storeName = process.env.STORE ?? '20k';
const work = process.env.WORK;
const out = process.env.OUT;
if (!work || !out) throw new Error('set WORK (a kept growth store) and OUT');
const [set] = (await growthSets()).filter((s) => s.language === 'zh');
const spec = GROWTH_STORES.find((s) => s.name === storeName);
if (!set || !spec) throw new Error(`no store ${storeName}`);
const store = buildStore(set, spec);
const groupOfPath = new Map<string, string>();
store.notes.forEach((n, i) => groupOfPath.set(fileOf(n, i), n.group ?? n.id));
const lexical = process.env.MODEL === 'none';
const model = lexical ? null : modelDataDir();
if (!lexical && !model) throw new Error('the model is not installed');
const recallOptions = JSON.parse(process.env.RECALL ?? '{}') as Record<string, unknown>;
const questions: { kind: QueryGateRecord['kind']; q: string; half: 0 | 1; gold: string[] }[] = [
  ...store.asked.map((a) => ({ kind: 'asked' as const, q: a.q, half: a.half, gold: a.groups })),
  ...store.absent.map((a) => ({ kind: 'ooc' as const, q: a.q, half: a.half, gold: [] })),
  ...set.chatter.map((c) => ({ kind: 'chatter' as const, q: c.q, half: c.half, gold: [] })),
];

let chunks = 0;
async function pass(queryGate: 'auto' | 'off') {
  const engine = await openEngine({
    options: { diaryDir: join(work!, 'diaries'), dataDir: join(work!, 'data'), diary: { requireTag: false, timePrefix: true }, embedding: model ? { provider: 'local', modelDir: modelDirOf(model) } : { provider: 'none' }, recall: { ...recallOptions, hybridGate: { queryGate } } },
    env: { HOME: work! },
    syncOnOpen: false,
    now: () => new Date('2026-11-01T00:00:00'),
  });
  try {
    await engine.index({ full: false });
    if (model) await engine.vectorsSettled();
    chunks = (await engine.status()).chunks;
    const results = [];
    for (const x of questions) results.push(await engine.recall(x.q, { k: 5 }));
    return results;
  } finally {
    engine.close();
  }
}

const judged = await pass('auto');
const open = await pass('off');
const records: QueryGateRecord[] = questions.map((x, i) => {
  const groups = open[i]!.hits.map((h) => groupOfPath.get(h.path) ?? h.path);
  const gate = judged[i]!.explain.gate.queryGate ?? null;
  return { kind: x.kind, half: x.half, q: x.q, hit: groups.some((g) => x.gold.includes(g)), empty: groups.length === 0, features: gate?.features ?? null, threshold: gate?.threshold ?? null, chunks };
});
writeFileSync(out, JSON.stringify(records));
console.log(`${storeName}: ${records.length} questions, ${records.filter((r) => r.features).length} judged → ${out}`);
