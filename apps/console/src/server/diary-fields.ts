// A .txt diary memory as the fields the editor shows — title, tags, body, kind, goal — and back. The file
// stays the source of truth: the fields are read with the engine's own rules (parseDiaryParts,
// isTagLine, isMetaLine), and a save splices only the lines of the fields that changed into the
// file's text, so everything else keeps its bytes (BOM, CRLF, an anchor written 【09：30】, a
// `Tags：a、b` line, the Meta line). Kind and goal live in the Meta line: a change of them rewrites
// only that line's kind / goal keys. Unchanged fields give back the text byte for byte. Pure.
// A .md without front matter is read the same way (`markdown`): its title line may be a `# heading`,
// whose marker and closing hashes stay as written. A .md with front matter: md-fields.ts.
import { DEFAULT_META, isMetaLine, isTagLine, normaliseGoal, parseDiaryParts, parseMetaFields, splitTags, withLayoutOf, withoutClosingHashes, withTxtMeta } from '@engram/engine';

export interface DiaryFields {
  title: string;
  tags: string[];
  /** Everything between the title line and the Tag line: the `> summary` paragraph and the text. */
  body: string;
  /** The Meta line's kind as written and its goal, when it has them; absent in a save = left as they are. */
  kind?: string;
  goal?: string;
}

/** Which field a save cannot keep, and why (the editor shows it under that field, in the reader's language). */
export type FieldProblem = { field: 'title' | 'body' | 'kind'; code: 'title-empty' | 'title-reads-as-other' | 'body-reads-as-tags' | 'body-reads-as-tags-md' | 'not-kept' | 'kind-invalid' };

interface Layout {
  bom: string;
  lines: string[];
  titleIdx: number;
  /** The anchor and spacing before the title on its line (`[09:30] `, `# `), kept as written. */
  titlePrefix: string;
  /** What follows the title on its line: a heading's closing hashes (` ##`) in a .md. */
  titleSuffix: string;
  tagIdx: number;
  /** Body lines [bodyStart, bodyEnd), blank lines around them excluded. */
  bodyStart: number;
  bodyEnd: number;
  fields: DiaryFields;
}

const blank = (s: string | undefined) => s === undefined || s.trim() === '';

/** The anchor of a title line as the engine's ANCHOR_RE takes it (nothing inside the brackets closes them). */
const ANCHOR_HEAD = /^\s*[[［【][^\]］】]*[\]］】]\s*/;

function layoutOf(raw: string, markdown: boolean): Layout {
  const bom = raw.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const lines = raw.slice(bom.length).replace(/\r\n?/g, '\n').split('\n');
  const parts = parseDiaryParts(raw, { markdown });
  let first = 0;
  while (first < lines.length && blank(lines[first])) first++;
  let last = lines.length - 1;
  while (last >= 0 && blank(lines[last])) last--;
  // The engine reads an optional Meta line last, the Tag line before it, the title line first.
  let tail = last + 1;
  if (last > first && isMetaLine(lines[last]!)) {
    tail = last;
    last--;
    while (last >= first && blank(lines[last])) last--;
  }
  const tagIdx = parts.tags !== null && last >= first && isTagLine(lines[last]!) ? last : -1;
  const titleIdx = parts.lineTitle !== null ? first : -1;
  let titlePrefix = '';
  let titleSuffix = '';
  if (titleIdx >= 0) {
    const line = lines[titleIdx]!.trimEnd();
    const title = parts.lineTitle!;
    if (!markdown) titlePrefix = parts.anchored ? (title === '' ? `${line} ` : line.slice(0, line.length - title.length)) : (/^\s*/.exec(line)?.[0] ?? '');
    else {
      // After the anchor, a heading marker; before the line's end, closing hashes (the engine drops both).
      const head = (parts.anchored ? ANCHOR_HEAD.exec(line)?.[0] : /^\s*/.exec(line)?.[0]) ?? '';
      const rest = line.slice(head.length);
      const marker = /^#{1,6}\s+/.exec(rest)?.[0] ?? '';
      const kept = withoutClosingHashes(rest.slice(marker.length));
      if (kept === title && head + marker + title + rest.slice(marker.length + title.length) === line) {
        titlePrefix = title === '' && parts.anchored ? `${line} ` : head + marker;
        titleSuffix = rest.slice(marker.length + title.length);
      } else titlePrefix = title === '' ? `${line} ` : line.slice(0, Math.max(0, line.length - title.length));
    }
  }
  let bodyStart = titleIdx >= 0 ? titleIdx + 1 : first;
  let bodyEnd = tagIdx >= 0 ? tagIdx : Math.min(tail, last + 1);
  while (bodyStart < bodyEnd && blank(lines[bodyStart])) bodyStart++;
  while (bodyEnd > bodyStart && blank(lines[bodyEnd - 1])) bodyEnd--;
  return {
    bom,
    lines,
    titleIdx,
    titlePrefix,
    titleSuffix,
    tagIdx,
    bodyStart,
    bodyEnd,
    fields: { title: parts.lineTitle ?? '', tags: parts.tags ?? [], body: lines.slice(bodyStart, bodyEnd).join('\n'), ...(parts.kind ? { kind: parts.kind } : {}), ...(parts.goal ? { goal: parts.goal } : {}) },
  };
}

/** `markdown`: the text is a .md without front matter (the scanner strips a heading marker from its title). */
export interface LayoutOptions {
  markdown?: boolean;
}

