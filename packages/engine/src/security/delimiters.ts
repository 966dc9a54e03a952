// Content Engram injects into a conversation (memory titles, bodies, tags, summaries, compaction
// text, rules) sits between delimiters the model reads as structure: the recall block's tags, the
// other `<engram-…>` blocks, host tags such as `<system-reminder>`, and the diary-note markers. A
// memory that contains one of them would end its block early, and what follows would read as the
// person's or the system's own words. So inside content every such delimiter is neutralised: its
// angle brackets become full-width look-alikes (＜ ＞), which no parser (ours or the model's
// template) takes for structure while a reader still sees what was written. Pure.

/** Host and Engram tag names that delimit injected text (any `engram…` tag is covered by prefix). */
const HOST_TAGS = ['system-reminder', 'injected-context'];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Space a model does not see as anything: white space, and invisible format characters (zero-width
 * space and joiners, word joiner, soft hyphen, BOM — Unicode Cf — and the combining grapheme joiner).
 * `<\u200b/engram-recall>` reads as the closing tag.
 */
const INVISIBLE = '[\\s\\p{Cf}\\u034f]*';

function tagPattern(extraTags: readonly string[]): RegExp {
  const names = ['engram[\\w-]*', ...[...HOST_TAGS, ...extraTags].filter((t) => t.trim() !== '').map(escapeRegExp)];
  // `<`, optional (invisible) spaces and `/`, a known name not followed by more name characters, then anything
  // up to an optional `>` (attributes, a missing `>` at the end of a text).
  return new RegExp(`<(${INVISIBLE}/?${INVISIBLE}(?:${names.join('|')})(?![\\w-])[^<>]*)(>?)`, 'giu');
}

const NOTE_MARKER = new RegExp(`<<<(${INVISIBLE}DailyNote(?:Start|End)${INVISIBLE})>>>`, 'giu');

/** The text with every injection delimiter neutralised; `extraTags` adds configured block names. */
export function neutraliseDelimiters(text: string, extraTags: readonly string[] = []): string {
  if (!text.includes('<')) return text;
  return text.replace(NOTE_MARKER, '＜＜＜$1＞＞＞').replace(tagPattern(extraTags), (_, inner: string, close: string) => `＜${inner}${close ? '＞' : ''}`);
}
