// The English general-language rarity table (english-rarity-table.ts, built by
// scripts/build-english-rarity.ts from SUBTLEX-US word counts): English stems, as text/latin.ts makes
// them, with an IDF on jieba's scale. Parsed on the first English word looked up (~7,000 lines, a few
// ms), so a recall or write without English words never pays for it.
import { ENGLISH_RARITY_TABLE } from './english-rarity-table.ts';

let table: Map<string, number> | undefined;

export function englishRarityTable(): Map<string, number> {
  if (table) return table;
  const map = new Map<string, number>();
  for (const line of ENGLISH_RARITY_TABLE.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  table = map;
  return map;
}

const LATIN_START = /^[\p{Script=Latin}]/u;

/** True for a term the English table answers for: one that starts with a Latin letter (words, identifiers, codes such as v0.2.6). */
export const isLatinTerm = (term: string): boolean => LATIN_START.test(term);
