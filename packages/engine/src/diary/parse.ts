// Turns one diary / legacy file into a ParsedDocument. Pure: no I/O, never throws.
//
// .txt layout (metadata lives inside the text so that what gets embedded is the real content):
//   [HH:MM] title
//   > one-paragraph summary
//   body …
//   Tag: a, b
// .md with YAML front matter is the legacy layout; both end up in the same shape.
import type { ParsedDocument } from '../types.ts';
import { isValidYmd, localDateString, parseDateTimeValue, hhmm, ymd } from './dates.ts';
import { fmString, parseFrontMatter, type FrontMatterValue } from './frontmatter.ts';
import { cleanInline, titleKey } from './sanitize.ts';
import { DEFAULT_META, META_LINE_RE, metaFromFrontMatter, parseMetaFields, type MemoryMeta, type SummarySource } from './meta.ts';

export interface DiaryParseInfo {
  root: 'diary' | 'legacy';
  /** Relative to the root; either slash direction. */
  path: string;
  mtimeMs: number;
  size: number;
  archiveFolder: string;
  requireTag: boolean;
  timePrefix: boolean;
}

/** Characters of body used as summary when a file has no `> summary` paragraph. */
export const SUMMARY_FALLBACK_CHARS = 160;

/** `[HH:MM] rest`, tolerant of full-width brackets/colons and an optional date inside the brackets. */
// The `s` flag: lines are already split on line feeds, and without it one U+2028 / U+2029 inside a
// line (which `.` does not match) made the whole line unrecognised — a Tag line lost every tag.
const ANCHOR_RE = /^[[［【]\s*(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[T\s]+)?(\d{1,2})\s*[:：]\s*(\d{1,2})(?:[:：]\d{2})?\s*[\]］】]\s*(.*)$/s;
/** `Tag: a, b` / `Tags：a、b` / `标签: a；b` (the key is case-insensitive). */
const TAG_LINE_RE = /^\s*(?:tags?|标签)\s*[:：]\s*(.*)$/is;
const TAG_SEPARATORS = /[,，、;；]/;
const SUMMARY_LINE_RE = /^\s{0,3}>/;
const H1_RE = /^#\s+(\S.*)$/s;

export const isTagLine = (line: string): boolean => TAG_LINE_RE.test(line);

/**
 * "Title ##" → "Title" (markdown closing sequence: hashes preceded by whitespace). Written as a scan
 * because the obvious regex backtracks quadratically on long whitespace runs.
 */
export function withoutClosingHashes(s: string): string {
  const t = s.trimEnd();
  let i = t.length;
  while (i > 0 && t[i - 1] === '#') i--;
  if (i === t.length || i === 0 || !/\s/.test(t[i - 1]!)) return t;
  return t.slice(0, i).trimEnd();
}

/**
 * Splits a tag list on , ， 、 ; ； — control and invisible characters removed, trimmed, empties
 * and duplicates dropped, order kept.
 */
