// What Engram adds to the first turn after a host start, through the simulated host: for several
// fresh starts (a new host, the plugin loaded on the coding-session memories), the time of the
// first turn right after the load and of a second turn once warm, with the plugin as it ships
// (recallWaitMs 100: the step waits at most that long for its recall, the model and word tables
// loading in the background) and, as the baseline measured in the same run, with every step
// waiting for its recall (recallWaitMs 60000: what the plugin did before). The model does nothing
// in the simulator: a turn's own cost is the host's, Engram's is what differs.
// Run: node --import tsx apps/plugin/scripts/bench-first-turn.ts [starts]   (prints a markdown table)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import type { WarmUp } from '../src/host/recall/warm-up.ts';
import { CODING_MEMORIES } from './coding-session.ts';

const STARTS = Number(process.argv[2] ?? 5);

async function oneStart(recallWaitMs: number): Promise<{ load: number; first: number; warm: number }> {
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-first-'));
  const diaryDir = join(root, 'diaries');
  mkdirSync(diaryDir, { recursive: true });
  for (const m of CODING_MEMORIES) writeFileSync(join(diaryDir, `${m.date}-${m.title}.txt`), m.text);
  const host = createHost({});
  let warmUp: WarmUp | undefined;
  try {
    let t = performance.now();
    await host.load(createHostPlugin({ env: { DSH_HOME: join(root, 'dsh') }, onWarmUp: (w) => (warmUp = w) }), { diaryDir, dataDir: join(root, 'data'), model: { autoInstall: false }, recallWaitMs });
    const load = performance.now() - t;
    const session = host.createSession({ cwd: join(root, 'work') });
    t = performance.now();
    await session.userTurn('ledger-api 本地数据库端口是多少?', [{ text: 'ok' }]);
    const first = performance.now() - t;
    await warmUp?.done;
    t = performance.now();
    await session.userTurn('迁移用什么工具生成?', [{ text: 'ok' }]);
    const warm = performance.now() - t;
    return { load, first, warm };
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
for (const [label, wait] of [['waits for every recall (before)', 60_000], ['as shipped: waits ≤ 100 ms', 100]] as const) {
  const runs: { load: number; first: number; warm: number }[] = [];
  // Alternating would share caches between modes; each start is a fresh host and data dir either way.
  for (let i = 0; i < STARTS; i++) runs.push(await oneStart(wait));
  const first = median(runs.map((r) => r.first));
  const warm = median(runs.map((r) => r.warm));
  rows.push(`| ${label} | ${STARTS} | ${median(runs.map((r) => r.load)).toFixed(0)} | ${first.toFixed(0)} | ${warm.toFixed(0)} | ${(first - warm).toFixed(0)} |`);
}
console.log(`\n### First turn after a start (simulated host, ${CODING_MEMORIES.length} memories, lexical: no model in the simulator)\n`);
console.log('| plugin | starts | load ms (median) | first turn ms | warm turn ms | first-turn added ms |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
