// Where a Library page's server time goes at N memories (default 5,000), in-process, five repetitions:
// engine.list(), the workspace filter, the page cut, serialisation (what every request paid before the
// cache); then the cached path (server/library-cache.ts): its first build and the per-keystroke pages.
//   node --import tsx e2e/bench-library-server.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '@engram/engine';
import { seedBulkDiary } from './bulk.ts';
import { pageOfMemories, pageInput } from '../apps/console/src/shared/library-page.ts';
import { filterByWorkspace } from '../apps/console/src/server/workspace-view.ts';
import { LibraryCache } from '../apps/console/src/server/library-cache.ts';

const N = Number(process.env.ENGRAM_BENCH_MEMORIES ?? 5000);
const root = mkdtempSync(join(tmpdir(), 'engram-bench-library-'));
seedBulkDiary(join(root, 'diary'), N);
const engine = await openEngine({ env: { ...process.env, ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root } });
const time = async <T>(fn: () => T | Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};
console.log(`${N} memories: engine.list | filterByWorkspace | page cut (query "198") | JSON`);
for (let i = 0; i < 5; i++) {
  const [all, tl] = await time(() => engine.list({}));
  const [scope, tf] = await time(() => filterByWorkspace(all, undefined, true));
  const [page, tp] = await time(() => pageOfMemories(scope, pageInput.parse({ query: '198' })));
  const [, tj] = await time(() => JSON.stringify(page));
  console.log(`  ${tl.toFixed(1)} ms | ${tf.toFixed(1)} ms | ${tp.toFixed(1)} ms | ${tj.toFixed(1)} ms`);
}
const cache = new LibraryCache(engine);
const page = (query: string) => cache.page({ includeArchived: false, includeGlobal: true, ...pageInput.parse({ query }) });
const [, build] = await time(() => page(''));
console.log(`cached: first request (builds the list) ${build.toFixed(1)} ms; then per request (query typed one key at a time):`);
const times: string[] = [];
for (const q of ['1', '19', '198', '1987', '198', '19', '1', '']) {
  const [, ms] = await time(() => page(q));
  times.push(`${JSON.stringify(q)} ${ms.toFixed(1)} ms`);
}
console.log(`  ${times.join(' | ')}`);
console.log(`  engine.list() calls: ${cache.builds}`);
await engine.close();
