// Traditional Chinese read as simplified: a note written in 繁體 and a question in 简体 (or the other
// way round) share no character of 這個/这个, 會議/会议, 問題/问题, so the words never met, and the gates
// judged every such question as one the memories do not answer. The words of both are read after this
// fold (text/tokenize.ts, and the phrase, sentence and title comparisons of recall), so 會議室 finds
// 会议室 and jieba's dictionary and rarity table, which are simplified, weigh the words of a
// traditional text too. Only what the index and the gates read is folded: the file, the injected text
// and the embedded text stay as written. Character by character, from the generated table
// (scripts/build-script-fold.ts); a character that is also simplified Chinese (著, 乾, 麽) is not in it.
import { SCRIPT_FOLD_TABLE } from './script-fold-table.ts';

let foldsTo: Uint16Array | null = null;

/**
 * Per UTF-16 code unit: the unit it folds to, or 0. The generator keeps only characters of one unit
 * whose fold is one unit too, so a unit is a character here and a fold keeps every position.
 */
function table(): Uint16Array {
  if (foldsTo) return foldsTo;
  foldsTo = new Uint16Array(0x10000);
  for (const pair of SCRIPT_FOLD_TABLE.split(' ')) if (pair.length === 2) foldsTo[pair.charCodeAt(0)] = pair.charCodeAt(1);
  return foldsTo;
}

/** `text` with its traditional characters folded to simplified ones (the same string when it has none). Pure. */
export function foldToSimplified(text: string): string {
  const to = table();
  // Most text is simplified or not Chinese at all: one pass over the code units finds nothing to fold.
  let i = 0;
  while (i < text.length && to[text.charCodeAt(i)] === 0) i++;
  if (i === text.length) return text;
  let out = '';
  let copied = 0;
  for (; i < text.length; i++) {
    const folded = to[text.charCodeAt(i)] as number;
    if (folded === 0) continue;
    out += text.slice(copied, i) + String.fromCharCode(folded);
    copied = i + 1;
  }
  return out + text.slice(copied);
}

/** Text as the words are read: NFKC (full-width ＡＢＣ１２３ as ASCII), then traditional characters folded. Pure. */
export function asReadForWords(text: string): string {
  return foldToSimplified(text.normalize('NFKC'));
}

/**
 * Each term of `terms` that `text` writes in traditional characters, with the characters as written
 * (会议室 → 會議室): what a reader recognises beside the term the index holds. The fold keeps every
 * position, so a term's first place in the folded text is its place in the text. `text` as the
 * tokenizer reads it (NFKC). Pure.
 */
export function foldedWrittenForms(text: string, terms: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const folded = foldToSimplified(text);
  if (folded === text) return out;
  for (const term of terms) {
    const at = folded.indexOf(term);
    if (at < 0 || out.has(term)) continue;
    const written = text.slice(at, at + term.length);
    if (written !== term) out.set(term, written);
  }
  return out;
}
