// How many tokens a text costs the model, estimated without a model's vocabulary. One documented
// heuristic, used for every budget of the compaction channel:
//   - a CJK character (Han, kana, hangul) ≈ 1 token;
//   - a latin/digit word ≈ 1.3 tokens (English averages about 1.3 BPE tokens per word);
//   - any other visible character (CJK or ASCII punctuation, symbols, emoji) ≈ 1 token;
//   - whitespace is free.
// It errs on the high side for Chinese (real tokenizers put 1.3–1.7 characters in a token), so a
// budget met by the estimate is met by the provider's count too. Pure.

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const PIECE = new RegExp(String.raw`([${CJK}])|([[\p{L}\p{N}\p{M}]--[${CJK}]]+)|\S`, 'gv');

export const TOKENS_PER_CJK_CHAR = 1;
export const TOKENS_PER_WORD = 1.3;
export const TOKENS_PER_SYMBOL = 1;

export function estimateTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(PIECE)) {
    if (match[1] !== undefined) total += TOKENS_PER_CJK_CHAR;
    else if (match[2] !== undefined) total += TOKENS_PER_WORD;
    else total += TOKENS_PER_SYMBOL;
  }
  return Math.ceil(total);
}
