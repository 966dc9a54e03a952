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
  for (const token of tokens) for (const gram of gramsOfToken(token)) out.push(gram);
  return out;
}

// Words repeat (a build reads each common word thousands of times): a word's characters are read
// once, which took a 5,000-note build's character terms from ~0.35 to ~0.1 CPU-s. Bounded: cleared
// when full, as a long-lived process meets ever new words.
const GRAMS_CACHED = 100_000;
const gramsByToken = new Map<string, readonly string[]>();
const NO_GRAMS: readonly string[] = [];

function gramsOfToken(token: string): readonly string[] {
  let grams = gramsByToken.get(token);
  if (grams !== undefined) return grams;
  const found: string[] = [];
  for (const char of token) if (isSingleCjkChar(char) && !isStopWord(char)) found.push(GRAM_MARK + char);
  grams = found.length === 0 ? NO_GRAMS : found;
  if (gramsByToken.size >= GRAMS_CACHED) gramsByToken.clear();
  gramsByToken.set(token, grams);
  return grams;
}
