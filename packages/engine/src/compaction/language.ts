// Is a text Chinese, or Chinese with some foreign words in it? Two signals, because one ratio cannot
// tell them apart: Japanese is full of Han characters, and a Chinese rule can quote an English term
// or a Japanese phrase. Pure.
//   - kana + hangul above a quarter of all letters → not Chinese (Japanese or Korean text);
//   - otherwise Han characters must be at least 20 % of all letters (\p{L}: latin, Greek, full-width
//     and the rest all count), which keeps "中文夹英文术语" and drops "English with a few 汉字".

const HAN = /\p{Script=Han}/u;
const KANA_HANGUL = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /\p{L}/u;

export const MIN_HAN_SHARE = 0.2;
export const MAX_KANA_HANGUL_SHARE = 0.25;

export interface ScriptShares {
  letters: number;
  han: number;
  kanaHangul: number;
}

export function scriptShares(text: string): ScriptShares {
  const shares: ScriptShares = { letters: 0, han: 0, kanaHangul: 0 };
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    shares.letters++;
    if (HAN.test(ch)) shares.han++;
    else if (KANA_HANGUL.test(ch)) shares.kanaHangul++;
  }
  return shares;
}

export function isChineseDominant(text: string): boolean {
  const { letters, han, kanaHangul } = scriptShares(text);
  if (letters === 0) return false;
  if (kanaHangul / letters > MAX_KANA_HANGUL_SHARE) return false;
  return han / letters >= MIN_HAN_SHARE;
}
