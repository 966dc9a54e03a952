// Fits the query gate (recall/hybrid-gate.ts FITTED_QUERY_GATE) on dumps of bench/query-gate-dump.ts:
// a logistic regression over QUERY_FEATURES on the tuning half (half 0) of the stores named for
// training — positives: answerable questions whose note is in the top 5 when the gate lets them
// through; negatives: out-of-corpus questions and chatter — then, per store, the figures each bar
// would give on both halves. The bars are chosen on the tuning half; the other half is only read.
//
//   node --import tsx packages/engine/bench/fit-query-gate.ts 1×=/tmp/qd-1.json 20k=/tmp/qd-20k.json [--check '10k, asked ×30'=/tmp/qd-10k.json …]
//     [--bars 0.1,0.2,0.3] [--agreement 0.2] [--agreement-from 600] [--current]   (--current: the fitted weights as they are, no fit;
//     --agreement: the probability from which channels that agree keep a question, --agreement-from: in a store of
//     at least that many chunks (dumps that record them), defaults the fitted gate's)
//   --lexical: the lexical query gate (FITTED_LEXICAL_QUERY_GATE, LEXICAL_QUERY_FEATURES) on dumps of stores kept
//     without the model (query-gate-dump.ts MODEL=none); channels agreeing never count there
import { readFileSync } from 'node:fs';
import { agreementBarFor, FITTED_LEXICAL_QUERY_GATE, FITTED_QUERY_GATE, LEXICAL_QUERY_FEATURES, QUERY_FEATURES, queryProbability } from '../src/recall/hybrid-gate.ts';
import { fitLogistic, type Sample } from './logistic.ts';
import type { QueryGateRecord } from './query-gate-dump.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  return value;
};
const bars = (flag('--bars') ?? '0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.5').split(',').map(Number);
const agreementBar = Number(flag('--agreement') ?? FITTED_QUERY_GATE?.agreementBar ?? 2);
// Agreement counts only in a store of at least this many chunks (records without a chunk count: always).
const agreementFrom = Number(flag('--agreement-from') ?? FITTED_QUERY_GATE?.agreementFrom ?? 0);
const current = args.includes('--current');
const lexical = args.includes('--lexical');
const fitted = lexical ? FITTED_LEXICAL_QUERY_GATE : FITTED_QUERY_GATE;
const features = lexical ? LEXICAL_QUERY_FEATURES : QUERY_FEATURES;
const stores: { name: string; train: boolean; records: QueryGateRecord[] }[] = [];
let train = true;
for (const a of args) {
  if (a === '--current' || a === '--lexical') continue;
  if (a === '--check') {
    train = false;
    continue;
  }
  const at = a.lastIndexOf('=');
  stores.push({ name: a.slice(0, at), train, records: JSON.parse(readFileSync(a.slice(at + 1), 'utf8')) as QueryGateRecord[] });
}
if (stores.length === 0) throw new Error('usage: fit-query-gate.ts NAME=DUMP.json … [--check NAME=DUMP.json …]');

const vec = (r: QueryGateRecord) => [1, ...features.map((f) => r.features?.[f] ?? 0)];
const samples: Sample[] = [];
for (const s of stores.filter((x) => x.train))
  for (const r of s.records) {
    if (r.half !== 0 || !r.features || r.empty || (r.kind === 'asked' && !r.hit)) continue;
    samples.push({ x: vec(r), y: r.kind === 'asked' ? 1 : 0, w: 1 });
  }
const weights = current ? (fitted?.weights ?? []) : fitLogistic(samples, 1e-3, 50).map((w) => Math.round(w * 1000) / 1000);
console.log(`${current ? 'current' : 'fitted'} on ${samples.length} tuning-half questions (${samples.filter((s) => s.y === 1).length} answered): [${weights.join(', ')}]`);
console.log(`features: bias, ${features.join(', ')}\n`);

const pct = (n: number, d: number) => (d ? (100 * n) / d : 0).toFixed(1);
function figures(records: QueryGateRecord[], half: 0 | 1, bar: number): string {
  const rs = records.filter((r) => r.half === half);
  const nothing = (r: QueryGateRecord) => {
    if (r.empty) return true;
    if (r.features === null) return false;
    const p = queryProbability(r.features, weights, features);
    if (lexical) return p < bar;
    const agreement = agreementBarFor({ weights, threshold: bar, agreementBar, agreementFrom }, r.chunks ?? Infinity);
    return p < bar && !(agreement !== undefined && r.features.agreePass === 1 && p >= agreement);
  };
  const asked = rs.filter((r) => r.kind === 'asked');
  const ooc = rs.filter((r) => r.kind === 'ooc');
  const chatter = rs.filter((r) => r.kind === 'chatter');
  const r5 = asked.filter((r) => r.hit && !nothing(r)).length / (asked.length || 1);
  return `${r5.toFixed(3)} / ${pct(asked.filter(nothing).length, asked.length)} / ${pct(ooc.filter(nothing).length, ooc.length)} / ${pct(chatter.filter(nothing).length, chatter.length)}`;
}
console.log('| store | bar | tuning half: R@5 / answerable → nothing % / out-of-corpus → nothing % / chatter → nothing % | held-out half |');
console.log('|---|---|---|---|');
for (const s of stores) for (const bar of bars) console.log(`| ${s.name}${s.train ? '' : ' (not trained on)'} | ${bar} | ${figures(s.records, 0, bar)} | ${figures(s.records, 1, bar)} |`);
