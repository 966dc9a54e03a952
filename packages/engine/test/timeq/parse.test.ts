import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { addDays, formatYmd, isoWeekday, localDay } from '../../src/timeq/calendar.ts';
import { parseChineseNumber } from '../../src/timeq/numerals.ts';
import { parseTimeExpression } from '../../src/timeq/parse.ts';
import { assertTimeTable, type TimeTable } from './table.ts';

const SHANGHAI = 'Asia/Shanghai';
// Thursday 2026-10-15, 10:00 in Shanghai (02:00 UTC).
const THU = new Date('2026-10-15T02:00:00Z');
const range = (from: string, n: number) => Array.from({ length: n }, (_, i) => formatYmd(addDays(ymdOf(from), i)));
const ymdOf = (s: string) => ({ y: Number(s.slice(0, 4)), m: Number(s.slice(5, 7)), d: Number(s.slice(8, 10)) });

// [query, expected days (null = no time expression), expected matched text]
const TABLE: TimeTable = [
  // absolute dates
  ['2026-10-06 做了什么', ['2026-10-06'], '2026-10-06'],
  ['2026/10/06', ['2026-10-06']],
  ['2026/10/6 的会议', ['2026-10-06'], '2026/10/6'],
  ['2026.10.06', ['2026-10-06']],
  ['2024-02-29', ['2024-02-29']],
  ['2026年10月6日', ['2026-10-06']],
  ['2025年1月1号发生了什么', ['2025-01-01'], '2025年1月1号'],
  ['2026 年 10 月 6 日', ['2026-10-06']],
  // month-day: this year, or last year when still to come
  ['10月6日做了什么', ['2026-10-06'], '10月6日'],
  ['10月6号', ['2026-10-06']],
  ['10月15日', ['2026-10-15']],
  ['10月16日', ['2025-10-16']],
  ['12月25日的聚会', ['2025-12-25']],
  ['十月六日', ['2026-10-06']],
  ['十二月三十一日', ['2025-12-31']],
  ['１０月６日', ['2026-10-06'], '10月6日'],
  // relative days
  ['今天', ['2026-10-15']],
  ['昨天我们聊了什么', ['2026-10-14'], '昨天'],
  ['前天', ['2026-10-13']],
  ['大前天', ['2026-10-12'], '大前天'],
  ['九天前我问了什么', ['2026-10-06'], '九天前'],
  ['十天前', ['2026-10-05']],
  ['十五天前', ['2026-09-30']],
  ['15 天前', ['2026-09-30'], '15 天前'],
  ['15天前', ['2026-09-30']],
  ['二十三天前', ['2026-09-22']],
  ['两天前', ['2026-10-13']],
  ['一百天前', ['2026-07-07']],
  ['3天之前', ['2026-10-12']],
  // weekdays and weeks (Monday first; today is Thursday 10-15, this Monday is 10-12)
  ['上周三', ['2026-10-07'], '上周三'],
  ['上个星期三', ['2026-10-07']],
  ['上礼拜天', ['2026-10-11']],
  ['上上周一', ['2026-09-28']],
  ['这周二', ['2026-10-13']],
  ['周二开会说了什么', ['2026-10-13'], '周二'],
  ['周五', ['2026-10-09']],
  ['星期日', ['2026-10-11']],
  ['上周', range('2026-10-05', 7)],
  ['这周', range('2026-10-12', 7)],
  ['本周的进展', range('2026-10-12', 7), '本周'],
  ['这个星期', range('2026-10-12', 7)],
  ['上周末', ['2026-10-10', '2026-10-11']],
  // several expressions
  ['昨天和前天', ['2026-10-13', '2026-10-14'], '昨天 前天'],
  // not a time, or not a real date
  ['2月30日', null],
  ['2月29日', null],
  ['2026-13-01', null],
  ['2026-02-30', null],
  ['2026年2月30日', null],
  ['东京节点的 443 端口', null],
  ['每周一次例会', null],
  ['一周三次', null],
  ['周末搬家清单', null],
  ['之前天气不错', null],
  ['当月20日前提交', null],
  ['3月份的计划', null],
  ['本周期的指标', null],
  ['1994-2010年哪项运动的漫画在日本周刊少年Sunday连载', null],
  ['这周刊登了什么', null],
  ['新版本周三发布', ['2026-10-14'], '周三'],
  ['前几天', null],
  ['', null],
];

test('the time-expression table (Thursday 2026-10-15, Asia/Shanghai)', () => assertTimeTable(TABLE, THU, SHANGHAI));

