// Finds which segments of ONE memory a query is about: BM25 over that memory's segments (the
// engine's own index class and tokenizer, so a word matches here exactly when it matches in
// recall), with a preview around the first hit. A hit deep inside a segment is the usual case
// (the segment opens with small talk, the path or command comes later), so the preview is centred
// on the hit, not cut from the segment's start.
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { isSingleCjk } from '../recall/scoring.ts';
import type { Tokenizer } from '../types.ts';
import { splitSegments, type Segment, type SplitOptions } from './split.ts';

export interface LocateHit {
  index: number;
  heading: string;
  start: number;
  end: number;
  /** Length of the segment in characters. */
  chars: number;
  score: number;
  /** Query tokens found in the segment, most informative first. */
  matched: string[];
  /** About previewChars of the segment around its first hit, whitespace folded, … where cut. */
  preview: string;
}

export interface LocateResult {
  segments: Segment[];
  hits: LocateHit[];
}

export interface LocateOptions {
  lexical: LexicalOptions;
  split: Partial<SplitOptions>;
  /** Default 160. */
  previewChars: number;
  /** Most hits returned; default all that match. */
  limit: number;
}

export const DEFAULT_LOCATE_LEXICAL: LexicalOptions = {
  k1: 1.2,
  b: 0.75,
  fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 },
  singleCharWeight: 0.15,
};

/** Ranked segments of `text` for `query`; segments that match nothing are not returned. */
export function locate(text: string, query: string, tokenizer: Tokenizer, options: Partial<LocateOptions> = {}): LocateResult {
  const segments = splitSegments(text, options.split);
  const queryTokens = [...new Set(tokenizer.tokenize(query))];
  if (segments.length === 0 || queryTokens.length === 0) return { segments, hits: [] };
  const index = new LexicalIndex(options.lexical ?? DEFAULT_LOCATE_LEXICAL);
  for (const s of segments)
    index.add({
      chunkId: String(s.index),
      docId: 'memory',
      fields: { title: tokenizer.tokenize(s.heading), summary: [], tags: [], body: tokenizer.tokenize(s.text) },
    });
  index.finishBulkAdd();
  const previewChars = options.previewChars ?? 160;
  const found = index.search(queryTokens, options.limit ?? segments.length);
  const hits = found.map((h) => {
    const s = segments[Number(h.chunkId)]!;
    const matched = [...h.matched].sort((a, b) => b.weight * b.idf - a.weight * a.idf || b.token.length - a.token.length).map((m) => m.token);
    return { index: s.index, heading: s.heading, start: s.start, end: s.end, chars: s.end - s.start, score: h.score, matched, preview: previewAround(s.text, matched, previewChars) };
  });
  return { segments, hits };
}

/** Moves an offset off the second half of a surrogate pair. */
const safe = (text: string, at: number): number => {
  const c = text.charCodeAt(at);
  return at > 0 && c >= 0xdc00 && c <= 0xdfff ? at - 1 : at;
};

/**
 * About `width` characters of `text` centred on the earliest occurrence of a matched word (words
 * before single characters: a lone 的 is a poor anchor), whitespace folded, … where cut.
 */
export function previewAround(text: string, matched: string[], width: number): string {
  const lower = text.toLowerCase();
  const words = matched.filter((m) => !isSingleCjk(m));
  let pos = -1;
  let len = 0;
  for (const group of [words, matched]) {
    for (const m of group) {
      const at = lower.indexOf(m);
      if (at >= 0 && (pos < 0 || at < pos)) {
        pos = at;
        len = m.length;
      }
    }
    if (pos >= 0) break;
  }
  let start = pos < 0 ? 0 : Math.max(0, pos - Math.floor((width - len) / 2));
  let end = Math.min(text.length, start + width);
  start = safe(text, Math.max(0, Math.min(start, end - width)));
  end = safe(text, end);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
