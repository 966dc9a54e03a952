// The time channel through the engine: real diary files, a real libSQL file, a fixed "now".
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getMeta, setMeta } from '@engram/db';
import { detectTimeZone } from '../../src/timeq/timezone.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

// Thursday 2026-10-15, 10:00 in Shanghai.
const NOW = new Date('2026-10-15T02:00:00Z');

function seed(dirs: { root: string; diaryDir: string }) {
  const legacyDir = join(dirs.root, 'legacy');
  const files: Record<string, string> = {
    '2026-10-06-tokyo.txt': diary('09:30', '东京节点部署', '东京节点换成 sing-box 部署。', '东京节点的 sing-box 部署完成,443 端口改由它监听。', ['东京节点', '部署']),
    '2026-10-06-weekly.txt': diary('14:00', '周报模板调整', '周报改成三段式。', '周报模板调整为:本周完成、风险、下周计划三段。', ['周报']),
    'work/2026-10-06-standup.txt': diary('08:00', '早会记录', '早会讨论了发布窗口。', '早会决定发布窗口定在周四晚上,回滚预案由值班同学准备。', ['早会', '发布']),
    '2026-10-14-backup.txt': diary('20:00', '数据库备份演练', '备份演练通过。', '数据库备份演练:从 backups 目录恢复最新一份,用时四分钟。', ['数据库', '备份']),
    '2026-10-05-tokyo-check.txt': diary('10:00', '东京节点巡检', '东京节点巡检正常。', '东京节点巡检:CPU 与内存正常,证书还有六十天到期。', ['东京节点', '巡检']),
    '2026-09-01-weekly-old.txt': diary('09:00', '周报提交时间', '周报周五下午提交。', '周报每周五下午五点前提交到项目组邮箱。', ['周报']),
    '已整理/2026-10-06-archived.txt': diary('11:00', '已归档的旧记录', '一条旧记录。', '这是 10 月 6 日的一条旧记录,已经归档。', ['归档']),
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dirs.diaryDir, rel, '..'), { recursive: true });
    writeFileSync(join(dirs.diaryDir, rel), text);
  }
  // A legacy file on the same day: its date is when it was stored, not when it happened.
  mkdirSync(join(legacyDir, 'documents', 'active'), { recursive: true });
  writeFileSync(join(legacyDir, 'documents', 'active', '2026-10-06-legacy-fact.md'), '# 导入的旧事实\n\n导入存档里的一条事实,落库于 10 月 6 日。\n');
  return legacyDir;
}

async function openShanghai(t: { after(fn: () => unknown): void }, config: Record<string, unknown> = {}, extra: Record<string, string> = {}) {
  const dirs = tempDirs();
  const legacyDir = seed(dirs);
  for (const [rel, text] of Object.entries(extra)) writeFileSync(join(dirs.diaryDir, rel), text);
  const first = await openTestEngine(dirs, { now: () => NOW }, { legacyDir, ...config });
  await setMeta(first.db, 'timeZone', 'Asia/Shanghai');
  first.close();
  const engine = await openTestEngine(dirs, { now: () => NOW }, { legacyDir, ...config });
  t.after(() => engine.close());
  return engine;
}

test('a day with nothing else asked: that day\'s diary entries, in the order they happened', async (t) => {
  const engine = await openShanghai(t);
  assert.equal(engine.timeZone, 'Asia/Shanghai');
  assert.ok((await engine.list()).some((m) => m.root === 'legacy' && m.date === '2026-10-06'), 'the legacy file is indexed on that day');
  const r = await engine.recall('10月6日做了什么');
  assert.deepEqual(r.hits.map((h) => h.title), ['早会记录', '东京节点部署', '周报模板调整']);
  assert.deepEqual(r.explain.time, { matched: '10月6日', days: ['2026-10-06'], memories: 3, applied: true, note: null, sessions: [] });
  assert.ok(r.hits.every((h) => h.root === 'diary' && h.date === '2026-10-06'), 'no legacy and no archived entry');
  assert.match(r.hits[1]!.text, /sing-box/);

  const ago = await engine.recall('九天前我都做了些什么');
  assert.deepEqual(ago.hits.map((h) => h.title), r.hits.map((h) => h.title), '九天前 is 10月6日 on the 15th');
  const yesterday = await engine.recall('昨天');
  assert.deepEqual(yesterday.hits.map((h) => h.title), ['数据库备份演练']);
});

