import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MASK } from '../../src/config/merge.ts';
import { openTestEngine, seedCorpus, tempDirs } from './helpers.ts';

const listFiles = (dir: string, out: string[] = [], prefix = ''): string[] => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) listFiles(join(dir, e.name), out, `${prefix}${e.name}/`);
    else out.push(`${prefix}${e.name}`);
  }
  return out;
};

test('every diary file is indexed and listed exactly once; counts agree everywhere', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const list = await engine.list();
    const status = await engine.status();
    assert.equal(list.length, Object.keys(files).length);
    assert.equal(new Set(list.map((m) => m.path)).size, list.length, 'no document listed twice');
    assert.deepEqual(list.map((m) => m.path).sort(), Object.keys(files).sort());
    assert.equal(status.documents, list.length);
    assert.equal(status.chunks, list.reduce((n, m) => n + m.chunks, 0));
    assert.ok(list.every((m) => m.chunks >= 1), 'every document has at least one chunk');
    assert.deepEqual(status.folders.map((f) => f.category).sort(), ['', 'work']);
  } finally {
    engine.close();
  }
});

test('a relevant query finds its memory with an explanation; chatter injects nothing', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const r = await engine.recall('东京节点的 443 端口后来怎么处理的');
    assert.equal(r.hits[0]?.title, '东京节点 443 端口处置');
    assert.ok(r.hits[0]!.matched.some((m) => m.token === '443'));
    assert.ok(r.explain.gate.distinctiveTokens.length > 0);
    assert.equal(r.explain.semantic.ran, false);
    assert.match(r.explain.semantic.skipped ?? '', /no local embedding model installed/);
    assert.ok(r.hits.every((h, i) => i === 0 || r.hits[i - 1]!.score >= h.score), 'hits are ordered by score');
    assert.equal(new Set(r.hits.map((h) => h.docId)).size, r.hits.length, 'one hit per document');
    const chatter = await engine.recall('好的,再简单测一下');
    assert.deepEqual(chatter.hits, []);
    const block = engine.renderInjection(r);
    assert.match(block, /东京节点 443 端口处置/);
    assert.equal(engine.renderInjection(chatter), '');
  } finally {
    engine.close();
  }
});

test('write → recall, duplicate titles refused, anchored edit, archive instead of delete', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const w = await engine.write({ content: '[12:00] 向量存储选型\n\n> 向量存在 libSQL 的 F32_BLOB 列里。\n\n检索时在内存里做精确扫描,比 libsql_vector_idx 快。\n\nTag: libSQL, 向量' });
    assert.ok(existsSync(join(dirs.diaryDir, w.path)));
    const found = await engine.recall('libSQL 向量怎么存');
    assert.equal(found.hits[0]?.docId, w.docId);
    await assert.rejects(engine.write({ content: '[12:01] 向量存储选型\n\n另一篇' }), (e: { code?: string }) => e.code === 'title-exists');

    const file = join(dirs.diaryDir, w.path);
    const before = readFileSync(file);
    await assert.rejects(engine.edit(w.docId, '太短', 'x'), (e: { code?: string }) => e.code === 'target-too-short');
    await assert.rejects(engine.edit(w.docId, '这段文字在日记里根本不存在所以找不到', 'x'), (e: { code?: string }) => e.code === 'target-not-found');
    assert.deepEqual(readFileSync(file), before, 'a failed edit leaves the file byte for byte');
    await engine.edit(w.docId, '检索时在内存里做精确扫描,比 libsql_vector_idx 快。', '检索时在内存里做精确扫描,整数量化后再精排。');
    assert.match(readFileSync(file, 'utf8'), /整数量化后再精排/);
    assert.equal((await engine.recall('整数量化 精排')).hits[0]?.docId, w.docId, 'the edit is re-indexed');

    const f = await engine.forget(w.docId);
    assert.ok(!existsSync(file));
    assert.ok(existsSync(join(dirs.diaryDir, f.to)), 'archived, not deleted');
    assert.ok(!(await engine.recall('整数量化 精排')).hits.some((h) => h.title === '向量存储选型'));
    const all = await engine.list({ includeArchived: true });
    assert.equal(all.filter((m) => m.title === '向量存储选型' && m.archived).length, 1);
  } finally {
    engine.close();
  }
});

test('every identity of a document resolves to it; unknown ids do not', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const doc = (await engine.list()).find((m) => m.path.includes('tokyo'))!;
    for (const id of [doc.docId, doc.path, '1a2b3c4d']) assert.equal((await engine.read(id))?.docId, doc.docId, id);
    assert.equal(await engine.read('ffffffff'), null);
  } finally {
    engine.close();
  }
});

