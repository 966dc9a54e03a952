// The workspaces router over a real engine and real folders: identity and counts, a pending claim
// (a second clone of the same repository) accepted or rejected, an automatic rename claim, rename,
// merge, and bad input.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openHarness, rejects } from './harness.ts';

function clone(dir: string, remote = 'git@github.com:example/harbor.git') {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'config'), `[remote "origin"]\n\turl = ${remote}\n`);
  writeFileSync(join(dir, 'package.json'), '{"name":"harbor"}');
}

function plainFolder(dir: string) {
  mkdirSync(dir, { recursive: true });
  for (const f of ['README.md', 'src', 'notes.txt', 'Makefile']) writeFileSync(join(dir, f), f);
}

test('list shows identity and counts; a second clone asks, and accepting moves its memories', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  const first = join(h.root, 'code', 'harbor');
  const second = join(h.root, 'elsewhere', 'harbor-copy');
  clone(first);
  clone(second);

  const a = await api.workspaces.register({ path: first });
  assert.equal(a.decision.kind, 'new');
  const b = await api.workspaces.register({ path: second });
  assert.equal(b.decision.kind, 'ask', 'the same repository still exists at the first path');
  await api.memories.create({ title: '第二个克隆里写的记录', content: '在第二个克隆里记下的港口调度规则:先到先靠。', workspace: b.id });

  const list = await api.workspaces.list();
  assert.equal(list[0]!.id, 'global');
  const rowA = list.find((w) => w.id === a.id)!;
  assert.equal(rowA.path, first);
  assert.equal(rowA.kind, 'known');
  assert.equal(rowA.pathExists, true);
  assert.match(rowA.strongKey ?? '', /^[0-9a-f]{24}$/);
  assert.equal(list.find((w) => w.id === b.id)!.memories, 1);

  const pending = await api.workspaces.claims({ status: 'pending' });
  assert.equal(pending.length, 1);
  const claim = pending[0]!;
  assert.equal(claim.workspaceId, b.id);
  assert.deepEqual(claim.candidates, [a.id]);

  const accepted = await api.workspaces.acceptClaim({ claimId: claim.id, workspaceId: a.id });
  assert.equal(accepted.status, 'applied');
  assert.equal(accepted.rewrite.moved.length, 1);
  const after = await api.workspaces.list();
  assert.equal(after.some((w) => w.id === b.id), false, 'the provisional workspace is gone');
  assert.equal(after.find((w) => w.id === a.id)!.memories, 1);
  assert.equal(after.find((w) => w.id === a.id)!.path, second, 'it took the folder that asked');
  assert.equal((await api.workspaces.claims({ status: 'pending' })).length, 0);

  // Answered already: the same answer again is a no-op, another one a conflict.
  assert.equal((await api.workspaces.acceptClaim({ claimId: claim.id, workspaceId: a.id })).status, 'applied');
  await rejects(api.workspaces.rejectClaim({ claimId: claim.id }), 'CONFLICT');
  await rejects(api.workspaces.acceptClaim({ claimId: 999, workspaceId: a.id }), 'NOT_FOUND');
  await rejects(api.workspaces.acceptClaim({ claimId: 0, workspaceId: a.id }), 'BAD_REQUEST', /claimId/);
  await rejects(api.workspaces.acceptClaim({ claimId: 1.5, workspaceId: a.id }), 'BAD_REQUEST');
});

test('reject keeps the folder a workspace of its own', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  clone(join(h.root, 'one'));
  clone(join(h.root, 'two'));
  await api.workspaces.register({ path: join(h.root, 'one') });
  const b = await api.workspaces.register({ path: join(h.root, 'two') });
  const [claim] = await api.workspaces.claims({ status: 'pending' });
  const rejected = await api.workspaces.rejectClaim({ claimId: claim!.id });
  assert.equal(rejected.status, 'rejected');
  assert.ok((await api.workspaces.list()).some((w) => w.id === b.id));
  assert.equal((await api.workspaces.rejectClaim({ claimId: claim!.id })).status, 'rejected', 'rejecting again changes nothing');
  await rejects(api.workspaces.acceptClaim({ claimId: claim!.id, workspaceId: b.id }), 'CONFLICT');
});

test('a renamed folder is claimed automatically and the record says where it was', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  const before = join(h.root, 'lighthouse');
  const after = join(h.root, 'lighthouse-renamed');
  plainFolder(before);
  const ws = await api.workspaces.register({ path: before });
  renameSync(before, after);
  const again = await api.workspaces.register({ path: after });
  assert.equal(again.decision.kind, 'claim');
  assert.equal(again.id, ws.id);
  const claims = await api.workspaces.claims({});
  assert.ok(claims.some((c) => c.decision === 'claim' && c.workspaceId === ws.id && c.reason.includes(before)));
});

