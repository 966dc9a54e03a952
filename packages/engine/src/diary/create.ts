// Creating a diary entry: the caller's fields cleaned, the entry's title, date, time, summary, body and
// tags decided (composeEntry, pure), and the file written exclusively under a name no other entry has.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isDateString, localDateString, localTimeString } from './dates.ts';
import { DiaryError, missingDiaryDirText } from './errors.ts';
import { assertWritableSize, isDirectory } from './files.ts';
import { diaryFileName, formatDiary, formatMarkdown, normaliseTime, oneLine } from './format.ts';
import { checkRelativePath, createFileExclusive, safeJoin } from './fsio.ts';
import { docIdFor } from './ids.ts';
import { DEFAULT_META, validateMeta, withMarkdownMeta, withTxtMeta, writtenKindGoal, type MemoryMeta } from './meta.ts';
import { isTagLine, normaliseNewlines, normaliseTags, normaliseTitle, parseDiaryParts, SUMMARY_FALLBACK_CHARS } from './parse.ts';
import { cleanBlock, cleanedWarning, cleanInline } from './sanitize.ts';

export interface CreateEntryInput {
  title?: string;
  /** A full diary text (`[HH:MM] title`, `> summary`, body, `Tag: …`) or just a body. */
  content?: string;
  summary?: string;
  body?: string;
  tags?: string[];
  /** Category sub-folder, relative to the diary root. */
  folder?: string;
  /** YYYY-MM-DD; default today (local). */
  date?: string;
  /** HH:MM; default the anchor in `content`, else now (local). */
  time?: string;
  format?: 'txt' | 'md';
  /** Workspace, session, origin, pinned/locked, supersedes: written as the file's Meta line. */
  meta?: Partial<MemoryMeta>;
}

/**
 * The caller's fields with control characters, U+2028/2029, bidi overrides and lone surrogates
 * removed (and zero-width characters from the title and tags), and one warning per field changed.
 */
export function cleanEntryInput(input: CreateEntryInput): { input: CreateEntryInput; warnings: string[] } {
  const warnings: string[] = [];
  const out: CreateEntryInput = { ...input };
  const block = (value: string | undefined, zh: string, en: string): string | undefined => {
    if (typeof value !== 'string') return value;
    const c = cleanBlock(value);
    if (c.removed.length > 0) warnings.push(cleanedWarning(zh, en, c.removed));
    return c.text;
  };
  if (typeof input.title === 'string') {
    const c = cleanInline(input.title);
    if (c.removed.length > 0) warnings.push(cleanedWarning('标题', 'title', c.removed));
    out.title = c.text;
  }
  out.content = block(input.content, '内容', 'content');
  out.summary = block(input.summary, '摘要', 'summary');
  out.body = block(input.body, '正文', 'body');
  if (Array.isArray(input.tags)) {
    const removed: string[] = [];
    out.tags = input.tags.map((t) => {
      const c = cleanInline(String(t));
      removed.push(...c.removed);
      return c.text;
    });
    if (removed.length > 0) warnings.push(cleanedWarning('标签', 'tags', removed));
  }
  return { input: out, warnings };
}

export interface ComposedEntry {
  title: string;
  date: string;
  time: string;
  summary: string;
  body: string;
  tags: string[];
  /** fact / pref / lesson / task / proj (an alias folded), another word as given, or ''. */
  kind: string;
  goal: string;
  warnings: string[];
}

const TITLE_FROM_BODY_CHARS = 40;

/**
 * Decides the fields of a new entry from what the caller gave (pure). Explicit fields win; the rest
 * is inferred from `content`. Missing pieces are warnings: a half-formed diary still beats a failed
 * write that the model retries over and over.
 */
