// Character grams: the second spelling of Chinese text the lexical index searches. Words (jieba) say
// what a text is about; grams find it when the question is cut differently from the note (尚恩有 /
// 尚恩, 出生于 / 生于, a name jieba splits one way here and another way there). Word BM25 alone
// ranked the asked note in the top 5 for 0.93 of CMRC questions in a 20,000-note store, character
// 1+2-gram BM25 for 0.97, both together for 0.97 (docs/benchmarks.md, growth). Grams only rank:
// the gates judge a query by its words, so a gram never counts as a matched word.
import { isStopWord } from './stopwords.ts';

/** Marks a gram term, so it never equals a word term (no tokenizer yields a control character). */
export const GRAM_MARK = '\u0001';

const CJK_TOKEN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+$/u;

export const isGram = (term: string): boolean => term.startsWith(GRAM_MARK);

/**
 * The grams of a token sequence: consecutive CJK tokens form a run (any other token ends it); each
 * run yields its characters and adjacent pairs, without stop words and pairs of two stop characters
 * (the same rules as the 1+2-gram tokenizer), each marked with GRAM_MARK.
 */
export function cjkGrams(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let previous: string | null = null;
  for (const token of tokens) {
    if (!CJK_TOKEN.test(token)) {
      previous = null;
      continue;
    }
    for (const char of token) {
      if (!isStopWord(char)) out.push(GRAM_MARK + char);
      if (previous !== null && !isStopWord(previous + char) && !(isStopWord(previous) && isStopWord(char))) out.push(GRAM_MARK + previous + char);
      previous = char;
    }
  }
  return out;
}
