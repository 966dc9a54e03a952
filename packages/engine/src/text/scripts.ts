// Character classes shared by the tokenizer and the lexical index.

/** Scripts written without spaces between words: tokenized by jieba or by 1-/2-grams. */
const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC`;

/**
 * Splits text into runs of CJK characters and Latin/digit words, calling `onCjk` or `onWord` for each
 * in order; everything else (spaces, punctuation, symbols) separates them. A word starts with a
 * letter or digit and goes on with letters, digits and combining marks (none of them CJK); it may
 * hold `-`, `_` or `.` between such parts (sing-box, api_key, v0.2.6), end in an apostrophe and
 * letters (Alice's, don't) and in `++` or a final `#` (c++, c#).
 * A scanner over a per-character table, not one regular expression: the expression with these
 * classes (Unicode scripts minus letters, with set subtraction) took ~7 ms to compile on first use,
 * a twentieth of a one-shot `engram write` (test/text/runs.test.ts holds it as the reference).
 */
export function forEachRun(text: string, onCjk: (run: string) => void, onWord: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const cp = text.codePointAt(i)!;
    const c = classOf(cp);
    if (c & IS_CJK) {
      let j = i + widthOf(cp);
      while (j < n) {
        const next = text.codePointAt(j)!;
        if (!(classOf(next) & IS_CJK)) break;
        j += widthOf(next);
      }
      onCjk(text.slice(i, j));
      i = j;
    } else if (startsWord(c)) {
      const j = wordEnd(text, i + widthOf(cp));
      onWord(text.slice(i, j));
      i = j;
    } else i += widthOf(cp);
  }
}

const KNOWN = 1;
const IS_CJK = 2;
const IS_LETTER = 4;
const IS_NUMBER = 8;
const IS_MARK = 16;

const CJK_ONE = new RegExp(`[${CJK_CLASS}]`, 'v');
const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;
const MARK = /\p{M}/u;

/** Each character's class bits, filled as characters are met (the basic plane in a table). */
const basicPlane = new Uint8Array(0x10000);
const otherPlanes = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 0x10000) {
    let c = basicPlane[cp]!;
    if (c === 0) basicPlane[cp] = c = classify(cp);
    return c;
  }
  let c = otherPlanes.get(cp);
  if (c === undefined) otherPlanes.set(cp, (c = classify(cp)));
  return c;
}

function classify(cp: number): number {
  if (cp < 0x80) {
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return KNOWN | IS_LETTER;
    return cp >= 0x30 && cp <= 0x39 ? KNOWN | IS_NUMBER : KNOWN;
  }
  const ch = String.fromCodePoint(cp);
  let c = KNOWN;
  if (CJK_ONE.test(ch)) c |= IS_CJK;
  if (LETTER.test(ch)) c |= IS_LETTER;
  if (NUMBER.test(ch)) c |= IS_NUMBER;
  if (MARK.test(ch)) c |= IS_MARK;
  return c;
}

const widthOf = (cp: number): number => (cp > 0xffff ? 2 : 1);
const startsWord = (c: number): boolean => !(c & IS_CJK) && (c & (IS_LETTER | IS_NUMBER)) !== 0;
const goesOnWord = (c: number): boolean => !(c & IS_CJK) && (c & (IS_LETTER | IS_NUMBER | IS_MARK)) !== 0;
const isWordLetter = (c: number): boolean => !(c & IS_CJK) && (c & IS_LETTER) !== 0;

/** Where the word whose first character ends at `from` ends. */
function wordEnd(text: string, from: number): number {
  const n = text.length;
  const skip = (j: number, test: (c: number) => boolean): number => {
    while (j < n) {
      const cp = text.codePointAt(j)!;
      if (!test(classOf(cp))) break;
      j += widthOf(cp);
    }
    return j;
  };
  let j = skip(from, goesOnWord);
  // -, _ or . joins a part that starts like a word.
  while (j + 1 < n && (text[j] === '-' || text[j] === '_' || text[j] === '.')) {
    const cp = text.codePointAt(j + 1)!;
    if (!startsWord(classOf(cp))) break;
    j = skip(j + 1 + widthOf(cp), goesOnWord);
  }
  // An apostrophe and letters: a possessive or a contraction.
  if (j + 1 < n && (text[j] === "'" || text[j] === '\u2019')) {
    const cp = text.codePointAt(j + 1)!;
    if (isWordLetter(classOf(cp))) j = skip(j + 1 + widthOf(cp), isWordLetter);
  }
  if (text.startsWith('++', j)) return j + 2;
  if (text[j] === '#') {
    const next = j + 1 < n ? classOf(text.codePointAt(j + 1)!) : 0;
    if (!(next & (IS_LETTER | IS_NUMBER))) return j + 1;
  }
  return j;
}

/** True when the token is exactly one CJK character (one code point, possibly a surrogate pair); read from the same table as the runs. */
export function isSingleCjkChar(token: string): boolean {
  if (token.length === 0 || token.length > 2) return false;
  const cp = token.codePointAt(0)!;
  return widthOf(cp) === token.length && (classOf(cp) & IS_CJK) !== 0;
}

/** True when the text holds a CJK character (a script written without spaces); read from the same table as the runs. */
export function hasCjkChar(text: string): boolean {
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (classOf(cp) & IS_CJK) return true;
    i += widthOf(cp);
  }
  return false;
}
