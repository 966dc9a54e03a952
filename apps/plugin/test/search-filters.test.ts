// engram_search's filters (category, tag, date range, workspace, a minimum score, the archive) through
// the simulated host's tool service, in the full profile (parameters) and the lean one (written into q).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diaryText, loadPlugin, makeCorpus } from './helpers.ts';

interface Hit {
  docId: string;
  title: string;
  date: string;
  category: string;
  tags: string[];
  score: number;
  scope: string;
  archived?: boolean;
}

const BACKUPS: [folder: string, date: string, title: string, body: string, tags: string[]][] = [
  ['运维', '2026-02-10', '数据库快照演练', '数据库快照演练:从 backups 目录恢复最新一份快照,用时四分钟。', ['数据库', '快照']],
  ['运维', '2026-03-11', '网站快照脚本', '网站目录每晚打包快照到对象存储,快照脚本在 crontab 里。', ['网站', '快照']],
  ['', '2026-03-20', '照片快照', '手机照片每月快照到移动硬盘一次,快照后核对张数。', ['照片', '快照']],
  ['家庭', '2026-04-02', '路由器配置快照', '路由器配置导出快照到网盘,改密码前先快照一次。', ['路由器']],
  ['', '2026-04-15', '数据库快照加密', '数据库快照文件用 age 加密后再上传,密钥放在保险箱。', ['数据库', '加密']],
];

// Other topics, so that 快照 stays a distinctive word (rare enough) in the whole corpus.
const OTHER_TOPICS = ['菜谱', '球赛', '花园', '画展', '钢琴', '围棋', '露营', '瑜伽', '茶叶', '摄影课', '书法', '滑雪', '钓鱼', '陶艺', '骑行', '魔方', '象棋', '烘焙'];

function backupCorpus() {
  const corpus = makeCorpus();
  OTHER_TOPICS.forEach((topic, i) => writeFileSync(join(corpus.diaryDir, `2026-01-${String(i + 1).padStart(2, '0')}-${topic}.txt`), diaryText(`${topic}记录`, `关于${topic}的一点记录,第 ${i + 1} 篇。`)));
  for (const [folder, date, title, body, tags] of BACKUPS) {
    mkdirSync(join(corpus.diaryDir, folder), { recursive: true });
    writeFileSync(join(corpus.diaryDir, folder, `${date}-${title}.txt`), diaryText(title, body, tags));
  }
  return corpus;
}

async function search(tools: { call(name: string, args: string): Promise<{ value?: unknown; text: string; error?: unknown }> }, args: Record<string, unknown>) {
  const r = await tools.call('engram_search', JSON.stringify(args));
  assert.equal(r.error, undefined, r.text);
  return { hits: (r.value as { hits: Hit[] }).hits, text: r.text };
}

test('each filter keeps only the memories that pass it, and finds those the unfiltered top k left out', async (t) => {
  const { host } = await loadPlugin(t, { corpus: backupCorpus() });
  const tools = host.tools!;
  const all = (await search(tools, { query: '快照', k: 20 })).hits;
  assert.ok(all.length >= 4, `backups found: ${all.map((h) => h.title)}`);

  const tagged = (await search(tools, { query: '快照', tag: '数据库', k: 1 })).hits;
  assert.ok(tagged.length === 1 && tagged[0]!.tags.includes('数据库'));
  const both = (await search(tools, { query: '快照', tags: ['数据库', '加密'] })).hits;
  assert.deepEqual(both.map((h) => h.title), ['数据库快照加密']);

  const ops = (await search(tools, { query: '快照', category: '运维' })).hits;
  assert.deepEqual(new Set(ops.map((h) => h.title)), new Set(all.filter((h) => h.category === '运维').map((h) => h.title)));
  assert.ok(ops.length >= 2);

  const march = (await search(tools, { query: '快照', from: '2026-03', to: '2026-03' })).hits;
  assert.deepEqual(new Set(march.map((h) => h.title)), new Set(all.filter((h) => h.date.startsWith('2026-03')).map((h) => h.title)));
  const after = (await search(tools, { query: '快照', from: '2026-03-15' })).hits;
  assert.ok(after.length > 0 && after.every((h) => h.date >= '2026-03-15'));

  const strong = (await search(tools, { query: '快照', minScore: 1 })).hits;
  assert.ok(strong.length >= 1 && strong.length < all.length, 'only the best scores pass a minimum of 1');
  assert.ok(strong.every((h) => h.score === strong[0]!.score));

  const global = (await search(tools, { query: '快照', workspace: 'global' })).hits;
  assert.equal(global.length, all.length, 'every memory of this corpus is global');
  const elsewhere = await search(tools, { query: '快照', workspace: 'ws-elsewhere' });
  assert.equal(elsewhere.hits.length, 0);
  assert.match(elsewhere.text, new RegExp(`过滤条件排除了 ${all.length} 条`), 'an empty filtered answer says the filters left them out');
});

