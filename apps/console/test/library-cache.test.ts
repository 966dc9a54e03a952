// The Library's server-side list is read from the engine once per index generation: page requests
// (keystrokes) reuse it, and every kind of change — a console write, a metadata change, a file the
// watcher picks up, another process's write, a rebuild — is seen by the next request.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngine } from '@engram/engine';
import { servicesOf } from '../src/server/services.ts';
import { openHarness, type Harness } from './harness.ts';

function seed(h: Harness, n: number): void {
  const dir = join(h.root, 'diary', '工作');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `2026-10-${String((i % 28) + 1).padStart(2, '0')}-第${i}条.txt`), `[10:${String(i % 60).padStart(2, '0')}] 第${i}条 限流记录\n\n今天记下编号 ${i}。\n\nTag: 限流\n`);
}

/** Counts the engine's whole-list reads. */
function countLists(h: Harness): () => number {
  const original = h.engine.list.bind(h.engine);
  let calls = 0;
  h.engine.list = (opts) => {
    calls++;
    return original(opts);
  };
  return () => calls;
}

test('page requests of one generation read the engine list once (typing does not re-list)', async (t) => {
  const h = await openHarness(t);
  seed(h, 30);
  await h.engine.index({});
  const lists = countLists(h);
  const api = h.api();
  for (const query of ['', '第', '第1', '第12', '第1', '']) await api.memories.page({ query, limit: 10 });
  await api.memories.page({ query: '第1', offset: 10, limit: 10 });
  await api.memories.list({});
  assert.equal(lists(), 1, 'one engine.list() for seven page requests and a list');
  const page = await api.memories.page({ query: '第1', limit: 5 });
  assert.equal(page.total, 11, '第1, 第10..第19');
  assert.equal(page.scopeTotal, 30);
});

test('every change reaches the next page request: console writes, pins, watcher pick-ups, other processes, rebuilds', async (t) => {
  const h = await openHarness(t);
  seed(h, 5);
  await h.engine.index({});
  const api = h.api();
  const titles = async (query = '') => (await api.memories.page({ query, limit: 100 })).items.map((m) => m.title);
  assert.equal((await titles()).length, 5);

  const created = await api.memories.create({ title: '控制台写入的令牌桶', content: '令牌桶每秒两百个请求,突发可以借用余量。' });
  assert.ok((await titles('令牌桶')).includes('控制台写入的令牌桶'), 'a console write');

  await api.memories.setPinned({ id: created.docId, pinned: true });
  const first = (await api.memories.page({ limit: 1 })).items[0]!;
  assert.equal(first.docId, created.docId, 'pinned comes first');
  assert.equal(first.pinned, true);

  // A file written by an editor and picked up by the index pass the watcher runs.
  writeFileSync(join(h.root, 'diary', '工作', '2026-11-02-编辑器写的.txt'), '[09:00] 编辑器写的潮汐表\n\n潮汐每天两次。\n');
  await h.engine.index({});
  assert.ok((await titles('潮汐')).includes('编辑器写的潮汐表'), 'a watcher pick-up');

  // Another process (the CLI, the plugin) writing into the same database.
  const other = await openEngine({ env: { ENGRAM_DIARY_DIR: join(h.root, 'diary'), ENGRAM_DATA_DIR: join(h.root, 'data'), HOME: h.root } });
  t.after(() => other.close());
  await other.write({ title: '另一个进程写的灯塔', content: '灯塔的灯每十秒闪一次,雾天加鸣笛。' });
  assert.ok((await titles('灯塔')).includes('另一个进程写的灯塔'), "another process's write");

  await api.memories.archive({ id: created.docId });
  assert.equal((await titles('令牌桶')).length, 0, 'archived leaves the default scope');
  assert.equal((await api.memories.page({ query: '令牌桶', includeArchived: true })).total, 1, 'and stays in the archived scope');

  await h.engine.index({ full: true });
  assert.equal((await titles()).length, 7, 'after a full rebuild');
});

test('warm() builds the default scope ahead of the first request', async (t) => {
  const h = await openHarness(t);
  seed(h, 3);
  await h.engine.index({});
  const library = servicesOf(h.runtime).library;
  await library.warm();
  const lists = countLists(h);
  assert.equal((await h.api().memories.page({})).total, 3);
  assert.equal(lists(), 0, 'the first request found the list built');
});
