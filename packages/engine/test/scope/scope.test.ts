import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

const TOPICS = [
  { title: '部署脚本的回滚步骤', body: '部署脚本失败时先执行 rollback.sh,再清理 releases 目录里最新的一份,最后重启 supervisor。', tags: ['部署', '回滚'] },
  { title: '数据库连接池参数', body: '连接池 maxConnections 设为 32,idleTimeout 设为 30 秒,否则 libsql 连接会在夜间被服务端断开。', tags: ['连接池', 'libsql'] },
  { title: '前端构建缓存', body: 'webpack 的 filesystem cache 放在 node_modules/.cache 下,CI 上要用 actions/cache 保存这个目录。', tags: ['webpack', '缓存'] },
];

async function seeded() {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  const written: { workspace: string; title: string; docId: string }[] = [];
  for (const ws of ['ws-alpha', 'ws-beta', 'global']) {
    for (const t of TOPICS) {
      const title = `${t.title}(${ws})`;
      const r = await engine.write({ title, content: `${t.body} 这条属于 ${ws}。`, summary: t.body.slice(0, 30), tags: t.tags, meta: { workspace: ws } });
      written.push({ workspace: ws, title, docId: r.docId });
    }
  }
  return { dirs, engine, written };
}

test('scope isolation: a workspace never sees another workspace\'s memories, in any channel or listing', async () => {
  const { engine, written } = await seeded();
  try {
    const workspaceOf = new Map(written.map((w) => [w.docId, w.workspace]));
    for (const ws of ['ws-alpha', 'ws-beta']) {
      for (const q of ['部署脚本失败怎么回滚', 'libsql 连接池参数', 'webpack filesystem cache 在 CI 上怎么保存', '2026-11-01 做了什么']) {
        const r = await engine.recall(q, { workspace: ws, k: 10 });
        for (const h of r.hits) {
          const owner = workspaceOf.get(h.docId);
          assert.ok(owner === ws || owner === 'global', `${ws} saw ${owner}'s memory for "${q}"`);
          assert.equal(h.scope, owner === ws ? 'workspace' : 'global');
        }
      }
      const listed = await engine.list({ workspace: ws });
      assert.deepEqual(new Set(listed.map((m) => m.workspace)), new Set([ws, 'global']));
      assert.equal(listed.length, TOPICS.length * 2);
      const index = await engine.memoryIndex({ workspace: ws, pageSize: 100 });
      assert.equal(index.total, listed.length);
    }
    // Both the workspace's own memory and the global one are found for a topic.
    const r = await engine.recall('部署脚本失败怎么回滚', { workspace: 'ws-alpha', k: 10 });
    assert.deepEqual(new Set(r.hits.map((h) => h.scope)), new Set(['workspace', 'global']));
    // Unscoped (console "all" view) sees every workspace.
    const all = await engine.recall('部署脚本失败怎么回滚', { k: 10 });
    assert.ok(all.hits.some((h) => workspaceOf.get(h.docId) === 'ws-beta'));
    assert.ok(all.hits.every((h) => h.scope === 'all'));
  } finally {
    engine.close();
  }
});

test('the same title may exist in two workspaces, but not twice in what one workspace sees', async () => {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  try {
    await engine.write({ title: '发布清单', content: '先打 tag 再发布到 npm,最后更新 changelog。', tags: ['发布'], meta: { workspace: 'ws-a' } });
    await engine.write({ title: '发布清单', content: '另一个项目的发布走 docker 镜像,推到私有仓库。', tags: ['发布'], meta: { workspace: 'ws-b' } });
    await assert.rejects(engine.write({ title: '发布清单', content: '重复的标题在同一个工作区里。', meta: { workspace: 'ws-a' } }), /already exists/);
    await engine.write({ title: '通用约定', content: '所有项目的提交信息用中文写清楚动机。', tags: ['约定'] });
    await assert.rejects(engine.write({ title: '通用约定', content: '全局已有同名记忆时工作区里不能再建。', meta: { workspace: 'ws-a' } }), /already exists/);
  } finally {
    engine.close();
  }
});

