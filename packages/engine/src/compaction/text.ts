// Small text helpers of the compaction channel. Pure.
import { createHash } from 'node:crypto';

/**
 * Every line terminator JavaScript knows: \r\n, \n, \r, U+2028, U+2029. Splitting on \n alone
 * leaves CRLF and Unicode separators glued into one huge "line".
 */
export const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** The same text with every line terminator turned into \n. */
export const normaliseLineEnds = (text: string): string => text.replace(/\r\n|[\r\u2028\u2029]/g, '\n');

/** Whitespace runs (line terminators included) to one space, trimmed. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Length in code points (what a person counts as characters; an emoji is one). */
export const charLength = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * At most `max` code points, ending in "…" when cut (the marker is counted in `max`). Cuts on
 * code points, so a surrogate pair is never split.
 */
export function clipChars(text: string, max: number): string {
  if (max <= 0) return '';
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}

/** A block's identity: the first 16 hex digits of sha1 over its whitespace-collapsed text. */
export const fingerprint16 = (text: string): string => createHash('sha1').update(collapseWhitespace(text)).digest('hex').slice(0, 16);

/**
 * Tags that wrap text a plugin or the host put into a message (recall blocks, reminders): such
 * fragments are not what the person said and must not be stored as the dialogue.
 */
export const DEFAULT_INJECTED_TAGS = ['system-reminder', 'engram-recall', 'engram-history', 'engram-overview', 'engram-rules', 'injected-context'];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Removes `<tag …>…</tag>` fragments of the given tags (and an unclosed one up to the end). */
export function stripInjectedFragments(text: string, tags: readonly string[] = DEFAULT_INJECTED_TAGS): string {
  let out = text;
  for (const tag of tags) {
    const name = escapeRegExp(tag);
    out = out.replace(new RegExp(`<${name}(?:\\s[^>]*)?>[\\s\\S]*?(?:</${name}>|$)`, 'gi'), '');
  }
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

/** Jaccard similarity of two token sets (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const token of small) if (large.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The code units that end a line (LINE_BREAK above: \r\n is \r then \n). */
const LINE_BREAK_UNITS = ['\n', '\r', '\u2028', '\u2029'];
const isHighSurrogate = (unit: string): boolean => unit >= '\uD800' && unit <= '\uDBFF';

/**
 * The beginning of `text`, at most `max` UTF-16 code units (`.length`: known without a pass over the
 * text). Ends at the last line break when one lies in the latter half of what is kept, at `max`
 * otherwise; a surrogate pair is never split. `cutFrom` is the text's length when it was cut. Pure.
 */
export function beginningOf(text: string, max: number): { text: string; cutFrom: number | null } {
  if (text.length <= max) return { text, cutFrom: null };
  let end = max;
  const lastBreak = Math.max(...LINE_BREAK_UNITS.map((unit) => text.lastIndexOf(unit, max - 1)));
  if (lastBreak >= max / 2) {
    end = lastBreak;
    while (end > 0 && LINE_BREAK_UNITS.includes(text[end - 1]!)) end--;
  } else if (isHighSurrogate(text[end - 1]!)) end--;
  return { text: text.slice(0, end), cutFrom: text.length };
}
