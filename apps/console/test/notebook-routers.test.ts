// preview.run, search.memories and archive.restore through tRPC on a real engine: the story a person
// follows in the console (nothing recalled → why → fix the memory → recalled), body words found by
// the Library search, and archive → restore keeping every word.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openHarness } from './harness.ts';

const DINNER = '[19:40] 周末聚餐地点\n\n> 周六在川菜馆聚餐，记得提前订位。\n\n上次去的川菜馆在地铁站旁边，水煮鱼很好吃，需要提前一天电话订位。\n\nTag: 聚餐, 川菜馆\n';
const BACKUP = '[18:05] 数据库备份策略\n\n> 迁移前备份数据库，保留最近五份。\n\n每次迁移之前复制数据库文件到 backups 目录，超过五份时删除最旧的一份。\n\nTag: 备份, 迁移\n';

async function seeded(t: Parameters<typeof openHarness>[0]) {
  const h = await openHarness(t);
  writeFileSync(join(h.root, 'diary', '2026-10-24-dinner.txt'), DINNER);
  writeFileSync(join(h.root, 'diary', '2026-10-23-backup.txt'), BACKUP);
  await h.engine.index();
  return h;
}

test('preview: nothing recalled, the near miss says which words are missing, the fixed memory is recalled', async (t) => {
  const h = await seeded(t);
  const query = '川菜馆的停车场和包间怎么订';
  const before = await h.api().preview.run({ query });
  assert.deepEqual(before.blocks.map((b) => b.kind), ['resident', 'pinned', 'recalled']);
  const recalled = before.blocks.find((b) => b.kind === 'recalled')!;
  assert.equal(recalled.items.length, 0);
  const miss = before.nearMisses[0]!;
  assert.equal(miss.title, '周末聚餐地点');
  assert.ok(miss.missing.includes('停车场'));
  const detail = await h.api().memories.read({ id: miss.docId });
  await h.api().memories.save({ id: miss.docId, raw: detail.raw.replace('电话订位。', '电话订位。店后面有停车场，包间要提前订。'), expectedHash: detail.contentHash });
  const after = await h.api().preview.run({ query });
  const now = after.blocks.find((b) => b.kind === 'recalled')!;
  assert.deepEqual(now.items.map((i) => i.title), ['周末聚餐地点']);
  assert.ok(now.tokens > 0 && now.text.includes('停车场'));
  assert.equal(after.totalTokens, after.blocks.reduce((n, b) => n + b.tokens, 0));
});

test('search: a word only in the body finds its memory with the matched word; filters narrow it', async (t) => {
  const h = await seeded(t);
  const found = await h.api().search.memories({ query: '水煮鱼' });
  assert.deepEqual(found.items.map((m) => m.title), ['周末聚餐地点']);
  assert.ok(found.items[0]!.matched.some((m) => m.token === '水煮鱼'));
  assert.equal((await h.api().search.memories({ query: '水煮鱼', tag: '备份' })).total, 0);
  assert.equal((await h.api().search.memories({ query: '水煮鱼', from: '2099-01-01' })).total, 0);
  const all = await h.api().search.memories({});
  assert.equal(all.total, 2);
  // A path is no word of the text: the Library's name filter still finds it, after the engine's answers.
  const byPath = await h.api().search.memories({ query: 'dinner.txt' });
  assert.deepEqual(byPath.items.map((m) => m.title), ['周末聚餐地点']);
  assert.deepEqual(byPath.items[0]!.matched, []);
});

test('archive then restore: the memory leaves, shows under 已归档, comes back with every byte', async (t) => {
  const h = await seeded(t);
  const dinner = (await h.api().search.memories({ query: '水煮鱼' })).items[0]!;
  const moved = await h.api().memories.archive({ id: dinner.docId });
  assert.equal((await h.api().search.memories({ query: '水煮鱼' })).total, 0);
  const archived = await h.api().search.memories({ archived: 'archived' });
  assert.deepEqual(archived.items.map((m) => m.title), ['周末聚餐地点']);
  const back = await h.api().archive.restore({ id: moved.to });
  assert.equal(back.to, '2026-10-24-dinner.txt');
  assert.equal(readFileSync(join(h.root, 'diary', back.to), 'utf8'), DINNER);
  assert.equal((await h.api().search.memories({ query: '水煮鱼' })).total, 1);
  await assert.rejects(h.api().archive.restore({ id: back.docId }));
});

test('preview.workspaceLevels: each level with its text and tokens, the one in effect marked, a pinned memory first in index', async (t) => {
  const h = await seeded(t);
  const dinner = (await h.api().search.memories({ query: '水煮鱼' })).items[0]!;
  await h.api().memories.setPinned({ id: dinner.docId, pinned: true });
  const preview = await h.api().preview.workspaceLevels({});
  assert.deepEqual(preview.levels.map((l) => [l.level, l.current]), [['hint', true], ['index', false], ['full', false], ['off', false]]);
  const index = preview.levels.find((l) => l.level === 'index')!;
  assert.deepEqual(index.items.map((i) => [i.title, i.pinned]), [['周末聚餐地点', true], ['数据库备份策略', false]]);
  assert.ok(index.text.includes('周末聚餐地点〔置顶〕'));
  assert.ok(preview.levels.every((l) => (l.level === 'off' ? l.tokens === 0 : l.tokens > 0)));
  await h.engine.saveSettings({ workspace: { inject: 'full' } });
  assert.equal((await h.api().preview.workspaceLevels({})).current, 'full');
});
