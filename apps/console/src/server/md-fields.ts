// A .md memory as the editor's fields, and back. With a closed YAML front matter the engine reads the
// title from the `title:` key (or, without one, from a leading `# heading`; a heading repeating the key
// is not body either), the tags from `tags:` / `tag:` / `标签:` plus an old-style trailing `Tag:` line,
// kind and goal from their keys, and the body from what follows. A save splices only the lines of
// the fields that changed — the key's value in the style it is written (`"…"`, `'…'`, plain, an
// inline `[a, b]` or a block `- a` list), the heading, the body lines — so the BOM, every line ending,
// key order, quoting, comments and every other key keep their bytes. What is read back differently
// from what was typed is refused on its field. A .md without front matter is read like a .txt
// (diary-fields.ts with `markdown`). Pure.
import { isTagLine, joinLines, normaliseGoal, normaliseTitle, parseDiaryText, parseFrontMatter, scalar, splice, splitKeepingEnds, splitTags, withoutClosingHashes, type Lines } from '@engram/engine';
import { diaryFields, tidyBody, withDiaryFields, type DiaryFields, type FieldProblem } from './diary-fields.ts';

type Value = string | string[];
interface Span {
  line: number;
  end: number;
}

interface MdLayout {
  l: Lines;
  /** Index of the closing `---` / `...` line. */
  close: number;
  data: Record<string, Value>;
  spans: Record<string, Span>;
  /** The title as the `title:` key gives it ('' when the key is absent or empty). */
  keyTitle: string;
  /** The leading `# heading` the engine reads as the title (or as its repetition), -1 when none. */
  h1: number;
  /** The key the tags are read from (the first of tags / tag / 标签 with a value, else the first present). */
  tagKey: string | null;
  /** An old-style `Tag:` line closing the body, -1 when none. */
  tagLine: number;
  /** Body lines [bodyStart, bodyEnd), blank lines around them excluded. */
  bodyStart: number;
  bodyEnd: number;
  fields: DiaryFields;
}

const TAG_KEYS = ['tags', 'tag', '标签'] as const;
const H1_RE = /^#\s+(\S.*)$/s;
/** The front-matter reader's key line; group 2 is the value as written. */
const KEY_RE = /^([A-Za-z0-9_\u3400-\u9fff][\w.\-\u3400-\u9fff]*)\s*:(?:\s+(.*)|\s*)$/u;
const asString = (v: Value | undefined): string => (v === undefined ? '' : Array.isArray(v) ? v.join(', ') : v);
const blank = (s: string | undefined) => s === undefined || s.trim() === '';
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const isMarkdownPath = (path: string): boolean => path.toLowerCase().endsWith('.md');

/** The engine's own reading of a .md text (the path only tells it the layout). */
const engineRead = (raw: string) => parseDiaryText(raw, { root: 'diary', path: 'memory.md', mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });

/** The front-matter layout of a .md text; null when it has no closed front matter. */
function mdLayout(raw: string): MdLayout | null {
  const l = splitKeepingEnds(raw);
  const fm = parseFrontMatter(l.text);
  if (!fm) return null;
  const close = fm.bodyStartLine - 1;
  const { data, spans } = fm;
  const has = (k: string) => data[k] !== undefined && asString(data[k]) !== '';
  // As parseMarkdownLines: the key's title, else a leading H1; an H1 repeating the key's title is not body.
  const keyTitle = has('title') ? oneLine(asString(data.title)) : '';
  let first = close + 1;
  while (first < l.text.length && blank(l.text[first])) first++;
  let h1 = -1;
  const m = first < l.text.length ? H1_RE.exec(l.text[first]!.trim()) : null;
  if (m) {
    const text = m[1]!.trim();
    const variants = [text, withoutClosingHashes(text)].map(normaliseTitle);
    if (keyTitle === '' || variants.includes(normaliseTitle(keyTitle))) h1 = first;
  }
  const tagKey = TAG_KEYS.find(has) ?? TAG_KEYS.find((k) => data[k] !== undefined) ?? null;
  let bodyStart = h1 >= 0 ? h1 + 1 : close + 1;
  let last = l.text.length - 1;
  while (last >= bodyStart && blank(l.text[last])) last--;
  const tagLine = last >= bodyStart && isTagLine(l.text[last]!) ? last : -1;
  let bodyEnd = tagLine >= 0 ? tagLine : last + 1;
  while (bodyStart < bodyEnd && blank(l.text[bodyStart])) bodyStart++;
  while (bodyEnd > bodyStart && blank(l.text[bodyEnd - 1])) bodyEnd--;
  const parsed = engineRead(raw);
  const fields: DiaryFields = {
    title: keyTitle !== '' || h1 >= 0 ? parsed.title : '',
    tags: parsed.tags,
    body: l.text.slice(bodyStart, bodyEnd).join('\n'),
    ...(parsed.meta.kind ? { kind: parsed.meta.kind } : {}),
    ...(parsed.meta.goal ? { goal: parsed.meta.goal } : {}),
  };
  return { l, close, data, spans, keyTitle, h1, tagKey, tagLine, bodyStart, bodyEnd, fields };
}

