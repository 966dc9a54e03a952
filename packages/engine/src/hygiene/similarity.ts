// How alike two memories are, in the three ways write hygiene asks: word overlap (same text written
// twice?), shared distinctive words (same subject?) and the numbers each states (a changed value?).
// Pure.

/** Words of a text as a set: the tokenizer's words of two or more characters (single CJK characters say little). */
export function wordSet(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) if (Array.from(t).length >= 2) out.add(t);
  return out;
}

/** |A ∩ B| / min(|A|, |B|): 1 when one text's words are all in the other. 0 when either is empty. */
export function overlapCoefficient(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / small.size;
}

const NUMERIC_TOKEN = /^[\d.,%]+$/;

/** Words that can name a subject: not numbers, and distinctive by the caller's measure. */
export function keywordSet(tokens: readonly string[], distinctive: (token: string) => boolean = () => true): Set<string> {
  const out = new Set<string>();
  for (const t of wordSet(tokens)) if (!NUMERIC_TOKEN.test(t) && distinctive(t)) out.add(t);
  return out;
}

export function intersection(a: ReadonlySet<string>, b: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const t of a) if (b.has(t)) out.push(t);
  return out;
}

// Dates and clock times say when, not what: two notes from different days are not in conflict.
const DATE_RE = /\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?/gu;
const MONTH_DAY_RE = /\d{1,2}\s*月\s*\d{1,2}\s*[日号]/gu;
const TIME_RE = /\d{1,2}\s*[:：]\s*\d{2}(?:\s*[:：]\s*\d{2})?/gu;
// A number standing alone: not part of a name or version (F32_BLOB, v0.2.6, ws-1a2b).
const NUMBER_RE = /(?<![\p{Script=Latin}\d_.\-])\d+(?:\.\d+)?(?![\p{Script=Latin}\d_]|\.\d)/gu;

/** The values a text states (normalised: 20, 98.37), without dates and clock times. */
export function numbersIn(text: string): Set<string> {
  const plain = text.normalize('NFKC').replace(DATE_RE, ' ').replace(MONTH_DAY_RE, ' ').replace(TIME_RE, ' ');
  const out = new Set<string>();
  for (const m of plain.matchAll(NUMBER_RE)) out.add(String(Number(m[0])));
  return out;
}

/** Each side states a value the other does not: a changed number, not merely an added one. */
export function numbersDiffer(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  const aOnly = [...a].some((n) => !b.has(n));
  const bOnly = [...b].some((n) => !a.has(n));
  return aOnly && bOnly;
}

export const isSubset = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((x) => b.has(x));

/** NFC, whitespace removed (line breaks and spacing are layout): how texts are compared for "the same words again". */
export const flatText = (s: string): string => s.normalize('NFC').replace(/\s+/gu, '');
