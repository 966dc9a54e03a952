// Growth benchmark (issue 26): does recall hold as memory grows and repeats itself? For each QA set
// (bench/growth-data.ts) and each store (1×, grown to 5k / 20k notes with distractors of overlapping
// topics, each asked note written 10× more in 5k and 30× more in 10k), the engine with its defaults
// and two BM25 baselines over the same notes, in the same run (character 1+2-grams, and the issue's
// plain character bigrams). Per half (tuning / held out): R@5 (a hit is any note of the asked note's group: the original or one of its copies),
// answerable questions that get nothing, out-of-corpus questions → nothing, chatter → nothing; then
// R@5 over the answerable questions holding a Latin letter (English words and codes inside Chinese).
//
//   npm run bench:growth
//   GROWTH_STORES='1×;20k'   only these stores (names as printed, ';' between)
//   GROWTH_MODEL=auto        the embedding model (if installed: ENGRAM_TEST_MODEL_DATA_DIR or
//                            ~/.cache/engram-models/<engram model key>) for the small and 1× stores only;
//                            'all' for every store, 'none' for none, or a comma list of store names
//   GROWTH_SETS=zh|en         one QA set only (default: CMRC and, when its data is there, English)
//   GROWTH_HALF=0|1          ask only one half's questions (tuning runs)
//   GROWTH_EVERY=N           every Nth asked / out-of-corpus question (a quicker, coarser run)
//   GROWTH_SWEEP=0.2,0.3     also print the engine's figures as if the query gate's bar were each value
//   GROWTH_KEEP=<dir>        keep each store and its index there, and reuse them on the next run
//   GROWTH_DUMP=<file>       write each store's per-question records to <file>.<store>.json
//   GROWTH_WHY=1             also print, per store, which rule silenced the answerable questions that got nothing
//   GROWTH_SEED=N            draw the distractors with another seed (default 2018): the same questions
//                            over another store of the same make, to see how much of a cell is the draw
//   ENGRAM_EVAL_OPTIONS      JSON merged into the engine options
// Ablation switches read by the recall code (evaluation only): ENGRAM_EVAL_SINGLE_CHAR_MIN_IDF=99 (no one-character names in coverage),
// ENGRAM_EVAL_ASKING_WORDS=weigh, ENGRAM_EVAL_BOUNDARY_PAIRS=keep|function|all,
// ENGRAM_EVAL_RARITY_SHARE=0 (no language-table floor on gate rarity), ENGRAM_EVAL_UNKNOWN_RARE=1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { LexicalIndex } from '../src/lexical/bm25.ts';
import { installedModel, modelDirOf } from '../src/model/install.ts';
import { createTokenizer } from '../src/text/tokenize.ts';
import { buildStore, GROWTH_STORES, type BuiltStore, type QaSet, type StoreNote, type StoreSpec } from './growth-data.ts';
import { growthSets } from './growth-sets.ts';

export interface HalfFigures {
  r5: number;
  /** Answerable questions that got nothing. */
  answerableNothing: number;
  oocNothing: number;
  chatterNothing: number;
  asked: number;
  ooc: number;
  chatter: number;
  /** R@5 over the answerable questions that hold a Latin letter (English words, codes inside Chinese questions), and how many. */
  latinR5: number;
  latinAsked: number;
}

export interface GrowthRow {
  set: string;
  store: string;
  notes: number;
  system: string;
  halves: [HalfFigures, HalfFigures];
  msPerQuery: number;
  indexSeconds: number;
}

/** A system's answer to a query: the groups (or ids) of its top 5 (empty = nothing), and the query gate's probability when it judged. */
export type Answer = (q: string) => Promise<{ groups: string[]; queryP?: number | null }> | { groups: string[]; queryP?: number | null };

export interface Asked {
  kind: 'asked' | 'ooc' | 'chatter';
  half: 0 | 1;
  /** The question holds a Latin letter. */
  latin: boolean;
  hit: boolean;
  empty: boolean;
  queryP: number | null;
}

const LATIN_LETTER = /[A-Za-z]/;

