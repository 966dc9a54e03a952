// A folder flood under a running engine: N small diaries (default 10,000) arrive in the watched diary
// folder from another process, as from a git pull, Syncthing or an unzip, while a reader asks for the
// console's Library page (the console's own LibraryCache: what `memories.page` answers) and for a
// recall every 100 ms. Prints the answer times (p50 / p95 / max) before the flood (the baseline, same
// run) and during it, the largest event-loop gap, the index passes and the time until every file is
// indexed.
//   node --import tsx packages/engine/bench/flood.ts                 (ENGRAM_BENCH_FILES=2000 for another size)
//   node --import tsx packages/engine/bench/flood.ts --console       (over HTTP: `next start` of the console's
//                                                                    production build, built if missing)
//   ENGRAM_TEST_MODEL_DATA_DIR=… … flood.ts --embed                   (with the local embedding model: the
//                                                                    pass embeds the flood too)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { floodFile, loopGapMeter } from '../test/index/flood-files.ts';
import { seedCorpus } from '../test/engine/helpers.ts';

const N = Number(process.env.ENGRAM_BENCH_FILES ?? 10_000);
const SEEDED = 5;
const EVERY_MS = 100;

// Writer mode (the child process): the flood itself, a few hundred files at a time like an unzip.
if (process.argv[2] === '--write') {
  const [dir, count] = [process.argv[3]!, Number(process.argv[4])];
  for (let i = 0; i < count; i++) {
    const { name, text } = floodFile(i);
    writeFileSync(join(dir, name), text);
    if (i % 250 === 249) await new Promise((r) => setImmediate(r));
  }
  process.exit(0);
}

const overHttp = process.argv.includes('--console');
const root = mkdtempSync(join(tmpdir(), 'engram-bench-flood-'));
const diaryDir = join(root, 'diary');
const dataDir = join(root, 'data');
mkdirSync(diaryDir, { recursive: true });
seedCorpus(diaryDir);
const embed = process.argv.includes('--embed');
if (embed) {
  // The installed model (`engram model install`, as scripts/test-all.mjs does), shared into this data dir.
  const models = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
  if (!models) throw new Error('--embed needs ENGRAM_TEST_MODEL_DATA_DIR: a data dir with the model installed');
  mkdirSync(dataDir, { recursive: true });
  symlinkSync(join(models, 'models'), join(dataDir, 'models'));
}

/** One reader: a Library page and a recall; resolves with the Library page's total. */
interface Reader {
  page(): Promise<number>;
  recall(): Promise<void>;
  /** Where the live sync is, as last seen. */
  sync(): string;
  passes(): number;
  /** Asks the console where the live sync is (what the Index page polls); in-process it is read directly. */
  pollSync(): Promise<void>;
  close(): Promise<void>;
}

interface SyncSeen {
  running: boolean;
  progress: { phase: string; done: number; total: number } | null;
  pending: number;
}

const syncLine = (s: Partial<SyncSeen>) => (s.running ? `${s.progress?.phase ?? 'scan'} ${s.progress?.done ?? 0}/${s.progress?.total ?? 0}` : `idle (${s.pending ?? 0} pending)`);

async function inProcessReader(): Promise<Reader> {
  const { openEngine } = await import('../src/engine.ts');
  const { LibraryCache } = await import('../../../apps/console/src/server/library-cache.ts');
  const engine = await openEngine({ env: { ...process.env, ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: root }, watch: true });
  const cache = new LibraryCache(engine);
  return {
    page: async () => (await cache.page({ includeArchived: false, includeGlobal: true, query: '', category: '', tag: '', offset: 0, limit: 100 })).total,
    recall: async () => void (await engine.recall('同步 记录')),
    sync: () => syncLine(engine.liveSync),
    passes: () => engine.liveSync.passes,
    pollSync: async () => undefined,
    close: async () => engine.close(),
  };
}

