// What Engram adds to the first turn after a host start, through the simulated host. Each start is
// a fresh process (as a host start is: nothing the engine caches in memory, such as the word
// tables, carries over), a new host and a new data dir over the coding-session memories; it times
// loading the plugin, the first turn right after the load, and a second turn once warm. Modes, in
// the same run and interleaved start by start:
//   off      — the host without Engram: the baseline every other row is compared with;
//   shipped  — the plugin as it ships (recallWaitMs 100: a step waits at most that long for the
//              index's open and its recall; the index, word tables and model open in the background);
//   blocking — every step waits for its recall (recallWaitMs 60000: what the plugin did before);
// each with no embedding model (a HOME without one: lexical) and, when this machine's model cache
// has one, with it (semantic once the warm-up has loaded it; the row says what the warm-up reported).
// The model of the conversation does nothing in the simulator: a turn's own cost is the host's,
// Engram's is what differs.
// The plugin is the packed bundle a user installs (npm run pack:plugin, run first), as the host loads
// it; `--source` loads apps/plugin/src instead (no prebuilt word tables: the first index builds them).
// Each timed start is a restart: an untimed start in its own process indexed the data folder first.
// Memory is bench-host-rss.mjs's: under tsx, transforming the bundle alone adds ~240 MB here.
// Run: node --import tsx apps/plugin/scripts/bench-first-turn.ts [starts] [--source]   (prints a markdown table)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import type { WarmUp } from '../src/host/recall/warm-up.ts';
import { CODING_MEMORIES } from './coding-session.ts';

type Mode = 'off' | 'shipped' | 'blocking';
type Model = 'none' | 'cached';
interface Timing {
  load: number;
  first: number;
  warm: number;
  /** CPU time of the process (user + system, all threads) during the load and the first turn. */
  loadCpu: number;
  firstCpu: number;
  /** What the warm-up said about the model: 'semantic', 'lexical', or '' (off). */
  recall: string;
  /** Whether the first turn's request carried a recalled memory (the index may still be opening). */
  firstRecalled: boolean;
}

const WAIT: Record<Exclude<Mode, 'off'>, number> = { shipped: 100, blocking: 60_000 };

const bundleEntry = fileURLToPath(new URL('../bundle/lib/host.mjs', import.meta.url));
const fromSource = process.argv.includes('--source');