type Style = 'double' | 'single' | 'plain' | 'inline' | 'empty' | 'other';

/** Where a key line's value token is ([start, end) of the line), and how it is written. */
function valueToken(line: string): { start: number; end: number; style: Style } {
  const m = KEY_RE.exec(line);
  const value = m?.[2];
  if (value === undefined) return { start: line.trimEnd().length, end: line.trimEnd().length, style: 'empty' };
  const start = line.length - value.length;
  const v = value.trimEnd();
  if (v.startsWith('"')) {
    let i = 1;
    while (i < v.length && v[i] !== '"') i += v[i] === '\\' ? 2 : 1;
    return { start, end: start + Math.min(v.length, i + 1), style: 'double' };
  }
  if (v.startsWith("'")) {
    let i = 1;
    for (; i < v.length; i++) {
      if (v[i] !== "'") continue;
      if (v[i + 1] === "'") i++;
      else break;
    }
    return { start, end: start + Math.min(v.length, i + 1), style: 'single' };
  }
  if (v.startsWith('[') && v.endsWith(']')) return { start, end: start + v.length, style: 'inline' };
  if (/^[|>][+-]?$/.test(v)) return { start, end: start + v.length, style: 'other' };
  const hash = /\s#/.exec(v);
  return { start, end: start + (hash ? v.slice(0, hash.index).trimEnd().length : v.length), style: 'plain' };
}

/** A plain scalar the reader gives back as itself, and that a full YAML reader would not take for something else. */
const plainSafe = (s: string, inList = false): boolean =>
  s !== '' && s === s.trim() && scalar(s) === s && !/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) && !/:\s|:$|\s#/.test(s) && !(inList && /[,[\]{}]/.test(s));

function quoted(s: string, style: Style, inList = false): string {
  if (style === 'single') return `'${s.replace(/'/g, "''")}'`;
  if (style === 'plain' && plainSafe(s, inList)) return s;
  return JSON.stringify(s);
}

/** One replacement of lines [from, to); replaced lines keep their own terminators, position by position. */
interface Edit {
  from: number;
  to: number;
  lines: string[];
}

function apply(l: Lines, edits: Edit[]): void {
  // From the bottom up, so the indices of the edits above stay valid.
  for (const e of [...edits].sort((a, b) => b.from - a.from || b.to - a.to)) {
    const ends = l.eol.slice(e.from, e.to);
    splice(l, e.from, e.to, e.lines);
    for (let k = 0; k < Math.min(ends.length, e.lines.length); k++) if (ends[k] !== '') l.eol[e.from + k] = ends[k]!;
  }
}

/** The edit setting a key's scalar value (`value` '' with `drop` removes the key), in the style it is written. */
function scalarEdit(md: MdLayout, key: string, value: string, drop: boolean): Edit {
  const span = md.spans[key]!;
  if (drop && value === '') return { from: span.line, to: span.end, lines: [] };
  const line = md.l.text[span.line]!;
  const t = valueToken(line);
  const style = t.style === 'inline' || t.style === 'other' || (t.style === 'empty' && span.end > span.line + 1) ? 'double' : t.style === 'empty' ? 'plain' : t.style;
  const written = value === '' && style === 'plain' ? '""' : quoted(value, style);
  const head = t.style === 'empty' ? `${line.slice(0, t.start)} ` : line.slice(0, t.start);
  return { from: span.line, to: span.end, lines: [head + written + line.slice(t.end)] };
}

/** Where a new key goes: after the title key when there is one, else before the closing line. */
const newKeyAt = (md: MdLayout): number => (md.spans.title ? md.spans.title.end : md.close);