/** Runs every kept question through `answer` once. */
export async function ask(store: BuiltStore, chatter: QaSet['chatter'], answer: Answer, opts: { every: number; half: 0 | 1 | null }): Promise<{ records: Asked[]; ms: number }> {
  const keep = <T extends { half: 0 | 1 }>(xs: T[]) => xs.filter((x, i) => i % opts.every === 0 && (opts.half === null || x.half === opts.half));
  const records: Asked[] = [];
  const t0 = performance.now();
  const one = async (kind: Asked['kind'], q: string, half: 0 | 1, gold: string[]) => {
    const got = await answer(q);
    records.push({ kind, half, latin: LATIN_LETTER.test(q), hit: got.groups.some((g) => gold.includes(g)), empty: got.groups.length === 0, queryP: got.queryP ?? null });
  };
  for (const a of keep(store.asked)) await one('asked', a.q, a.half, a.groups);
  for (const a of keep(store.absent)) await one('ooc', a.q, a.half, []);
  for (const c of chatter.filter((x) => opts.half === null || x.half === opts.half)) await one('chatter', c.q, c.half, []);
  return { records, ms: (performance.now() - t0) / Math.max(1, records.length) };
}

/** The figures per half; with `queryGateAt`, as if the query gate's bar were that (a higher bar only silences more). */
export function figures(records: Asked[], queryGateAt?: number): [HalfFigures, HalfFigures] {
  const f = (half: 0 | 1): HalfFigures => {
    const rs = records.filter((r) => r.half === half);
    const empty = (r: Asked) => r.empty || (queryGateAt !== undefined && r.queryP !== null && r.queryP < queryGateAt);
    const of = (kind: Asked['kind']) => rs.filter((r) => r.kind === kind);
    const asked = of('asked');
    const latin = asked.filter((r) => r.latin);
    const share = (xs: Asked[], pred: (r: Asked) => boolean) => xs.filter(pred).length / (xs.length || 1);
    return {
      r5: share(asked, (r) => r.hit && !empty(r)),
      answerableNothing: share(asked, empty),
      oocNothing: share(of('ooc'), empty),
      chatterNothing: share(of('chatter'), empty),
      asked: asked.length,
      ooc: of('ooc').length,
      chatter: of('chatter').length,
      latinR5: share(latin, (r) => r.hit && !empty(r)),
      latinAsked: latin.length,
    };
  };
  return [f(0), f(1)];
}

/**
 * BM25 over title and text (k1 1.2, b 0.75), no gates: it never abstains when a term matches. Two
 * spellings: the character 1+2-grams of Engram's fallback tokenizer (stop characters and pairs of them
 * left out: the stronger baseline), and the issue's plain character bigrams (`plainBigrams`).
 */
function bm25Baseline(notes: StoreNote[], terms: (text: string) => string[]): Answer {
  const index = new LexicalIndex({ k1: 1.2, b: 0.75, fieldWeights: { title: 1, summary: 1, tags: 1, body: 1 }, singleCharWeight: 1 });
  const groupOf = new Map<string, string>();
  for (const n of notes) {
    index.add({ chunkId: n.id, docId: n.id, fields: { title: terms(n.title), summary: [], tags: [], body: terms(n.text) } });
    groupOf.set(n.id, n.group ?? n.id);
  }
  return (q) => ({ groups: index.search(terms(q), 5).map((h) => groupOf.get(h.docId) as string) });
}

const HAN_OR_WORD = /(\p{Script=Han}+)|([\p{Script=Latin}\p{N}]+)/gu;

/**
 * The baseline issue 26 names, "plain char-bigram BM25": every pair of neighbouring Chinese characters
 * (a lone character as itself), other letters and digits as lower-cased words; no stop list, no
 * segmentation. Pure.
 */
export function plainBigrams(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(HAN_OR_WORD)) {
    if (m[2] !== undefined) {
      out.push(m[2]);
      continue;
    }
    const chars = Array.from(m[1] as string);
    if (chars.length === 1) out.push(chars[0] as string);
    for (let i = 0; i + 1 < chars.length; i++) out.push((chars[i] as string) + (chars[i + 1] as string));
  }
  return out;
}

const BASELINES: { system: string; terms: () => (text: string) => string[] }[] = [
  { system: 'char 1+2-gram BM25, no gates', terms: () => { const gram = createTokenizer({ kind: 'gram' }); return (t) => gram.tokenize(t); } },
  { system: 'plain char-bigram BM25 (the issue\'s), no gates', terms: () => plainBigrams },
];

