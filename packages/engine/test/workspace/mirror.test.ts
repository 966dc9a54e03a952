// Memory.md (seed 001-56): the generated mirror of a workspace's memories in its folder. Written
// when the memories change, marked, never over a person's own Memory.md, the 「手记」 part kept, never
// where the diary scan would read it back, off by the setting.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GLOBAL_WORKSPACE } from '../../src/diary/meta.ts';
import type { Engine } from '../../src/engine.ts';
import { isGeneratedMirror, MEMORY_MIRROR_FILE, MIRROR_MARKER, refreshMemoryMirror } from '../../src/workspace/mirror.ts';
import { WorkspaceRegistry } from '../../src/workspace/registry.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

async function setup(t: { after(fn: () => unknown): void }, options: Record<string, unknown> = {}) {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, options);
  t.after(() => engine.close());
  const folder = join(dirs.root, 'project');
  mkdirSync(folder);
  writeFileSync(join(folder, 'README.md'), 'project');
  const ws = await new WorkspaceRegistry(engine).resolve(folder);
  return { dirs, engine, folder, ws: { id: ws.id, name: ws.name, path: ws.path } };
}

const put = (engine: Engine, workspace: string, title: string, summary: string, pinned = false) =>
  engine.write({ title, content: `${summary}\n\n${title}的正文。`, summary, tags: [title], meta: { workspace, pinned } });

test('written with the marker, pinned first, only this workspace; unchanged until the memories change; no temp file left', async (t) => {
  const { engine, folder, ws } = await setup(t);
  await put(engine, ws.id, '发布规矩', '发布前先在预发环境跑冒烟测试', true);
  await put(engine, ws.id, '证书续期', '证书每九十天续期一次');
  await put(engine, GLOBAL_WORKSPACE, '全局的咖啡偏好', '浅烘');

  const first = await refreshMemoryMirror(engine, ws, { now: new Date('2026-11-01T10:00:00') });
  assert.equal(first.status, 'written', first.message);
  assert.equal(first.listed, 2);
  const text = readFileSync(join(folder, MEMORY_MIRROR_FILE), 'utf8');
  assert.ok(text.startsWith(MIRROR_MARKER) && isGeneratedMirror(text));
  const items = text.split('\n').filter((l) => l.startsWith('- '));
  assert.match(items[0]!, /发布规矩〔置顶〕：发布前先在预发环境跑冒烟测试 \(docId: [0-9a-f]+\)$/);
  assert.match(items[1]!, /证书续期：证书每九十天续期一次/);
  assert.equal(items.length, 2, 'global memories and the diary corpus are not this workspace');
  assert.ok(text.includes('## 手记'));

  assert.equal((await refreshMemoryMirror(engine, ws, { now: new Date('2026-11-01T11:00:00') })).status, 'unchanged', 'a later time alone is no reason to rewrite');
  await put(engine, ws.id, '新的约定', '接口统一返回 JSON');
  const again = await refreshMemoryMirror(engine, ws);
  assert.equal(again.status, 'written');
  assert.match(readFileSync(join(folder, MEMORY_MIRROR_FILE), 'utf8'), /新的约定：接口统一返回 JSON/);
  assert.deepEqual(readdirSync(folder).sort(), [MEMORY_MIRROR_FILE, 'README.md'], 'the atomic write leaves no temp file');
});

test('the person\'s 手记 under the notes marker survive every rewrite, word for word', async (t) => {
  const { engine, folder, ws } = await setup(t);
  await put(engine, ws.id, '发布规矩', '发布前先跑冒烟测试');
  await refreshMemoryMirror(engine, ws);
  const file = join(folder, MEMORY_MIRROR_FILE);
  const mine = '\n我自己的笔记：周三和设计对一下配色。\n  - 缩进也要留着\n';
  writeFileSync(file, readFileSync(file, 'utf8') + mine);
  await put(engine, ws.id, '证书续期', '证书每九十天续期一次');
  assert.equal((await refreshMemoryMirror(engine, ws)).status, 'written');
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes('证书续期'));
  assert.ok(text.endsWith(`## 手记\n${mine}`), text);
});

