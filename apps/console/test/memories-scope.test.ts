// The memories procedures that know about workspaces and metadata, over a real engine: the workspace
// filter with scope marks, pin / lock (a locked memory cannot be archived), move, the paged index,
// provenance of console writes, and the summary queue's status and re-run.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openHarness, rejects, type Harness } from './harness.ts';

async function twoWorkspaces(h: Harness) {
  const api = h.api();
  const a = await api.workspaces.register({ path: join(h.root, 'projects', 'alpha') });
  const b = await api.workspaces.register({ path: join(h.root, 'projects', 'beta') });
  const inA = await api.memories.create({ title: '阿尔法的部署端口', content: '阿尔法服务部署在 8443 端口,证书由 caddy 自动续期。', workspace: a.id });
  const inB = await api.memories.create({ title: '贝塔的数据库备份', content: '贝塔库每晚两点全量备份到对象存储,保留三十天。', workspace: b.id });
  const global = await api.memories.create({ title: '通用的提交规范', content: '提交信息第一行不超过五十个字符,正文说明为什么改。', summary: '提交信息的写法。' });
  return { a, b, inA, inB, global };
}

test('list by workspace: its own + global, each marked with its scope; another workspace never shows', async (t) => {
  const h = await openHarness(t);
  for (const p of ['alpha', 'beta']) mkdirSync(join(h.root, 'projects', p), { recursive: true });
  const { a, b, inA, inB, global } = await twoWorkspaces(h);
  const api = h.api();

  const all = await api.memories.list({});
  assert.deepEqual(new Set(all.map((m) => m.docId)), new Set([inA.docId, inB.docId, global.docId]));
  assert.ok(all.every((m) => m.scope === 'all'));

  const seenFromA = await api.memories.list({ workspace: a.id });
  assert.deepEqual(Object.fromEntries(seenFromA.map((m) => [m.docId, m.scope])), { [inA.docId]: 'workspace', [global.docId]: 'global' });
  const onlyA = await api.memories.list({ workspace: a.id, includeGlobal: false });
  assert.deepEqual(onlyA.map((m) => m.docId), [inA.docId]);
  const onlyGlobal = await api.memories.list({ workspace: 'global' });
  assert.deepEqual(onlyGlobal.map((m) => [m.docId, m.scope]), [[global.docId, 'global']]);
  assert.equal((await api.memories.list({ workspace: b.id })).some((m) => m.docId === inA.docId), false);

  // Written by the console: provenance says so; the workspace is recorded in the file.
  const mine = seenFromA.find((m) => m.docId === inA.docId)!;
  assert.equal(mine.origin, 'console');
  assert.equal(mine.workspace, a.id);
  assert.equal(mine.provenance, '〔控制台〕');
  assert.match((await api.memories.read({ id: inA.docId })).raw, new RegExp(`ws=${a.id}`));

  // Writing into a workspace nobody knows is refused before anything is written.
  await rejects(api.memories.create({ content: '写到一个不存在的工作区里去的一段话。', workspace: 'ws-nope' }), 'NOT_FOUND');
  await rejects(api.memories.list({ workspace: 'has space' }), 'BAD_REQUEST', /workspace/);
  assert.equal((await api.memories.list({})).length, 3);
});

test('pin and lock: pinned first in the index; a locked memory cannot be archived until unlocked', async (t) => {
  const h = await openHarness(t);
  for (const p of ['alpha', 'beta']) mkdirSync(join(h.root, 'projects', p), { recursive: true });
  const { inA, inB, global } = await twoWorkspaces(h);
  const api = h.api();

  const pinned = await api.memories.setPinned({ id: inB.docId, pinned: true });
  assert.equal(pinned.pinned, true);
  const index = await api.memories.index({ pageSize: 2 });
  assert.equal(index.items[0]!.docId, inB.docId, 'the pinned memory leads the index');
  assert.equal(index.total, 3);
  assert.equal(index.pages, 2);
  assert.equal((await api.memories.index({ page: 2, pageSize: 2 })).items.length, 1);
  assert.equal((await api.memories.setPinned({ id: inB.docId, pinned: false })).pinned, false);

  assert.equal((await api.memories.setLocked({ id: global.docId, locked: true })).locked, true);
  await rejects(api.memories.archive({ id: global.docId }), 'PRECONDITION_FAILED', /locked/);
  assert.ok((await api.memories.list({})).some((m) => m.docId === global.docId), 'still there');
  await api.memories.setLocked({ id: global.docId, locked: false });
  await api.memories.archive({ id: global.docId });
  assert.equal((await api.memories.list({})).some((m) => m.docId === global.docId), false);

  await rejects(api.memories.setPinned({ id: 'no-such-memory', pinned: true }), 'NOT_FOUND');
  await rejects(api.memories.setPinned({ id: inA.docId, pinned: 'yes' as unknown as boolean }), 'BAD_REQUEST', /pinned/);
  await rejects(api.memories.setLocked({ id: '', locked: true }), 'BAD_REQUEST', /id/);
  await rejects(h.stranger({ origin: 'http://127.0.0.1:3999' }).memories.setPinned({ id: inA.docId, pinned: true }), 'FORBIDDEN');
});

