// The growth benchmark's stores through the built artifact a person runs: the compiled CLI
// (bin/engram.js → dist/cli), with the product's defaults — nothing set but HOME, the model installed
// with `engram model install`, notes put in the default diary folder as files, `engram index`, then
// every question through `engram recall --stdin --json --k 5` (ms/query: that one command's wall time,
// model load included, over the questions). Beside it, in the same run, the library
// (openEngine, the same defaults) over the index the CLI built, question by question: both must give
// the same figures, and the table counts the questions whose top 5 differ. The growth benchmark's own
// runs (bench/growth.ts) set a fixed date and the model's folder; this one takes today's date.
//
//   npm run bench:growth-cli   (builds the CLI first)
//   GROWTH_STORES='small;20k'  the stores (names as in growth.ts; default small)
//   GROWTH_CLI_WORK=<dir>      where each store's HOME goes (kept, and reused when its index is there)
//   ENGRAM_MODEL_CACHE         where `engram model install` finds the model (as in the README)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { buildStore, cmrcSet, GROWTH_STORES, type BuiltStore } from './growth-data.ts';
import { ask, figures, fileOf, formatRows, type GrowthRow } from './growth.ts';

const CLI = resolve(new URL('.', import.meta.url).pathname, '../bin/engram.js');

/** The environment of a person who set nothing: HOME, PATH, and where the model installer looks. */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home };
  if (process.env.ENGRAM_MODEL_CACHE) env.ENGRAM_MODEL_CACHE = process.env.ENGRAM_MODEL_CACHE;
  return env;
}

function cli(home: string, args: string[], input?: string): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: cleanEnv(home), input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`engram ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}

/** Every question the growth benchmark asks of `store` (answerable, out-of-corpus, chatter), once. */
function questionsOf(store: BuiltStore, chatter: { q: string }[]): string[] {
  return [...new Set([...store.asked.map((a) => a.q), ...store.absent.map((a) => a.q), ...chatter.map((c) => c.q)])];
}

async function run(specName: string, root: string): Promise<{ rows: GrowthRow[]; differing: number; questions: number }> {
  const set = cmrcSet();
  const spec = GROWTH_STORES.find((s) => s.name === specName);
  if (!spec) throw new Error(`no store named ${specName}`);
  const store = buildStore(set, spec);
  const home = join(root, specName.replace(/[^\w]+/g, '_'));
  const diaryDir = join(home, '.engram', 'diaries');
  const groupOfPath = new Map<string, string>();
  store.notes.forEach((n, i) => groupOfPath.set(fileOf(n, i), n.group ?? n.id));
  let indexSeconds = 0;
  if (!existsSync(join(home, '.engram', 'engram.db'))) {
    for (let i = 0; i < 20; i++) mkdirSync(join(diaryDir, `f${i}`), { recursive: true });
    store.notes.forEach((n, i) => writeFileSync(join(diaryDir, fileOf(n, i)), `[09:00] ${n.title}\n\n${n.text}\n`));
    cli(home, ['model', 'install']);
    const t0 = performance.now();
    cli(home, ['index']);
    indexSeconds = (performance.now() - t0) / 1000;
  }
  if (!/semantic ready/.test(cli(home, ['status']))) throw new Error(`${specName}: the semantic channel is not ready (engram status)`);
  const questions = questionsOf(store, set.chatter);
  const t0 = performance.now();
  const lines = cli(home, ['recall', '--stdin', '--json', '--k', '5'], `${questions.map((q) => q.replace(/\s+/g, ' ')).join('\n')}\n`).trim().split('\n');
  const cliMs = (performance.now() - t0) / questions.length;
  if (lines.length !== questions.length) throw new Error(`${specName}: ${lines.length} answers to ${questions.length} questions`);
  const byCli = new Map(questions.map((q, i) => [q, (JSON.parse(lines[i]!) as { hits: { path: string }[] }).hits.map((h) => h.path)]));

  // The library over the same folders, as a program embedding the engine opens them.
  const engine = await openEngine({ env: cleanEnv(home), syncOnOpen: false });
  const byLibrary = new Map<string, string[]>();
  const t1 = performance.now();
  try {
    for (const q of questions) byLibrary.set(q, (await engine.recall(q.replace(/\s+/g, ' '), { k: 5 })).hits.map((h) => h.path));
  } finally {
    engine.close();
  }
  const libraryMs = (performance.now() - t1) / questions.length;
  const differing = questions.filter((q) => byCli.get(q)!.join('\n') !== byLibrary.get(q)!.join('\n')).length;
  const answer = (from: Map<string, string[]>) => (q: string) => ({ groups: from.get(q)!.map((p) => groupOfPath.get(p) ?? p) });
  const cliRun = await ask(store, set.chatter, answer(byCli), { every: 1, half: null });
  const libRun = await ask(store, set.chatter, answer(byLibrary), { every: 1, half: null });
  const row = (system: string, halves: GrowthRow['halves'], ms: number): GrowthRow => ({ set: set.name, store: spec.name, notes: store.notes.length, system, halves, msPerQuery: ms, indexSeconds });
  return { rows: [row('compiled CLI, defaults', figures(cliRun.records), cliMs), row('library, same index', figures(libRun.records), libraryMs)], differing, questions: questions.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.env.GROWTH_CLI_WORK ?? mkdtempSync(join(tmpdir(), 'engram-growth-cli-'));
  const stores = (process.env.GROWTH_STORES ?? 'small').split(';').map((s) => s.trim()).filter(Boolean);
  const rows: GrowthRow[] = [];
  const notes: string[] = [];
  for (const name of stores) {
    const r = await run(name, root);
    rows.push(...r.rows);
    notes.push(`${name}: ${r.differing} of ${r.questions} questions got a different top 5 from the CLI than from the library${r.rows[0]!.indexSeconds ? `; engram index took ${r.rows[0]!.indexSeconds.toFixed(0)} s` : ''}`);
    console.error(formatRows(r.rows));
  }
  console.log(formatRows(rows));
  console.log(notes.join('\n'));
  console.log(`(stores under ${root})`);
}