test('the rest of the query picks among the memories of the day', async (t) => {
  const engine = await openShanghai(t);
  const r = await engine.recall('九天前东京节点的部署');
  assert.deepEqual(r.hits.map((h) => h.title), ['东京节点部署'], 'the 10-05 inspection of the same node is another day');
  assert.equal(r.explain.time?.applied, true);
  assert.equal(r.explain.time?.memories, 3);
  assert.ok(r.hits[0]!.matched.some((m) => m.token === '东京' || m.token === '东京节点'));
  const weekly = await engine.recall('10月6日的周报');
  assert.deepEqual(weekly.hits.map((h) => h.title), ['周报模板调整'], 'the September 周报 entry is not of that day');

  const week = await engine.recall('上周的东京节点');
  assert.deepEqual(week.explain.time?.days, ['2026-10-05', '2026-10-06', '2026-10-07', '2026-10-08', '2026-10-09', '2026-10-10', '2026-10-11']);
  assert.deepEqual(week.hits.map((h) => h.title), ['东京节点巡检', '东京节点部署'], 'days stay chronological');
});

test('days without memories, or a topic absent from those days: ordinary recall answers', async (t) => {
  const engine = await openShanghai(t);
  const topic = await engine.recall('10月6日的数据库备份演练');
  assert.equal(topic.explain.time?.applied, false);
  assert.equal(topic.explain.time?.memories, 3);
  assert.match(topic.explain.time?.note ?? '', /none of the 3 memories/);
  assert.equal(topic.hits[0]?.title, '数据库备份演练', 'found by relevance on another day');

  const empty = await engine.recall('2026-01-01 做了什么');
  assert.deepEqual(empty.explain.time, { matched: '2026-01-01', days: ['2026-01-01'], memories: 0, applied: false, note: 'no memory is dated on those days' });
});

test('chatter with a time word injects nothing: the day is listed only when the query asks about it', async (t) => {
  const engine = await openShanghai(t);
  for (const query of ['九天前先到这吧', '九天前那天天气怎么样', '好的,九天前那样就行']) {
    const r = await engine.recall(query);
    assert.equal(r.explain.time?.applied, false, query);
    assert.equal(r.explain.time?.note, 'the query names days but asks nothing about them', query);
    assert.deepEqual(r.hits, [], query);
  }
  for (const query of ['九天前', '九天前的情况', '九天前聊了哪些', '10月6日的日记']) assert.equal((await engine.recall(query)).explain.time?.applied, true, query);
});

// Notes of "today" (2026-10-15): a meeting that settled something, and an unrelated errand.
const TODAY = {
  '2026-10-15-meeting.txt': diary('10:00', '上午的发布评审会议', '会议定了发布窗口。', '上午的发布评审会议定了:发布窗口改到周五晚上,灰度先放 5%。', ['会议', '发布']),
  '2026-10-15-errand.txt': diary('08:30', '快递改地址', '快递改寄到公司。', '把下周的快递收货地址改成了公司前台。', ['快递']),
};

test('small talk with a time word and a generic question word injects nothing, even on a day with notes', async (t) => {
  const engine = await openShanghai(t, {}, TODAY);
  const small = ['今天中午吃什么好呢', '今天天气怎么样', '今天有什么好玩的', '今天穿什么好', '今天要干嘛', '今天好累啊', '九天前那天是星期几来着', '今天有啥新闻吗'];
  for (const query of small) {
    const r = await engine.recall(query);
    assert.notEqual(r.explain.time?.applied, true, `${query}: the day is not listed`);
    assert.deepEqual(r.hits.map((h) => h.title), [], `${query}: nothing injected`);
  }
});

test('a memory-seeking question about a day still lists it: recall verbs, or a topic the day\'s notes hold', async (t) => {
  const engine = await openShanghai(t, {}, TODAY);
  const meeting = await engine.recall('今天上午的会议定了什么?');
  assert.equal(meeting.explain.time?.applied, true);
  assert.deepEqual(meeting.hits.map((h) => h.title), ['上午的发布评审会议']);
  for (const query of ['今天都做了什么', '今天聊了哪些', '今天之前记了什么', '回顾一下今天', '九天前我都做了些什么', '九天前的情况']) {
    const r = await engine.recall(query);
    assert.equal(r.explain.time?.applied, true, query);
    assert.ok(r.hits.length > 0, query);
  }
});

