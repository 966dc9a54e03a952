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
  const timed = async (label: string, call: () => Promise<{ total: number } | { docId: string } | null>) => {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = await call();
    const u = process.cpuUsage(c);
    const count = r && 'total' in r ? r.total.toLocaleString('en-US') : r ? '1' : '0';
    console.log(`| ${label} | ${count} | ${(performance.now() - t).toFixed(0)} | ${((u.user + u.system) / 1000).toFixed(0)} | ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} |`);
  };
  // The memories a model reads next (engram_read / engram_detail take the id the index handed out);
  // first, before anything decoded every row.
  const firstPage = await engine.memoryIndex({ page: 1, pageSize: calls });
  for (const [i, m] of firstPage.items.entries()) await timed(`read by id ${i + 1}`, () => engine.read(m.docId));
  for (const [i, m] of firstPage.items.entries()) await timed(`read by path ${i + 1}`, () => engine.read(m.path));
  for (let i = 0; i < calls; i++) await timed(`memoryIndex page ${i + 1}`, () => engine.memoryIndex({ page: i + 1, pageSize: 20 }));
  const tag = firstPage.items[0]?.tags[0];
  if (tag) for (let i = 0; i < calls; i++) await timed(`memoryIndex tagged ${tag}, page ${i + 1}`, () => engine.memoryIndex({ tag, page: i + 1, pageSize: 20 }));
  for (let i = 0; i < calls; i++) await timed(`listPage from ${i * 30}`, () => engine.listPage({ offset: i * 30, limit: 30 }));
} finally {
  engine.close();
}
