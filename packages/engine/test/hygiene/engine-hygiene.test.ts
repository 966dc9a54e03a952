import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngramError } from '../../src/errors.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const files = (dir: string, prefix = ''): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));

async function setup(t: { after(fn: () => void): void }, options: Record<string, unknown> = {}) {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, options);
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return { dirs, engine };
}

test('fragments are refused with code "fragment" and no file is written', async (t) => {
  const { dirs, engine } = await setup(t);
  const before = files(dirs.diaryDir).sort();
  for (const [input, reason] of [
    [{ title: '一句话', content: '好的收到' }, 'too-short'],
    [{ content: '- 买牛奶' }, 'list-line'],
    [{ title: '发布', content: '- 发布前先写好回滚脚本和检查清单' }, 'list-line'],
    [{ content: '# 部署流程' }, 'heading'],
  ] as const) {
    await assert.rejects(engine.write(input), (e: unknown) => {
      assert.ok(isEngramError(e) && e.code === 'fragment', String(e));
      assert.equal(e.details?.reason, reason);
      assert.match(e.message, /一条记忆要能单独看懂/);
      return true;
    });
  }
  assert.deepEqual(files(dirs.diaryDir).sort(), before, 'nothing was written');
});

test('a near-duplicate is merged into the older memory: one file, both texts, same docId', async (t) => {
  const { dirs, engine } = await setup(t);
  const original = await engine.write({ title: '发布回滚规范', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一次,再通知值班同事。', tags: ['发布', '回滚'] });
  const count = files(dirs.diaryDir).length;
  const again = await engine.write({ title: '发布前的回滚准备', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一遍,再通知值班的同事。', tags: ['发布', '值班'] });
  assert.equal(again.merged, true);
  assert.equal(again.docId, original.docId);
  assert.equal(again.path, original.path);
  assert.match(again.warnings.join('\n'), /几乎相同/);
  assert.equal(files(dirs.diaryDir).length, count, 'no second file');
  const raw = readFileSync(join(dirs.diaryDir, original.path), 'utf8');
  assert.match(raw, /演练一次,再通知值班同事。/, 'the older text is still there');
  assert.match(raw, /补充\(\d{4}-\d{2}-\d{2} \d{2}:\d{2} · 「发布前的回滚准备」\):\n发布前先写好回滚脚本,回滚脚本要在预发环境演练一遍,再通知值班的同事。/, 'the new text is a dated paragraph');
  assert.match(raw, /Tag: 发布, 回滚, 值班/);
  // The merged words are searchable under the older memory.
  const detail = await engine.read(original.docId);
  assert.match(detail!.raw, /演练一遍/);

  // The same words a third time: nothing is written at all.
  const before = readFileSync(join(dirs.diaryDir, original.path), 'utf8');
  const third = await engine.write({ title: '回滚准备(重发)', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一遍,再通知值班的同事。' });
  assert.equal(third.merged, true);
  assert.equal(third.docId, original.docId);
  assert.match(third.warnings.join('\n'), /没有重复写入/);
  assert.equal(readFileSync(join(dirs.diaryDir, original.path), 'utf8'), before);
  assert.equal(files(dirs.diaryDir).length, count);
});

test('a probable conflict is named (id and title) and nothing is deleted or changed', async (t) => {
  const { dirs, engine } = await setup(t);
  const old = await engine.write({ title: 'pgbouncer 池大小', content: 'pgbouncer 的 default_pool_size 设为 20,超过会把数据库连接打满。', tags: ['pgbouncer'] });
  const oldRaw = readFileSync(join(dirs.diaryDir, old.path), 'utf8');
  const fresh = await engine.write({ title: 'pgbouncer 连接数上调', content: '升级之后 pgbouncer 的 default_pool_size 改成 40,数据库 max_connections 同步调到 200。', tags: ['pgbouncer'] });
  assert.notEqual(fresh.docId, old.docId);
  assert.equal(fresh.merged, undefined);
  assert.equal(fresh.conflicts?.length, 1);
  assert.equal(fresh.conflicts![0]!.docId, old.docId);
  assert.equal(fresh.conflicts![0]!.title, 'pgbouncer 池大小');
  assert.ok(fresh.warnings.some((w) => w.includes(old.docId) && w.includes('pgbouncer 池大小') && /supersede/.test(w)));
  assert.equal(readFileSync(join(dirs.diaryDir, old.path), 'utf8'), oldRaw, 'the older memory is untouched');
  const listed = (await engine.list()).map((m) => m.docId);
  assert.ok(listed.includes(old.docId) && listed.includes(fresh.docId));
  // Saying it replaces the older one silences the warning.
  const third = await engine.write({ title: 'pgbouncer 池大小(最终)', content: '最终 pgbouncer 的 default_pool_size 定为 60,数据库 max_connections 调到 300。', tags: ['pgbouncer'], meta: { supersedes: [old.docId, fresh.docId] } });
  assert.equal(third.conflicts, undefined);
});

test('duplicates are looked for only in what the writing workspace sees', async (t) => {
  const { dirs, engine } = await setup(t);
  const text = '这个项目的提交信息用中文写清楚动机,标题不超过五十个字,正文说明为什么改。';
  const a = await engine.write({ title: '提交信息约定', content: text, tags: ['约定'], meta: { workspace: 'ws-a' } });
  const b = await engine.write({ title: '提交信息约定', content: text, tags: ['约定'], meta: { workspace: 'ws-b' } });
  assert.notEqual(a.docId, b.docId);
  assert.equal(b.merged, undefined);
  // A global memory is seen from every workspace, but ws-a's words are not appended to it (that
  // would show them to every workspace): ws-a keeps its own memory and is told about the twin.
  const g = await engine.write({ title: '全局约定:代码评审', content: '所有项目的代码评审至少一位同事通过,评审意见要在合并前全部回复。', tags: ['评审'] });
  const again = await engine.write({ title: '代码评审规则', content: '所有项目的代码评审至少一位同事通过,评审意见要在合并之前全部回复。', meta: { workspace: 'ws-a' } });
  assert.equal(again.merged, undefined);
  assert.notEqual(again.docId, g.docId);
  assert.ok(again.warnings.some((w) => w.includes(g.docId)), 'the warning names the global twin');
  // Within one scope a near-duplicate still merges.
  const twice = await engine.write({ title: '代码评审规则(再记一次)', content: '所有项目的代码评审至少一位同事通过,评审意见要在合并之前全部回复。', meta: { workspace: 'ws-a' } });
  assert.equal(twice.merged, true);
  assert.equal(twice.docId, again.docId);
});

test('hygiene.enabled = false: fragments and duplicates are written as given', async (t) => {
  const { dirs, engine } = await setup(t, { hygiene: { enabled: false } });
  await engine.write({ title: '短', content: '好的收到' });
  const one = await engine.write({ title: '回滚一', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一次。' });
  const two = await engine.write({ title: '回滚二', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一次。' });
  assert.notEqual(one.docId, two.docId);
  assert.equal(files(dirs.diaryDir).length, 5 + 3);
});

test('a taken title is still answered with title-exists, whatever the body', async (t) => {
  const { engine } = await setup(t);
  await engine.write({ content: '[12:00] 向量存储选型\n\n> 向量存在 libSQL 的 F32_BLOB 列里。\n\n检索时在内存里做精确扫描。\n\nTag: libSQL' });
  await assert.rejects(engine.write({ content: '[12:01] 向量存储选型\n\n另一篇' }), (e: { code?: string }) => e.code === 'title-exists');
});

test('an imported session is never merged into another memory (re-import rewrites its own file)', async (t) => {
  const { dirs, engine } = await setup(t);
  const text = '这个项目的提交信息用中文写清楚动机,标题不超过五十个字,正文说明为什么改。';
  const mine = await engine.write({ title: '提交信息约定', content: text });
  const imported = await engine.write({ title: '会话导入:提交约定', content: text, meta: { origin: 'import', sessionId: 's-1' } });
  assert.notEqual(imported.docId, mine.docId);
  assert.equal(imported.merged, undefined);
  assert.match(imported.warnings.join('\n'), /几乎相同;导入的内容单独保存/);
  assert.equal(files(dirs.diaryDir).length, 5 + 2);
});

test('a near-duplicate is not merged into the memory it supersedes, nor across scopes', async (t) => {
  const { dirs, engine } = await setup(t);
  const text = '发布流程:先在 staging 跑完冒烟测试,再打 tag 推到生产,最后在群里通知值班同事。';
  const old = await engine.write({ title: '发布流程', content: text, tags: ['发布'], meta: { workspace: 'ws-a' } });
  const replacing = await engine.write({ title: '发布流程(修订)', content: `${text}`, tags: ['发布'], meta: { workspace: 'ws-a', supersedes: [old.docId] } });
  assert.notEqual(replacing.docId, old.docId, 'the replacement is its own memory');
  assert.ok(!replacing.merged);

  const globalOne = await engine.write({ title: '通用发布约定', content: '所有仓库发布前必须在 staging 环境跑完冒烟测试并写好回滚步骤。', tags: ['约定'] });
  const scoped = await engine.write({ title: '本项目发布约定', content: '所有仓库发布前必须在 staging 环境跑完冒烟测试并写好回滚步骤。', tags: ['约定'], meta: { workspace: 'ws-b' } });
  assert.notEqual(scoped.docId, globalOne.docId, 'a workspace write does not append to a global memory');
  assert.ok(!readFileSync(join(dirs.diaryDir, (await engine.read(globalOne.docId))!.path), 'utf8').includes('补充'));
});