async function httpReader(): Promise<Reader> {
  const { ensureBuild, freePort, startConsole } = await import('../../../e2e/server.ts');
  ensureBuild((s) => console.log(`# ${s}`));
  const server = await startConsole({ ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: root }, await freePort());
  const get = async (procedure: string, input: unknown) => {
    const res = await fetch(`${server.url}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`);
    const body = (await res.json()) as { result?: { data?: unknown } };
    if (!res.ok) throw new Error(`${procedure}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.result?.data;
  };
  let live: Partial<SyncSeen> & { passes?: number } = {};
  return {
    page: async () => ((await get('memories.page', { query: '', offset: 0, limit: 100 })) as { total: number }).total,
    recall: async () => void (await get('recall.run', { query: '同步 记录' })),
    sync: () => syncLine(live),
    passes: () => live.passes ?? 0,
    pollSync: async () => void (live = ((await get('index.liveSync', {})) ?? {}) as typeof live),
    close: () => server.stop(),
  };
}

const reader = overHttp ? await httpReader() : await inProcessReader();

// In-process, this loop is the engine's: a stretch without a timer is a stretch without answers.
const gaps = loopGapMeter();

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);

interface Phase {
  page: number[];
  recall: number[];
  gap: number;
}

/**
 * Asks on a fixed schedule, every EVERY_MS, until `done` says stop. An answer's time runs from when
 * it was due, not from when the loop got round to asking: a loop held for a minute makes every
 * request due in that minute wait (each counted), which timing from the actual start would hide.
 */
async function measure(done: (total: number, elapsedMs: number) => boolean, log: boolean): Promise<Phase> {
  const out: Phase = { page: [], recall: [], gap: 0 };
  gaps.reset();
  const started = performance.now();
  let due = started;
  let lastLog = 0;
  for (;;) {
    const t0 = performance.now();
    const total = await reader.page();
    const t1 = performance.now();
    await reader.recall();
    const t2 = performance.now();
    // This request and every one that fell due before it could start.
    for (let slot = due; slot <= t0; slot += EVERY_MS) {
      out.page.push(t1 - slot);
      out.recall.push(t2 - t1 + (t0 - slot));
    }
    await reader.pollSync();
    const elapsed = performance.now() - started;
    if (log && elapsed - lastLog > 5_000) {
      lastLog = elapsed;
      console.log(`#   ${(elapsed / 1000).toFixed(0)} s: Library shows ${total}, sync ${reader.sync()}, page ${(t1 - t0).toFixed(0)} ms`);
    }
    if (done(total, elapsed)) break;
    // The next slot after this request (slots during it are requests its answer serves as well).
    due += EVERY_MS * Math.max(1, Math.ceil((performance.now() - due) / EVERY_MS));
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
  out.gap = gaps.largest();
  return out;
}

console.log(`# ${N.toLocaleString('en')} files into a watched diary folder, ${overHttp ? 'console over HTTP (next start)' : 'in-process engine + the console\'s LibraryCache'}${embed ? ', local embedding model on' : ', lexical only'}; node ${process.version}, ${process.platform}`);
await reader.page(); // the first build of the list is not the baseline's
const quiet = await measure((_total, elapsed) => elapsed >= 5_000, false);

const passesBefore = reader.passes();
const writer = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--write', diaryDir, String(N)], { stdio: 'inherit' });
const writerDone = new Promise<number>((resolve) => writer.once('exit', () => resolve(performance.now())));
const floodStart = performance.now();
let allIndexedAt = 0;
const flood = await measure((total) => {
  if (total < N + SEEDED) return false;
  allIndexedAt = performance.now();
  return true;
}, true);
const wroteMs = (await writerDone) - floodStart;

const row = (name: string, p: Phase) =>
  `| ${name} | ${p.page.length} | ${pct(p.page, 0.5).toFixed(0)} / ${pct(p.page, 0.95).toFixed(0)} / ${Math.max(...p.page).toFixed(0)} | ${pct(p.recall, 0.5).toFixed(0)} / ${pct(p.recall, 0.95).toFixed(0)} / ${Math.max(...p.recall).toFixed(0)} | ${overHttp ? '–' : p.gap.toFixed(0)} |`;
console.log('');
console.log('| phase | requests due | Library page ms p50 / p95 / max | recall ms p50 / p95 / max | largest loop gap ms |');
console.log('|---|---:|---:|---:|---:|');
console.log(row('quiet (baseline)', quiet));
console.log(row(`flood of ${N.toLocaleString('en')}`, flood));
console.log('');
console.log(`writer done after ${(wroteMs / 1000).toFixed(1)} s; every file indexed (Library total ${N + SEEDED}) after ${((allIndexedAt - floodStart) / 1000).toFixed(1)} s; index passes ${overHttp ? reader.passes() : reader.passes() - passesBefore}`);
gaps.stop();
await reader.close();
process.exit(0);
