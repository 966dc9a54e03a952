// The notebook's server time at N memories (default 5,000), in-process through the tRPC callers the
// page uses, five rounds of each query: the Library's name filter (memories.page, the baseline the
// Library had), its word search on the engine (search.memories) and 「我的 agent 会看到什么」
// (preview.run: the recall plus the blocks and the near misses) beside the plain recall (recall.run).
//   node --import tsx e2e/bench-notebook-server.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '@engram/engine';
import { seedBulkDiary } from './bulk.ts';
import { runtimeFor } from '../apps/console/src/server/engine.ts';
import { createCaller } from '../apps/console/src/server/root.ts';
import { createContext } from '../apps/console/src/server/trpc.ts';

const N = Number(process.env.ENGRAM_BENCH_MEMORIES ?? 5000);
const ROUNDS = 5;
const root = mkdtempSync(join(tmpdir(), 'engram-bench-notebook-'));
seedBulkDiary(join(root, 'diary'), N);
const engine = await openEngine({ env: { ...process.env, ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root } });
const api = createCaller(createContext(await runtimeFor(engine)));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

await api.memories.page({ query: '' }); // the Library's list is built once per index generation (both paths use it)
const queries = ['第1987条', '限流', '数据库迁移的回滚方案'];
console.log(`${N} memories, median of ${ROUNDS} (ms)`);
console.log('| query | memories.page (name filter, baseline) | search.memories (engine) | recall.run | preview.run |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const q of queries) {
  const page = await timed(() => api.memories.page({ query: q }));
  const search = await timed(() => api.search.memories({ query: q }));
  const recall = await timed(() => api.recall.run({ query: q }));
  const preview = await timed(() => api.preview.run({ query: q }));
  console.log(`| ${q} | ${page.toFixed(1)} | ${search.toFixed(1)} | ${recall.toFixed(1)} | ${preview.toFixed(1)} |`);
}
engine.close();
