// Characters: the second spelling of Chinese text the lexical index searches. Words (jieba) say what
// a text is about; characters find it when the question is cut differently from the note (服务器 /
// 服务, 出生于 / 生于, a name jieba splits one way here and another way there). In a store of 20,000
// notes, word BM25 ranked the asked note in the top 5 for 0.932 of CMRC questions and words with
// their characters for 0.960 (with the model: 0.955 → 0.972); adding character pairs too ranked no
// better and cost a third more memory (docs/benchmarks.md, growth). Characters only rank: the gates
// judge a query by its words, so a character never counts as a matched word.
import { isSingleCjkChar } from './scripts.ts';
import { isStopWord } from './stopwords.ts';

/** Marks a character term, so it never equals a word term (no tokenizer yields a control character). */
export const GRAM_MARK = '\u0001';

export const isGram = (term: string): boolean => term.startsWith(GRAM_MARK);

/** The characters of the Chinese (CJK) words in a token sequence, without stop characters, each marked with GRAM_MARK. */
export function cjkGrams(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    for (const char of token) if (isSingleCjkChar(char) && !isStopWord(char)) out.push(GRAM_MARK + char);
  }
  return out;
}
