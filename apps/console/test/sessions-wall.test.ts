// Past sessions and the wall over a real engine and a DSH home of real-shaped zstd logs: list by
// workspace (old folders included), preview, import as a background job polled to 100 %, a second
// import skipping, a failed job's typed error; the wall's list and console posts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sampleSessions, writeDshHome } from './dsh-home.ts';
import { openHarness, rejects, type Harness } from './harness.ts';

async function withHome(t: { after(fn: () => unknown): void }, h: Harness, cwd: string) {
  const home = mkdtempSync(join(tmpdir(), 'engram-console-dsh-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const sessions = sampleSessions(cwd, join(h.root, 'unrelated'));
  await writeDshHome(home, sessions);
  const saved = await h.api().settings.save({ patch: { sessions: { dshHome: home } } });
  assert.equal(saved.ok, true);
  return { home, sessions };
}

/** Polls a job the way the page does, until it is no longer running. */
async function finished(h: Harness, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const job = await h.api().sessions.importStatus({ jobId });
    if (job.status !== 'running') return job;
    await sleep(25);
  }
  assert.fail('the import job never finished');
}

test('list → preview → import job reaches 100 % → the memories are in the workspace; again skips', async (t) => {
  const h = await openHarness(t);
  const folder = join(h.root, 'lighthouse');
  mkdirSync(folder);
  const { home, sessions } = await withHome(t, h, folder);
  const api = h.api();
  const ws = await api.workspaces.register({ path: folder });

  const listed = await api.sessions.list({ workspace: ws.id });
  assert.equal(listed.home, home);
  assert.equal(listed.workspace.path, folder);
  assert.deepEqual(listed.sessions.map((s) => s.id), [sessions[1]!.id, sessions[0]!.id], 'newest first; the unrelated folder is left out');
  assert.ok(listed.sessions.every((s) => s.status === 'new'));
  assert.equal(listed.sessions.find((s) => s.id === sessions[0]!.id)!.turns, 2);

  const ids = listed.sessions.map((s) => s.id);
  const preview = await api.sessions.preview({ ids });
  assert.equal(preview.length, 2);
  assert.match(preview.find((p) => p.sessionId === sessions[0]!.id)!.draft!.body, /灯塔巡检日志写到 \/var\/log\/lighthouse/);
  // One topic each (the follow-up about the same patrol script stays with it): one memory per session here.
  assert.deepEqual(preview.map((p) => p.topics.map((x) => [x.draft.fromTurn, x.draft.toTurn])), [[[1, 1]], [[1, 2]]]);
  assert.equal((await api.sessions.preview({ ids, thinking: true })).length, 2, 'the reasoning option is accepted');
  assert.equal((await api.memories.list({})).length, 0, 'a preview writes nothing');

  const started = await api.sessions.import({ workspace: ws.id, ids });
  assert.equal(started.status, 'running');
  assert.equal(started.percent, 0);
  const job = await finished(h, started.id);
  assert.equal(job.status, 'done', JSON.stringify(job.error));
  assert.equal(job.percent, 100);
  assert.equal(job.done, 2);
  assert.deepEqual({ ...job.report!, failed: job.report!.failed.length }, { imported: 2, updated: 0, skipped: 0, empty: 0, failed: 0 });

  const memories = await api.memories.list({ workspace: ws.id, includeGlobal: false });
  assert.equal(memories.length, 2);
  assert.ok(memories.every((m) => m.origin === 'import' && m.scope === 'workspace' && m.sessionId !== null));
  assert.ok(memories.some((m) => m.title.includes('灯塔巡检脚本')));
  assert.match(memories[0]!.provenance, /〔s:5e551011 · 会话导入〕/);
  assert.ok((await api.sessions.list({ workspace: ws.id })).sessions.every((s) => s.status === 'unchanged'));
  assert.ok((await api.sessions.importJobs()).some((j) => j.id === started.id));

  const again = await finished(h, (await api.sessions.import({ workspace: ws.id, ids })).id);
  assert.equal(again.report!.skipped, 2);
  assert.equal((await api.memories.list({})).length, 2, 'idempotent: no duplicates');
});

test('a workspace’s sessions include those recorded under the folder it was renamed from', async (t) => {
  const h = await openHarness(t);
  const before = join(h.root, 'tides');
  mkdirSync(before);
  for (const f of ['README.md', 'src', 'data.csv']) writeFileSync(join(before, f), f);
  const { sessions } = await withHome(t, h, before);
  const api = h.api();
  const ws = await api.workspaces.register({ path: before });
  const after = join(h.root, 'tides-v2');
  renameSync(before, after);
  assert.equal((await api.workspaces.register({ path: after })).id, ws.id);
  const listed = await api.sessions.list({ workspace: ws.id });
  assert.deepEqual(listed.workspace.pastPaths, [before]);
  assert.equal(listed.sessions.length, 2, listed.sessions.map((s) => s.cwd).join(', '));
  assert.ok(listed.sessions.some((s) => s.id === sessions[0]!.id));
});

test('bad input and failures are typed; a failed job reports the engine’s code', async (t) => {
  const h = await openHarness(t);
  const folder = join(h.root, 'w');
  mkdirSync(folder);
  await withHome(t, h, folder);
  const api = h.api();
  const ws = await api.workspaces.register({ path: folder });

  await rejects(api.sessions.list({ workspace: 'global' }), 'BAD_REQUEST', /global/);
  await rejects(api.sessions.list({ workspace: 'ws-missing' }), 'NOT_FOUND');
  await rejects(api.sessions.preview({ ids: [] }), 'BAD_REQUEST', /at least one/);
  await rejects(api.sessions.preview({ ids: ['00000000-nope'] }), 'NOT_FOUND');
  await rejects(api.sessions.import({ workspace: 'ws-missing', ids: ['x'] }), 'NOT_FOUND');
  await rejects(api.sessions.import({ workspace: ws.id, ids: [''] }), 'BAD_REQUEST');
  await rejects(api.sessions.importStatus({ jobId: 'no-such-job' }), 'NOT_FOUND');
  await rejects(h.stranger().sessions.import({ workspace: ws.id, ids: ['5e551011'] }), 'FORBIDDEN');

  const job = await finished(h, (await api.sessions.import({ workspace: ws.id, ids: ['ffffffff-not-a-session'] })).id);
  assert.equal(job.status, 'failed');
  assert.equal(job.error!.code, 'not-found');
  assert.equal(job.report, null);
  assert.equal((await api.memories.list({})).length, 0);
});

test('wall: console posts (public, to a workspace, to a session prefix) are listed newest first, paged', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  mkdirSync(join(h.root, 'w'));
  const ws = await api.workspaces.register({ path: join(h.root, 'w') });

  const first = await api.wall.post({ text: '大家好,这是控制台的公开留言。' });
  assert.equal(first.fromSession, 'console');
  assert.equal(first.to, '所有人');
  const toWs = await api.wall.post({ text: '给这个工作区的留言', to: ws.id, workspace: ws.id });
  assert.equal(toWs.recipient, `ws:${ws.id}`);
  const toSession = await api.wall.post({ text: '给某个会话的留言', to: '5e551011-aaaa' });
  assert.equal(toSession.to, '会话 5e551011-aaaa');

  const page = await api.wall.list({ limit: 2 });
  assert.deepEqual(page.items.map((m) => m.text), ['给某个会话的留言', '给这个工作区的留言']);
  assert.equal(page.hasMore, true);
  assert.equal(page.items[1]!.fromWorkspace, ws.id);
  const rest = await api.wall.list({ limit: 2, offset: 2 });
  assert.deepEqual(rest.items.map((m) => m.id), [first.id]);
  assert.equal(rest.hasMore, false);

  await rejects(api.wall.post({ text: '   ' }), 'BAD_REQUEST', /empty/);
  await rejects(api.wall.post({ text: 'x'.repeat(2001) }), 'BAD_REQUEST', /2000/);
  await rejects(api.wall.post({ text: '短前缀', to: 'abc' }), 'BAD_REQUEST');
  await rejects(api.wall.list({ limit: 0 }), 'BAD_REQUEST');
  await rejects(h.stranger({ origin: 'http://evil.example' }).wall.post({ text: 'hi' }), 'FORBIDDEN');

  await api.settings.save({ patch: { crossSession: { wall: false } } });
  await rejects(api.wall.post({ text: '墙关掉以后' }), 'PRECONDITION_FAILED', /wall/);
});