/** The diary file a growth store's note `i` is written to (the kept stores and the analysis scripts read the same names). */
export const fileOf = (n: Pick<StoreNote, 'id'>, i: number) => `f${i % 20}/2026-10-${String((i % 28) + 1).padStart(2, '0')}-${n.id.replace(/[^\p{L}\p{N}_-]+/gu, '-')}.txt`;

/** The model's data dir when the model is installed (the one the tests use), else null. */
export function modelDataDir(): string | null {
  const given = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
  if (given && installedModel(given)) return given;
  const cli = resolve(new URL('.', import.meta.url).pathname, '../bin/engram.js');
  const key = spawnSync(process.execPath, [cli, 'model', 'key'], { encoding: 'utf8' });
  if (key.status !== 0) return null;
  const dir = join(process.env.ENGRAM_MODEL_CACHE ?? join(homedir(), '.cache/engram-models'), key.stdout.trim());
  return installedModel(dir) ? dir : null;
}

function wantsModel(store: string, mode: string): boolean {
  if (mode === 'none') return false;
  if (mode === 'all') return true;
  if (mode === 'auto') return store === '1×' || store.startsWith('small');
  return mode.split(',').map((s) => s.trim()).includes(store);
}

async function engramRun(store: BuiltStore, set: QaSet, spec: StoreSpec, model: string | null, opts: { every: number; half: 0 | 1 | null; extra: Record<string, unknown> }): Promise<GrowthRow> {
  // GROWTH_KEEP=<dir>: the store and its index stay there and are reused by the next run (an index
  // with vectors of 20,000 notes takes minutes to build; the questions take seconds).
  const seeded = process.env.GROWTH_SEED ? `-seed${process.env.GROWTH_SEED}` : '';
  const kept = process.env.GROWTH_KEEP ? join(process.env.GROWTH_KEEP, `${set.language}-${spec.name.replace(/[^\w]+/g, '_')}${seeded}-${model ? 'model' : 'lexical'}`) : null;
  const reuse = kept !== null && existsSync(join(kept, 'data'));
  const work = kept ?? mkdtempSync(join(tmpdir(), 'engram-growth-'));
  const diaryDir = join(work, 'diaries');
  const groupOfPath = new Map<string, string>();
  for (let i = 0; i < 20; i++) mkdirSync(join(diaryDir, `f${i}`), { recursive: true });
  store.notes.forEach((n, i) => {
    const path = fileOf(n, i);
    if (!reuse) writeFileSync(join(diaryDir, path), `[09:00] ${n.title}\n\n${n.text}\n`);
    groupOfPath.set(path, n.group ?? n.id);
  });
  const embedding = model ? { provider: 'local', modelDir: modelDirOf(model) } : { provider: 'none' };
  const engine = await openEngine({
    options: { ...opts.extra, diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding },
    env: { HOME: work },
    syncOnOpen: false,
    now: () => new Date('2026-11-01T00:00:00'),
  });
  try {
    const t0 = performance.now();
    await engine.index({ full: !reuse });
    const indexSeconds = (performance.now() - t0) / 1000;
    if (model && engine.semantic?.status().state !== 'ready') throw new Error(`semantic channel not ready: ${engine.semantic?.status().reason}`);
    const askedQs = new Set(store.asked.map((a) => a.q));
    const why = new Map<string, number>();
    const answer: Answer = async (q) => {
      const r = await engine.recall(q, { k: 5 });
      if (process.env.GROWTH_WHY === '1' && r.hits.length === 0 && askedQs.has(q)) {
        const s = r.explain.gate.silencedBy;
        const key = s ? `${s.rule}${s.rule === 'every-candidate' ? `: ${s.detail.replace(/\d+/g, 'n')}` : ''}` : 'no candidates';
        why.set(key, (why.get(key) ?? 0) + 1);
      }
      return { groups: r.hits.map((h) => groupOfPath.get(h.path) ?? h.path), queryP: r.explain.gate.queryGate?.p ?? null };
    };
    const { records, ms } = await ask(store, set.chatter, answer, opts);
    const halves = figures(records);
    if (process.env.GROWTH_DUMP) writeFileSync(`${process.env.GROWTH_DUMP}.${spec.name.replace(/[^\w]+/g, '_')}.json`, JSON.stringify(records));
    const sweep = (process.env.GROWTH_SWEEP ?? '').split(',').filter(Boolean).map(Number);
    for (const t of sweep) console.error(formatRows([{ set: set.name, store: spec.name, notes: store.notes.length, system: `query gate at ${t}`, halves: figures(records, t), msPerQuery: ms, indexSeconds: 0 }]).split('\n').slice(2).join('\n'));
    if (why.size > 0) console.error(`growth: ${spec.name}: answerable questions silenced by: ${[...why].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join('; ')}`);
    return { set: set.name, store: spec.name, notes: store.notes.length, system: `engram ${model ? 'hybrid (model)' : 'lexical'}`, halves, msPerQuery: ms, indexSeconds };
  } finally {
    engine.close();
    if (!kept) rmSync(work, { recursive: true, force: true });
  }
}

