// A memory is on disk before the index hears of it, a new one or an edited one. When the database is
// locked by another process past its busy timeout, the change did happen: the answer says the words
// are saved and the index waits (`database-busy`, as `database-unreachable` says it for a remote
// server), not a raw SQLITE_BUSY a caller retries into a second copy; the next write indexes what waited.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

/** Every statement of an index pass meets the lock while `state.locked`, as with another process inside BEGIN EXCLUSIVE. */
function lockable(engine: { db: unknown }): { locked: boolean } {
  const state = { locked: false };
  const db = engine.db as { run: (...args: unknown[]) => Promise<unknown>; transaction: (...args: unknown[]) => Promise<unknown> };
  const run = db.run.bind(db);
  const transaction = db.transaction.bind(db);
  const busy = () => Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
  db.transaction = async (...a: unknown[]) => {
    if (state.locked) throw new Error('Failed query: begin', { cause: busy() });
    return transaction(...a);
  };
  db.run = async (...a: unknown[]) => {
    if (state.locked) throw new Error('Failed query: insert', { cause: busy() });
    return run(...a);
  };
  return state;
}

const savedButWaiting = (e: { code?: string; message?: string }) => {
  assert.equal(e.code, 'database-busy', e.message);
  assert.match(e.message!, /^文字已保存，索引稍后补上/);
  assert.match(e.message!, /不要重写一遍/);
  return true;
};

test('a write whose index finds the database locked says the words are saved, and the next write indexes them', async (t) => {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  t.after(() => engine.close());
  const lock = lockable(engine);
  lock.locked = true;
  const title = '机房巡检要点';
  await assert.rejects(engine.write({ title, content: '机房巡检先看空调回风温度,再看 UPS 的电池告警。', tags: ['运维'] }), savedButWaiting);
  lock.locked = false;
  const files = () => readdirSync(dirs.diaryDir, { recursive: true }).map(String).filter((f) => f.includes(title));
  assert.equal(files().length, 1, 'the words are on disk, once');
  assert.ok(existsSync(join(dirs.diaryDir, files()[0]!)));
  await engine.write({ title: '下一条', content: '数据库解锁之后的第一次写入,顺便补上之前等待的索引。', tags: ['运维'] });
  assert.ok((await engine.list()).some((m) => m.title === title), 'the next write indexed what waited');
});

test('an edit whose index finds the database locked says so too; the edit is on disk once and indexed by the next write', async (t) => {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  t.after(() => engine.close());
  const memory = await engine.write({ title: '备份策略', content: '数据库每晚两点做一次全量备份,备份文件保留七天后自动删除。', tags: ['运维'] });
  const lock = lockable(engine);
  lock.locked = true;
  await assert.rejects(engine.edit(memory.docId, '每晚两点做一次全量备份,备份文件保留七天后自动删除', '每晚两点做一次全量备份,备份文件保留三十天后自动删除'), savedButWaiting);
  lock.locked = false;
  const text = readFileSync(join(dirs.diaryDir, memory.path), 'utf8');
  assert.equal(text.split('保留三十天').length - 1, 1, 'the edit is on disk, once');
  await engine.write({ title: '下一条', content: '数据库解锁之后的第一次写入,顺便补上之前等待的索引。', tags: ['运维'] });
  assert.ok((await engine.recall('备份保留三十天')).hits.some((h) => h.docId === memory.docId), 'the next write indexed the edit');
});
