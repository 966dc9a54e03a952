// A near-duplicate write joins the older memory instead of becoming a second file: its words are
// added at the end of the older memory's body as a dated paragraph (new tags join the Tag line).
// Nothing of the older text is removed or rewritten. Pure.
import { META_LINE_RE } from '../diary/meta.ts';
import { isTagLine, normaliseNewlines, normaliseTitle, parseDiaryText } from '../diary/parse.ts';
import { frontMatterEnd, joinLines, splice, splitKeepingEnds } from '../diary/summary-edit.ts';
import { flatText } from './similarity.ts';

export interface MergeAddition {
  /** The title the new write had: named in the header when the older memory is titled otherwise. */
  title?: string;
  summary: string;
  body: string;
  tags: string[];
}

const isBlank = (s: string): boolean => s.trim() === '';

/** The lines added to the older memory: a dated header, then what of the new write it does not already say. */
export function mergeParagraph(addition: MergeAddition, older: { text: string; title: string; tags: readonly string[] }, when: { date: string; time: string }, tagsInParagraph: boolean): string[] {
  const said = flatText(older.text);
  const title = (addition.title ?? '').replace(/\s+/gu, ' ').trim();
  const named = title !== '' && normaliseTitle(title) !== normaliseTitle(older.title) ? ` · 「${title}」` : '';
  const out = [`补充(${when.date} ${when.time}${named}):`];
  const summary = normaliseNewlines(addition.summary).trim();
  if (summary !== '' && !said.includes(flatText(summary))) out.push(...summary.split('\n'));
  const body = normaliseNewlines(addition.body).trim();
  if (body !== '') out.push(...body.split('\n').map((l) => l.trimEnd()));
  const missing = addition.tags.filter((t) => !older.tags.includes(t));
  if (tagsInParagraph && missing.length > 0) out.push(`(标签:${missing.join('、')})`);
  return out;
}

/** `raw` (the older memory's file) with the addition appended to its body. */
export function withMergedParagraph(raw: string, path: string, addition: MergeAddition, when: { date: string; time: string }): string {
  const markdown = path.toLowerCase().endsWith('.md');
  const l = splitKeepingEnds(raw);
  const close = markdown ? frontMatterEnd(l) : -1;
  const start = close > 0 ? close + 1 : 0;
  let last = l.text.length - 1;
  while (last >= start && isBlank(l.text[last]!)) last--;
  // Front matter carries the metadata of a .md; otherwise a Meta line, then a Tag line, close the file.
  if (close < 0 && last > start && META_LINE_RE.test(l.text[last]!)) {
    last--;
    while (last >= start && isBlank(l.text[last]!)) last--;
  }
  const tagIdx = last >= start && isTagLine(l.text[last]!) ? last : -1;
  let bodyEnd = tagIdx >= 0 ? tagIdx - 1 : last;
  while (bodyEnd >= start && isBlank(l.text[bodyEnd]!)) bodyEnd--;

  const tagLine = close < 0 && tagIdx >= 0;
  const older = parseDiaryText(raw, { root: 'diary', path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
  const olderTags = older.tags;
  const paragraph = mergeParagraph(addition, { text: raw, title: older.title, tags: olderTags }, when, !tagLine);
  if (tagLine) {
    const missing = addition.tags.filter((t) => !olderTags.includes(t));
    if (missing.length > 0) l.text[tagIdx] = `${l.text[tagIdx]!.trimEnd()}, ${missing.join(', ')}`;
  }
  const at = bodyEnd + 1;
  const next = l.text[at];
  splice(l, at, at, [...(at > 0 ? [''] : []), ...paragraph, ...(next !== undefined && !isBlank(next) ? [''] : [])]);
  return joinLines(l);
}