function tagEdits(md: MdLayout, tags: string[]): Edit[] {
  const edits: Edit[] = [];
  const { l } = md;
  if (md.tagKey !== null) {
    const span = md.spans[md.tagKey]!;
    const line = l.text[span.line]!;
    const t = valueToken(line);
    if (t.style === 'empty' && span.end > span.line + 1) {
      // A block list: each item line keeps the first one's indent, dash and quoting.
      const item = l.text[span.line + 1]!;
      const dash = /^\s*-\s*/.exec(item)![0];
      const style = valueToken(`k: ${item.slice(dash.length)}`).style;
      edits.push({ from: span.line + 1, to: span.end, lines: tags.map((tag) => (dash.endsWith(' ') ? dash : `${dash} `) + quoted(tag, style === 'double' || style === 'single' ? style : 'plain')) });
    } else if (t.style === 'inline') {
      const inner = line.slice(t.start + 1, t.end - 1);
      const style = /^\s*"/.test(inner) ? 'double' : /^\s*'/.test(inner) ? 'single' : 'plain';
      const sep = inner.includes(',') && !/,\s/.test(inner) ? ',' : ', ';
      edits.push({ from: span.line, to: span.end, lines: [`${line.slice(0, t.start)}[${tags.map((tag) => quoted(tag, style, true)).join(sep)}]${line.slice(t.end)}`] });
    } else if (t.style === 'double' || t.style === 'single' || t.style === 'plain') {
      // A string of tags: the separator as written.
      const sep = /[,，、;；]/.exec(asString(md.data[md.tagKey]))?.[0] ?? ',';
      const joined = tags.join(sep === ',' || sep === ';' ? `${sep} ` : sep);
      const written = joined === '' && t.style === 'plain' ? '[]' : quoted(joined, t.style);
      edits.push({ from: span.line, to: span.end, lines: [line.slice(0, t.start) + written + line.slice(t.end)] });
    } else {
      const head = t.style === 'empty' ? `${line.slice(0, t.start)} ` : line.slice(0, t.start);
      edits.push({ from: span.line, to: span.end, lines: [`${head}[${tags.map((tag) => JSON.stringify(tag)).join(', ')}]`] });
    }
    // Every tag is in the key now: an old-style Tag line would only repeat (or re-add) them.
    if (md.tagLine >= 0) edits.push(dropLine(md, md.tagLine));
  } else if (md.tagLine >= 0) {
    const line = l.text[md.tagLine]!;
    if (tags.length === 0) edits.push(dropLine(md, md.tagLine));
    else {
      const key = /^[^:：]*[:：]\s*/.exec(line)?.[0] ?? 'Tag: ';
      const sep = /[,，、;；]/.exec(line.slice(key.length))?.[0] ?? ',';
      edits.push({ from: md.tagLine, to: md.tagLine + 1, lines: [key + tags.join(sep === ',' || sep === ';' ? `${sep} ` : sep)] });
    }
  } else if (tags.length > 0) {
    const at = newKeyAt(md);
    edits.push({ from: at, to: at, lines: [`tags: [${tags.map((tag) => JSON.stringify(tag)).join(', ')}]`] });
  }
  return edits;
}

/** Removes a line closing the body, with the blank line that set it apart. */
function dropLine(md: MdLayout, i: number): Edit {
  const from = i - 1 > md.close && blank(md.l.text[i - 1]) && i - 1 >= md.bodyEnd ? i - 1 : i;
  return { from, to: i + 1, lines: [] };
}

/**
 * `withKey`: also write the title into the `title:` key when it lives only in the heading — the engine
 * reads a heading-only title folded (NFKC: `：` as `:`), a key's as written, and a heading repeating
 * the key's title stays the title's heading.
 */
function titleEdits(md: MdLayout, title: string, withKey = false): Edit[] {
  const edits: Edit[] = [];
  const { l } = md;
  if (md.h1 >= 0) {
    // The heading keeps its marker, its closing hashes (when they were not part of the title) and trailing spaces.
    const line = l.text[md.h1]!;
    const lead = /^\s*#\s+/.exec(line)![0];
    const rest = line.slice(lead.length).trimEnd();
    const kept = withoutClosingHashes(rest);
    const closing = kept !== rest && normaliseTitle(kept) === normaliseTitle(md.fields.title) ? rest.slice(kept.length) : '';
    edits.push({ from: md.h1, to: md.h1 + 1, lines: [lead + title + closing + line.slice(line.trimEnd().length)] });
  }
  if (md.keyTitle !== '' || ((md.h1 < 0 || withKey) && md.spans.title)) edits.push(scalarEdit(md, 'title', title, false));
  else if (md.h1 < 0 || withKey) edits.push({ from: 1, to: 1, lines: [`title: ${JSON.stringify(title)}`] });
  return edits;
}

function bodyEdits(md: MdLayout, body: string[]): Edit[] {
  const { l } = md;
  if (md.bodyEnd > md.bodyStart) {
    if (body.length > 0) return [{ from: md.bodyStart, to: md.bodyEnd, lines: body }];
    // The body is emptied: its lines go, and one of the two blank lines that framed it.
    const extra = blank(l.text[md.bodyStart - 1]) && md.bodyEnd < l.text.length && blank(l.text[md.bodyEnd]) ? 1 : 0;
    return [{ from: md.bodyStart, to: md.bodyEnd + extra, lines: [] }];
  }
  if (body.length === 0) return [];
  const at = md.h1 >= 0 ? md.h1 + 1 : md.close + 1;
  const after = at >= l.text.length || blank(l.text[at]) ? [] : [''];
  return [{ from: at, to: at, lines: ['', ...body, ...after] }];
}

