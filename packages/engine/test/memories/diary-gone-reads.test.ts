// Opening one memory while the diary folder is gone under a running engine (deleted, moved away, its
// drive unmounted). The index still lists it, so a person or the model asks for it; its file cannot
// be read. The answer used to be a bare "cannot read <path>: ENOENT: no such file or directory, open
// '<absolute path>'", which reads as a memory lost and hands the model an absolute path. It says now
// that the diary folder is missing and the memory can be read once it is back, in fixed words.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngramError } from '../../src/errors.ts';
import { seededEngine } from '../engine/helpers.ts';

const DINNER = '2026-10-24-dinner.txt';
const GONE_READ = /^日记文件夹不见了（被删除、移走，或所在的磁盘没有挂载）.*这篇记忆.*回来.*读取.*没有丢失.* \/ The diary folder is missing \(deleted, moved away, or its drive is not mounted\).*this memory.*cannot be read until it is back.*nothing is lost/s;

test('reading, locating or opening a memory while the diary folder is gone says the folder is missing, not "cannot read <path>: ENOENT"', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  const docId = (await engine.read(DINNER))!.docId;

  rmSync(dirs.diaryDir, { recursive: true });

  const reads: [what: string, run: () => Promise<unknown>][] = [
    ['read by path', () => engine.read(DINNER)],
    ['read by id', () => engine.read(docId)],
    ['locate', () => engine.locate(docId, '川菜馆')],
    ['detail', () => engine.detail(docId)],
    ['detail of segments', () => engine.detail(docId, [0])],
  ];
  for (const [what, run] of reads) {
    await assert.rejects(run(), (e: unknown) => {
      assert.ok(isEngramError(e), `${what}: ${String(e)}`);
      assert.equal(e.code, 'diary-missing', `${what}: ${e.code} ${e.message}`);
      assert.match(e.message, GONE_READ, `${what}: ${e.message}`);
      assert.doesNotMatch(e.message, /ENOENT|cannot read/, what);
      assert.ok(!e.message.includes(dirs.root), `${what}: fixed words, no path (the model reads this through the tools): ${e.message}`);
      assert.equal(e.details?.path, DINNER, `${what}: a program finds which memory in details`);
      return true;
    });
  }
  // A memory the index does not hold is still "not found" (null), not the folder's absence.
  assert.equal(await engine.read('no-such-note.txt'), null);
});

test('one file deleted while the folder is there is still that file unreadable, not the folder gone', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  await engine.read(DINNER);
  rmSync(join(dirs.diaryDir, DINNER));
  await assert.rejects(engine.read(DINNER), (e: unknown) => isEngramError(e) && e.code === 'file-unreadable' && !/日记文件夹不见了/.test(e.message));
});
