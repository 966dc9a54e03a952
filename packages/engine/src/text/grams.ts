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
    for (let i = 0; i < token.length; i++) {
      const code = token.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < token.length) {
        // A character outside the basic plane (CJK extension B and beyond): two code units.
        const gram = gramOf(token.slice(i, i + 2));
        if (gram !== null) out.push(gram);
        i++;
        continue;
      }
      let state = bmpState[code]!;
      if (state === UNKNOWN) {
        const gram = gramOf(String.fromCharCode(code));
        state = gram === null ? NOT_A_GRAM : A_GRAM;
        bmpState[code] = state;
        if (gram !== null) bmpGram[code] = gram;
      }
      if (state === A_GRAM) out.push(bmpGram[code]!);
    }
  }
  return out;
}

// A build reads each common character thousands of times: whether a character is a term, and its
// term, are looked up by its code (one string per character, made once), not tested per occurrence.
const UNKNOWN = 0;
const A_GRAM = 1;
const NOT_A_GRAM = 2;
const bmpState = new Uint8Array(0x10000);
/** Filled up front: an array written at scattered indexes of an empty one is kept as a dictionary, and each read took V8's slow path. */
const bmpGram: string[] = new Array<string>(0x10000).fill('');
const astralGrams = new Map<string, string | null>();

function gramOf(char: string): string | null {
  if (char.length === 2) {
    const known = astralGrams.get(char);
    if (known !== undefined) return known;
  }
  const gram = isSingleCjkChar(char) && !isStopWord(char) ? GRAM_MARK + char : null;
  if (char.length === 2) astralGrams.set(char, gram);
  return gram;
}
