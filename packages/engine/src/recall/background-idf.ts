// General-language IDF (jieba's table, built from a large Chinese corpus): how informative a word is
// in Chinese at large, independent of the memory corpus. Used to weigh query words that the corpus
// has never seen, which corpus IDF cannot rate. Loaded once, lazily; absent when jieba is not installed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let table: Map<string, number> | null | undefined;

function load(): Map<string, number> | null {
  try {
    const require = createRequire(import.meta.url);
    // The file itself, not dict.js, which would keep both of jieba's tables in require's cache.
    const idf = readFileSync(join(dirname(require.resolve('@node-rs/jieba/package.json')), 'idf.txt'));
    // Only common words are kept (idf < KEEP_BELOW: ~44k of 270k entries, ~10 MB instead of ~80 MB):
    // every other word weighs UNKNOWN_WORD_IDF, which is within a point or two of its real value.
    const map = new Map<string, number>();
    const text = Buffer.from(idf).toString('utf8');
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const space = text.lastIndexOf(' ', end);
      if (space > start) {
        const value = Number(text.slice(space + 1, end));
        // A copy, not a slice: a long slice would pin the whole 9 MB text in memory.
        if (value < KEEP_BELOW) map.set(copyOf(text.slice(start, space)), value);
      }
      start = end + 1;
    }
    return map.size > 0 ? map : null;
  } catch {
    return null;
  }
}

/** A string with its own storage (V8 makes long slices views into their parent). */
const copyOf = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));

export function backgroundIdfTable(): Map<string, number> | null {
  if (table === undefined) table = load();
  return table;
}

/** A word the general table does not know (or knows as rare) weighs this much: a name, a code, a term of art. */
export const UNKNOWN_WORD_IDF = 12;
const KEEP_BELOW = 10;
