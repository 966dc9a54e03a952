import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngramError } from '../../src/errors.ts';
import { restoreMemory } from '../../src/preview/restore.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const DINNER = '2026-10-24-dinner.txt';

test('an archived memory comes back to its folder with every byte, and is recalled again', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const query = '川菜馆的水煮鱼';
    const id = (await engine.recall(query)).hits[0]!.docId;
    const archived = await engine.forget(id);
    assert.ok(!(await engine.recall(query)).hits.some((h) => h.title === '周末聚餐地点'));
    const restored = await restoreMemory(engine, archived.to);
    assert.equal(restored.to, DINNER);
    assert.equal(readFileSync(join(dirs.diaryDir, DINNER), 'utf8'), files[DINNER]);
    const detail = await engine.read(restored.docId);
    assert.equal(detail?.archived, false);
    assert.ok((await engine.recall(query)).hits.some((h) => h.docId === restored.docId));
  } finally {
    engine.close();
  }
});

test('restoring never overwrites a file that took the name meanwhile, and refuses a memory that is not archived', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const list = await engine.list();
    const dinner = list.find((m) => m.path === DINNER)!;
    await assert.rejects(restoreMemory(engine, dinner.docId), (e) => isEngramError(e) && e.code === 'not-archived');
    const archived = await engine.forget(dinner.docId);
    const newcomer = '[12:00] 新的一篇\n\n> 同名的新文件\n\n正文。\n\nTag: 测试\n';
    writeFileSync(join(dirs.diaryDir, DINNER), newcomer);
    await engine.index({ paths: [DINNER] });
    const restored = await restoreMemory(engine, archived.to);
    assert.notEqual(restored.to, DINNER);
    assert.equal(readFileSync(join(dirs.diaryDir, DINNER), 'utf8'), newcomer, 'the newcomer keeps its words');
    assert.match(readFileSync(join(dirs.diaryDir, restored.to), 'utf8'), /水煮鱼/);
    await assert.rejects(restoreMemory(engine, 'no/such.txt'), (e) => isEngramError(e) && e.code === 'not-found');
  } finally {
    engine.close();
  }
});
