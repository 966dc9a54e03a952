// Anchored replace: change one passage of a diary, located by quoting it. Guessing wrong would
// silently destroy someone's memory, so every doubt is an error and the content stays as it was:
// the anchor must be long enough, found, and unique at the first strategy level that finds it.
import { dominantNewline } from './lines.ts';

export type ReplaceStrategy = 'exact' | 'trailing-space' | 'whitespace-free';

export type AnchoredReplaceResult =
  | { ok: true; content: string; strategy: ReplaceStrategy; start: number; end: number }
  | { ok: false; code: 'target-too-short' | 'target-too-long' | 'not-found' | 'ambiguous'; message: string; matches?: number };

/** The text a strategy compares, and for every code unit of it the index it came from. */
interface Projection {
  text: string;
  map: number[];
}

/** The characters JavaScript's \s matches, by code unit (a lookup instead of a regex per character). */
function isWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

const isBlankInLine = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d;

/** Drops spaces/tabs (and a CR) at the end of every line; line feeds stay. */
function withoutTrailingSpace(s: string): Projection {
  const parts: string[] = [];
  const map: number[] = [];
  let lineStart = 0;
  for (;;) {
    const nl = s.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? s.length : nl;
    let contentEnd = lineEnd;
    while (contentEnd > lineStart && isBlankInLine(s.charCodeAt(contentEnd - 1))) contentEnd--;
    parts.push(s.slice(lineStart, contentEnd));
    for (let i = lineStart; i < contentEnd; i++) map.push(i);
    if (nl < 0) break;
    parts.push('\n');
    map.push(nl);
    lineStart = nl + 1;
  }
  return { text: parts.join(''), map };
}

/** Drops every whitespace character (including U+3000 and NBSP). */
function withoutWhitespace(s: string): Projection {
  const parts: string[] = [];
  const map: number[] = [];
  let runStart = -1;
  for (let i = 0; i <= s.length; i++) {
    const ws = i === s.length || isWhitespace(s.charCodeAt(i));
    if (!ws) {
      if (runStart < 0) runStart = i;
      map.push(i);
    } else if (runStart >= 0) {
      parts.push(s.slice(runStart, i));
      runStart = -1;
    }
  }
  return { text: parts.join(''), map };
}

const identity = (s: string): Projection => ({ text: s, map: [] });

/**
 * Start offsets of every (possibly overlapping) occurrence; stops counting at `limit`. Knuth–Morris–
 * Pratt, so linear in both lengths whatever the input: String.prototype.indexOf is not — V8's search
 * degrades to O(n·m) when a long needle nearly matches everywhere (a 100k-character target on a
 * 450k diary of near-repeats took ≈ 50 s, with the event loop and the lock's heartbeat stopped).
 */
export function occurrences(hay: string, needle: string, limit = 1000): number[] {
  const out: number[] = [];
  const m = needle.length;
  if (m === 0 || m > hay.length) return out;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = needle.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== c) k = fail[k - 1]!;
    if (needle.charCodeAt(k) === c) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < hay.length; i++) {
    const c = hay.charCodeAt(i);
    while (k > 0 && needle.charCodeAt(k) !== c) k = fail[k - 1]!;
    if (needle.charCodeAt(k) === c) k++;
    if (k === m) {
      out.push(i - m + 1);
      if (out.length >= limit) return out;
      k = fail[k - 1]!;
    }
  }
  return out;
}

/**
 * Longest target an anchored edit takes (UTF-16 code units). The search is linear, so this is not
 * about time: a quote this long is a whole-file rewrite, which the editor's save does better.
 */
export const MAX_TARGET_CHARS = 200_000;

/** How long an anchor is, in the sense of the ≥ N 字 rule: non-whitespace code points. */
export function anchorLength(target: string): number {
  return Array.from(withoutWhitespace(target).text).length;
}

const LEVELS: { strategy: ReplaceStrategy; project: (s: string) => Projection; exact: boolean }[] = [
  { strategy: 'exact', project: identity, exact: true },
  { strategy: 'trailing-space', project: withoutTrailingSpace, exact: false },
  { strategy: 'whitespace-free', project: withoutWhitespace, exact: false },
];

export function anchoredReplace(content: string, target: string, replacement: string, minTarget: number): AnchoredReplaceResult {
  if (target.length > MAX_TARGET_CHARS) {
    return {
      ok: false,
      code: 'target-too-long',
      message: `target is ${target.length} characters; anchored edits take at most ${MAX_TARGET_CHARS} — quote a shorter passage, or rewrite the whole file in the editor`,
    };
  }
  const len = anchorLength(target);
  if (len < minTarget) {
    return {
      ok: false,
      code: 'target-too-short',
      message: `target is ${len} characters (ignoring whitespace); at least ${minTarget} are required so it cannot match the wrong passage — quote more of the original text`,
    };
  }

  for (const level of LEVELS) {
    const hay = level.project(content);
    const needle = level.project(target).text;
    if (needle === '') continue;
    const found = occurrences(hay.text, needle, 1000);
    if (found.length === 0) continue;
    if (found.length > 1) {
      return {
        ok: false,
        code: 'ambiguous',
        matches: found.length,
        message: `target matches ${found.length}${found.length >= 1000 ? '+' : ''} places (${level.strategy}); quote more surrounding text so it identifies exactly one passage`,
      };
    }
    const at = found[0]!;
    const start = level.exact ? at : hay.map[at]!;
    const end = level.exact ? at + needle.length : hay.map[at + needle.length - 1]! + 1;
    return {
      ok: true,
      strategy: level.strategy,
      start,
      end,
      content: content.slice(0, start) + replacement + content.slice(end),
    };
  }
  return {
    ok: false,
    code: 'not-found',
    message: 'target not found (also tried ignoring trailing spaces and all whitespace); copy the passage verbatim from the current text',
  };
}

/** Converts a replacement's line feeds to the file's convention, so an edit does not mix CRLF and LF. */
export function matchLineEndings(content: string, replacement: string): string {
  const newline = dominantNewline(content.match(/\r\n|\n|\r/g) ?? []);
  return newline === '\n' ? replacement : replacement.replace(/\r\n|\n/g, newline);
}