test('rest is the query without the time words', () => {
  assert.equal(parseTimeExpression('10月6日做了什么', THU, SHANGHAI)?.rest, '做了什么');
  assert.equal(parseTimeExpression('我九天前问了什么', THU, SHANGHAI)?.rest, '我 问了什么');
  assert.equal(parseTimeExpression('上周三 东京节点的部署', THU, SHANGHAI)?.rest, '东京节点的部署');
  assert.equal(parseTimeExpression('昨天', THU, SHANGHAI)?.rest, '');
  assert.equal(parseTimeExpression('2月30日和昨天', THU, SHANGHAI)?.rest, '2月30日和', 'an impossible date stays in the rest');
});

test('"today" is the local day of the stored zone, not the UTC day', () => {
  // 2026-01-01 01:00 in Shanghai is still 2025-12-31 in UTC.
  const newYear = new Date('2025-12-31T17:00:00Z');
  assert.deepEqual(parseTimeExpression('今天', newYear, SHANGHAI)?.days, ['2026-01-01']);
  assert.deepEqual(parseTimeExpression('今天', newYear, 'UTC')?.days, ['2025-12-31']);
  assert.deepEqual(parseTimeExpression('昨天', newYear, SHANGHAI)?.days, ['2025-12-31']);
  assert.deepEqual(parseTimeExpression('大前天', newYear, SHANGHAI)?.days, ['2025-12-29']);
  assert.deepEqual(parseTimeExpression('九天前', newYear, SHANGHAI)?.days, ['2025-12-23']);
  assert.deepEqual(parseTimeExpression('12月31日', newYear, SHANGHAI)?.days, ['2025-12-31']);
  assert.deepEqual(parseTimeExpression('1月1日', newYear, SHANGHAI)?.days, ['2026-01-01']);
  assert.deepEqual(parseTimeExpression('上周', newYear, SHANGHAI)?.days, range('2025-12-22', 7), 'a week across the year boundary');
  // Month ends, leap and not.
  assert.deepEqual(parseTimeExpression('昨天', new Date('2026-03-01T04:00:00Z'), SHANGHAI)?.days, ['2026-02-28']);
  assert.deepEqual(parseTimeExpression('昨天', new Date('2028-03-01T04:00:00Z'), SHANGHAI)?.days, ['2028-02-29']);
  assert.deepEqual(parseTimeExpression('两天前', new Date('2026-05-01T04:00:00Z'), SHANGHAI)?.days, ['2026-04-29']);
  // West of UTC: 2026-10-15 02:00 UTC is still the 14th in New York.
  assert.deepEqual(parseTimeExpression('今天', THU, 'America/New_York')?.days, ['2026-10-14']);
});

test('an unknown zone falls back to this machine and never throws', () => {
  const got = parseTimeExpression('今天', THU, 'Not/AZone');
  assert.ok(got);
  assert.equal(got.days.length, 1);
});

test('Chinese numerals', () => {
  const table: [string, number | null][] = [
    ['一', 1], ['九', 9], ['十', 10], ['十五', 15], ['二十', 20], ['二十三', 23], ['两', 2], ['三十', 30],
    ['一百', 100], ['一百零五', 105], ['一百二十三', 123], ['二〇二六', 2026], ['15', 15],
    ['三五', null], ['百', null], ['十十', null], ['一百五', null], ['', null],
  ];
  for (const [text, value] of table) assert.equal(parseChineseNumber(text), value, text);
});

test('property: "N天前" is N days before today for every N and every day of a year', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 365 * 3 }), (n, offset) => {
      const now = new Date(Date.UTC(2025, 0, 1, 4) + offset * 86_400_000);
      const today = localDay(now, SHANGHAI);
      const got = parseTimeExpression(`${n}天前`, now, SHANGHAI);
      assert.deepEqual(got?.days, [formatYmd(addDays(today, -n))]);
    }),
  );
});

test('property: a weekday of last week is a day of last week with that weekday', () => {
  const names = ['一', '二', '三', '四', '五', '六', '日'];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 800 }), (w, offset) => {
      const now = new Date(Date.UTC(2025, 0, 1, 4) + offset * 86_400_000);
      const today = localDay(now, SHANGHAI);
      const [day] = parseTimeExpression(`上周${names[w]}`, now, SHANGHAI)!.days;
      const lastWeek = parseTimeExpression('上周', now, SHANGHAI)!.days;
      assert.ok(lastWeek.includes(day!));
      assert.equal(isoWeekday(ymdOf(day!)), w + 1);
      assert.ok(day! < formatYmd(today));
    }),
  );
});