/** Resolves once a log line matches (the bundle's plugin has no test hooks: its log says when it is open and warm). */
async function untilLogged(logs: { message: string }[], re: RegExp): Promise<void> {
  while (!logs.some((l) => re.test(l.message))) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** One host start in this process: the plugin loaded (unless off), a first turn, a warm turn. */
async function oneStart(mode: Mode, root: string): Promise<Timing> {
  const diaryDir = join(root, 'diaries');
  const host = createHost({});
  let warmUp: WarmUp | undefined;
  let opening: Promise<unknown> = Promise.resolve();
  try {
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    let c = cpuMs();
    let t = performance.now();
    if (mode !== 'off') {
      // The model cache is looked up under HOME: the process's own (startInChild gives a 'none' start
      // an empty one; some engine paths read the process's HOME, not the env handed to the plugin).
      const config = { diaryDir, dataDir: join(root, 'data'), model: { autoInstall: false }, recallWaitMs: WAIT[mode] };
      if (fromSource) {
        const plugin = createHostPlugin({ env: { DSH_HOME: join(root, 'dsh'), HOME: homedir(), ENGRAM_MODEL_AUTO_INSTALL: '0' }, onWarmUp: (w) => (warmUp = w), onOpening: (ready) => (opening = ready) });
        await host.load(plugin, config);
      } else {
        process.env.DSH_HOME = join(root, 'dsh');
        // The module's own import (the host's, at its start) is not the plugin's load.
        const mod = (await import(bundleEntry)) as Parameters<typeof host.load>[0];
        c = cpuMs();
        t = performance.now();
        await host.load(mod, config);
        opening = untilLogged(host.logs, /engine open:|engine failed to open/).then(() => untilLogged(host.logs, /^warm-up:/));
      }
    }
    const load = performance.now() - t;
    const loadCpu = cpuMs() - c;
    const session = host.createSession({ cwd: join(root, 'work') });
    c = cpuMs();
    t = performance.now();
    const turn = await session.userTurn('ledger-api 本地数据库端口是多少?', [{ text: 'ok' }]);
    const first = performance.now() - t;
    const firstCpu = cpuMs() - c;
    const firstRecalled = (turn.requests[0]?.messages ?? []).some((m) => (m.source as { form?: string } | undefined)?.form === 'recall');
    await opening;
    await warmUp?.done;
    t = performance.now();
    await session.userTurn('迁移用什么工具生成?', [{ text: 'ok' }]);
    const warm = performance.now() - t;
    const said = host.logs.find((l) => l.message.startsWith('warm-up:'))?.message ?? '';
    return { load, first, warm, loadCpu, firstCpu, firstRecalled, recall: mode === 'off' ? '' : said.includes('semantic ready') ? 'semantic' : 'lexical' };
  } finally {
    await host.close();
  }
}

/** Runs one start in a fresh Node process and reads its timing. */
function startInChild(mode: Mode, model: Model): Timing {
  // A restart: the data folder was indexed by an earlier start (its own process, untimed), as a
  // host's every start but the first finds it.
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-first-'));
  mkdirSync(join(root, 'diaries'), { recursive: true });
  for (const m of CODING_MEMORIES) writeFileSync(join(root, 'diaries', `${m.date}-${m.title}.txt`), m.text);
  try {
    if (mode !== 'off') startInChildAt(mode, model, root);
    return startInChildAt(mode, model, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function startInChildAt(mode: Mode, model: Model, root: string): Timing {
  const emptyHome = model === 'none' ? mkdtempSync(join(tmpdir(), 'engram-bench-home-')) : null;
  const env: NodeJS.ProcessEnv = { ...process.env, ENGRAM_MODEL_AUTO_INSTALL: '0' };
  delete env.ENGRAM_MODEL_CACHE;
  delete env.XDG_CACHE_HOME;
  if (emptyHome) env.HOME = emptyHome;
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--one', mode, root, ...(fromSource ? ['--source'] : [])], { encoding: 'utf8', env });
  if (emptyHome) rmSync(emptyHome, { recursive: true, force: true });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`a ${mode} start failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as Timing;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (process.argv[2] === '--one') {
  console.log(JSON.stringify(await oneStart(process.argv[3] as Mode, process.argv[4]!)));
} else {
  const starts = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
  if (!fromSource && !existsSync(bundleEntry)) throw new Error('no packed plugin: run npm run pack:plugin first (or pass --source)');
  const cached = existsSync(join(homedir(), '.cache', 'engram', 'models'));
  const rows: { mode: Mode; model: Model }[] = [
    { mode: 'off', model: 'none' },
    { mode: 'shipped', model: 'none' },
    { mode: 'blocking', model: 'none' },
    ...(cached ? ([{ mode: 'shipped', model: 'cached' }, { mode: 'blocking', model: 'cached' }] as const) : []),
  ];
  const runs = rows.map(() => [] as Timing[]);
  for (let i = 0; i < starts; i++) rows.forEach((row, k) => runs[k]!.push(startInChild(row.mode, row.model)));
  const med = (k: number, key: 'load' | 'first' | 'warm' | 'loadCpu' | 'firstCpu') => median(runs[k]!.map((r) => r[key]));
  const offFirst = med(0, 'first');
  const label: Record<Mode, string> = { off: 'off (host alone: baseline)', shipped: 'on, as shipped (waits ≤ 100 ms)', blocking: 'on, waiting for every recall (before)' };
  const recallOf = (k: number) => {
    const said = [...new Set(runs[k]!.map((r) => r.recall))];
    return rows[k]!.mode === 'off' ? '—' : said.join(' / ');
  };
  console.log(`\n### First turn after a host start (simulated host, ${fromSource ? 'the plugin from source' : 'the packed bundle'}, ${CODING_MEMORIES.length} memories; each start a fresh process)\n`);
  console.log('| plugin | model in cache | recall after warm-up | starts | load ms (CPU) | first turn ms (CPU) | first turn with a memory | warm turn ms | first turn added vs off, ms | first turn ÷ off |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  rows.forEach((row, k) => {
    const first = med(k, 'first');
    console.log(`| ${label[row.mode]} | ${row.mode === 'off' ? '—' : row.model === 'cached' ? 'yes' : 'no'} | ${recallOf(k)} | ${starts} | ${med(k, 'load').toFixed(0)} (${med(k, 'loadCpu').toFixed(0)}) | ${first.toFixed(0)} (${med(k, 'firstCpu').toFixed(0)}) | ${row.mode === 'off' ? '—' : `${runs[k]!.filter((r) => r.firstRecalled).length} of ${starts}`} | ${med(k, 'warm').toFixed(0)} | ${(first - offFirst).toFixed(0)} | ${(first / offFirst).toFixed(1)}× |`);
  });
  console.log(`\nMedians over the starts; CPU: the process's user + system time, all threads. "load" is the plugin's load into the host (0 when off): the settings are read, the index opens in the background; the warm turn comes once it is open and warm. Load average at the end: ${loadavg()[0]!.toFixed(1)}.`);
}