export function composeEntry(rawInput: CreateEntryInput, now: Date = new Date()): ComposedEntry {
  const { input, warnings } = cleanEntryInput(rawInput);
  const content = normaliseNewlines(input.content ?? '');
  const parts = parseDiaryParts(content);
  let title = oneLine(input.title ?? '');
  let derivedBody: string;

  const sameTitle = (a: string | null): boolean => a !== null && title !== '' && normaliseTitle(a) === normaliseTitle(title);
  // Read `content` as a structured diary when it has an anchor, starts with the summary, repeats the
  // given title, or (no title given) starts with a short line that can serve as one.
  const structured =
    parts.anchored ||
    parts.lineTitle === null ||
    sameTitle(parts.lineTitle) ||
    (title === '' && Array.from(parts.lineTitle).length <= TITLE_FROM_BODY_CHARS);
  if (structured) {
    if (title === '' && parts.lineTitle) title = parts.lineTitle;
    if (parts.lineTitle && !sameTitle(parts.lineTitle)) {
      // `[HH:MM] first paragraph…` under an explicit, different title: the line is body text.
      derivedBody = [parts.lineTitle, parts.body].filter((s) => s !== '').join('\n\n');
    } else derivedBody = parts.body;
  } else {
    // Plain body text: only a trailing Tag line is structure.
    const lines = content.split('\n');
    let last = lines.length - 1;
    while (last >= 0 && lines[last]!.trim() === '') last--;
    derivedBody = (last >= 0 && isTagLine(lines[last]!) ? lines.slice(0, last) : lines).join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  }
  const body = input.body !== undefined ? normaliseNewlines(input.body).trim() : derivedBody;

  const summary = (input.summary !== undefined && input.summary.trim() !== '' ? normaliseNewlines(input.summary) : (parts.summary ?? '')).trim();
  const tags = normaliseTags([...(parts.tags ?? []), ...(input.tags ?? [])]);

  // A title taken from the content line may still carry zero-width characters (fine in a body).
  const fromContent = cleanInline(title);
  if (fromContent.removed.length > 0) {
    title = oneLine(fromContent.text);
    warnings.push(cleanedWarning('标题', 'title', fromContent.removed));
  }
  if (title === '') {
    const firstLine = (body.split('\n').find((l) => l.trim() !== '') ?? summary).replace(/^\s*>\s?/, '');
    title = Array.from(oneLine(cleanInline(firstLine).text)).slice(0, TITLE_FROM_BODY_CHARS).join('');
    if (title === '') throw new DiaryError('invalid-input', 'the entry is empty: give a title, a body or a full diary text');
    warnings.push(`no title given; using the beginning of the body: "${title}"`);
  }
  if (body === '' && summary === '') warnings.push('the entry has a title only: no summary and no body');

  let time = normaliseTime(input.time);
  if (input.time && time === null) warnings.push(`invalid time "${input.time}" (expected HH:MM); using another source`);
  if (time === null) time = parts.time;
  if (time === null) time = localTimeString(now.getTime());

  let date = input.date?.trim() ?? '';
  if (date !== '' && !isDateString(date)) {
    warnings.push(`invalid date "${input.date}" (expected YYYY-MM-DD); using today`);
    date = '';
  }
  if (date === '') date = localDateString(now.getTime());

  if (summary === '') warnings.push(`no "> summary" paragraph; recall will use the first ${SUMMARY_FALLBACK_CHARS} characters of the body`);
  if (tags.length === 0) warnings.push('no tags: add a "Tag: a, b" line (specific names first) so the entry can be found by them');
  // kind / goal: the caller's, else those of a closing `Meta:` line in the text (its other keys are
  // the writer's to set, not the text's). A known kind or alias is written as its short name.
  const kindGoal = writtenKindGoal({ kind: input.meta?.kind ?? parts.kind, goal: input.meta?.goal ?? parts.goal });
  warnings.push(...kindGoal.warnings);
  return { title, date, time, summary, body, tags, kind: kindGoal.meta.kind ?? '', goal: kindGoal.meta.goal ?? '', warnings };
}

export interface CreateEntryResult {
  /** Relative to the diary root, forward slashes. */
  path: string;
  docId: string;
  /** The full id (its first 8 hex characters are in the file name). */
  id: string;
  title: string;
  warnings: string[];
}

/** Whether a title (normaliseTitle's key) is taken: a set, or a lookup that never lists every title. */
export interface TitleLookup {
  has(titleKey: string): boolean;
}

export async function createEntry(
  diaryDir: string,
  input: CreateEntryInput,
  existingTitles: Iterable<string> | { normalisedTitles: TitleLookup },
  options: { now?: Date } = {},
): Promise<CreateEntryResult> {
  const entry = composeEntry(input, options.now ?? new Date());
  // A caller that already holds the normalised titles passes them (5,000 titles cost ~20 ms to normalise).
  const taken = 'normalisedTitles' in existingTitles ? existingTitles.normalisedTitles : new Set([...existingTitles].map(normaliseTitle));
  if (taken.has(normaliseTitle(entry.title))) {
    throw new DiaryError(
      'title-exists',
      `a diary titled "${entry.title}" already exists; change it with an update (command: update, or the edit tool) instead of writing a second entry`,
      { title: entry.title },
    );
  }
  if (!(await isDirectory(diaryDir))) throw new DiaryError('diary-dir-missing', missingDiaryDirText(diaryDir), { path: diaryDir });

  const folderSegments = checkRelativePath(input.folder ?? '');
  if (folderSegments.some((seg) => seg.startsWith('.'))) {
    // The scanner skips dot-folders: an entry written there would silently never be recalled.
    throw new DiaryError('invalid-input', `folder "${input.folder}" is hidden (starts with "."); choose a visible folder`);
  }
  const folderAbs = safeJoin(diaryDir, folderSegments.join('/'));
  await mkdir(folderAbs, { recursive: true });
  safeJoin(diaryDir, folderSegments.join('/')); // re-check now that the folders exist

  const format = input.format ?? 'txt';
  const id = randomUUID();
  const name = diaryFileName(entry.date, entry.title, id, format);
  const text =
    format === 'md'
      ? formatMarkdown({ id, title: entry.title, summary: entry.summary, body: entry.body, tags: entry.tags, date: entry.date, time: entry.time })
      : formatDiary({ time: entry.time, title: entry.title, summary: entry.summary, body: entry.body, tags: entry.tags });
  const meta: MemoryMeta = { ...DEFAULT_META, ...input.meta, kind: entry.kind, goal: entry.goal, supersedes: [...(input.meta?.supersedes ?? [])] };
  const metaProblem = validateMeta(meta);
  if (metaProblem) throw new DiaryError('invalid-input', metaProblem);
  const withMeta = format === 'md' ? (withMarkdownMeta(text, meta) ?? text) : withTxtMeta(text, meta);
  assertWritableSize(withMeta, `the entry "${entry.title}"`);
  await createFileExclusive(join(folderAbs, name), withMeta);
  const path = [...folderSegments, name].join('/');
  return { path, docId: docIdFor('diary', path), id, title: entry.title, warnings: entry.warnings };
}
