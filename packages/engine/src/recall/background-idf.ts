// General-language IDF (jieba's table, built from a large Chinese corpus): how informative a word is
// in Chinese at large, independent of the memory corpus. Used to weigh query words that the corpus
// has never seen, which corpus IDF cannot rate. Loaded once, lazily; absent when jieba is not installed.
import { createRequire } from 'node:module';

let table: Map<string, number> | null | undefined;

function load(): Map<string, number> | null {
  try {
    const require = createRequire(import.meta.url);
    const { idf } = require('@node-rs/jieba/dict.js') as { idf: Uint8Array };
    const map = new Map<string, number>();
    for (const line of Buffer.from(idf).toString('utf8').split('\n')) {
      const space = line.lastIndexOf(' ');
      if (space <= 0) continue;
      const value = Number(line.slice(space + 1));
      if (Number.isFinite(value)) map.set(line.slice(0, space), value);
    }
    return map.size > 0 ? map : null;
  } catch {
    return null;
  }
}

export function backgroundIdfTable(): Map<string, number> | null {
  if (table === undefined) table = load();
  return table;
}

/** A word the general table does not know is treated as rare (a name, a code, a term of art). */
export const UNKNOWN_WORD_IDF = 12;