test('pin orders the index, lock refuses forget, supersede ranks the old memory down but keeps it', async () => {
  const { dirs, engine, written } = await seeded();
  try {
    const alpha = written.filter((w) => w.workspace === 'ws-alpha');
    const last = alpha[alpha.length - 1]!;
    const first = alpha[0]!;
    const pinned = await engine.updateMeta(first.docId, { pinned: true });
    assert.equal(pinned.pinned, true);
    const page = await engine.memoryIndex({ workspace: 'ws-alpha', pageSize: 2 });
    assert.equal(page.items[0]!.docId, first.docId, 'pinned first');
    assert.equal(page.pages, 3);
    assert.ok(page.items[0]!.pinned && !page.items[1]!.pinned);

    await engine.updateMeta(last.docId, { locked: true });
    await assert.rejects(engine.forget(last.docId), /locked/);
    const raw = readFileSync(join(dirs.diaryDir, (await engine.read(last.docId))!.path), 'utf8');
    assert.match(raw, /\nMeta: ws=ws-alpha; origin=|\nMeta: ws=ws-alpha; locked\n$/);
    await engine.updateMeta(last.docId, { locked: false });
    await engine.forget(last.docId);

    // Supersede: a new memory replaces an old one. Filler memories give the IDF gate a real corpus.
    const FILLER = ['周报模板', '咖啡机清洁', '键盘快捷键', '会议室预订', '报销流程', '打印机驱动', '年假规定', '门禁卡补办', '绿植浇水', '快递收发', '工位调整', '停车登记'];
    for (const f of FILLER) await engine.write({ title: f, content: `${f}的说明:按行政部的通知执行,有问题找前台。`, tags: [f] });
    const old = await engine.write({ title: 'pgbouncer 池大小', content: 'pgbouncer 的 default_pool_size 设为 20,超过会把数据库连接打满。', tags: ['pgbouncer'], meta: { workspace: 'ws-alpha' } });
    const before = await engine.recall('pgbouncer default_pool_size 设多少', { workspace: 'ws-alpha', k: 10 });
    const oldBefore = before.hits.find((h) => h.docId === old.docId);
    assert.ok(oldBefore, 'found before it is replaced');
    assert.equal(oldBefore.supersededBy, null);
    const fresh = await engine.write({
      title: 'pgbouncer 池大小(升级后)',
      content: '升级之后 pgbouncer 的 default_pool_size 改成 40,数据库 max_connections 同步调到 200。',
      tags: ['pgbouncer'],
      meta: { workspace: 'ws-alpha', supersedes: [old.docId] },
    });
    const after = await engine.recall('pgbouncer default_pool_size 设多少', { workspace: 'ws-alpha', k: 10 });
    const oldAfter = after.hits.find((h) => h.docId === old.docId);
    assert.ok(oldAfter, `the replaced memory is still found: ${JSON.stringify(after.explain.gate.removals.map((r) => [r.gate, r.title, r.detail]))}`);
    assert.equal(oldAfter.supersededBy, fresh.docId);
    assert.ok(oldAfter.channels.decay < oldBefore.channels.decay, 'its decay factor carries the supersede penalty');
    const rankOf = (id: string) => after.hits.findIndex((h) => h.docId === id);
    assert.ok(rankOf(fresh.docId) >= 0 && rankOf(fresh.docId) < rankOf(old.docId), 'the replacement ranks above the replaced memory');
  } finally {
    engine.close();
  }
});

test('scoping can be switched off in the settings: then every workspace sees everything', async () => {
  const { engine, written } = await seeded();
  try {
    await engine.saveSettings({ workspace: { scoped: false } });
    const listed = await engine.list({ workspace: 'ws-alpha' });
    assert.equal(listed.length, written.length);
  } finally {
    engine.close();
  }
});
