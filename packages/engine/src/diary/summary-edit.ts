// Sets a memory's summary inside its file: the `> summary` paragraph of a .txt diary (or of a .md
// without front matter), the description key of a .md front matter. Only the summary lines change;
// every other byte of the text — BOM, line endings, body, Tag and Meta lines — stays as it was.
// Pure: no I/O.
import { DEFAULT_META, META_LINE_RE, withMarkdownMeta, withTxtMeta, type MemoryMeta } from './meta.ts';
import { isTagLine, normaliseNewlines, parseDiaryText } from './parse.ts';
import { frontMatterEnd, joinLines, splice, splitKeepingEnds, valueEnd, type Lines } from './lines.ts';

export { frontMatterEnd, joinLines, splice, splitKeepingEnds, type Lines };

const SUMMARY_LINE_RE = /^\s{0,3}>/;
const FM_SUMMARY_KEYS = ['description', 'summary', '摘要'] as const;
const FM_KEY_RE = /^([A-Za-z0-9_\u3400-\u9fff][\w.\-\u3400-\u9fff]*)\s*:(?:\s+(.*)|\s*)$/u;

const isBlank = (s: string): boolean => s.trim() === '';

/** `> ` lines of a summary (an empty line inside it becomes a bare `>`, as formatDiary writes). */
export function summaryQuoteLines(summary: string): string[] {
  return normaliseNewlines(summary).trim().split('\n').map((l) => (l.trim() === '' ? '>' : `> ${l.trimEnd()}`));
}

/** The .txt layout (also a .md without front matter): replace or insert the `> summary` paragraph. */
function txtWithSummary(l: Lines, summary: string): void {
  const quote = summaryQuoteLines(summary);
  let first = 0;
  while (first < l.text.length && isBlank(l.text[first]!)) first++;
  let last = l.text.length - 1;
  while (last >= 0 && isBlank(l.text[last]!)) last--;
  if (first > last) {
    splice(l, 0, l.text.length, quote);
    l.eol[l.eol.length - 1] = l.newline;
    return;
  }
  // Same structure as the parser: optional Meta line, then optional Tag line, close the file.
  if (last > first && META_LINE_RE.test(l.text[last]!)) {
    last--;
    while (last >= first && isBlank(l.text[last]!)) last--;
  }
  const tagIdx = last >= first && isTagLine(l.text[last]!) ? last : -1;
  const end = tagIdx >= 0 ? tagIdx : last + 1;
  const hasTitle = first !== tagIdx && !SUMMARY_LINE_RE.test(l.text[first]!);
  let cursor = hasTitle ? first + 1 : first;
  while (cursor < end && isBlank(l.text[cursor]!)) cursor++;
  if (cursor < end && SUMMARY_LINE_RE.test(l.text[cursor]!)) {
    let stop = cursor;
    while (stop < end && SUMMARY_LINE_RE.test(l.text[stop]!)) stop++;
    splice(l, cursor, stop, quote);
    return;
  }
  if (!hasTitle) {
    // Starts with the Tag line: the summary goes before it, a blank line between.
    splice(l, first, first, [...quote, '']);
    return;
  }
  const at = first + 1;
  const next = l.text[at];
  splice(l, at, at, ['', ...quote, ...(next !== undefined && !isBlank(next) ? [''] : [])]);
}

/** The .md front-matter layout: replace the key the parser reads the summary from, or add `description`. */
function markdownWithSummary(l: Lines, summary: string, close: number): void {
  const value = JSON.stringify(normaliseNewlines(summary).trim());
  const keys = new Map<string, number>();
  for (let i = 1; i < close; i++) {
    const m = FM_KEY_RE.exec(l.text[i]!);
    if (m && !keys.has(m[1]!)) keys.set(m[1]!, i);
  }
  // The parser takes the first of description / summary / 摘要 with a non-empty value.
  const current = parseDiaryText(joinLines(l), { root: 'diary', path: 'x.md', mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
  const used = current.summarySource === 'none' ? undefined : FM_SUMMARY_KEYS.find((k) => keys.has(k) && hasValue(l, keys.get(k)!, close));
  const key = used ?? (keys.has('description') ? 'description' : undefined);
  if (key !== undefined) {
    const at = keys.get(key)!;
    splice(l, at, valueEnd(l, at, close), [`${key}: ${value}`]);
    return;
  }
  const title = keys.get('title');
  const at = title !== undefined ? valueEnd(l, title, close) : close;
  splice(l, at, at, [`description: ${value}`]);
}

function hasValue(l: Lines, keyLine: number, close: number): boolean {
  const m = FM_KEY_RE.exec(l.text[keyLine]!);
  const inline = (m?.[2] ?? '').trim();
  if (inline !== '' && inline !== '""' && inline !== "''") return true;
  const end = valueEnd(l, keyLine, close);
  for (let i = keyLine + 1; i < end; i++) if (l.text[i]!.replace(/^\s*-?\s*/, '') !== '') return true;
  return false;
}

/**
 * `raw` with its summary set to `summary`. `markdown` = the file is a .md (front matter, when it has
 * a closed one, holds the summary); otherwise the `> summary` paragraph after the title line.
 */
export function withSummaryParagraph(raw: string, summary: string, markdown: boolean): string {
  const l = splitKeepingEnds(raw);
  const close = markdown ? frontMatterEnd(l) : -1;
  if (close > 0) markdownWithSummary(l, summary, close);
  else txtWithSummary(l, summary);
  return joinLines(l);
}

/**
 * Sets the summary and records where it came from: 'auto' / 'rule' in the Meta line (front matter
 * key summary_source for .md), nothing for 'manual'. The metadata writer only runs when the recorded
 * source changes.
 */
export function withSummary(raw: string, path: string, summary: string, source: 'manual' | 'auto' | 'rule'): string {
  const markdown = path.toLowerCase().endsWith('.md');
  const edited = withSummaryParagraph(raw, summary, markdown);
  const parsed = parseDiaryText(edited, { root: 'diary', path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
  const wanted = source === 'manual' ? null : source;
  if (parsed.meta.summary === wanted) return edited;
  const meta: MemoryMeta = { ...DEFAULT_META, ...parsed.meta, supersedes: [...parsed.meta.supersedes], summary: wanted };
  // Both metadata writers keep the BOM and every line ending: only the Meta line / keys change.
  return (markdown ? withMarkdownMeta(edited, meta) : null) ?? withTxtMeta(edited, meta);
}