test('the archive is searched behind a flag, and an archived memory can be read', async (t) => {
  const { host } = await loadPlugin(t, { corpus: backupCorpus() });
  const tools = host.tools!;
  const photo = (await search(tools, { query: '照片快照' })).hits.find((h) => h.title === '照片快照')!;
  assert.ok(photo);
  const forget = await tools.call('engram_forget', JSON.stringify({ id: photo.docId }));
  assert.equal(forget.error, undefined, forget.text);
  assert.ok(!(await search(tools, { query: '照片快照', k: 20 })).hits.some((h) => h.title === '照片快照'), 'archived: not in an ordinary search');

  const archive = await search(tools, { query: '照片', archived: true });
  assert.deepEqual(archive.hits.map((h) => h.title), ['照片快照']);
  assert.ok(archive.hits.every((h) => h.archived === true));
  assert.match(archive.text, /已归档/);
  const detail = await tools.call('engram_detail', JSON.stringify({ id: archive.hits[0]!.docId }));
  assert.equal(detail.error, undefined, detail.text);
  assert.match(detail.text, /移动硬盘/);
});

test('a filter that cannot be used is refused with what to write instead', async (t) => {
  const { host } = await loadPlugin(t, { corpus: backupCorpus() });
  const bad = await host.tools!.call('engram_search', JSON.stringify({ query: '快照', from: '上个月' }));
  assert.match(bad.text, /invalid-arguments.*YYYY-MM/);
});

test('lean profile: filters written into q reach the same search', async (t) => {
  const { host } = await loadPlugin(t, { corpus: backupCorpus(), config: { tools: { profile: 'lean' } } });
  const r = await host.tools!.call('engram', JSON.stringify({ q: '快照 tag:数据库 from:2026-04' }));
  assert.equal(r.error, undefined, r.text);
  const v = r.value as { layer: string; result: { hits: Hit[] } };
  assert.equal(v.layer, 'search');
  assert.deepEqual(v.result.hits.map((h) => h.title), ['数据库快照加密']);
  const archived = await host.tools!.call('engram', JSON.stringify({ q: '快照 arch:1' }));
  assert.match(archived.text, /没有找到/, 'nothing is archived yet');
  const schema = host.tools!.schemas().find((s) => s.name === 'engram')!;
  assert.match(schema.description, /tag:/, 'the lean description names the inline filters');
});

test('filter: off shows the ranking the gates would have silenced; strict keeps only hits near the best; an explicit minScore holds in every mode', async (t) => {
  const { host } = await loadPlugin(t, { corpus: backupCorpus() });
  const tools = host.tools!;
  // A query whose only shared word is common across the corpus (记录 is in every other-topic note):
  // the gates inject nothing for it, and off shows what they set aside.
  const gated = await tools.call('engram_search', JSON.stringify({ query: '记录', k: 10 }));
  assert.equal(gated.error, undefined, gated.text);
  const auto = gated.value as { hits: Hit[]; gated: number };
  // The model is told how to see what the gates set aside.
  assert.match(gated.text, /相关性闸门剔除了 \d+ 条候选;要看原始排名,加 filter:"off"/);
  const off = (await search(tools, { query: '记录', k: 10, filter: 'off' })).hits;
  assert.ok(off.length > auto.hits.length, `off (${off.length}) shows more than auto (${auto.hits.length})`);
  for (let i = 1; i < off.length; i++) assert.ok(off[i - 1]!.score >= off[i]!.score, 'the raw ranking, best first');

  // Two notes name both words; the other snapshot notes only one: the tail strict cuts.
  const broad = (await search(tools, { query: '数据库快照', k: 20, filter: 'off' })).hits;
  const strict = (await search(tools, { query: '数据库快照', k: 20, filter: 'strict' })).hits;
  assert.ok(strict.length >= 1 && strict.length < broad.length, `strict (${strict.length}) keeps fewer than off (${broad.length})`);
  const best = Math.max(...broad.map((h) => h.score));
  for (const h of strict) assert.ok(h.score >= 0.88 * best - 1e-9, `${h.title} ${h.score} near the best ${best}`);

  const floored = (await search(tools, { query: '数据库快照', k: 20, filter: 'off', minScore: 0.95 })).hits;
  assert.ok(floored.length < broad.length && floored.every((h) => h.score >= 0.95 * best - 1e-9), 'minScore applies with the filter off');

  const bad = await tools.call('engram_search', JSON.stringify({ query: '快照', filter: 'loose' }));
  assert.match(bad.text, /filter/);
});

test('a search is never small talk: a word about the conversation searched alone finds its note, as the same words in a message do not', async (t) => {
  const corpus = backupCorpus();
  writeFileSync(join(corpus.diaryDir, '2026-05-02-夜间任务.txt'), diaryText('夜间对账任务', '先暂停了夜间的对账任务,等数据库升级完再恢复,负责人是老周。', ['对账']));
  const { host, engine } = await loadPlugin(t, { corpus });
  const found = (await search(host.tools!, { query: '暂停' })).hits;
  assert.equal(found[0]?.title, '夜间对账任务');
  assert.equal((await engine.recall('暂停')).hits.length, 0, 'the same word as a message is small talk');
});

