// Finds the dates a question is about: "10月6日做了什么", "九天前", "上周三", "昨天". Pure: the
// caller passes "now" and the time zone the data directory was set up in, so every relative word
// resolves to a local calendar day there.
import { addDays, compareDays, formatYmd, isoWeekday, isValidDay, localDay, type Ymd } from './calendar.ts';
import { CN_NUMERAL_CHARS, parseChineseNumber } from './numerals.ts';

export interface TimeExpression {
  /** Local calendar days YYYY-MM-DD, ascending, without repeats. */
  days: string[];
  /** The time words as they appear in the (NFKC-normalised) query; several are joined by a space. */
  matched: string;
  /** The query without the time words (what the question is about on those days). */
  rest: string;
}

/** A span of the query that reads as a time; `days` null = it reads as a date that does not exist. */
interface Found {
  start: number;
  end: number;
  days: Ymd[] | null;
}

interface Rule {
  pattern: RegExp;
  resolve(m: RegExpExecArray, today: Ymd): Ymd[] | null;
}

// Month and day numbers: Arabic or Chinese (十二月三十一日).
const MD = '(\\d{1,2}|[一二三四五六七八九十]{1,3})';
const COUNT = `(\\d{1,4}|[${CN_NUMERAL_CHARS}]{1,5})`;
const WEEKDAY_CHARS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7 };
// 上上周 = two weeks back; 这周 / 本周 / none = this week. 本 closing a word (日本周刊, 版本, 成本)
// is not "this".
const WEEK_PREFIX = '(上上|上|这|(?<![日基版文成根资样剧课脚账记原书读范标副])本)';
// 周 + weekday, or 星期 / 礼拜 + weekday (周天 is left out: it is also 一周天气's "周天").
const WEEKDAY = '(?:周([一二三四五六日1-7])|(?:星期|礼拜)([一二三四五六日天1-7]))';

const num = (s: string): number | null => parseChineseNumber(s);

function exactDay(y: number | null, m: number | null, d: number | null): Ymd[] | null {
  return y !== null && m !== null && d !== null && isValidDay(y, m, d) ? [{ y, m, d }] : null;
}

const weekOffset = (prefix: string | undefined): number => (prefix === '上上' ? -2 : prefix === '上' ? -1 : 0);
const mondayOf = (day: Ymd): Ymd => addDays(day, 1 - isoWeekday(day));

const RULES: Rule[] = [
  // 2026年10月6日 / 2026年10月6号
  {
    pattern: new RegExp(`(?<!\\d)(\\d{4})\\s*年\\s*${MD}\\s*月\\s*${MD}\\s*[日号]`, 'gu'),
    resolve: (m) => exactDay(Number(m[1]), num(m[2]!), num(m[3]!)),
  },
  // 2026-10-06, 2026/10/6, 2026.10.06 (one separator throughout)
  {
    pattern: /(?<![\d./-])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d])/gu,
    resolve: (m) => exactDay(Number(m[1]), Number(m[3]), Number(m[4])),
  },
  // 10月6日 / 10月6号: this year, or last year when that day is still to come.
  {
    pattern: new RegExp(`(?<!\\d)${MD}\\s*月\\s*${MD}\\s*[日号]`, 'gu'),
    resolve: (m, today) => {
      const month = num(m[1]!);
      const day = num(m[2]!);
      if (month === null || day === null) return null;
      const future = month > today.m || (month === today.m && day > today.d);
      return exactDay(future ? today.y - 1 : today.y, month, day);
    },
  },
  // 大前天 / 前天 / 昨天 / 今天 (之前天气 is not 前天).
  {
    pattern: /大前天|(?<![之以提目从眼面当事])前天|昨天|昨日|今天|今日/gu,
    resolve: (m, today) => [addDays(today, m[0] === '大前天' ? -3 : m[0] === '前天' ? -2 : m[0].startsWith('昨') ? -1 : 0)],
  },
  // N 天前 / N天之前, N in Arabic or Chinese numerals (N日前 is left out: 20日前提交 is a deadline).
  {
    pattern: new RegExp(`(?<![\\d${CN_NUMERAL_CHARS}])${COUNT}\\s*天\\s*[之以]?前`, 'gu'),
    resolve: (m, today) => {
      const n = num(m[1]!);
      return n === null || n > 3660 ? null : [addDays(today, -n)];
    },
  },
  // 上周三 / 这周五 / 上个星期天 / 周二 (a bare weekday is the latest one that is not in the future).
  {
    pattern: new RegExp(`(?<![每隔])(?:${WEEK_PREFIX}\\s*个?)?${WEEKDAY}(?![次遍趟回\\d])`, 'gu'),
    resolve: (m, today) => {
      const weekday = WEEKDAY_CHARS[(m[2] ?? m[3])!]!;
      let day = addDays(mondayOf(today), 7 * weekOffset(m[1]) + weekday - 1);
      if (m[1] === undefined && compareDays(day, today) > 0) day = addDays(day, -7);
      return [day];
    },
  },
  // 上周末 / 这个周末: Saturday and Sunday of that week (a bare 周末 is too often "weekends").
  {
    pattern: new RegExp(`${WEEK_PREFIX}\\s*个?(?:周末|星期末)`, 'gu'),
    resolve: (m, today) => {
      const saturday = addDays(mondayOf(today), 7 * weekOffset(m[1]) + 5);
      return [saturday, addDays(saturday, 1)];
    },
  },
  // 上周 / 这周 / 本周 / 上个星期: Monday to Sunday of that week.
  {
    pattern: new RegExp(`${WEEK_PREFIX}\\s*个?(?:周|星期|礼拜)(?![一二三四五六日天1-7末期年边围转岁刊])`, 'gu'),
    resolve: (m, today) => {
      const monday = addDays(mondayOf(today), 7 * weekOffset(m[1]));
      return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
    },
  },
];

/** Every time span in the text, earliest first; of overlapping spans the longer one wins. */
function findSpans(text: string, today: () => Ymd): Found[] {
  const all: Found[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text))
      all.push({ start: m.index, end: m.index + m[0].length, days: rule.resolve(m, today()) });
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Found[] = [];
  for (const f of all) if (kept.length === 0 || f.start >= kept[kept.length - 1]!.end) kept.push(f);
  return kept;
}

/**
 * The days a query asks about, or null when it names none (or only dates that do not exist, such
 * as 2月30日). `now` and `timeZone` fix what "today" is.
 */
export function parseTimeExpression(query: string, now: Date, timeZone: string): TimeExpression | null {
  // NFKC: full-width digits typed with a Chinese IME (１０月６日) become ASCII.
  const text = query.normalize('NFKC');
  // "Today" is worked out only for a query that has time words: most have none.
  let today: Ymd | null = null;
  const spans = findSpans(text, () => (today ??= localDay(now, timeZone))).filter((f): f is Found & { days: Ymd[] } => f.days !== null);
  if (spans.length === 0) return null;
  const days = [...new Set(spans.flatMap((f) => f.days.map(formatYmd)))].sort();
  const matched = spans.map((f) => text.slice(f.start, f.end)).join(' ');
  let rest = '';
  let at = 0;
  for (const f of spans) {
    rest += `${text.slice(at, f.start)} `;
    at = f.end;
  }
  rest += text.slice(at);
  return { days, matched, rest: rest.replace(/\s+/g, ' ').trim() };
}
