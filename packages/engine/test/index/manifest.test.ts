// Opening an unchanged corpus compares (path, size, mtime) with the index instead of reading every
// diary; a changed size or mtime sends the file to the hash check; gone files leave the index.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { changedDiaryPaths } from '../../src/index/indexer.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

test('manifest open: only files whose size or mtime moved are read; the hash decides whether they changed', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const total = Object.keys(files).length;
  const sneaky = join(dirs.diaryDir, '2026-10-24-dinner.txt');
  const whole = new Date('2026-10-24T12:00:00Z'); // a whole second: utimes can set it back exactly
  utimesSync(sneaky, whole, whole);
  let engine = await openTestEngine(dirs);
  assert.deepEqual((await changedDiaryPaths(engine.database.db, engine.config))?.paths, [], 'just indexed: nothing to look at');
  engine.close();

  // 1. Same bytes, new mtime (a checkout, a sync tool touching files): looked at, found unchanged by hash.
  const touched = join(dirs.diaryDir, 'work/2026-10-22-cache.txt');
  utimesSync(touched, new Date(), new Date(Date.now() + 5_000));
  // 2. Same size and mtime, other bytes: not read (the manifest says unchanged) — this is what makes the
  //    open cheap, and why the size+mtime pair must both match.
  const text = readFileSync(sneaky, 'utf8');
  writeFileSync(sneaky, text.replace('水煮鱼', '酸菜鱼'));
  utimesSync(sneaky, whole, whole);
  assert.equal(statSync(sneaky).size, Buffer.byteLength(text));
  // 3. A real edit (new size) and 4. a deleted file.
  const edited = join(dirs.diaryDir, '2026-10-21-jieba.txt');
  writeFileSync(edited, `${readFileSync(edited, 'utf8')}\n补充:用户词典放在数据目录。\n`);
  rmSync(join(dirs.diaryDir, 'work/2026-10-23-backup.txt'));

  engine = await openTestEngine(dirs, { syncOnOpen: false });
  const check = await changedDiaryPaths(engine.database.db, engine.config);
  assert.deepEqual(check?.paths.sort(), ['2026-10-21-jieba.txt', 'work/2026-10-22-cache.txt', 'work/2026-10-23-backup.txt']);
  const report = await engine.index({ full: false });
  assert.equal(report.updated, 1, 'the edit');
  assert.equal(report.removed, 1, 'the deleted file');
  assert.equal(report.unchanged, total - 2, 'the touched file (hash equal) and the untouched ones');
  assert.equal(report.documents, total - 1);
  const recall = await engine.recall('用户词典 数据目录');
  assert.equal(recall.hits[0]?.path, '2026-10-21-jieba.txt', 'the edit is indexed');
  const stale = await engine.recall('水煮鱼 川菜馆');
  assert.equal(stale.hits[0]?.path, '2026-10-24-dinner.txt', 'the same-size same-mtime file was not read');
  engine.close();

  // A full rebuild reads everything.
  engine = await openTestEngine(dirs, { syncOnOpen: false });
  await engine.index({ full: true });
  assert.equal((await engine.recall('酸菜鱼 川菜馆')).hits[0]?.path, '2026-10-24-dinner.txt');
  engine.close();
});

test('manifest open falls back to the whole scan when a legacy corpus is configured', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { legacyDir: dirs.root });
  assert.equal(await changedDiaryPaths(engine.database.db, engine.config), null);
  engine.close();
});

test('a file the whole scan refuses (too large) stays out when the manifest check or a write looks at it', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const big = join(dirs.diaryDir, '2026-10-26-huge.txt');
  writeFileSync(big, `[10:00] 超大文件\n\n${'很长的日志行,'.repeat(800_000)}\n`); // > 8 MB
  let engine = await openTestEngine(dirs);
  assert.equal((await engine.list()).some((m) => m.path === '2026-10-26-huge.txt'), false, 'the full scan skips it');
  engine.close();
  engine = await openTestEngine(dirs); // incremental open: the manifest check names it (not indexed)
  const check = await changedDiaryPaths(engine.database.db, engine.config);
  assert.deepEqual(check?.paths, ['2026-10-26-huge.txt']);
  const report = await engine.index({ full: false });
  assert.equal((await engine.list()).some((m) => m.path === '2026-10-26-huge.txt'), false, 'and the changed-files pass skips it too');
  assert.ok(report.skipped.some((s) => s.path === '2026-10-26-huge.txt' && /too large/.test(s.reason)), JSON.stringify(report.skipped));
  engine.close();
});
