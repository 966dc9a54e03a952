// Issue #25 item 5 — a memory renamed, moved or archived by another program while the console
// changes it answered `500 Internal error` (a raw ENOENT in the server log). Each moment is hit on
// purpose: before the file is read, between the read and the temp file, between the temp file and
// the swap, and between an archive's check and its move. The console must answer a typed NOT_FOUND
// that says so in Chinese first, and nothing may be written where the memory used to be.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { withFsPatch, withFsSyncPatch } from '../../../packages/engine/test/reliability/integrity-fsfault.ts';
import { isTempFileName } from '../../../packages/engine/src/diary/fsio.ts';
import { openHarness, rejects } from './harness.ts';

const TEXT = '[09:00] 东京节点端口处置\n\n> 东京节点端口被占用后的处置。\n\n东京节点的 443 端口被 nginx 占用，改由 sing-box 接管，时区调整为 UTC+9。\n\nTag: 东京节点\n';
const TARGET = '端口被 nginx 占用，改由 sing-box 接管';
const MOVED = /^记忆已被移动或归档/;

async function setup(t: Parameters<typeof openHarness>[0]) {
  const h = await openHarness(t, 'engram-moved-');
  const diaryDir = join(h.root, 'diary');
  mkdirSync(join(diaryDir, '工作'), { recursive: true });
  writeFileSync(join(diaryDir, '工作', 'a.txt'), TEXT);
  await h.engine.index({ full: false });
  const id = (await h.engine.list()).find((m) => m.path === '工作/a.txt')!.docId;
  const detail = await h.engine.read(id);
  /** Another program moves the memory (here: its whole folder) out of the way. */
  const moveAway = () => renameSync(join(diaryDir, '工作'), join(diaryDir, '别处'));
  const moved = () => readFileSync(join(diaryDir, '别处', 'a.txt'), 'utf8');
  return { ...h, diaryDir, id, hash: detail!.contentHash, raw: detail!.raw, moveAway, moved };
}

/** Runs `fn` once, right before the first call of fsp.`name` whose path contains `marker`. */
function before<K extends 'open' | 'mkdir'>(name: K, marker: string, fn: () => void) {
  let fired = false;
  return <T>(run: () => Promise<T>) =>
    withFsPatch(name, (original) => ((...args: unknown[]) => {
      if (!fired && String(args[0]).includes(marker)) {
        fired = true;
        fn();
      }
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as never, run);
}

test('moved before the console reads it: edit, save, pin and archive answer 记忆已被移动或归档 (NOT_FOUND), never a 500', async (t) => {
  const h = await setup(t);
  h.moveAway();
  const api = h.api();
  await rejects(api.memories.edit({ id: h.id, target: TARGET, replacement: '改由 xray 接管' }), 'NOT_FOUND', MOVED);
  await rejects(api.memories.save({ id: h.id, raw: h.raw.replace('UTC+9', 'UTC+8'), expectedHash: h.hash }), 'NOT_FOUND', MOVED);
  await rejects(api.memories.setPinned({ id: h.id, pinned: true }), 'NOT_FOUND', MOVED);
  await rejects(api.memories.archive({ id: h.id }), 'NOT_FOUND', MOVED);
  assert.equal(h.moved(), TEXT, 'the moved file is untouched');
  assert.equal(existsSync(join(h.diaryDir, '工作')), false, 'nothing was written where it used to be');
});

test('moved between the read and the temp file of a save: 记忆已被移动或归档, never a raw ENOENT', async (t) => {
  const h = await setup(t);
  await before('open', '.engram-tmp-', h.moveAway)(() =>
    rejects(h.api().memories.save({ id: h.id, raw: h.raw.replace('UTC+9', 'UTC+8'), expectedHash: h.hash }), 'NOT_FOUND', MOVED),
  );
  assert.equal(h.moved(), TEXT);
  assert.equal(existsSync(join(h.diaryDir, '工作')), false);
});

test('moved between the temp file and the swap of an anchored edit: 记忆已被移动或归档, nothing else written', async (t) => {
  const h = await setup(t);
  // The swap's first step opens the diary to check it: the temp file is written and synced by then.
  let fired = false;
  await withFsSyncPatch('openSync', (original) => ((...args: Parameters<typeof original>) => {
    if (!fired && String(args[0]).endsWith(join('工作', 'a.txt'))) {
      fired = true;
      h.moveAway();
    }
    return original(...args);
  }) as typeof original, () => rejects(h.api().memories.edit({ id: h.id, target: TARGET, replacement: '改由 xray 接管' }), 'NOT_FOUND', MOVED));
  assert.ok(fired);
  assert.equal(h.moved(), TEXT);
  // Our temp file moved along with the folder: only a temp file (skipped by the scanner, swept at
  // the next start) may be there besides the diary.
  assert.deepEqual(readdirSync(join(h.diaryDir, '别处')).filter((n) => !isTempFileName(n)), ['a.txt']);
});

test('moved between an archive’s check and its move: 记忆已被移动或归档, and the file is not lost', async (t) => {
  const h = await setup(t);
  await before('mkdir', '已整理', h.moveAway)(() => rejects(h.api().memories.archive({ id: h.id }), 'NOT_FOUND', MOVED));
  assert.equal(h.moved(), TEXT);
});

test('a new memory whose folder is moved away while it is being written: a typed answer, never a raw ENOENT', async (t) => {
  const h = await setup(t);
  await before('open', '.engram-tmp-', h.moveAway)(() =>
    rejects(h.api().memories.create({ title: '新的一篇', content: '写入进行时它的文件夹被别的程序移走了,应当得到清楚的说明。', tags: ['并发'], folder: '工作' }), 'NOT_FOUND', /^文件夹已被移动或删除/),
  );
  assert.deepEqual(readdirSync(join(h.diaryDir, '别处')).filter((n) => !isTempFileName(n)), ['a.txt'], 'nothing half-written is left');
});
