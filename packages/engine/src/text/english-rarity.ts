// The English general-language rarity table (english-rarity-table.ts, built by
// scripts/build-english-rarity.ts from SUBTLEX-US word counts): English stems, as text/latin.ts makes
// them, with an IDF on jieba's scale. A lookup binary-searches the sorted "term idf" lines in place:
// the first one finds where the ~7,000 lines start (well under a millisecond); building a Map of them
// cost 7-12 ms, paid by every one-shot recall with an English word.
import { ENGLISH_RARITY_TABLE } from './english-rarity-table.ts';

let lineStarts: Int32Array | undefined;

function starts(): Int32Array {
  if (lineStarts) return lineStarts;
  const out: number[] = [0];
  for (let at = ENGLISH_RARITY_TABLE.indexOf('\n'); at >= 0; at = ENGLISH_RARITY_TABLE.indexOf('\n', at + 1)) out.push(at + 1);
  lineStarts = Int32Array.from(out);
  return lineStarts;
}

/** The term's general-language IDF, or undefined when the table does not hold it. */
export function englishRarity(term: string): number | undefined {
  const at = starts();
  const text = ENGLISH_RARITY_TABLE;
  let lo = 0;
  let hi = at.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const begin = at[mid]!;
    const space = text.indexOf(' ', begin);
    const key = text.slice(begin, space);
    if (key === term) {
      const end = text.indexOf('\n', space);
      return Number(text.slice(space + 1, end < 0 ? text.length : end));
    }
    // The build script sorts by UTF-16 code units, which is what < compares.
    if (key < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The whole table as a Map (tests and diagnostics; lookups use englishRarity). */
export function englishRarityTable(): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of ENGLISH_RARITY_TABLE.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return map;
}

const LATIN_START = /^[\p{Script=Latin}]/u;

/** True for a term the English table answers for: one that starts with a Latin letter (words, identifiers, codes such as v0.2.6). */
export const isLatinTerm = (term: string): boolean => LATIN_START.test(term);