export function splitTags(s: string): string[] {
  const out: string[] = [];
  for (const part of s.split(TAG_SEPARATORS)) {
    const t = cleanInline(part).text.trim();
    if (t !== '' && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Tags from a front-matter value or a tag line; always a clean list. */
export function normaliseTags(tags: readonly string[]): string[] {
  return splitTags(tags.join(','));
}

/**
 * How titles are compared for duplicates: NFKC (full-width and compatibility forms folded),
 * zero-width, bidi and control characters removed, whitespace collapsed, trimmed — titles that
 * look the same are the same title.
 */
export function normaliseTitle(title: string): string {
  return titleKey(title);
}

/** BOM dropped, CRLF / lone CR turned into LF. */
export function normaliseNewlines(text: string): string {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return t.replace(/\r\n?/g, '\n');
}

/** A diary's first-line anchor, if the line has one. `time` is null when the numbers are out of range. */
export function parseAnchorLine(line: string): { time: string | null; rest: string } | null {
  const m = ANCHOR_RE.exec(line.trim());
  if (!m) return null;
  return { time: hhmm(Number(m[1]), Number(m[2])), rest: m[3]!.trim() };
}

export interface FileNameInfo {
  /** YYYY-MM-DD from a `YYYY-MM-DD…` / `YYYYMMDD…` prefix. */
  date: string | null;
  /** Hex id (8–32 chars, or a UUID) at the end of a dated name, lower-cased. */
  id: string | null;
  /** What is left of the name, as a human title. */
  titleHint: string;
}

const ID_TAIL_RE = /(?:^|[-_\s])([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{8,32})$/i;

export function parseFileName(fileName: string): FileNameInfo {
  const base = fileName.replace(/\.[A-Za-z0-9]{1,8}$/, '');
  let date: string | null = null;
  let rest = base;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?=$|[-_\s.])/.exec(base) ?? /^(\d{4})(\d{2})(\d{2})(?=$|[-_\s.])/.exec(base);
  if (m && isValidYmd(Number(m[1]), Number(m[2]), Number(m[3]))) {
    date = ymd(Number(m[1]), Number(m[2]), Number(m[3]));
    rest = base.slice(m[0].length).replace(/^[-_\s.]+/, '');
  }
  let id: string | null = null;
  if (date !== null) {
    const idm = ID_TAIL_RE.exec(rest);
    if (idm) {
      id = idm[1]!.toLowerCase();
      rest = rest.slice(0, rest.length - idm[0].length);
    }
  }
  const titleHint = rest.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return { date, id, titleHint };
}

interface SplitPath {
  path: string;
  fileName: string;
  category: string;
  archived: boolean;
  ext: string;
}

function splitPath(info: DiaryParseInfo): SplitPath {
  const path = String(info.path ?? '').replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/^\/+/, '');
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  const fileName = segments.pop() ?? '';
  const ext = /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  let dirs = segments;
  let archived = false;
  if (info.root === 'legacy' && dirs[0] === 'documents' && (dirs[1] === 'active' || dirs[1] === 'archived')) {
    archived = dirs[1] === 'archived';
    dirs = dirs.slice(2);
  } else if (info.archiveFolder && dirs[0] === info.archiveFolder) {
    archived = true;
    dirs = dirs.slice(1);
  }
  return { path, fileName, category: dirs.join('/'), archived, ext };
}

/** The first ~160 characters of the body, whitespace collapsed (used when there is no summary). */
export function summaryFromBody(body: string, chars = SUMMARY_FALLBACK_CHARS): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  const cps = Array.from(flat);
  return cps.length <= chars ? flat : `${cps.slice(0, chars).join('')}…`;
}

/** Drops leading blank lines and trailing whitespace (inner layout is the author's). */
function tidyBody(lines: string[]): string {
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start++;
  return lines.slice(start).join('\n').trimEnd();
}

const isBlank = (l: string): boolean => l.trim() === '';

export function parseDiaryText(raw: string, info: DiaryParseInfo): ParsedDocument {
  const text = typeof raw === 'string' ? raw : String(raw);
  try {
    return parseUnsafe(text, info);
  } catch (e) {
    // Defence in depth: a parser bug must not take the whole scan down.
    const sp = { path: String(info?.path ?? '') };
    return {
      root: info?.root === 'legacy' ? 'legacy' : 'diary',
      path: sp.path,
      title: sp.path,
      date: localDateString(info?.mtimeMs ?? 0),
      time: null,
      category: '',
      summary: '',
      tags: [],
      body: text,
      raw: text,
      archived: false,
      warnings: [`${sp.path}:1: could not be parsed (${e instanceof Error ? e.message : String(e)})`],
      embeddedId: null,
      meta: { ...DEFAULT_META, supersedes: [] },
      summarySource: 'none',
      mtimeMs: Number(info?.mtimeMs) || 0,
      size: Number(info?.size) || 0,
    };
  }
}

function parseUnsafe(raw: string, info: DiaryParseInfo): ParsedDocument {
  const sp = splitPath(info);
  const lines = normaliseNewlines(raw).split('\n');
  const fileInfo = parseFileName(sp.fileName);
  const warnings: string[] = [];
  const warn = (line: number, msg: string): void => {
    warnings.push(`${sp.path}:${line}: ${msg}`);
  };

  const fields =
    sp.ext === 'md' ? parseMarkdownLines(lines, info, fileInfo, warn) : parseTxtLines(lines, info, fileInfo, warn, false);

  return {
    root: info.root === 'legacy' ? 'legacy' : 'diary',
    path: sp.path,
    title: fields.title,
    date: fields.date ?? fileInfo.date ?? localDateString(info.mtimeMs),
    time: fields.time,
    category: sp.category,
    summary: fields.summary,
    tags: fields.tags,
    body: fields.body,
    raw,
    archived: sp.archived,
    warnings,
    embeddedId: fields.embeddedId ?? fileInfo.id,
    meta: fields.meta,
    summarySource: fields.meta.summary ?? (fields.summaryFound ? 'manual' : 'none'),
    mtimeMs: Number.isFinite(info.mtimeMs) ? info.mtimeMs : 0,
    size: Number.isFinite(info.size) ? info.size : 0,
  };
}

interface Fields {
  title: string;
  /** Text of the title line as written (null when there is no title line). */
  lineTitle: string | null;
  anchored: boolean;
  summaryFound: boolean;
  tagLineFound: boolean;
  time: string | null;
  date: string | null;
  summary: string;
  tags: string[];
  body: string;
  embeddedId: string | null;
  meta: MemoryMeta;
}

type Warn = (line: number, msg: string) => void;

function parseTxtLines(lines: string[], info: DiaryParseInfo, fileInfo: FileNameInfo, warn: Warn, markdownHeadings: boolean): Fields {
  let first = 0;
  while (first < lines.length && isBlank(lines[first]!)) first++;
  let last = lines.length - 1;
  while (last >= 0 && isBlank(lines[last]!)) last--;

  const fallbackTitle = fileInfo.titleHint || '无题';
  if (first > last) {
    warn(1, 'empty file');
    return {
      title: fallbackTitle, lineTitle: null, anchored: false, summaryFound: false, tagLineFound: false,
      time: null, date: null, summary: '', tags: [], body: '', embeddedId: null, meta: { ...DEFAULT_META, supersedes: [] },
    };
  }

  // An optional `Meta:` line closes the file, after the Tag line.
  let meta: MemoryMeta = { ...DEFAULT_META, supersedes: [] };
  if (last > first && META_LINE_RE.test(lines[last]!)) {
    const parsed = parseMetaFields(META_LINE_RE.exec(lines[last]!)![1]!);
    meta = parsed.meta;
    for (const p of parsed.problems) warn(last + 1, `Meta line: ${p}`);
    last--;
    while (last >= first && isBlank(lines[last]!)) last--;
  }
  const tagIdx = last >= first && TAG_LINE_RE.test(lines[last]!) ? last : -1;
  const end = tagIdx >= 0 ? tagIdx : last + 1;
  let cursor = first;
  let title = '';
  let lineTitle: string | null = null;
  let anchored = false;
  let time: string | null = null;

  const firstLine = lines[first]!;
  if (first !== tagIdx && !SUMMARY_LINE_RE.test(firstLine)) {
    cursor = first + 1;
    const anchor = parseAnchorLine(firstLine);
    if (anchor) {
      anchored = true;
      time = anchor.time;
      title = anchor.rest;
      if (anchor.time === null) warn(first + 1, 'invalid [HH:MM] anchor (hour 0-23, minute 0-59)');
    } else {
      title = firstLine.trim();
      if (info.timePrefix) warn(first + 1, 'missing [HH:MM] anchor');
    }
    if (markdownHeadings) title = withoutClosingHashes(title.replace(/^#{1,6}\s+/, ''));
    lineTitle = title;
    if (title === '') {
      title = fallbackTitle;
      warn(first + 1, 'missing title after the anchor; using the file name');
    }
  } else {
    title = fallbackTitle;
    warn(first + 1, 'missing title line; using the file name');
  }

  while (cursor < end && isBlank(lines[cursor]!)) cursor++;
  let summary = '';
  let summaryFound = false;
  const summaryLine = cursor + 1;
  if (cursor < end && SUMMARY_LINE_RE.test(lines[cursor]!)) {
    const parts: string[] = [];
    while (cursor < end && SUMMARY_LINE_RE.test(lines[cursor]!)) {
      parts.push(lines[cursor]!.replace(/^\s{0,3}>\s?/, ''));
      cursor++;
    }
    summary = parts.join('\n').trim();
    summaryFound = summary !== '';
  }

  const body = tidyBody(lines.slice(cursor, end));
  if (!summaryFound) {
    summary = summaryFromBody(body);
    warn(summaryLine, `missing "> summary" paragraph; using the first ${SUMMARY_FALLBACK_CHARS} characters of the body`);
  }

  let tags: string[] = [];
  if (tagIdx >= 0) {
    tags = splitTags(TAG_LINE_RE.exec(lines[tagIdx]!)![1]!);
    if (tags.length === 0 && info.requireTag) warn(tagIdx + 1, 'empty Tag line');
  } else if (info.requireTag) {
    warn(last + 1, 'missing "Tag: …" line at the end');
  }

  return { title, lineTitle, anchored, summaryFound, tagLineFound: tagIdx >= 0, time, date: null, summary, tags, body, embeddedId: null, meta };
}

/** The structure of a .txt diary text, without fallbacks: what is there and what is not. */
export interface DiaryParts {
  /** First line carried a [HH:MM] anchor. */
  anchored: boolean;
  time: string | null;
  /** Text of the title line (after the anchor); null when the text starts with the summary or Tag line. */
  lineTitle: string | null;
  summary: string | null;
  body: string;
  tags: string[] | null;
  /** kind and goal of a closing `Meta:` line ('' when there is none or it has none). */
  kind: string;
  goal: string;
}

/**
 * `markdown`: the text of a .md without a closed front matter, which the scanner reads the same way
 * except that the title line's `# ` marker and closing hashes are not part of the title.
 */
export function parseDiaryParts(text: string, opts: { markdown?: boolean } = {}): DiaryParts {
  const lines = normaliseNewlines(String(text)).split('\n');
  const info: DiaryParseInfo = { root: 'diary', path: '', mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false };
  const f = parseTxtLines(lines, info, { date: null, id: null, titleHint: '' }, () => {}, opts.markdown === true);
  return {
    anchored: f.anchored,
    time: f.time,
    lineTitle: f.lineTitle,
    summary: f.summaryFound ? f.summary : null,
    body: f.body,
    tags: f.tagLineFound ? f.tags : null,
    kind: f.meta.kind,
    goal: f.meta.goal,
  };
}

function parseMarkdownLines(lines: string[], info: DiaryParseInfo, fileInfo: FileNameInfo, warn: Warn): Fields {
  const fm = parseFrontMatter(lines);
  if (!fm) {
    if (lines[0]?.trimEnd() === '---') warn(1, 'front matter is not closed with ---; read as plain text');
    return parseTxtLines(lines, { ...info, timePrefix: false }, fileInfo, warn, true);
  }
  const data = fm.data;
  const get = (...keys: string[]): FrontMatterValue | undefined => {
    for (const k of keys) if (data[k] !== undefined && fmString(data[k]) !== '') return data[k];
    return undefined;
  };

  let bodyLines = lines.slice(fm.bodyStartLine);
  let title = fmString(get('title')).replace(/\s+/g, ' ').trim();

  // A leading H1 repeating the title (or standing in for a missing one) is not body.
  let h1Idx = 0;
  while (h1Idx < bodyLines.length && isBlank(bodyLines[h1Idx]!)) h1Idx++;
  const h1 = h1Idx < bodyLines.length ? H1_RE.exec(bodyLines[h1Idx]!.trim()) : null;
  // "# Title #" (closing hashes) and "# C#" both count as the title.
  const h1Text = h1 ? h1[1]!.trim() : '';
  const h1Variants = [h1Text, withoutClosingHashes(h1Text)].map(normaliseTitle);
  if (h1 && (title === '' || h1Variants.includes(normaliseTitle(title)))) {
    if (title === '') title = h1Variants[1]!;
    bodyLines = bodyLines.slice(h1Idx + 1);
  }
  if (title === '') {
    title = fileInfo.titleHint || '无题';
    warn(1, 'front matter has no title; using the file name');
  }

  const tagsValue = get('tags', 'tag', '标签');
  let tags = tagsValue === undefined ? [] : Array.isArray(tagsValue) ? normaliseTags(tagsValue) : splitTags(tagsValue);

  // An old-style trailing Tag line is metadata, not body.
  let last = bodyLines.length - 1;
  while (last >= 0 && isBlank(bodyLines[last]!)) last--;
  if (last >= 0 && TAG_LINE_RE.test(bodyLines[last]!)) {
    for (const t of splitTags(TAG_LINE_RE.exec(bodyLines[last]!)![1]!)) if (!tags.includes(t)) tags.push(t);
    bodyLines = bodyLines.slice(0, last);
  }
  const body = tidyBody(bodyLines);

  let summary = fmString(get('description', 'summary', '摘要')).trim();
  const summaryFallback = summary === '';
  if (summary === '') {
    summary = summaryFromBody(body);
    warn(1, `front matter has no description; using the first ${SUMMARY_FALLBACK_CHARS} characters of the body`);
  }
  if (tags.length === 0 && info.requireTag) warn(1, 'front matter has no tags');

  let date: string | null = null;
  let time: string | null = null;
  const when = get('created_at', 'date', 'created', 'createdAt');
  if (when !== undefined) {
    const dt = parseDateTimeValue(fmString(when));
    if (dt) {
      date = dt.date;
      time = dt.time;
    } else warn(1, `unreadable date "${fmString(when).slice(0, 40)}"; using the file name or mtime`);
  }
  const id = fmString(get('id')).trim();
  const fmMeta = metaFromFrontMatter((key) => data[key]);
  for (const p of fmMeta.problems) warn(1, `front matter: ${p}`);
  return {
    title, lineTitle: title, anchored: false, summaryFound: !summaryFallback, tagLineFound: tags.length > 0,
    time, date, summary, tags, body, embeddedId: id === '' ? null : id.toLowerCase(), meta: fmMeta.meta,
  };
}
