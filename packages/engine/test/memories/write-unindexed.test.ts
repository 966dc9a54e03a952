// A new memory is on disk before the index hears of it. When the database is locked by another process
// past its busy timeout, the write did happen: the answer says the words are saved and the index waits
// (`database-busy`, as `database-unreachable` says it for a remote server), not a raw SQLITE_BUSY a
// caller retries into a second copy; the next write indexes what waited.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

test('a write whose index finds the database locked says the words are saved, and the next write indexes them', async (t) => {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  t.after(() => engine.close());
  const db = engine.db as unknown as { run: (...args: unknown[]) => Promise<unknown> };
  const run = db.run.bind(db);
  let locked = true;
  // Every statement of the index pass meets the lock, as with another process inside BEGIN EXCLUSIVE.
  const busy = () => Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });
  const transaction = (engine.db as unknown as { transaction: (...a: unknown[]) => Promise<unknown> }).transaction.bind(engine.db);
  (engine.db as unknown as { transaction: unknown }).transaction = async (...a: unknown[]) => {
    if (locked) throw new Error('Failed query: begin', { cause: busy() });
    return transaction(...a);
  };
  db.run = async (...args: unknown[]) => {
    if (locked) throw new Error('Failed query: insert', { cause: busy() });
    return run(...args);
  };
  const title = '机房巡检要点';
  await assert.rejects(engine.write({ title, content: '机房巡检先看空调回风温度,再看 UPS 的电池告警。', tags: ['运维'] }), (e: { code?: string; message?: string }) => {
    assert.equal(e.code, 'database-busy', e.message);
    assert.match(e.message!, /^文字已保存，索引稍后补上/);
    assert.match(e.message!, /不要重写一遍/);
    return true;
  });
  locked = false;
  const files = () => readdirSync(dirs.diaryDir, { recursive: true }).map(String).filter((f) => f.includes(title));
  assert.equal(files().length, 1, 'the words are on disk, once');
  assert.ok(existsSync(join(dirs.diaryDir, files()[0]!)));
  await engine.write({ title: '下一条', content: '数据库解锁之后的第一次写入,顺便补上之前等待的索引。', tags: ['运维'] });
  assert.ok((await engine.list()).some((m) => m.title === title), 'the next write indexed what waited');
});