/** The fields of a diary text, as the engine reads it. */
export function diaryFields(raw: string, opts: LayoutOptions = {}): DiaryFields {
  return layoutOf(raw, opts.markdown === true).fields;
}

/** The body as the editor hands it back: LF only, blank lines around it dropped (the layout puts them). */
export function tidyBody(body: string): string[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  let a = 0;
  let b = lines.length;
  while (a < b && blank(lines[a])) a++;
  while (b > a && blank(lines[b - 1])) b--;
  return lines.slice(a, b);
}

/** Titles are single lines: runs of whitespace read as one space. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * `raw` with the fields put in: the title on its line after the anchor, the tags on the Tag line
 * (its key and separator as written), the body between them. Returns `raw` itself when nothing
 * changed; otherwise the new text with the file's BOM and line endings, or the field the engine
 * would not read back as it was typed.
 */
export function withDiaryFields(raw: string, next: DiaryFields, opts: LayoutOptions = {}): { text: string } | { problem: FieldProblem } {
  const markdown = opts.markdown === true;
  const l = layoutOf(raw, markdown);
  const title = oneLine(next.title);
  const tags = splitTags(next.tags.join(','));
  const body = tidyBody(next.body);
  if (title === '' && l.fields.title !== '') return { problem: { field: 'title', code: 'title-empty' } };
  const titleChanged = title !== oneLine(l.fields.title);
  const tagsChanged = !sameList(tags, l.fields.tags);
  const bodyChanged = body.join('\n') !== l.fields.body;
  const kind = next.kind === undefined ? l.fields.kind ?? '' : next.kind.trim();
  const goal = next.goal === undefined ? l.fields.goal ?? '' : normaliseGoal(next.goal);
  if (kind !== '' && !/^[^\s;=,]{1,200}$/.test(kind)) return { problem: { field: 'kind', code: 'kind-invalid' } };
  const metaChanged = kind !== (l.fields.kind ?? '') || goal !== (l.fields.goal ?? '');
  if (!titleChanged && !tagsChanged && !bodyChanged && !metaChanged) return { text: raw };

  const lines = [...l.lines];
  // From the end, so earlier indices stay valid: tags, then body, then title.
  if (tagsChanged) {
    if (l.tagIdx >= 0 && tags.length > 0) {
      const line = lines[l.tagIdx]!;
      const key = /^[^:：]*[:：]\s*/.exec(line)?.[0] ?? 'Tag: ';
      const sep = /[,，、;；]/.exec(line.slice(key.length))?.[0] ?? ',';
      lines[l.tagIdx] = key + tags.join(sep === ',' || sep === ';' ? `${sep} ` : sep);
    } else if (l.tagIdx >= 0) {
      // No tags left: the Tag line goes, with the blank line that set it apart.
      const from = blank(lines[l.tagIdx - 1]) ? l.tagIdx - 1 : l.tagIdx;
      lines.splice(from, l.tagIdx + 1 - from);
    } else {
      const at = l.bodyEnd > l.bodyStart ? l.bodyEnd : l.titleIdx >= 0 ? l.titleIdx + 1 : l.bodyStart;
      lines.splice(at, 0, '', `Tag: ${tags.join(', ')}`);
    }
  }
  if (bodyChanged) {
    if (l.bodyEnd > l.bodyStart) {
      if (body.length > 0) lines.splice(l.bodyStart, l.bodyEnd - l.bodyStart, ...body);
      else {
        // The body is emptied: its lines go, and one of the two blank lines that framed it.
        const extra = blank(lines[l.bodyStart - 1]) && blank(lines[l.bodyEnd]) && l.bodyEnd < lines.length ? 1 : 0;
        lines.splice(l.bodyStart, l.bodyEnd - l.bodyStart + extra);
      }
    } else if (body.length > 0) {
      const at = l.titleIdx >= 0 ? l.titleIdx + 1 : l.bodyStart;
      const after = blank(lines[at]) || at >= lines.length ? [] : [''];
      lines.splice(at, 0, ...(at > 0 ? [''] : []), ...body, ...after);
    }
  }
  if (titleChanged) {
    if (l.titleIdx >= 0) lines[l.titleIdx] = l.titlePrefix + title + l.titleSuffix;
    else lines.splice(l.bodyStart, 0, markdown ? `# ${title}` : title, '');
  }
  let text = withLayoutOf(raw, l.bom + lines.join('\n'));
  if (metaChanged) {
    // The other keys of the Meta line (workspace, session, pin…) are kept as they are.
    const metaLine = [...text.split(/\r\n|\n|\r/)].reverse().find((line) => line.trim() !== '');
    const current = metaLine !== undefined && isMetaLine(metaLine) ? parseMetaFields(metaLine.replace(/^\s*[^:：]*[:：]\s*/, '')).meta : { ...DEFAULT_META, supersedes: [] };
    text = withTxtMeta(text, { ...current, kind, goal });
  }

  // Read back with the engine's rules: what was typed must be what the engine will read.
  const back = layoutOf(text, markdown).fields;
  if (oneLine(back.title) !== title) return { problem: { field: 'title', code: title === '' ? 'title-empty' : 'title-reads-as-other' } };
  if (!sameList(back.tags, tags)) return { problem: { field: 'body', code: 'body-reads-as-tags' } };
  if (back.body !== body.join('\n')) return { problem: { field: 'body', code: 'not-kept' } };
  if ((back.kind ?? '') !== kind || (back.goal ?? '') !== goal) return { problem: { field: 'kind', code: 'not-kept' } };
  return { text };
}
