// Small Chinese numerals as people write them in dates and "N 天前": 九, 十, 十五, 二十三, 两, 一百零五.

const DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** Characters a Chinese numeral below 1000 is made of (for building patterns). */
export const CN_NUMERAL_CHARS = '零〇一二两三四五六七八九十百';

/**
 * The value of a Chinese numeral below 1000, or null when the text is not a well-formed one.
 * Accepts the spoken forms (十 = 10, 十五 = 15, 二十 = 20, 一百零五 = 105) and digit strings
 * written with Chinese digits (二〇二六 = 2026).
 */
export function parseChineseNumber(text: string): number | null {
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number(text);
  const chars = [...text];
  if (chars.length > 1 && chars.every((c) => c in DIGITS)) {
    // Digit by digit (二〇二六) only with a zero in it: 三五 is "three or five", not 35.
    if (chars.includes('两') || !chars.some((c) => DIGITS[c] === 0)) return null;
    return Number(chars.map((c) => DIGITS[c]).join(''));
  }
  let total = 0;
  let pending: number | null = null;
  let lastUnit = Infinity;
  let sawZero = false;
  for (const c of chars) {
    if (c in DIGITS) {
      if (pending !== null) return null; // two digits in a row without a unit: 三五
      pending = DIGITS[c]!;
      if (pending === 0) {
        sawZero = true;
        pending = null;
      }
      continue;
    }
    const unit = c === '十' ? 10 : c === '百' ? 100 : 0;
    if (unit === 0 || unit >= lastUnit) return null;
    // A bare 十 means 一十; a bare 百 does not occur in speech.
    if (pending === null && !(unit === 10 && total === 0 && !sawZero)) return null;
    total += (pending ?? 1) * unit;
    pending = null;
    lastUnit = unit;
  }
  if (pending !== null) {
    // 一百零五: the 零 marks a skipped unit; 一百五 (colloquial 150) is ambiguous, refuse it.
    if (lastUnit === 100 && !sawZero) return null;
    total += pending;
  }
  return total;
}