test('a Memory.md the person wrote is never overwritten: refused, in Chinese, the file untouched', async (t) => {
  const { engine, folder, ws } = await setup(t);
  const file = join(folder, MEMORY_MIRROR_FILE);
  writeFileSync(file, '# 我的项目备忘\n\n这是我自己写的。\n');
  await put(engine, ws.id, '发布规矩', '发布前先跑冒烟测试');
  const outcome = await refreshMemoryMirror(engine, ws);
  assert.equal(outcome.status, 'foreign');
  assert.match(outcome.message, /不是 Engram 生成的 Memory\.md.*没有写入/);
  assert.equal(readFileSync(file, 'utf8'), '# 我的项目备忘\n\n这是我自己写的。\n');
});

test('never where the diary scan reads (it would come back as a memory); nothing at all with the setting off', async (t) => {
  const { dirs, engine, ws } = await setup(t);
  const inside = join(dirs.diaryDir, 'notes-project');
  mkdirSync(inside);
  const refused = await refreshMemoryMirror(engine, { ...ws, path: inside });
  assert.equal(refused.status, 'inside-diary');
  assert.match(refused.message, /日记文件夹/);
  assert.deepEqual(readdirSync(inside), []);
  assert.equal((await refreshMemoryMirror(engine, { ...ws, path: dirs.diaryDir })).status, 'inside-diary');

  const off = await setup(t, { workspace: { mirror: false } });
  await put(off.engine, off.ws.id, '发布规矩', '发布前先跑冒烟测试');
  assert.equal((await refreshMemoryMirror(off.engine, off.ws)).status, 'off');
  assert.deepEqual(readdirSync(off.folder), ['README.md']);
  assert.equal((await refreshMemoryMirror(engine, { id: GLOBAL_WORKSPACE, name: GLOBAL_WORKSPACE, path: '' })).status, 'no-folder');
});

test('a save the person makes while the mirror is being built is kept: the refresh writes nothing and says why', async () => {
  // The list comes from the index, which takes a moment: the person's editor can save Memory.md then.
  const folder = join(tempDirs().root, 'ws');
  mkdirSync(folder);
  const path = join(folder, MEMORY_MIRROR_FILE);
  const item = { docId: 'abc', date: '2026-01-01', title: '记忆一', summary: '摘要', pinned: false, workspace: 'ws1' };
  const config = { diaryDir: join(folder, '..', 'diary'), legacyDir: '', workspace: { mirror: true } };
  const quick = { config, memoryIndex: async () => ({ items: [], pages: 1 }) } as unknown as Engine;
  await refreshMemoryMirror(quick, { id: 'ws1', name: 'ws', path: folder });
  for (const save of [
    (p: string) => writeFileSync(p, `${readFileSync(p, 'utf8')}\n我的手记：明天和客户确认合同第 3 条。\n`),
    (p: string) => writeFileSync(p, '# 我自己的 Memory.md\n\n自己写的项目笔记。\n'),
  ]) {
    const during = { config, memoryIndex: async () => (save(path), { items: [item], pages: 1 }) } as unknown as Engine;
    const saved = () => readFileSync(path, 'utf8');
    const outcome = await refreshMemoryMirror(during, { id: 'ws1', name: 'ws', path: folder });
    assert.equal(outcome.status, 'changed', outcome.message);
    assert.match(saved(), /我的手记|自己写的项目笔记/);
  }
  // Absent when the refresh looked, written by the person before the refresh wrote: theirs stays.
  rmSync(path);
  const created = { config, memoryIndex: async () => (writeFileSync(path, '# 我的\n\n自己写的。\n'), { items: [item], pages: 1 }) } as unknown as Engine;
  const outcome = await refreshMemoryMirror(created, { id: 'ws1', name: 'ws', path: folder });
  assert.equal(outcome.status, 'changed', outcome.message);
  assert.equal(readFileSync(path, 'utf8'), '# 我的\n\n自己写的。\n');
});
