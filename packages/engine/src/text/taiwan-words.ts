// Taiwan's words read as the mainland's: after the characters are folded (text/script-fold.ts) a note
// written in Taiwan still says 伺服器, 软体, 记忆体 where a question asked on the mainland says 服务器,
// 软件, 内存, and the two share no word. The tokenizer reads each such word as the mainland word, in
// the index and in the question alike, so they meet; a word the mainland writes as well (互动, 影片,
// 档案) is not in the table (scripts/build-taiwan-words.ts). Only the words are read so: the file, the
// injected text and the embedded text stay as written. Pure.
import { foldToSimplified } from './script-fold.ts';
import { TAIWAN_WORDS_TABLE } from './taiwan-words-table.ts';

/**
 * The frequency a Taiwan word jieba's dictionary lacks is added with: enough that a text cuts 网路 or
 * 伺服器 whole (not 网 / 路, 伺服 / 器), little enough that a longer dictionary word holding it stays
 * whole (jieba's dictionary words run from 1 to millions; its median is 3).
 */
const ADDED_WORD_FREQ = 50;

interface Table {
  words: Map<string, string>;
  added: string[];
  taiwanOf: Map<string, string[]>;
  /** The words read so in running text too (no longer dictionary word holds them), by their first character, longest first. */
  inText: Map<string, string[]>;
}

let table: Table | null = null;

function read(): Table {
  if (table) return table;
  const words = new Map<string, string>();
  const added: string[] = [];
  const inText = new Map<string, string[]>();
  for (const entry of TAIWAN_WORDS_TABLE.split(' ')) {
    const at = entry.indexOf('=');
    const flags = /^[+!]*/.exec(entry)?.[0] ?? '';
    if (at <= flags.length) continue;
    const word = entry.slice(flags.length, at);
    words.set(word, entry.slice(at + 1));
    if (flags.includes('+')) added.push(word);
    if (!flags.includes('!')) {
      const first = word[0] as string;
      const same = inText.get(first);
      if (same) same.push(word);
      else inText.set(first, [word]);
    }
  }
  for (const same of inText.values()) same.sort((a, b) => b.length - a.length);
  const taiwanOf = new Map<string, string[]>();
  for (const [taiwan, mainland] of words) {
    const same = taiwanOf.get(mainland);
    if (same) same.push(taiwan);
    else taiwanOf.set(mainland, [taiwan]);
  }
  table = { words, added, taiwanOf, inText };
  return table;
}

/** The word as the mainland writes it (`word` itself when it is not a Taiwan word of the table). */
export const mainlandWord = (word: string): string => read().words.get(word) ?? word;

/** jieba user dictionary lines for the Taiwan words its own dictionary lacks, so a text cuts each whole before it is read as the mainland word. */
export const taiwanUserDictLines = (): string[] => read().added.map((w) => `${w} ${ADDED_WORD_FREQ}`);

/**
 * For each of `terms` the text spells as a Taiwan word, the word as `text` writes it (服务器 → 伺服器,
 * in 繁體 or 简体 as written), for the explanation. `text` NFKC-normalised, as the tokenizer reads it.
 */
export function taiwanWrittenForms(text: string, terms: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const folded = foldToSimplified(text);
  const { taiwanOf } = read();
  for (const term of terms) {
    for (const taiwan of taiwanOf.get(term) ?? []) {
      const at = folded.indexOf(taiwan);
      // The fold keeps every position, so the span of the folded text is the span as written.
      if (at >= 0 && !out.has(term)) out.set(term, text.slice(at, at + taiwan.length));
    }
  }
  return out;
}

/**
 * `folded` (text/script-fold.ts) with the Taiwan words no longer dictionary word holds read as the
 * mainland's (伺服器 → 服务器), for recall's comparisons of wording (recall/phrase.ts, redundancy.ts):
 * the tokenizer reads a note's words so, and a question's wording should meet the note's the same way.
 * A word a longer one holds (软体 in 软体动物) is left as written: in running text it cannot be told
 * from the longer word. The length may change: for comparisons only, never for a position in the
 * text as written. Pure.
 */
export function mainlandText(folded: string): string {
  const { words, inText } = read();
  let out = '';
  let copied = 0;
  for (let i = 0; i < folded.length; i++) {
    const candidates = inText.get(folded[i] as string);
    if (!candidates) continue;
    const word = candidates.find((w) => folded.startsWith(w, i));
    if (!word) continue;
    out += folded.slice(copied, i) + (words.get(word) as string);
    i += word.length - 1;
    copied = i + 1;
  }
  return copied === 0 ? folded : out + folded.slice(copied);
}

/** A text's wording as recall compares it: traditional characters folded, then Taiwan words read as the mainland's. */
export const comparedWording = (text: string): string => mainlandText(foldToSimplified(text));
