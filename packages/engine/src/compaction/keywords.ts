// Local keywords: the few tokens that tell a block apart from its neighbours ("how would someone
// ask for this later"). tf × idf over the batch the block came with, latin/digit terms (names,
// ports, versions) weighted up; single characters never qualify. Pure.
import { isSingleCjkChar } from '../text/scripts.ts';

const LATIN_OR_DIGIT = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}\-_.+#]*$/u;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export const LATIN_KEYWORD_BOOST = 1.5;

const usable = (token: string): boolean => !isSingleCjkChar(token) && Array.from(token).length >= 2 && /[\p{L}\p{N}]/u.test(token);

/** Top `k` keywords of each token list (one list per block), scored against the whole batch. */
export function batchKeywords(tokenLists: readonly (readonly string[])[], k: number): string[][] {
  const df = new Map<string, number>();
  for (const tokens of tokenLists) for (const token of new Set(tokens)) df.set(token, (df.get(token) ?? 0) + 1);
  const n = tokenLists.length;
  return tokenLists.map((tokens) => {
    const tf = new Map<string, { count: number; first: number }>();
    tokens.forEach((token, i) => {
      if (!usable(token)) return;
      const entry = tf.get(token);
      if (entry) entry.count++;
      else tf.set(token, { count: 1, first: i });
    });
    return [...tf.entries()]
      .map(([token, { count, first }]) => {
        const idf = Math.log(1 + n / (df.get(token) ?? 1));
        const boost = !HAS_CJK.test(token) && LATIN_OR_DIGIT.test(token) ? LATIN_KEYWORD_BOOST : 1;
        return { token, score: count * idf * boost, first };
      })
      .sort((a, b) => b.score - a.score || a.first - b.first)
      .slice(0, k)
      .map((e) => e.token);
  });
}
