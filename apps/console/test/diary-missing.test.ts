// The diary folder gone under a running console (deleted, its drive unmounted): the Index page's
// status says so — where the folder was expected, that recall is paused until it is back — in the
// reader's language, and Recall debug shows nothing recalled with the reason.
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { en, format, zh, type MessageKey } from '../src/client/messages.ts';
import { diaryMissingText } from '../src/components/index/diary-missing.ts';
import { openHarness, rejects } from './harness.ts';
import { EngineErrorCause } from '../src/server/errors.ts';

const tz = (key: MessageKey, vars?: Record<string, string | number>) => format(zh[key], vars);
const te = (key: MessageKey, vars?: Record<string, string | number>) => format(en[key], vars);

test('index.status and recall.run say the diary folder is gone, and recall shows nothing from it', async (t) => {
  const h = await openHarness(t);
  const diaryDir = join(h.root, 'diary');
  writeFileSync(join(diaryDir, '2026-10-24-dinner.txt'), '[19:40] 周末聚餐地点\n\n> 周六在川菜馆聚餐,记得提前订位。\n\n川菜馆在地铁站旁边,水煮鱼很好吃,需要提前一天电话订位。\n\nTag: 聚餐, 川菜馆\n');
  await h.engine.index();
  const api = h.api();
  assert.equal((await api.recall.run({ query: '川菜馆 聚餐 订位' })).result.hits.length, 1);
  assert.equal((await api.index.status()).diaryMissing, null);

  rmSync(diaryDir, { recursive: true });
  const status = await api.index.status();
  assert.ok(status.diaryMissing, 'the status the Index page reads says the folder is missing');
  assert.ok(status.diaryMissing.message.includes(diaryDir));
  assert.equal(status.diaryDir, diaryDir);
  assert.equal(status.documents, 1, 'the index is kept');
  const recalled = await api.recall.run({ query: '川菜馆 聚餐 订位' });
  assert.deepEqual(recalled.result.hits, []);
  assert.equal(recalled.injection, '');
  assert.equal(recalled.result.explain.gate.silencedBy?.rule, 'diary-missing');
});

test("the Index page's banner names the folder, since when, and that recall waits for it, in both languages", () => {
  const gone = { diaryDir: '/home/me/diaries', diaryMissing: { since: '2026-12-06T07:00:00.000Z', message: '…' } };
  const when = () => '2026-12-06 15:00';
  const zhText = diaryMissingText(gone, tz, when);
  assert.ok(zhText);
  assert.equal(zhText.title, '日记文件夹不见了，召回已暂停');
  assert.match(zhText.body, /^应在 \/home\/me\/diaries，自 2026-12-06 15:00 起找不到/);
  assert.match(zhText.body, /不会注入任何记忆.*索引原样保留/);
  const enText = diaryMissingText(gone, te, when);
  assert.equal(enText?.title, 'The diary folder is missing: recall is paused');
  assert.match(enText?.body ?? '', /^Expected at \/home\/me\/diaries, missing since 2026-12-06 15:00 .*Nothing is injected until it is back/);
  // Someone who deleted it on purpose is told how to start afresh, as the engine's words say.
  assert.match(zhText.body, /有意删除.*重新创建这个文件夹/);
  assert.match(enText?.body ?? '', /on purpose.*create the folder again/);
  assert.equal(diaryMissingText({ diaryDir: '/home/me/diaries', diaryMissing: null }, tz, when), null, 'no banner while the folder is there');
});

// The Library lists memories from the index: while the folder is gone they are still listed (nothing
// is lost; the drive may be remounting), under the same banner, which there also says that what is
// listed is not on disk right now, so a person does not take the rows for files they can open.
test('with the diary folder gone the Library still lists the indexed memories, and the status it reads says the folder is missing', async (t) => {
  const h = await openHarness(t);
  const diaryDir = join(h.root, 'diary');
  writeFileSync(join(diaryDir, '2026-10-24-dinner.txt'), '[19:40] 周末聚餐地点\n\n> 周六在川菜馆聚餐,记得提前订位。\n\n川菜馆在地铁站旁边。\n\nTag: 聚餐\n');
  await h.engine.index();
  const api = h.api();
  rmSync(diaryDir, { recursive: true });
  const page = await api.memories.page({});
  assert.deepEqual(page.items.map((m) => m.title), ['周末聚餐地点'], 'the index is listed as it is');
  assert.ok((await api.index.status()).diaryMissing, 'the status the Library reads (as its overview does) says the folder is missing');
});