export function formatRows(rows: GrowthRow[]): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    '| set | store (notes) | system | half | R@5 | answerable → nothing | out-of-corpus → nothing | chatter → nothing | asked / ooc / chatter | ms/query |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    r.halves.forEach((h, i) => {
      if (h.asked + h.ooc + h.chatter === 0) return;
      lines.push(
        `| ${r.set} | ${r.store} (${r.notes.toLocaleString('en')}) | ${r.system} | ${i === 0 ? 'tuning' : 'held out'} | ${h.r5.toFixed(3)} | ${pct(h.answerableNothing)} | ${h.ooc > 0 ? pct(h.oocNothing) : '—'} | ${h.chatter > 0 ? pct(h.chatterNothing) : '—'} | ${h.asked} / ${h.ooc} / ${h.chatter} | ${r.msPerQuery.toFixed(1)} |`,
      );
    });
  return lines.join('\n');
}

/** R@5 over the answerable questions holding a Latin letter, per store and system (a store's Chinese questions with English words or codes in them). */
export function formatLatinRows(rows: GrowthRow[]): string {
  const lines = ['| set | store | system | tuning R@5 (questions) | held out R@5 (questions) |', '|---|---|---|---|---|'];
  for (const r of rows) {
    if (r.halves.every((h) => h.latinAsked === 0)) continue;
    const cell = (h: HalfFigures) => (h.latinAsked > 0 ? `${h.latinR5.toFixed(3)} (${h.latinAsked})` : '—');
    lines.push(`| ${r.set} | ${r.store} | ${r.system} | ${cell(r.halves[0])} | ${cell(r.halves[1])} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.env.GROWTH_STORES ? new Set(process.env.GROWTH_STORES.split(';').map((s) => s.trim())) : null;
  const mode = process.env.GROWTH_MODEL ?? 'auto';
  const every = Math.max(1, Number(process.env.GROWTH_EVERY ?? 1));
  const half = process.env.GROWTH_HALF === '0' ? 0 : process.env.GROWTH_HALF === '1' ? 1 : null;
  const extra = process.env.ENGRAM_EVAL_OPTIONS ? (JSON.parse(process.env.ENGRAM_EVAL_OPTIONS) as Record<string, unknown>) : {};
  const modelDir = mode === 'none' ? null : modelDataDir();
  const rows: GrowthRow[] = [];
  for (const set of await growthSets()) {
    for (const spec of GROWTH_STORES) {
      if (only && !only.has(spec.name)) continue;
      const store = buildStore(set, spec, process.env.GROWTH_SEED ? Number(process.env.GROWTH_SEED) : undefined);
      const useModel = wantsModel(spec.name, mode) ? modelDir : null;
      if (wantsModel(spec.name, mode) && !modelDir) console.error(`growth: no installed model (engram model install); ${spec.name} runs lexical`);
      rows.push(await engramRun(store, set, spec, useModel, { every, half, extra }));
      for (const b of BASELINES) {
        const baseline = await ask(store, set.chatter, bm25Baseline(store.notes, b.terms()), { every, half });
        rows.push({ set: set.name, store: spec.name, notes: store.notes.length, system: b.system, halves: figures(baseline.records), msPerQuery: baseline.ms, indexSeconds: 0 });
      }
      console.error(`growth: ${set.name} ${spec.name} done (${store.notes.length} notes, indexed in ${rows.at(-1 - BASELINES.length)?.indexSeconds.toFixed(0)} s)`);
      console.error(formatRows(rows.slice(-1 - BASELINES.length)));
    }
  }
  console.log(formatRows(rows));
  console.log('\nAnswerable questions that hold a Latin letter:');
  console.log(formatLatinRows(rows));
}