/** Kind and goal keys: changed where they are, removed when emptied, added before the closing line. */
function metaEdits(md: MdLayout, kind: string, goal: string): Edit[] {
  const edits: Edit[] = [];
  const add: string[] = [];
  for (const [key, value, before] of [['kind', kind, md.fields.kind ?? ''], ['goal', goal, md.fields.goal ?? '']] as const) {
    if (value === before) continue;
    if (md.spans[key]) edits.push(scalarEdit(md, key, value, true));
    else if (value !== '') add.push(`${key}: ${JSON.stringify(value)}`);
  }
  if (add.length > 0) edits.push({ from: md.close, to: md.close, lines: add });
  return edits;
}


/** The fields of a .md text with front matter (null without one). */
export function markdownFields(raw: string): DiaryFields | null {
  return mdLayout(raw)?.fields ?? null;
}

/** `raw` (a .md with front matter) with the fields put in; see withDiaryFields for the contract. */
export function withMarkdownFields(raw: string, next: DiaryFields): { text: string } | { problem: FieldProblem } | null {
  const md = mdLayout(raw);
  if (!md) return null;
  const title = oneLine(next.title);
  const tags = splitTags(next.tags.join(','));
  const body = tidyBody(next.body);
  if (title === '' && md.fields.title !== '') return { problem: { field: 'title', code: 'title-empty' } };
  const kind = next.kind === undefined ? md.fields.kind ?? '' : next.kind.trim();
  const goal = next.goal === undefined ? md.fields.goal ?? '' : normaliseGoal(next.goal);
  if (kind !== '' && !/^[^\s;=,]{1,200}$/.test(kind)) return { problem: { field: 'kind', code: 'kind-invalid' } };
  const titleChanged = title !== oneLine(md.fields.title);
  const tagsChanged = !sameList(tags, md.fields.tags);
  const bodyChanged = body.join('\n') !== md.fields.body;
  const metaChanged = kind !== (md.fields.kind ?? '') || goal !== (md.fields.goal ?? '');
  if (!titleChanged && !tagsChanged && !bodyChanged && !metaChanged) return { text: raw };

  const write = (titleKey: boolean): string => {
    const edits = [
      ...(titleChanged ? titleEdits(md, title, titleKey) : []),
      ...(tagsChanged ? tagEdits(md, tags) : []),
      ...(bodyChanged ? bodyEdits(md, body) : []),
      ...(metaChanged ? metaEdits(md, kind, goal) : []),
    ];
    const l = { ...md.l, text: [...md.l.text], eol: [...md.l.eol] };
    apply(l, edits);
    return joinLines(l);
  };
  let text = write(false);
  // Read back with the engine's rules: what was typed must be what the engine will read.
  let back = mdLayout(text)?.fields;
  if (back && oneLine(back.title) !== title && titleChanged && md.keyTitle === '' && md.h1 >= 0) {
    text = write(true);
    back = mdLayout(text)?.fields;
  }
  if (!back || oneLine(back.title) !== title) return { problem: { field: 'title', code: title === '' ? 'title-empty' : 'title-reads-as-other' } };
  // With front matter the tags are its key's: a Tag-like last body line is added to them, whatever they are.
  if (!sameList(back.tags, tags)) return { problem: { field: 'body', code: 'body-reads-as-tags-md' } };
  if (back.body !== body.join('\n')) return { problem: { field: 'body', code: 'not-kept' } };
  if ((back.kind ?? '') !== kind || (back.goal ?? '') !== goal) return { problem: { field: 'kind', code: 'not-kept' } };
  return { text };
}

/** `front-matter`: a .md whose fields are YAML keys; `lines`: a .txt, or a .md without front matter. */
export type FieldsLayout = 'lines' | 'front-matter';

export const memoryLayoutOf = (path: string, raw: string): FieldsLayout => (isMarkdownPath(path) && mdLayout(raw) !== null ? 'front-matter' : 'lines');

/** The fields of a memory's text, by its file's layout. */
export function memoryFieldsOf(path: string, raw: string): DiaryFields {
  if (!isMarkdownPath(path)) return diaryFields(raw);
  return markdownFields(raw) ?? diaryFields(raw, { markdown: true });
}

/** A memory's text with the fields put in, by its file's layout. */
export function withMemoryFields(path: string, raw: string, next: DiaryFields): { text: string } | { problem: FieldProblem } {
  if (!isMarkdownPath(path)) return withDiaryFields(raw, next);
  return withMarkdownFields(raw, next) ?? withDiaryFields(raw, next, { markdown: true });
}
