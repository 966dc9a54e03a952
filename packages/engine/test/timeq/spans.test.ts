// Months, years, "the last few days", parts of a day and ranges ("3月到5月"), against a fixed clock
// read in Asia/Shanghai and in UTC (the same instant can be two different days in them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, formatYmd, localDay, type Ymd } from '../../src/timeq/calendar.ts';
import { parseTimeExpression } from '../../src/timeq/parse.ts';
import { assertTimeTable, type TimeTable } from './table.ts';

const SHANGHAI = 'Asia/Shanghai';
// Thursday 2026-10-15, 10:00 in Shanghai (02:00 UTC): the same day in both zones.
const THU = new Date('2026-10-15T02:00:00Z');
const ymdOf = (s: string): Ymd => ({ y: Number(s.slice(0, 4)), m: Number(s.slice(5, 7)), d: Number(s.slice(8, 10)) });
/** Every day from `from` to `to`, both included. */
function span(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = ymdOf(from); formatYmd(d) <= to; d = addDays(d, 1)) out.push(formatYmd(d));
  return out;
}

const TABLE: TimeTable = [
  // months
  ['上个月做了什么', span('2026-09-01', '2026-09-30'), '上个月'],
  ['上月的会议', span('2026-09-01', '2026-09-30'), '上月'],
  ['上上个月', span('2026-08-01', '2026-08-31')],
  ['这个月的进展', span('2026-10-01', '2026-10-15'), '这个月'],
  ['本月', span('2026-10-01', '2026-10-15')],
  ['上个月3号', ['2026-09-03'], '上个月3号'],
  ['2026年3月', span('2026-03-01', '2026-03-31')],
  // years
  ['去年', span('2025-01-01', '2025-12-31')],
  ['前年的计划', span('2024-01-01', '2024-12-31'), '前年'],
  ['今年', span('2026-01-01', '2026-10-15')],
  ['去年3月', span('2025-03-01', '2025-03-31'), '去年3月'],
  ['去年十月六日', ['2025-10-06'], '去年十月六日'],
  // the last few days (today included)
  ['最近几天', span('2026-10-09', '2026-10-15')],
  ['这几天做了什么', span('2026-10-09', '2026-10-15'), '这几天'],
  ['最近三天', span('2026-10-13', '2026-10-15')],
  ['过去 10 天', span('2026-10-06', '2026-10-15')],
  ['最近一周', span('2026-10-09', '2026-10-15')],
  // a part of a day belongs to the day
  ['前天晚上聊了什么', ['2026-10-13'], '前天晚上'],
  ['昨晚', ['2026-10-14'], '昨晚'],
  ['上周三晚上', ['2026-10-07'], '上周三晚上'],
  ['上週三', ['2026-10-07']],
  ['10月6日下午', ['2026-10-06'], '10月6日下午'],
  // ranges
  ['3月到5月的进展', span('2026-03-01', '2026-05-31'), '3月到5月'],
  ['三月至五月', span('2026-03-01', '2026-05-31')],
  ['11月到2月', span('2025-11-01', '2026-02-28')],
  ['3月1日到5日', span('2026-03-01', '2026-03-05'), '3月1日到5日'],
  ['10月1日至10月7日', span('2026-10-01', '2026-10-07'), '10月1日至10月7日'],
  ['2026-09-01 到 2026-09-03', span('2026-09-01', '2026-09-03')],
  ['周一到周三', span('2026-10-12', '2026-10-14')],
  ['去年3月到5月', span('2025-03-01', '2025-05-31')],
  // still not a time
  ['前几天', null],
  ['3月份的计划', null],
  ['这个月饼真好吃', null],
  ['每个月的报销', null],
  ['日本月刊', null],
  ['之前年度的总结', null],
  ['最近在忙什么', null],
];

test('months, years, recent days, parts of a day and ranges (Thursday 2026-10-15, Asia/Shanghai)', () => assertTimeTable(TABLE, THU, SHANGHAI));

test('the part of the day and the range connector leave the rest clean', () => {
  assert.equal(parseTimeExpression('前天晚上聊了什么', THU, SHANGHAI)?.rest, '聊了什么');
  assert.equal(parseTimeExpression('3月到5月的进展', THU, SHANGHAI)?.rest, '的进展');
});

test('the same instant is a different day in Shanghai and UTC, and every relative word follows the zone', () => {
  // 2026-10-31 20:00 UTC is already 2026-11-01 04:00 in Shanghai.
  const instant = new Date('2026-10-31T20:00:00Z');
  for (const zone of [SHANGHAI, 'UTC']) {
    const today = localDay(instant, zone);
    const first = (y: number, m: number) => formatYmd({ y, m, d: 1 });
    const lastMonth = today.m === 1 ? { y: today.y - 1, m: 12 } : { y: today.y, m: today.m - 1 };
    const got = parseTimeExpression('上个月', instant, zone)!.days;
    assert.equal(got[0], first(lastMonth.y, lastMonth.m), zone);
    assert.equal(formatYmd(addDays(ymdOf(got[got.length - 1]!), 1)), first(today.y, today.m), `${zone}: last month ends the day before this month`);
    const recent = parseTimeExpression('最近三天', instant, zone)!.days;
    assert.deepEqual(recent, [-2, -1, 0].map((n) => formatYmd(addDays(today, n))), zone);
    assert.deepEqual(parseTimeExpression('前天晚上', instant, zone)!.days, [formatYmd(addDays(today, -2))], zone);
    const lastYear = parseTimeExpression('去年', instant, zone)!.days;
    assert.equal(lastYear[0], `${today.y - 1}-01-01`);
    assert.equal(lastYear[lastYear.length - 1], `${today.y - 1}-12-31`);
  }
  assert.notDeepEqual(parseTimeExpression('上个月', instant, SHANGHAI)!.days, parseTimeExpression('上个月', instant, 'UTC')!.days);
});

test('a range is every day between its ends, and its ends are what each end alone means', () => {
  for (const [from, to] of [['上周一', '上周五'], ['10月1日', '10月7日'], ['3月', '5月'], ['去年', '今年']] as const) {
    const range = parseTimeExpression(`${from}到${to}`, THU, SHANGHAI)!.days;
    const head = parseTimeExpression(from === '3月' ? '3月到3月' : from, THU, SHANGHAI)!.days;
    const tail = parseTimeExpression(to === '5月' ? '5月到5月' : to, THU, SHANGHAI)!.days;
    assert.equal(range[0], head[0], `${from}到${to} starts where ${from} starts`);
    assert.equal(range[range.length - 1], tail[tail.length - 1], `${from}到${to} ends where ${to} ends`);
    assert.deepEqual(range, span(range[0]!, range[range.length - 1]!), 'no day is skipped');
  }
});
