// A write to a running engine whose diary folder is gone (deleted, moved away, its drive unmounted).
// It used to be refused with the words for a mistyped folder — "create it" — which for an unmounted
// drive is the one wrong thing to do: a folder created at the mount point puts the notes on the disk
// underneath, where the remounted drive hides them. Every write (new memory, anchored edit, whole-file
// save, archive, Meta line, summary) is refused the same way: the folder is missing, nothing was
// written, write again once it is back — and nothing is created where it was.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { isEngramError } from '../../src/errors.ts';
import { seedCorpus, seededEngine } from '../engine/helpers.ts';

const DINNER = '2026-10-24-dinner.txt';

test('every write to an engine whose diary folder is gone is refused as the folder gone, creates nothing, and works again once it is back', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  const opened = await engine.read(DINNER);
  assert.ok(opened);

  rmSync(dirs.diaryDir, { recursive: true });

  const writes: [what: string, run: () => Promise<unknown>][] = [
    ['write', () => engine.write({ content: '[10:00] 咖啡豆的产地\n\n> 新买的咖啡豆来自埃塞俄比亚耶加雪菲，浅烘，适合手冲。\n\n水温 92 度，粉水比 1:15，闷蒸 30 秒。\n\nTag: 咖啡, 手冲\n' })],
    ['edit', () => engine.edit(DINNER, '上次去的川菜馆在地铁站旁边,水煮鱼很好吃', '上次去的川菜馆在地铁站旁边,酸菜鱼很好吃')],
    ['saveText', () => engine.saveText(DINNER, opened.raw.replace('水煮鱼', '酸菜鱼'), opened.contentHash)],
    ['forget', () => engine.forget(DINNER)],
    ['updateMeta', () => engine.updateMeta(DINNER, { pinned: true })],
    ['setSummary', () => engine.setSummary(DINNER, '新的摘要', 'manual')],
  ];
  for (const [what, run] of writes) {
    await assert.rejects(run(), (e: unknown) => {
      assert.ok(isEngramError(e), `${what}: ${String(e)}`);
      assert.equal(e.code, 'diary-missing', `${what}: ${e.code} ${e.message}`);
      assert.match(e.message, /^日记文件夹不见了（被删除、移走，或所在的磁盘没有挂载）.*没有写入.*回来后再写.* \/ The diary folder is missing \(deleted, moved away, or its drive is not mounted\).*nothing was written.*once it is back/s, `${what}: ${e.message}`);
      assert.match(e.message, /不要新建.*do not create/s, `${what} warns against creating it: ${e.message}`);
      assert.doesNotMatch(e.message, /先创建它|create it or point/, `${what} does not say to create it: ${e.message}`);
      assert.ok(!e.message.includes(dirs.root), `${what}: fixed words, no path (the model reads this through the tools): ${e.message}`);
      assert.equal(e.details?.diaryDir, dirs.diaryDir, `${what}: a program finds the folder in details`);
      return true;
    });
    assert.equal(existsSync(dirs.diaryDir), false, `${what} created nothing where the folder was`);
  }

  // Back (a remount): writes work again, through the same engine.
  seedCorpus(dirs.diaryDir);
  const edited = await engine.edit(DINNER, '上次去的川菜馆在地铁站旁边,水煮鱼很好吃', '上次去的川菜馆在地铁站旁边,酸菜鱼很好吃');
  assert.equal(edited.path, DINNER);
});
