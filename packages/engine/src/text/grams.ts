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
      let slot = bmpSlot[code]!;
      if (slot === UNKNOWN) {
        const gram = gramOf(String.fromCharCode(code));
        slot = gram === null ? NOT_A_GRAM : bmpGrams.push(gram);
        bmpSlot[code] = slot;
      }
      if (slot !== NOT_A_GRAM) out.push(bmpGrams[slot - 1]!);
    }
  }
  return out;
}

// A build reads each common character thousands of times: whether a character is a term, and its
// term, are looked up by its code (one string per character, made once), not tested per occurrence.
const UNKNOWN = 0;
const NOT_A_GRAM = 0xffff;
/** Per basic-plane character: UNKNOWN, NOT_A_GRAM, or 1 + the index of its term in bmpGrams. */
const bmpSlot = new Uint16Array(0x10000);
/**
 * The terms, in the order they were first met: a dense array. One indexed by character code would be
 * written at scattered indexes, which V8 keeps as a dictionary (each read a slow keyed load: 1.5 % of a
 * 50,000-note build), or would have to be filled up front (milliseconds of every command that loads this).
 */
const bmpGrams: string[] = [];
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
