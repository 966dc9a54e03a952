// Finds the dates a question is about: "10月6日做了什么", "九天前", "上周三", "昨天". Pure: the
// caller passes "now" and the time zone the data directory was set up in, so every relative word
// resolves to a local calendar day there.
import { addDays, compareDays, formatYmd, isoWeekday, isValidDay, localDay, type Ymd } from './calendar.ts';
import { CN_NUMERAL_CHARS, parseChineseNumber } from './numerals.ts';
import { asReadForWords } from '../text/script-fold.ts';

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
const WEEKDAY = '(?:[周週]([一二三四五六日1-7])|(?:星期|礼拜|禮拜)([一二三四五六日天1-7]))';

// A year before a month: 2026年, or 去年 / 今年 / 前年 (之前年度 is not 前年).
const YEAR = '(?:(\\d{4})\\s*年|(去年|今年|(?<![之以提目从眼面当事])前年))';
// 到 / 至 / a dash between the two ends of a range.
const TO = '\\s*(?:到|至|~|～|-|—|–)\\s*';
// 上个月 / 这个月 / 本月 (the same 本 guard as weeks); 月饼, 月亮 and the like are not months.
const MONTH_PREFIX = '(上上|上|这|(?<![日基版文成根资样剧课脚账记原书读范标副])本)';
const MONTH_WORD = `${MONTH_PREFIX}\\s*个?月(?![饼亮光球票季台子嫂刊])`;
// A part of the day belongs to the day it follows (前天晚上 is 前天).
const PART_OF_DAY = /^\s*(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜间|半夜|凌晨|白天)/u;
const RANGE_CONNECTOR = new RegExp(`^${TO}$`, 'u');

const num = (s: string): number | null => parseChineseNumber(s);

function exactDay(y: number | null, m: number | null, d: number | null): Ymd[] | null {
  return y !== null && m !== null && d !== null && isValidDay(y, m, d) ? [{ y, m, d }] : null;
}

const weekOffset = (prefix: string | undefined): number => (prefix === '上上' ? -2 : prefix === '上' ? -1 : 0);
const mondayOf = (day: Ymd): Ymd => addDays(day, 1 - isoWeekday(day));

// A span longer than this is not a question about days (and would list every memory there is).
const MAX_SPAN_DAYS = 1100;
// 「最近几天」: "a few" read generously, a week of days, three weeks or three months.
const FEW: Record<string, number> = { 天: 7, 日: 7, 周: 3, 星期: 3, 礼拜: 3, 月: 3 };
const UNIT_DAYS: Record<string, number> = { 天: 1, 日: 1, 周: 7, 星期: 7, 礼拜: 7, 月: 30 };

/** Every day from `from` to `to` (both included, none after today), or null when that is no span. */
function daysFrom(from: Ymd, to: Ymd, today: Ymd): Ymd[] | null {
  const end = compareDays(to, today) > 0 ? today : to;
  if (compareDays(from, end) > 0) return null;
  const out: Ymd[] = [];
  for (let d = from; compareDays(d, end) <= 0 && out.length <= MAX_SPAN_DAYS; d = addDays(d, 1)) out.push(d);
  return out.length > MAX_SPAN_DAYS ? null : out;
}

const lastDayOf = (y: number, m: number): Ymd => addDays({ y: m === 12 ? y + 1 : y, m: m === 12 ? 1 : m + 1, d: 1 }, -1);
const monthsBefore = (today: Ymd, n: number): { y: number; m: number } => {
  const index = today.y * 12 + (today.m - 1) - n;
  return { y: Math.floor(index / 12), m: (index % 12) + 1 };
};
const validMonth = (m: number | null): m is number => m !== null && m >= 1 && m <= 12;
/** The year a relative year word names; null for none. */
const relativeYear = (word: string | undefined, today: Ymd): number | null =>
  word === '去年' ? today.y - 1 : word === '前年' ? today.y - 2 : word === '今年' ? today.y : null;
