// Claims with values, for the conflict hint. Two memories on the same subject whose numbers differ
// are usually not in conflict: monthly bills, weekly reports, release notes and two hikes differ in
// every number and are all true. A conflict is one claim stated twice with another value:
//   - the same thing: the two clauses share a word that names it (缓冲区, 覆盖率门槛, 站会), not only
//     a verb of change;
//   - the same kind of value: the same unit after the number (3 点 is not 3 楼);
//   - a setting, not an event: at least one clause sets, changes or fixes the value (定为, 改到,
//     每天, 上限, 保留 …) — "影响 37 笔订单" and "影响 12 笔订单" are two incidents;
//   - the same occasion: memories that name different days, months, weeks, versions or numbered
//     items (第 12 周, v1.4.0, #412, 2025 年, a number in the title) are about different occasions.
// The hint then quotes both clauses. Pure.

/**
 * Clause boundaries: sentence ends, commas, colons, line breaks (a list with 、 stays one clause).
 * None of them is ever inside one of the tokenizer's words, so a text's tokens are its clauses'
 * tokens one after another (assess.ts tokenizes a memory clause by clause, once).
 */
const CLAUSE_SPLIT = /[。！？!?；;,，:：\n]+/u;

/** A text's clauses in order, trimmed, empty ones left out. */
export const clausesOf = (text: string): string[] => text.split(CLAUSE_SPLIT).map((raw) => raw.trim()).filter((clause) => clause !== '');

const DATE = /\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*[日号]?/gu;
const MONTH_DAY = /\d{1,2}\s*月\s*\d{1,2}\s*[日号]/gu;
const CLOCK = /\d{1,2}\s*[:：]\s*\d{2}(?:\s*[:：]\s*\d{2})?/gu;

/** What names an occasion (kind → pattern); the matches of a kind are compared as a set. */
const OCCASIONS: [string, RegExp][] = [
  ['date', DATE],
  ['day', MONTH_DAY],
  ['year', /\d{4}\s*年/gu],
  ['month', /(?<![\d.])\d{1,2}\s*月(?!\s*\d)/gu],
  ['ordinal', /第\s*\d+\s*[周期季卷课章节轮届版次]/gu],
  ['quarter', /\bQ[1-4]\b/giu],
  ['version', /\bv\d+(?:\.\d+){1,3}\b|\b\d+\.\d+\.\d+\b/giu],
  ['ref', /#\d+|\b[A-Z]{2,}-\d+\b/gu],
];

/** A value: a number standing alone (not inside a name such as F32_BLOB or ws-1a2b) and its unit. */
const VALUE = /(?<![\p{Script=Latin}\d_.\-#])(\d+(?:\.\d+)?)(?![\p{Script=Latin}\d_]|\.\d)\s*(%|[A-Za-z]+|[\p{Script=Han}])?/gu;
/** Measure words that make a unit; any other character after a number says nothing about its kind. */
const MEASURE = new Set([...'个点号天次秒分时小年月周日元块万千百亿公米里斤克人楼层行页条笔份台包张本卷课位倍度岁杯瓶盒件种项遍步字章节题届轮期批组套毫微兆']);

/** Words that set, change or fix a value (a setting), as opposed to recording what happened. */
const SETTING = /定|设|改|调|换成|换到|升到|降到|升级|提高|提到|上调|下调|锁定|规定|约定|默认|上限|下限|门槛|阈值|限制|保留|至少|最多|不超过|不低于|每[天周月年次秒日晚]|目标|监听|截止|之前/u;

export interface Value {
  number: string;
  unit: string;
}

export interface Claim {
  /** The clause as written (trimmed). */
  text: string;
  values: Value[];
  /** Words of the clause that can name what it is about (numbers and words of change left out). */
  words: Set<string>;
  setting: boolean;
}

const clauseWithoutTimes = (clause: string): string => clause.normalize('NFKC').replace(DATE, ' ').replace(MONTH_DAY, ' ').replace(CLOCK, ' ');

function valuesOf(clause: string): Value[] {
  const out: Value[] = [];
  let plain = clauseWithoutTimes(clause);
  for (const [, pattern] of OCCASIONS) plain = plain.replace(pattern, ' ');
  for (const m of plain.matchAll(VALUE)) {
    const after = m[2] ?? '';
    const unit = /^[\p{Script=Han}]$/u.test(after) ? (MEASURE.has(after) ? after : '') : after.toLowerCase();
    out.push({ number: String(Number(m[1])), unit });
  }
  return out;
}

/** The clauses of a memory's text that state a value. `keywords` gives a clause's words that can name a subject. */
export function claimsOf(text: string, keywords: (clause: string) => Set<string>): Claim[] {
  const claims: Claim[] = [];
  for (const clause of clausesOf(text)) {
    const values = valuesOf(clause);
    if (values.length === 0) continue;
    const words = new Set([...keywords(clause)].filter((w) => !SETTING.test(w)));
    claims.push({ text: clause, values, words, setting: SETTING.test(clause) });
  }
  return claims;
}

/** Occasion markers of a memory: each kind's matches, plus the numbers of its title. */
export function occasionsOf(title: string, text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (kind: string, value: string) => {
    const set = out.get(kind) ?? new Set<string>();
    set.add(value.replace(/\s+/g, '').toLowerCase());
    out.set(kind, set);
  };
  const all = `${title}\n${text}`.normalize('NFKC');
  for (const [kind, pattern] of OCCASIONS) for (const m of all.matchAll(pattern)) add(kind, m[0]);
  for (const m of title.normalize('NFKC').matchAll(/\d+/g)) add('title', m[0]);
  return out;
}

/** Both name an occasion of the same kind, and not the same one: different occasions. */
export function differentOccasions(a: ReadonlyMap<string, ReadonlySet<string>>, b: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  for (const [kind, values] of a) {
    const other = b.get(kind);
    if (!other) continue;
    if (values.size !== other.size || [...values].some((v) => !other.has(v))) return true;
  }
  return false;
}

export interface ClaimConflict {
  old: Claim;
  new: Claim;
  /** The words both clauses name. */
  about: string[];
  unit: string;
  oldValues: string[];
  newValues: string[];
}

/**
 * The best pair of clauses stating one thing with another value (most shared words first), or null.
 * `ignore` are words too common in the diary to name a subject.
 */
export function conflictingClaim(older: readonly Claim[], newer: readonly Claim[], ignore: ReadonlySet<string> = new Set()): ClaimConflict | null {
  let best: ClaimConflict | null = null;
  for (const o of older) {
    for (const n of newer) {
      if (!o.setting && !n.setting) continue;
      const about = [...n.words].filter((w) => o.words.has(w) && !ignore.has(w));
      if (about.length === 0 || (best && about.length <= best.about.length)) continue;
      for (const unit of new Set(n.values.map((v) => v.unit))) {
        const oldValues = [...new Set(o.values.filter((v) => v.unit === unit).map((v) => v.number))];
        const newValues = [...new Set(n.values.filter((v) => v.unit === unit).map((v) => v.number))];
        if (oldValues.length === 0) continue;
        const changed = newValues.some((v) => !oldValues.includes(v)) && oldValues.some((v) => !newValues.includes(v));
        if (!changed) continue;
        best = { old: o, new: n, about, unit, oldValues, newValues };
        break;
      }
    }
  }
  return best;
}