test('rename and merge; bad input is typed, and mutations need the token', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  plainFolder(join(h.root, 'p1'));
  mkdirSync(join(h.root, 'p2'));
  const p1 = await api.workspaces.register({ path: join(h.root, 'p1') });
  const p2 = await api.workspaces.register({ path: join(h.root, 'p2') });
  await api.memories.create({ title: 'p2 的记录', content: 'p2 工作区里记下的一条约定:接口一律返回 JSON。', workspace: p2.id });

  const renamed = await api.workspaces.rename({ id: p1.id, name: '灯塔项目' });
  assert.equal(renamed.name, '灯塔项目');
  await rejects(api.workspaces.rename({ id: p1.id, name: '   ' }), 'BAD_REQUEST', /name/);
  await rejects(api.workspaces.rename({ id: 'ws-missing', name: 'x' }), 'NOT_FOUND');

  const merged = await api.workspaces.merge({ from: p2.id, into: p1.id });
  assert.equal(merged.moved.length, 1);
  const list = await api.workspaces.list();
  assert.equal(list.some((w) => w.id === p2.id), false);
  assert.equal(list.find((w) => w.id === p1.id)!.memories, 1);
  await rejects(api.workspaces.merge({ from: p1.id, into: p1.id }), 'BAD_REQUEST', /itself/);
  await rejects(api.workspaces.merge({ from: 'global', into: p1.id }), 'BAD_REQUEST', /global/);
  await rejects(api.workspaces.merge({ from: 'ws-gone', into: p1.id }), 'NOT_FOUND');

  await rejects(api.workspaces.register({ path: 'relative/folder' }), 'BAD_REQUEST', /absolute/);
  await rejects(api.workspaces.register({ path: '' }), 'BAD_REQUEST', /path/);
  await rejects(api.workspaces.claims({ status: 'maybe' as 'pending' }), 'BAD_REQUEST');
  await rejects(h.stranger({ 'x-engram-token': 'wrong' }).workspaces.rename({ id: p1.id, name: 'x' }), 'FORBIDDEN');
  await rejects(h.stranger({ origin: 'http://evil.example', 'x-engram-token': h.runtime.token }).workspaces.merge({ from: p1.id, into: 'global' }), 'FORBIDDEN');
  assert.ok(Array.isArray(await h.stranger().workspaces.list()), 'reads stay open');
});

test('register refuses the root, system folders (also through a symlink) and the home folder itself, saying why', async (t) => {
  const h = await openHarness(t);
  const api = h.api();
  for (const path of ['/', '/etc', '/usr', '/var', '/proc', '/sys/kernel']) {
    await rejects(api.workspaces.register({ path }), 'BAD_REQUEST', /^不能把系统文件夹/);
  }
  const link = join(h.root, 'looks-like-a-project');
  symlinkSync('/etc', link);
  await rejects(api.workspaces.register({ path: link }), 'BAD_REQUEST', /^不能把系统文件夹 \/etc /);
  await rejects(api.workspaces.register({ path: homedir() }), 'BAD_REQUEST', /^不能把主目录/);
  assert.equal((await api.workspaces.list()).filter((w) => w.kind === 'known').length, 0, 'nothing was registered');
  // A project folder is still fine.
  plainFolder(join(h.root, 'code', 'fine'));
  assert.equal((await api.workspaces.register({ path: join(h.root, 'code', 'fine') })).decision.kind, 'new');
});

test('Memory.md: a memory written in the console reaches its workspace folder; a person\'s own Memory.md is refused in words, untouched', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { servicesOf } = await import('../src/server/services.ts');
  const h = await openHarness(t);
  const api = h.api();
  const shop = join(h.root, 'code', 'shop');
  plainFolder(shop);
  const ws = await api.workspaces.register({ path: shop });
  await api.memories.create({ title: '退货规则', content: '七天无理由退货,运费由买家承担。', summary: '七天无理由退货', workspace: ws.id });
  await servicesOf(h.runtime).mirrors.idle();
  assert.match(readFileSync(join(shop, 'Memory.md'), 'utf8'), /退货规则：七天无理由退货/);
  const again = await api.workspaces.mirror({ id: ws.id });
  assert.deepEqual([again.status, again.listed], ['unchanged', 1]);

  const mine = join(h.root, 'code', 'mine');
  plainFolder(mine);
  writeFileSync(join(mine, 'Memory.md'), '# 我自己的\n');
  const other = await api.workspaces.register({ path: mine });
  await api.memories.create({ title: '我的约定', content: '周五下午不发版,有问题留到下周一再处理。', workspace: other.id });
  const refused = await api.workspaces.mirror({ id: other.id });
  assert.equal(refused.status, 'foreign');
  assert.match(refused.message, /没有写入/);
  await servicesOf(h.runtime).mirrors.idle();
  assert.equal(readFileSync(join(mine, 'Memory.md'), 'utf8'), '# 我自己的\n');
  await rejects(api.workspaces.mirror({ id: 'ws-00000000' }), 'NOT_FOUND');
});
