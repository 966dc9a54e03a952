// Marks the words a search matched inside a text (pure): case-insensitive, longest word first where
// two overlap, spans in order and covering the whole text. The engine reads 繁體 as 简体 (its words
// are folded), so the text and the words are compared folded; the fold keeps every position, so the
// marks fall on the text as written.
import { foldToSimplified } from '@engram/engine/script-fold';

export interface Span {
  text: string;
  hit: boolean;
}

export function highlightSpans(text: string, words: readonly string[]): Span[] {
  const wanted = [...new Set(words.map((w) => foldToSimplified(w.trim())).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (text === '' || wanted.length === 0) return text === '' ? [] : [{ text, hit: false }];
  const lower = foldToSimplified(text).toLowerCase();
  const marked = new Uint8Array(text.length);
  for (const word of wanted) {
    const w = word.toLowerCase();
    for (let at = lower.indexOf(w); at !== -1; at = lower.indexOf(w, at + 1)) {
      // A longer word already marked here wins; a word is never marked half.
      if (marked.subarray(at, at + w.length).some((x) => x === 1)) continue;
      marked.fill(1, at, at + w.length);
    }
  }
  const spans: Span[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || marked[i] !== marked[start]) {
      spans.push({ text: text.slice(start, i), hit: marked[start] === 1 });
      start = i;
    }
  }
  return spans;
}