test('move: a memory changes workspace (or goes global) and the filter follows', async (t) => {
  const h = await openHarness(t);
  for (const p of ['alpha', 'beta']) mkdirSync(join(h.root, 'projects', p), { recursive: true });
  const { a, b, inA } = await twoWorkspaces(h);
  const api = h.api();

  const moved = await api.memories.move({ id: inA.docId, workspace: b.id });
  assert.equal(moved.workspace, b.id);
  assert.ok((await api.memories.list({ workspace: b.id, includeGlobal: false })).some((m) => m.docId === inA.docId));
  assert.equal((await api.memories.list({ workspace: a.id })).some((m) => m.docId === inA.docId), false);
  const claims = await api.workspaces.claims({});
  assert.ok(claims.some((c) => c.decision === 'move' && c.workspaceId === b.id), 'the move is on record');

  assert.equal((await api.workspaces.moveMemory({ id: inA.docId, workspace: 'global' })).workspace, 'global');
  await rejects(api.memories.move({ id: inA.docId, workspace: 'ws-unknown' }), 'NOT_FOUND');
  await rejects(api.memories.move({ id: 'missing', workspace: a.id }), 'NOT_FOUND');
  await rejects(api.memories.move({ id: inA.docId, workspace: 'a;b' }), 'BAD_REQUEST');
});

test('summaries: a memory without one is queued; re-run re-queues it; a manual summary is refused', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  const bare = await api.memories.create({ title: '没有摘要的记录', content: '这一篇没有写摘要,所以应该排进后台摘要队列等待生成。' });
  const manual = await api.memories.create({ title: '有摘要的记录', content: '这一篇写了摘要,摘要来源是手写,不能被重新生成覆盖。', summary: '手写的摘要。' });

  const status = await api.memories.summaryStatus();
  assert.equal(status.enabled, true);
  assert.equal(status.queued, 1);
  const jobs = await api.memories.summaryJobs({ status: 'queued' });
  assert.deepEqual(jobs.map((j) => j.docId), [bare.docId]);
  const listed = await api.memories.list({});
  assert.equal(listed.find((m) => m.docId === bare.docId)!.summarySource, 'none');
  assert.equal(listed.find((m) => m.docId === manual.docId)!.summarySource, 'manual');

  const job = await api.memories.rerunSummary({ id: bare.docId });
  assert.equal(job.status, 'queued');
  assert.equal(job.attempts, 0);
  await rejects(api.memories.rerunSummary({ id: manual.docId }), 'PRECONDITION_FAILED', /person/);
  await rejects(api.memories.rerunSummary({ id: 'missing' }), 'NOT_FOUND');
  await rejects(api.memories.summaryJobs({ status: 'lost' as 'queued' }), 'BAD_REQUEST');
  await rejects(h.stranger().memories.rerunSummary({ id: bare.docId }), 'FORBIDDEN');
});

test('recall in a workspace sees its memories and global, marking each hit’s scope', async (t) => {
  const h = await openHarness(t);
  for (const p of ['alpha', 'beta']) mkdirSync(join(h.root, 'projects', p), { recursive: true });
  const { a, b, inA } = await twoWorkspaces(h);
  const api = h.api();
  const fromA = await api.recall.run({ query: '阿尔法 部署 端口 caddy', workspace: a.id });
  const hit = fromA.result.hits.find((x) => x.docId === inA.docId);
  assert.ok(hit, JSON.stringify(fromA.result.hits.map((x) => x.title)));
  assert.equal(hit.scope, 'workspace');
  const fromB = await api.recall.run({ query: '阿尔法 部署 端口 caddy', workspace: b.id });
  assert.equal(fromB.result.hits.some((x) => x.docId === inA.docId), false, 'another workspace never sees it');
});
