// Character classes shared by the tokenizer and the lexical index.

/** Scripts written without spaces between words: tokenized by jieba or by 1-/2-grams. */
const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC`;

/**
 * One run of CJK characters, or one latin/digit word. A word may contain `-`, `_` or `.` between
 * letters/digits (sing-box, api_key, v0.2.6), may end in an apostrophe and letters (Alice's, don't)
 * and in `++` or a final `#` (c++, c#).
 * The `v` flag lets the word class subtract CJK from \p{L}.
 */
const WORD_START = String.raw`[[\p{L}\p{N}]--[${CJK_CLASS}]]`;
const WORD_REST = String.raw`[[\p{L}\p{N}\p{M}]--[${CJK_CLASS}]]*`;
/** Letters after an apostrophe: a possessive or a contraction (Alice's, don't) stays one word. */
const WORD_LETTERS = String.raw`[\p{L}--[${CJK_CLASS}]]+`;
export const RUN_PATTERN = new RegExp(
  String.raw`([${CJK_CLASS}]+)|(${WORD_START}${WORD_REST}(?:[\-_.]${WORD_START}${WORD_REST})*(?:['’]${WORD_LETTERS})?(?:\+\+|#(?![\p{L}\p{N}]))?)`,
  'gv',
);

const SINGLE_CJK = new RegExp(`^[${CJK_CLASS}]$`, 'v');

/** True when the token is exactly one CJK character (one code point, possibly a surrogate pair). */
export function isSingleCjkChar(token: string): boolean {
  return token.length <= 2 && SINGLE_CJK.test(token);
}