/** An explicit (2026年) or relative (去年) year, else the year in which `month` is not still to come. */
function yearOf(explicit: string | undefined, relative: string | undefined, month: number, today: Ymd): number {
  if (explicit) return Number(explicit);
  return relativeYear(relative, today) ?? (month > today.m ? today.y - 1 : today.y);
}

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
    pattern: /大前天|(?<![之以提目从眼面当事])前天|昨天|昨日|昨晚|昨夜|今天|今日|今晚|今早/gu,
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
  // 上个月 / 上上个月 / 这个月 / 本月: the whole month (up to today).
  {
    pattern: new RegExp(MONTH_WORD, 'gu'),
    resolve: (m, today) => {
      const { y, m: month } = monthsBefore(today, m[1] === '上上' ? 2 : m[1] === '上' ? 1 : 0);
      return daysFrom({ y, m: month, d: 1 }, lastDayOf(y, month), today);
    },
  },
  // 上个月3号: that day of that month.
  {
    pattern: new RegExp(`${MONTH_WORD}\\s*${MD}\\s*[日号]`, 'gu'),
    resolve: (m, today) => {
      const { y, m: month } = monthsBefore(today, m[1] === '上上' ? 2 : m[1] === '上' ? 1 : 0);
      return exactDay(y, month, num(m[2]!));
    },
  },
  // 去年 / 前年 / 今年: the whole year (up to today).
  {
    pattern: /去年|今年|(?<![之以提目从眼面当事])前年/gu,
    resolve: (m, today) => {
      const y = relativeYear(m[0], today)!;
      return daysFrom({ y, m: 1, d: 1 }, { y, m: 12, d: 31 }, today);
    },
  },
  // 2026年3月 / 去年3月 / 去年三月份: the whole month.
  {
    pattern: new RegExp(`${YEAR}\\s*${MD}\\s*月份?`, 'gu'),
    resolve: (m, today) => {
      const month = num(m[3]!);
      if (!validMonth(month)) return null;
      const y = yearOf(m[1], m[2], month, today);
      return daysFrom({ y, m: month, d: 1 }, lastDayOf(y, month), today);
    },
  },
  // 去年10月6日 (2026年10月6日 is the first rule).
  {
    pattern: new RegExp(`(去年|今年|(?<![之以提目从眼面当事])前年)\\s*${MD}\\s*月\\s*${MD}\\s*[日号]`, 'gu'),
    resolve: (m, today) => exactDay(relativeYear(m[1], today), num(m[2]!), num(m[3]!)),
  },
  // 最近几天 / 这几天 / 最近三天 / 过去 10 天 / 最近一周 / 近两个月: that many days up to today.
  {
    pattern: new RegExp(`(?:最近|(?<![接靠将附临亲贴逼])近|过去的?|这)\\s*(几|${COUNT})\\s*个?\\s*(天|日|周|星期|礼拜|月)`, 'gu'),
    resolve: (m, today) => {
      const unit = m[3]!; // m[2] is COUNT's own group
      const n = m[1] === '几' ? FEW[unit]! : num(m[1]!);
      if (n === null || n < 1) return null;
      return daysFrom(addDays(today, 1 - n * UNIT_DAYS[unit]!), today, today);
    },
  },
  // 3月到5月 / 去年三月至五月 / 11月到2月 (across the new year): first day of one to last of the other.
  {
    pattern: new RegExp(`${YEAR}?\\s*(?<!\\d)${MD}\\s*月份?${TO}${YEAR}?\\s*${MD}\\s*月份?(?!\\s*${MD}\\s*[日号])`, 'gu'),
    resolve: (m, today) => {
      const from = num(m[3]!);
      const to = num(m[6]!);
      if (!validMonth(from) || !validMonth(to)) return null;
      const fromYear = yearOf(m[1], m[2], from, today);
      const toYear = m[4] || m[5] ? yearOf(m[4], m[5], to, today) : to >= from ? fromYear : fromYear + 1;
      return daysFrom({ y: fromYear, m: from, d: 1 }, lastDayOf(toYear, to), today);
    },
  },
  // 3月1日到5日: the second end names only the day, in the month of the first.
  {
    pattern: new RegExp(`${YEAR}?\\s*(?<!\\d)${MD}\\s*月\\s*${MD}\\s*[日号]?${TO}${MD}\\s*[日号](?!\\s*月)`, 'gu'),
    resolve: (m, today) => {
      const month = num(m[3]!);
      const from = num(m[4]!);
      const to = num(m[5]!);
      if (!validMonth(month) || from === null || to === null) return null;
      const y = m[1] || m[2] ? yearOf(m[1], m[2], month, today) : month > today.m || (month === today.m && from > today.d) ? today.y - 1 : today.y;
      if (!isValidDay(y, month, from) || !isValidDay(y, month, to)) return null;
      return daysFrom({ y, m: month, d: from }, { y, m: month, d: to }, today);
    },
  },
];

/** A part of the day after a day (前天晚上) joins its span. */
function withPartOfDay(text: string, f: Found): Found {
  if (f.days?.length !== 1) return f;
  const part = PART_OF_DAY.exec(text.slice(f.end));
  return part ? { ...f, end: f.end + part[0].length } : f;
}

/** Two spans joined by 到 / 至 / a dash (上周一到上周五, 10月1日至10月7日) are every day between them. */
function joinRanges(text: string, spans: Found[], today: () => Ymd): Found[] {
  const out: Found[] = [];
  for (const f of spans) {
    const prev = out[out.length - 1];
    if (prev?.days && f.days && RANGE_CONNECTOR.test(text.slice(prev.end, f.start))) {
      const joined = daysFrom(prev.days[0]!, f.days[f.days.length - 1]!, today());
      if (joined) {
        out[out.length - 1] = { start: prev.start, end: f.end, days: joined };
        continue;
      }
    }
    out.push(f);
  }
  return out;
}

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
  return joinRanges(text, kept.map((f) => withPartOfDay(text, f)), today);
}

/**
 * The days a query asks about, or null when it names none (or only dates that do not exist, such
 * as 2月30日). `now` and `timeZone` fix what "today" is.
 */
export function parseTimeExpression(query: string, now: Date, timeZone: string): TimeExpression | null {
  // NFKC: full-width digits typed with a Chinese IME (１０月６日) become ASCII.
  // 上週三, 上個月 as 上周三, 上个月 (text/script-fold.ts).
  const text = asReadForWords(query);
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
