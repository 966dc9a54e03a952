// The memory index (engram_index, the workspace mirror) and the list's pages (engram_list) on a built
// store: each call's wall and CPU time and the heap after it, in one long-lived engine as the plugin
// holds it.
//
//   node --import tsx packages/engine/bench/memory-index.ts STORE [CALLS]
//   (STORE holds diaries/ and data/, e.g. writeSyntheticDiaries(STORE/diaries, 50000, 600) of
//   bench/corpus.ts indexed by `engram index --diary-dir STORE/diaries --data-dir STORE/data`)
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';

const [store, callsArg] = process.argv.slice(2);
if (!store) throw new Error('usage: memory-index.ts STORE [CALLS]');
const calls = Number(callsArg ?? 3);
const engine = await openEngine({ options: { diaryDir: join(store, 'diaries'), dataDir: join(store, 'data'), embedding: { provider: 'none' } }, env: { HOME: store }, syncOnOpen: false });
try {
  console.log('| call | memories | wall ms | CPU ms | heap used after, MB |');
  console.log('|---|---|---|---|---|');
  const timed = async (label: string, call: () => Promise<{ total: number }>) => {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await call();
    const u = process.cpuUsage(c);
    console.log(`| ${label} | ${r.total.toLocaleString('en-US')} | ${(performance.now() - t).toFixed(0)} | ${((u.user + u.system) / 1000).toFixed(0)} | ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} |`);
  };
  for (let i = 0; i < calls; i++) await timed(`memoryIndex page ${i + 1}`, () => engine.memoryIndex({ page: i + 1, pageSize: 20 }));
  for (let i = 0; i < calls; i++) await timed(`listPage from ${i * 30}`, () => engine.listPage({ offset: i * 30, limit: 30 }));
} finally {
  engine.close();
}
