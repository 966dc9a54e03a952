// Which language a text is written in, by script (enough to tell Chinese, English and the mix of the
// two that Chinese users write): the share of CJK characters against Latin words. A Latin word
// counts as two characters, about what an English word carries next to a Chinese one (会议 / meeting).
import { forEachRun } from './scripts.ts';

export type TextLanguage = 'zh' | 'en' | 'mixed' | 'none';

export interface LanguageGuess {
  language: TextLanguage;
  /** CJK characters in the text. */
  cjkChars: number;
  /** Latin words (runs with at least one letter; numbers alone do not count). */
  latinWords: number;
}

/** At or above this share of CJK the text is Chinese; at or below 1 − it, English; between, mixed. */
export const CJK_SHARE_ZH = 0.7;

const HAS_LATIN_LETTER = /\p{Script=Latin}/u;

export function detectLanguage(text: string): LanguageGuess {
  let cjkChars = 0;
  let latinWords = 0;
  forEachRun(
    text.normalize('NFKC'),
    (run) => (cjkChars += [...run].length),
    (word) => {
      if (HAS_LATIN_LETTER.test(word)) latinWords++;
    },
  );
  const weight = cjkChars + 2 * latinWords;
  if (weight === 0) return { language: 'none', cjkChars, latinWords };
  const share = cjkChars / weight;
  const language: TextLanguage = share >= CJK_SHARE_ZH ? 'zh' : share <= 1 - CJK_SHARE_ZH ? 'en' : 'mixed';
  return { language, cjkChars, latinWords };
}