test('without time words, or with the channel off, recall is the ordinary one', async (t) => {
  const engine = await openShanghai(t);
  for (const query of ['东京节点的 sing-box 部署', '周报模板', '数据库备份怎么恢复']) {
    const on = await engine.recall(query);
    const off = await engine.recall(query, { time: false });
    assert.equal(on.explain.time, null, query);
    assert.deepEqual(on.hits, off.hits, query);
  }
  const ignored = await engine.recall('10月6日做了什么', { time: false });
  assert.equal(ignored.explain.time, null);
  assert.ok(!ignored.hits.some((h) => h.title === '早会记录'), 'no day listing without the channel');

  const dirs = tempDirs();
  seed(dirs);
  const configuredOff = await openTestEngine(dirs, { now: () => NOW }, { recall: { timeChannel: false } });
  try {
    const r = await configuredOff.recall('10月6日做了什么');
    assert.equal(r.explain.time, null);
    assert.notDeepEqual(r.hits.map((h) => h.title), ['早会记录', '东京节点部署', '周报模板调整']);
  } finally {
    configuredOff.close();
  }
});

test('memoriesOn lists diary entries of the given days in the order they happened', async (t) => {
  const engine = await openShanghai(t);
  const list = await engine.memoriesOn(['2026-10-14', '2026-10-06']);
  assert.deepEqual(list.map((m) => `${m.date} ${m.time} ${m.title}`), [
    '2026-10-06 08:00 早会记录',
    '2026-10-06 09:30 东京节点部署',
    '2026-10-06 14:00 周报模板调整',
    '2026-10-14 20:00 数据库备份演练',
  ]);
  assert.ok(list.every((m) => m.chunks >= 1));
  assert.deepEqual(await engine.memoriesOn([]), []);
  await assert.rejects(engine.memoriesOn('2026-10-06' as unknown as string[]), /days must be a list/);
});

test('the time zone is stored at first run and the stored one is kept', async () => {
  const dirs = tempDirs();
  const first = await openTestEngine(dirs, { now: () => NOW });
  try {
    assert.equal(await getMeta(first.db, 'timeZone'), detectTimeZone());
    assert.equal(first.timeZone, detectTimeZone());
    await setMeta(first.db, 'timeZone', 'America/New_York');
  } finally {
    first.close();
  }
  writeFileSync(join(dirs.diaryDir, '2026-10-14-ny.txt'), diary('22:00', '纽约时间的记录', '一条记录。', '在纽约时区写下的一条记录。', ['纽约']));
  const again = await openTestEngine(dirs, { now: () => NOW });
  try {
    assert.equal(again.timeZone, 'America/New_York', 'a later open keeps the zone of the first run');
    const r = await again.recall('今天');
    assert.deepEqual(r.explain.time?.days, ['2026-10-14'], '02:00 UTC on the 15th is still the 14th in New York');
    assert.deepEqual(r.hits.map((h) => h.title), ['纽约时间的记录']);
  } finally {
    again.close();
  }
});

test('a part of the day, a month and a range reach the memories of those days', async (t) => {
  const engine = await openShanghai(t);
  const evening = await engine.recall('昨天晚上做了什么');
  assert.deepEqual(evening.hits.map((h) => h.title), ['数据库备份演练']);
  assert.equal(evening.explain.time?.matched, '昨天晚上');
  const lastMonth = await engine.recall('上个月的周报');
  assert.deepEqual(lastMonth.hits.map((h) => h.title), ['周报提交时间'], 'September only');
  const range = await engine.recall('9月到10月的周报');
  assert.deepEqual(range.hits.map((h) => h.title), ['周报提交时间', '周报模板调整'], 'both months, in the order they happened');
  const recent = await engine.recall('最近几天做了什么');
  assert.deepEqual(recent.hits.map((h) => h.title), ['数据库备份演练'], 'the last seven days hold only the 14th');
});

test('a span with more memories than fit keeps the latest ones, shown in the order they happened', async (t) => {
  const engine = await openShanghai(t, { recall: { kMin: 1, kBase: 2, kMax: 2 } });
  const month = await engine.recall('这个月做了什么');
  assert.equal(month.explain.time?.applied, true);
  assert.equal(month.explain.time?.memories, 5, 'five diary entries in October up to the 15th');
  assert.deepEqual(month.hits.map((h) => h.date), ['2026-10-06', '2026-10-14'], 'the two latest, oldest first');
  assert.equal(month.hits[1]!.title, '数据库备份演练');
});
