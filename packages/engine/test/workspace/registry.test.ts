import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';
import { here as reliabilityDir, runWorker } from '../reliability/helpers.ts';
import { WorkspaceRegistry } from '../../src/workspace/registry.ts';
import { applyScopedNoteBlocks } from '../../src/workspace/notes.ts';
import type { Engine } from '../../src/engine.ts';

const NOW = new Date('2026-11-01T08:00:00Z');

function makeRepo(parent: string, name: string, remote: string | null, entries = ['src', 'README.md', 'tsconfig.json']): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  if (remote) {
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n`);
  }
  for (const e of entries) {
    if (e.includes('.')) writeFileSync(join(dir, e), 'x');
    else mkdirSync(join(dir, e), { recursive: true });
  }
  return dir;
}

async function setup(t: { after(fn: () => unknown): void }, options: Record<string, unknown> = {}) {
  const dirs = tempDirs();
  const folders = join(dirs.root, 'folders');
  mkdirSync(folders);
  const engine = await openTestEngine(dirs, {}, options);
  const registry = new WorkspaceRegistry(engine, { now: () => NOW });
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return { dirs, folders, engine, registry };
}

async function remember(engine: Engine, workspace: string, title: string, body: string) {
  return engine.write({ title, content: body, summary: body.slice(0, 20), tags: ['测试'], meta: { workspace, sessionId: 'sess-1', origin: 'agent' } });
}

/** The file with its Meta line removed: what a move or merge must leave byte for byte. */
const withoutMeta = (text: string) => text.split('\n').filter((l) => !/^Meta:/.test(l)).join('\n').trimEnd();

test('new folder → a new ws-<8 hex> workspace; the same folder again → the same one', async (t) => {
  const { folders, registry } = await setup(t);
  const app = makeRepo(folders, 'app', 'git@github.com:me/app.git');
  const first = await registry.resolve(app);
  assert.match(first.id, /^ws-[0-9a-f]{8}$/);
  assert.equal(first.name, 'app');
  assert.equal(first.decision.kind, 'new');
  assert.ok(first.claimId !== null);
  const again = await registry.resolve(`${app}/`);
  assert.equal(again.id, first.id);
  assert.equal(again.decision.kind, 'same');
  assert.equal(again.claimId, null);
  const records = await registry.claims();
  assert.deepEqual(records.map((c) => [c.decision, c.status, c.workspaceId]), [['new', 'applied', first.id]]);
});

test('rename: the old folder is gone, same git remote → same id, memories follow without a rewrite', async (t) => {
  const { folders, engine, registry } = await setup(t);
  const app = makeRepo(folders, 'app', 'https://github.com/me/app.git');
  const ws = await registry.resolve(app);
  const memory = await remember(engine, ws.id, '部署脚本回滚', '部署脚本失败时先执行 rollback.sh 再重启。');
  const before = readFileSync(join(engine.config.diaryDir, memory.path), 'utf8');

  const moved = join(folders, 'app-renamed');
  renameSync(app, moved);
  const after = await registry.resolve(moved);
  assert.equal(after.id, ws.id);
  assert.equal(after.decision.kind, 'claim');
  assert.equal(after.path, moved);
  assert.equal(after.name, 'app-renamed', 'a default name follows the folder');
  assert.equal(readFileSync(join(engine.config.diaryDir, memory.path), 'utf8'), before, 'no memory file was touched');
  const seen = await engine.list({ workspace: after.id });
  assert.ok(seen.some((m) => m.docId === memory.docId));
  const claim = (await registry.claims({ status: 'applied' })).find((c) => c.decision === 'claim')!;
  assert.equal(claim.workspaceId, ws.id);
  assert.match(claim.reason, /moved from .*app/);
  assert.equal((await registry.resolve(moved)).decision.kind, 'same');
});

test('autoClaim off: the same rename asks instead, with a fresh id', async (t) => {
  const { folders, registry } = await setup(t);
  const app = makeRepo(folders, 'app', 'git@github.com:me/app.git');
  const ws = await registry.resolve(app);
  const moved = join(folders, 'app2');
  renameSync(app, moved);
  const asked = await registry.resolve(moved, { autoClaim: false });
  assert.equal(asked.decision.kind, 'ask');
  assert.notEqual(asked.id, ws.id);
});

test('ambiguous (a second clone) → a pending claim and a fresh id; acceptClaim merges into the chosen one', async (t) => {
  const { folders, engine, registry } = await setup(t);
  const app = makeRepo(folders, 'app', 'git@github.com:me/app.git');
  const ws = await registry.resolve(app);
  await remember(engine, ws.id, '老克隆里的记忆', '老克隆里记下的构建参数是 --fast。');
  const clone = join(folders, 'app-clone');
  cpSync(app, clone, { recursive: true });

  const asked = await registry.resolve(clone);
  assert.equal(asked.decision.kind, 'ask');
  assert.notEqual(asked.id, ws.id);
  const pending = await registry.claims({ status: 'pending' });
  assert.equal(pending.length, 1);
  assert.deepEqual(pending[0]!.candidates, [ws.id]);
  assert.equal(pending[0]!.workspaceId, asked.id);
  assert.equal((await registry.resolve(clone)).id, asked.id, 'the question is asked once; the folder keeps its provisional id');
  assert.equal((await registry.claims({ status: 'pending' })).length, 1);

  // A session in the clone writes before the person answers.
  const fresh = await remember(engine, asked.id, '新克隆里的记忆', '新克隆里发现测试要加 --runInBand。');
  const freshBefore = readFileSync(join(engine.config.diaryDir, fresh.path), 'utf8');
  assert.deepEqual((await engine.list({ workspace: ws.id })).map((m) => m.title), ['老克隆里的记忆'], 'before the answer the two do not see each other');

  const accepted = await registry.acceptClaim(pending[0]!.id, ws.id);
  assert.equal(accepted.status, 'applied');
  assert.equal(accepted.workspaceId, ws.id);
  assert.deepEqual(accepted.rewrite.moved, [fresh.docId]);
  const freshAfter = readFileSync(join(engine.config.diaryDir, fresh.path), 'utf8');
  assert.match(freshAfter, new RegExp(`ws=${ws.id}`));
  assert.equal(withoutMeta(freshAfter), withoutMeta(freshBefore), 'only the Meta line changed');
  assert.deepEqual((await engine.list({ workspace: ws.id })).map((m) => m.title).sort(), ['新克隆里的记忆', '老克隆里的记忆'].sort());
  assert.equal((await registry.get(ws.id))!.path, clone, 'the chosen workspace now lives at the new path');
  assert.equal(await registry.get(asked.id), null, 'the provisional workspace is gone');
  assert.equal(await registry.redirect(asked.id), ws.id, 'a session still holding the provisional id is sent on');
  assert.equal((await registry.resolve(clone)).id, ws.id);

  // Idempotent; a different answer afterwards is a conflict.
  const again = await registry.acceptClaim(pending[0]!.id, ws.id);
  assert.equal(again.status, 'applied');
  await assert.rejects(registry.acceptClaim(pending[0]!.id, 'ws-00000000'), /already applied/);
});

test('rejectClaim keeps the provisional workspace as a new one', async (t) => {
  const { folders, registry } = await setup(t);
  const app = makeRepo(folders, 'app', 'git@github.com:me/app.git');
  await registry.resolve(app);
  const clone = join(folders, 'copy');
  cpSync(app, clone, { recursive: true });
  const asked = await registry.resolve(clone);
  const [claim] = await registry.claims({ status: 'pending' });
  const rejected = await registry.rejectClaim(claim!.id);
  assert.equal(rejected.status, 'rejected');
  assert.equal((await registry.resolve(clone)).id, asked.id);
  assert.equal((await registry.rejectClaim(claim!.id)).status, 'rejected', 'idempotent');
  await assert.rejects(registry.acceptClaim(claim!.id, asked.id), /already rejected/);
});

test('moveMemory and mergeWorkspaces rewrite only Meta lines, never delete a file, and are recorded', async (t) => {
  const { folders, engine, registry } = await setup(t);
  const a = await registry.resolve(makeRepo(folders, 'alpha', 'git@github.com:me/alpha.git'));
  const b = await registry.resolve(makeRepo(folders, 'beta', 'git@github.com:me/beta.git'));
  const m1 = await remember(engine, a.id, '阿尔法的连接池', 'alpha 的连接池上限是 32。');
  const m2 = await remember(engine, a.id, '阿尔法的缓存', 'alpha 的缓存放在 .cache 目录。');
  const m3 = await remember(engine, b.id, '贝塔的端口', 'beta 监听 8443 端口。');
  const text = (p: string) => readFileSync(join(engine.config.diaryDir, p), 'utf8');
  const before = new Map([m1, m2, m3].map((m) => [m.path, text(m.path)]));

  const moved = await registry.moveMemory(m1.docId, 'global');
  assert.equal(moved.workspace, 'global');
  assert.doesNotMatch(text(m1.path), /ws=/, 'global is the default: no ws field');
  assert.match(text(m1.path), /session=sess-1; origin=agent/, 'other meta fields stay');
  assert.equal(withoutMeta(text(m1.path)), withoutMeta(before.get(m1.path)!));
  assert.equal((await registry.claims()).filter((c) => c.decision === 'move').length, 1);
  await assert.rejects(registry.moveMemory(m1.docId, 'ws-nothere'), /no workspace/);

  const merged = await registry.mergeWorkspaces(a.id, b.id);
  assert.deepEqual(merged.moved, [m2.docId]);
  assert.equal(merged.recorded, true);
  for (const m of [m2, m3]) {
    assert.match(text(m.path), new RegExp(`ws=${b.id}`));
    assert.equal(withoutMeta(text(m.path)), withoutMeta(before.get(m.path)!), m.path);
  }
  assert.equal((await engine.list()).length, 3, 'no memory disappeared');
  assert.equal(await registry.get(a.id), null);
  assert.equal(await registry.redirect(a.id), b.id);
  const again = await registry.mergeWorkspaces(a.id, b.id);
  assert.deepEqual([again.moved, again.recorded], [[], false], 'merging again is a no-op');

  const listed = await registry.list();
  assert.equal(listed[0]!.id, 'global');
  assert.equal(listed[0]!.memories, 1);
  assert.equal(listed.find((w) => w.id === b.id)!.memories, 2);
  assert.ok(!listed.some((w) => w.id === a.id));
});

test('orphan ids (memories whose workspace has no row) are listed', async (t) => {
  const { engine, registry } = await setup(t);
  await remember(engine, 'ws-feedbeef', '别处带来的记忆', '从另一台机器同步过来的记忆。');
  const orphan = (await registry.list()).find((w) => w.id === 'ws-feedbeef')!;
  assert.equal(orphan.kind, 'orphan');
  assert.equal(orphan.memories, 1);
});

test('concurrent resolves of one new folder: the losers of the insert race read the winner', async (t) => {
  const { folders, registry } = await setup(t);
  const dir = makeRepo(folders, 'raced', 'git@github.com:me/raced.git');
  // All four list the (empty) table before any inserts: three lose the unique path and look again.
  const results = await Promise.all([1, 2, 3, 4].map(() => registry.resolve(dir)));
  assert.equal(new Set(results.map((r) => r.id)).size, 1);
  assert.deepEqual(results.map((r) => r.decision.kind).sort(), ['new', 'same', 'same', 'same']);
  assert.equal((await registry.claims()).length, 1);
});

test('two processes resolving the same new folders at once agree on one id each', { timeout: 180_000 }, async (t) => {
  const { dirs, folders, registry } = await setup(t);
  const list = Array.from({ length: 8 }, (_, i) => makeRepo(folders, `shared-${i}`, i % 2 === 0 ? `git@github.com:me/shared-${i}.git` : null, ['a', 'b.md', 'c.md', `d${i}`]));
  const worker = join(reliabilityDir, '../workspace/workers/resolve-worker.ts');
  const results = await Promise.all([0, 1].map(() => runWorker(worker, [dirs.diaryDir, dirs.dataDir, ...list], { timeoutMs: 150_000 })));
  const outputs = results.map((r) => {
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ids: string[]; errors: string[] };
  });
  for (const o of outputs) assert.deepEqual(o.errors, []);
  assert.deepEqual(outputs[0]!.ids, outputs[1]!.ids, 'both processes got the same workspace for each folder');
  const known = (await registry.list()).filter((w) => w.kind === 'known');
  assert.equal(known.length, list.length, 'one row per folder');
  assert.equal((await registry.claims()).filter((c) => c.decision === 'new').length, list.length, 'one creation record per folder');
});

test('note blocks from a scoped session carry its workspace and cannot update another workspace', async (t) => {
  const { engine } = await setup(t);
  const other = await remember(engine, 'ws-other000', '别人的记忆', '别的工作区里记录的部署端口是 9000,不能被改。');
  const block = (body: string) => `好的。\n<<<DailyNoteStart>>>\n${body}\n<<<DailyNoteEnd>>>`;
  const created = await applyScopedNoteBlocks(engine, block('command: create\ntitle: 本工作区的约定\n\n[10:00] 本工作区的约定\n\n> 提交信息用中文。\n\n本工作区的提交信息用中文写。\n\nTag: 约定'), new Set(), { workspace: 'ws-mine0000', sessionId: 'sess-9' });
  assert.equal(created.results[0]?.ok, true, JSON.stringify(created));
  const mine = (await engine.list({ workspace: 'ws-mine0000' })).find((m) => m.title === '本工作区的约定')!;
  assert.equal(mine.workspace, 'ws-mine0000');
  assert.equal(mine.sessionId, 'sess-9');
  assert.equal(mine.origin, 'agent');
  const update = await applyScopedNoteBlocks(
    engine,
    block('command: update\ntarget: 别的工作区里记录的部署端口是 9000,不能被改。\nreplace: 改掉了'),
    new Set(),
    { workspace: 'ws-mine0000', sessionId: 'sess-9' },
  );
  assert.equal(update.results[0]?.ok, false);
  assert.equal(update.results[0]?.code, 'target-not-found');
  assert.match(readFileSync(join(engine.config.diaryDir, other.path), 'utf8'), /不能被改/);
});