test("the Library's banner is the Index page's, and also says that what it lists is not on disk right now, in both languages", () => {
  const gone = { diaryDir: '/home/me/diaries', diaryMissing: { since: '2026-12-06T07:00:00.000Z', message: '…' } };
  const when = () => '2026-12-06 15:00';
  const zhText = diaryMissingText(gone, tz, when, 'library');
  assert.ok(zhText);
  assert.deepEqual({ title: zhText.title, body: zhText.body }, { title: diaryMissingText(gone, tz, when)?.title, body: diaryMissingText(gone, tz, when)?.body }, 'the same words as the Index page');
  assert.match(zhText.listed ?? '', /^下面的记忆列自索引，文件此刻不在磁盘上/);
  assert.match(diaryMissingText(gone, te, when, 'library')?.listed ?? '', /^The memories below are listed from the index; their files are not on disk right now/);
  assert.equal(diaryMissingText(gone, tz, when)?.listed, null, 'the Index page lists no memories');
  assert.equal(diaryMissingText({ diaryDir: '/home/me/diaries', diaryMissing: null }, tz, when, 'library'), null, 'no banner while the folder is there');
});

// A save, a new memory, an edit or an archive while the folder is gone: refused as the folder gone —
// nothing was written, save again once it is back — never "create it" (for an unmounted drive that
// puts the notes on the disk under the mount point); a precondition, not a "not found" memory.
test("with the diary folder gone, the Library's writes are refused as the folder gone, and nothing is created", async (t) => {
  const h = await openHarness(t);
  const diaryDir = join(h.root, 'diary');
  writeFileSync(join(diaryDir, '2026-10-24-dinner.txt'), '[19:40] 周末聚餐地点\n\n> 周六在川菜馆聚餐,记得提前订位。\n\n川菜馆在地铁站旁边,水煮鱼很好吃,需要提前一天电话订位。\n\nTag: 聚餐, 川菜馆\n');
  await h.engine.index();
  const api = h.api();
  const id = (await api.memories.page({})).items[0]!.docId;
  rmSync(diaryDir, { recursive: true });
  const writes: [what: string, run: () => Promise<unknown>][] = [
    ['create', () => api.memories.create({ content: '[11:00] 新的发布规范\n\n> 发布前先写回滚脚本\n\n发布前先写回滚脚本,再通知值班同事。\n\nTag: 发布, 回滚' })],
    ['edit', () => api.memories.edit({ id, target: '川菜馆在地铁站旁边,水煮鱼很好吃', replacement: '川菜馆在地铁站旁边,酸菜鱼很好吃' })],
    ['archive', () => api.memories.archive({ id })],
    ['setPinned', () => api.memories.setPinned({ id, pinned: true })],
  ];
  for (const [what, run] of writes) {
    const e = await rejects(run(), 'PRECONDITION_FAILED', /^日记文件夹不见了.*没有写入.*不要新建.* \/ The diary folder is missing.*nothing was written/s);
    assert.equal((e.cause as EngineErrorCause).engramCode, 'diary-missing', what);
  }
  assert.equal(existsSync(diaryDir), false, 'the folder was not created');
});

// A memory opened from the Library while the folder is gone (the Library still lists it): the folder
// is missing and the memory can be opened once it is back — not "root directory does not exist", a
// NOT_FOUND that read as the memory deleted.
test('with the diary folder gone, opening a memory in the Library says the folder is missing and it can be read once it is back', async (t) => {
  const h = await openHarness(t);
  const diaryDir = join(h.root, 'diary');
  writeFileSync(join(diaryDir, '2026-10-24-dinner.txt'), '[19:40] 周末聚餐地点\n\n> 周六在川菜馆聚餐,记得提前订位。\n\n川菜馆在地铁站旁边。\n\nTag: 聚餐\n');
  await h.engine.index();
  const api = h.api();
  const id = (await api.memories.page({})).items[0]!.docId;
  rmSync(diaryDir, { recursive: true });
  for (const [what, run] of [['read', () => api.memories.read({ id })], ['fields', () => api.memories.fields({ id })]] as const) {
    const e = await rejects(run(), 'PRECONDITION_FAILED', /^日记文件夹不见了.*这篇记忆.*无法读取.* \/ The diary folder is missing.*cannot be read until it is back/s);
    assert.equal((e.cause as EngineErrorCause).engramCode, 'diary-missing', what);
  }
});