test('saveText refuses a stale hash and keeps the file', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const doc = (await engine.list())[0]!;
    const detail = (await engine.read(doc.docId))!;
    const file = join(dirs.diaryDir, doc.path);
    writeFileSync(file, `${detail.raw}\n外部修改`);
    await assert.rejects(engine.saveText(doc.docId, 'new text', detail.contentHash), (e: { code?: string }) => e.code === 'conflict');
    assert.match(readFileSync(file, 'utf8'), /外部修改/);
    const fresh = (await engine.read(doc.docId))!;
    const saved = await engine.saveText(doc.docId, fresh.raw.replace('外部修改', '编辑器保存'), fresh.contentHash);
    assert.match(saved.raw, /编辑器保存/);
  } finally {
    engine.close();
  }
});

test('settings: save A, restart, save B keeps A; masked secrets never overwrite; env wins', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  let engine = await openTestEngine(dirs);
  assert.deepEqual(await engine.saveSettings({ recall: { kBase: 6 }, judge: { apiKey: 'sk-secret-1' } }), { ok: true, restartRequired: [] });
  engine.close();
  engine = await openTestEngine(dirs);
  assert.equal(engine.config.recall.kBase, 6);
  const view = engine.getSettings();
  assert.equal(view.effective.judge.apiKey, MASK);
  assert.ok(!JSON.stringify(view).includes('sk-secret-1'), 'no secret in the settings view');
  await engine.saveSettings({ inject: { maxMessages: 4 }, judge: { apiKey: MASK } });
  engine.close();
  engine = await openTestEngine(dirs);
  assert.equal(engine.config.recall.kBase, 6, 'A survived saving B');
  assert.equal(engine.config.inject.maxMessages, 4);
  assert.equal(engine.config.judge.apiKey, 'sk-secret-1', 'masked echo did not overwrite');
  await engine.saveSettings({ recall: { kBase: 5 } });
  assert.equal((engine.getSettings().overlay.recall as Record<string, unknown> | undefined)?.kBase, undefined, 'back to the base value leaves the overlay');
  engine.close();
  const withEnv = await openTestEngine(dirs, { env: { HOME: dirs.root, ENGRAM_JUDGE_KEY: 'sk-env' } });
  assert.equal(withEnv.config.judge.apiKey, 'sk-env');
  assert.ok(withEnv.getSettings().lockedByEnv.includes('judge.apiKey'));
  withEnv.close();
});

test('a settings save that changes the embedding fingerprint asks for confirmation first', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const r = await engine.saveSettings({ embedding: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', dimensions: 8 } });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.requiresConfirmation && r.reasons.some((x) => /provider/.test(x)));
    assert.equal(engine.config.embedding.provider, 'auto', 'nothing saved without confirmation');
    await assert.rejects(engine.saveSettings({ recall: { kBase: 'x' } }), /recall\.kBase/);
  } finally {
    engine.close();
  }
});

test('two engines on one data dir see each other\'s writes', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const a = await openTestEngine(dirs);
  const b = await openTestEngine(dirs, { syncOnOpen: false });
  try {
    const w = await a.write({ content: '[08:00] 跨进程可见性\n\n> 另一个进程写入后这里也能搜到。\n\n代号 zebra-42 的测试。\n\nTag: zebra-42' });
    const r = await b.recall('zebra-42 测试');
    assert.equal(r.hits[0]?.docId, w.docId);
    assert.equal((await b.list()).length, (await a.list()).length);
  } finally {
    a.close();
    b.close();
  }
});

test('files edited by hand are picked up by an incremental index; deleted files leave the index', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const path = Object.keys(files)[4]!;
    writeFileSync(join(dirs.diaryDir, path), files[path]!.replace('水煮鱼', '毛血旺'));
    const report = await engine.index();
    assert.equal(report.updated, 1);
    assert.equal(report.unchanged, Object.keys(files).length - 1);
    assert.equal((await engine.recall('毛血旺 川菜馆')).hits[0]?.path, path);
    const { rmSync } = await import('node:fs');
    rmSync(join(dirs.diaryDir, path));
    const after = await engine.index();
    assert.equal(after.removed, 1);
    assert.equal((await engine.list()).length, Object.keys(files).length - 1);
    assert.deepEqual(listFiles(dirs.diaryDir).length, Object.keys(files).length - 1);
  } finally {
    engine.close();
  }
});

test('settings saved by another engine are picked up by refreshConfig', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const consoleSide = await openTestEngine(dirs);
  const pluginSide = await openTestEngine(dirs, { syncOnOpen: false });
  try {
    assert.equal(await pluginSide.refreshConfig(), false, 'nothing to pick up yet');
    await consoleSide.saveSettings({ inject: { mode: 'context' }, recall: { kBase: 4 } });
    assert.equal(pluginSide.config.inject.mode, 'message');
    assert.equal(await pluginSide.refreshConfig(), true);
    assert.equal(pluginSide.config.inject.mode, 'context');
    assert.equal(pluginSide.config.recall.kBase, 4);
  } finally {
    consoleSide.close();
    pluginSide.close();
  }
});
