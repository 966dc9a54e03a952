// The diary store: reads both roots into ParsedDocuments, and creates / edits / archives diary
// files. The files are the source of truth; every write goes through fsio.ts (atomic, exclusive,
// inside the root).
import { DEFAULT_META, validateMeta, withMarkdownMeta, withTxtMeta, type MemoryMeta } from './meta.ts';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, lstat } from 'node:fs/promises';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedDocument } from '../types.ts';
import { isDateString, localDateString, localTimeString } from './dates.ts';
import { anchoredReplace, matchLineEndings, type ReplaceStrategy } from './edit.ts';
import { DiaryError, fsCode, isDiaryError, isGoneError, movedAwayError, type DiaryErrorCode } from './errors.ts';
import { diaryFileName, formatDiary, formatMarkdown, normaliseTime, oneLine } from './format.ts';
import { checkRelativePath, createFileExclusive, isTempFileName, moveNoOverwrite, safeJoin } from './fsio.ts';
import { decodeText, readForRewrite, rewriteIfUnchanged } from './textfile.ts';
import { cleanBlock, cleanedWarning, cleanInline } from './sanitize.ts';
import { docIdFor } from './ids.ts';
import {
  isTagLine,
  normaliseNewlines,
  normaliseTags,
  normaliseTitle,
  parseDiaryParts,
  parseDiaryText,
  parseFileName,
  SUMMARY_FALLBACK_CHARS,
} from './parse.ts';

/** Files larger than this are skipped by the scanner (a diary is text written by hand or a model). */
export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Refuses to write a diary the scanner would skip: it would be indexed right after the write and
 * then vanish from recall at the next full rebuild.
 */
export function assertWritableSize(text: string, what: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > DEFAULT_MAX_FILE_BYTES) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    throw new DiaryError('too-large', `${what} would be ${mb(bytes)} MB; diaries over ${mb(DEFAULT_MAX_FILE_BYTES)} MB are not indexed — split it into several entries`, { bytes });
  }
}

export interface ResidentMemory {
  text: string;
  critical: boolean;
}

export interface ScanOptions {
  diaryDir: string;
  /** Read-only legacy corpus root; '' or undefined = none. */
  legacyDir?: string;
  archiveFolder: string;
  requireTag: boolean;
  timePrefix: boolean;
  /** Overrides <legacyDir>/runtime/memories.json. */
  runtimeFile?: string;
  /** Create a missing diary dir instead of failing (for the default location the engine owns). */
  createIfMissing?: boolean;
  maxFileBytes?: number;
  /** Called after each batch of diary files is read (done, total): a rebuild's progress bar moves while scanning. */
  onFile?: (done: number, total: number) => void;
}

export interface ScanResult {
  docs: ParsedDocument[];
  /** Store-level problems (per-file parse warnings stay on each document). */
  warnings: string[];
  skipped: { path: string; reason: string }[];
  resident: ResidentMemory[];
}

const DIARY_EXTS = new Set(['txt', 'md']);
const extOf = (name: string): string => /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

type ReadOutcome = { ok: true; text: string; mtimeMs: number; size: number } | { ok: false; reason: string };

/** Reads a text file for indexing: UTF-8 (or UTF-16 with a BOM); binary or undecodable → a reason. */
export async function readTextFile(abs: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<ReadOutcome> {
  let size: number;
  let mtimeMs: number;
  let buf: Buffer;
  try {
    const st = await stat(abs);
    if (!st.isFile()) return { ok: false, reason: 'not a regular file' };
    if (st.size > maxBytes) return { ok: false, reason: `too large (${st.size} bytes > ${maxBytes})` };
    size = st.size;
    mtimeMs = st.mtimeMs;
    buf = await readFile(abs);
  } catch (e) {
    return { ok: false, reason: `unreadable (${fsCode(e) ?? (e instanceof Error ? e.message : String(e))})` };
  }
  const decoded = decodeText(buf);
  return decoded.ok ? { ok: true, text: decoded.text, mtimeMs, size } : decoded;
}

/**
 * readTextFile without the thread-pool round trips (stat, open, fstat, read, close: five waits per
 * file, the whole scan's cost on a busy machine). For the scanner's batches: a batch of small local
 * files blocks for a few milliseconds, less than indexing that batch does anyway.
 */
export function readTextFileSync(abs: string, maxBytes = DEFAULT_MAX_FILE_BYTES): ReadOutcome {
  let size: number;
  let mtimeMs: number;
  let buf: Buffer;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return { ok: false, reason: 'not a regular file' };
    if (st.size > maxBytes) return { ok: false, reason: `too large (${st.size} bytes > ${maxBytes})` };
    size = st.size;
    mtimeMs = st.mtimeMs;
    buf = readFileSync(abs);
  } catch (e) {
    return { ok: false, reason: `unreadable (${fsCode(e) ?? (e instanceof Error ? e.message : String(e))})` };
  }
  const decoded = decodeText(buf);
  return decoded.ok ? { ok: true, text: decoded.text, mtimeMs, size } : decoded;
}

export { decodeText } from './textfile.ts';

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Relative paths of files with one of `exts` under `rootAbs`: dot-files/dirs and temp files are skipped, symlinks not followed. */
export async function listFiles(rootAbs: string, exts: ReadonlySet<string>, skipped: ScanResult['skipped']): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(relDir ? join(rootAbs, relDir) : rootAbs, { withFileTypes: true });
    } catch (e) {
      skipped.push({ path: relDir || '.', reason: `unreadable directory (${fsCode(e) ?? String(e)})` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.') || isTempFileName(e.name)) continue;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (e.isSymbolicLink()) {
        if (exts.has(extOf(e.name)) || !e.name.includes('.')) skipped.push({ path: rel, reason: 'symbolic link (not followed)' });
      } else if (e.isDirectory()) await walk(rel);
      else if (e.isFile() && exts.has(extOf(e.name))) out.push(rel);
    }
  };
  await walk('');
  return out;
}

/** runtime/memories.json: `[…]` or `{ memories: […] }` of strings or `{ text | content, critical? }`. */
export function parseResidentMemories(json: string, source = 'memories.json'): { resident: ResidentMemory[]; warnings: string[] } {
  const warnings: string[] = [];
  let data: unknown;
  try {
    data = JSON.parse(normaliseNewlines(json));
  } catch (e) {
    return { resident: [], warnings: [`${source}: not valid JSON (${e instanceof Error ? e.message : String(e)})`] };
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { memories?: unknown }).memories)
      ? (data as { memories: unknown[] }).memories
      : null;
  if (!list) return { resident: [], warnings: [`${source}: expected an array or { "memories": [...] }`] };
  const resident: ResidentMemory[] = [];
  list.forEach((item, i) => {
    let text: unknown;
    let critical = false;
    if (typeof item === 'string') text = item;
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      text = typeof o.text === 'string' ? o.text : o.content;
      critical = o.critical === true;
    }
    if (typeof text === 'string' && text.trim() !== '') resident.push({ text: text.trim(), critical });
    else warnings.push(`${source}: item ${i} has no text; skipped`);
  });
  return { resident, warnings };
}

/** Files read and parsed per batch of a streamed scan (streamRoots). */
export const SCAN_BATCH = 128;

/**
 * A scan read a batch at a time (streamRoots): `batches()` yields the parsed documents in the
 * order scanRoots returns them (the legacy root's first, then the diary files in listing order),
 * so a caller can store each batch and let it go instead of holding the whole corpus.
 */
export interface ScanStream {
  /** Documents the scan will yield at most: the legacy root's plus the diary files listed. */
  total: number;
  /** One pass only. */
  batches(): AsyncGenerator<ParsedDocument[]>;
  /** Store-level warnings, skipped files and resident memories: complete once batches() has ended. */
  warnings: string[];
  skipped: ScanResult['skipped'];
  resident: ResidentMemory[];
}

/** Reads both roots into ParsedDocuments, all at once (streamRoots is the same scan in batches). */
export async function scanRoots(opts: ScanOptions): Promise<ScanResult> {
  const stream = await streamRoots(opts);
  const docs: ParsedDocument[] = [];
  for await (const batch of stream.batches()) docs.push(...batch);
  return { docs, warnings: stream.warnings, skipped: stream.skipped, resident: stream.resident };
}

/**
 * The scan of both roots, streamed: the folders are checked, the legacy root (read-only, small) and
 * the resident memories read, and the diary folder listed up front; the diary files are then read
 * and parsed `batchSize` at a time as the caller asks for them.
 */
export async function streamRoots(opts: ScanOptions & { batchSize?: number }): Promise<ScanStream> {
  const warnings: string[] = [];
  const skipped: ScanResult['skipped'] = [];
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const batchSize = Math.max(1, opts.batchSize ?? SCAN_BATCH);
  const parseInfo = { archiveFolder: opts.archiveFolder, requireTag: opts.requireTag, timePrefix: opts.timePrefix };

  if (!opts.diaryDir) throw new DiaryError('diary-dir-missing', 'no diary directory is configured (diaryDir is empty)');
  if (!(await isDirectory(opts.diaryDir))) {
    if (!opts.createIfMissing) {
      throw new DiaryError('diary-dir-missing', `diary directory does not exist: ${opts.diaryDir} — create it or point diaryDir at your diaries`, {
        path: opts.diaryDir,
      });
    }
    await mkdir(opts.diaryDir, { recursive: true });
  }

  const readInto = (root: 'diary' | 'legacy', rootAbs: string, rel: string, out: ParsedDocument[]): void => {
    const r = readTextFileSync(join(rootAbs, rel), maxBytes);
    if (!r.ok) {
      skipped.push({ path: root === 'legacy' ? `legacy:${rel}` : rel, reason: r.reason });
      return;
    }
    out.push(parseDiaryText(r.text, { root, path: rel, mtimeMs: r.mtimeMs, size: r.size, ...parseInfo }));
  };

  const legacyDocs: ParsedDocument[] = [];
  let resident: ResidentMemory[] = [];
  if (opts.legacyDir) {
    if (!(await isDirectory(opts.legacyDir))) warnings.push(`legacy corpus not found: ${opts.legacyDir} (ignored)`);
    else {
      for (const sub of ['active', 'archived']) {
        const dir = join(opts.legacyDir, 'documents', sub);
        let names: string[] = [];
        try {
          names = (await readdir(dir, { withFileTypes: true }))
            .filter((e) => e.isFile() && extOf(e.name) === 'md' && !e.name.startsWith('.'))
            .map((e) => e.name)
            .sort();
        } catch (e) {
          if (fsCode(e) !== 'ENOENT') skipped.push({ path: `legacy:documents/${sub}`, reason: `unreadable directory (${fsCode(e)})` });
        }
        for (const name of names) readInto('legacy', opts.legacyDir, `documents/${sub}/${name}`, legacyDocs);
      }
    }
  }
  const runtimeFile = opts.runtimeFile || (opts.legacyDir ? join(opts.legacyDir, 'runtime', 'memories.json') : '');
  if (runtimeFile) {
    try {
      const parsed = parseResidentMemories(await readFile(runtimeFile, 'utf8'), runtimeFile);
      resident = parsed.resident;
      warnings.push(...parsed.warnings);
    } catch (e) {
      if (fsCode(e) !== 'ENOENT' || opts.runtimeFile) warnings.push(`${runtimeFile}: unreadable (${fsCode(e) ?? String(e)})`);
    }
  }

  const diaryFiles = await listFiles(opts.diaryDir, DIARY_EXTS, skipped);
  const diaryDir = opts.diaryDir;
  // The same memory in both roots (typically right after a migration): the legacy copy wins, so
  // recall does not show it twice. Titles are compared as the files stream by (listing order).
  const legacyByTitle = new Map(legacyDocs.map((d) => [normaliseTitle(d.title), d.path]));
  const seenDiaryTitles = new Map<string, string>();
  let started = false;

  async function* batches(): AsyncGenerator<ParsedDocument[]> {
    if (started) throw new Error('a scan stream is read once');
    started = true;
    for (let i = 0; i < legacyDocs.length; i += batchSize) yield legacyDocs.slice(i, i + batchSize);
    legacyDocs.length = 0;
    for (let i = 0; i < diaryFiles.length; i += batchSize) {
      const end = Math.min(i + batchSize, diaryFiles.length);
      const read: ParsedDocument[] = [];
      for (let j = i; j < end; j++) readInto('diary', diaryDir, diaryFiles[j]!, read);
      const docs: ParsedDocument[] = [];
      for (const d of read) {
        const key = normaliseTitle(d.title);
        const legacyPath = legacyByTitle.get(key);
        if (legacyPath !== undefined) {
          warnings.push(`${d.path}: skipped — same title as legacy ${legacyPath}; after migrating, clear legacyDir so the diary copy is used`);
          skipped.push({ path: d.path, reason: `duplicate title of legacy:${legacyPath}` });
          continue;
        }
        const twin = seenDiaryTitles.get(key);
        if (twin !== undefined && !d.archived) warnings.push(`${d.path}: same title as ${twin}; consider merging them`);
        else if (!d.archived) seenDiaryTitles.set(key, d.path);
        docs.push(d);
      }
      opts.onFile?.(end, diaryFiles.length);
      yield docs;
      // Let timers and I/O run between batches (a console answering requests during a rebuild).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  return { total: legacyDocs.length + diaryFiles.length, batches, warnings, skipped, resident };
}

// ---------------------------------------------------------------------------------------------
// create

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
  return { title, date, time, summary, body, tags, warnings };
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
  if (!(await isDirectory(diaryDir))) throw new DiaryError('diary-dir-missing', `diary directory does not exist: ${diaryDir}`, { path: diaryDir });

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
  const metaProblem = validateMeta(input.meta ?? {});
  if (metaProblem) throw new DiaryError('invalid-input', metaProblem);
  const meta: MemoryMeta = { ...DEFAULT_META, ...input.meta, supersedes: [...(input.meta?.supersedes ?? [])] };
  const withMeta = format === 'md' ? (withMarkdownMeta(text, meta) ?? text) : withTxtMeta(text, meta);
  assertWritableSize(withMeta, `the entry "${entry.title}"`);
  await createFileExclusive(join(folderAbs, name), withMeta);
  const path = [...folderSegments, name].join('/');
  return { path, docId: docIdFor('diary', path), id, title: entry.title, warnings: entry.warnings };
}

// ---------------------------------------------------------------------------------------------
// edit

export interface EditEntryResult {
  path: string;
  docId: string;
  strategy: ReplaceStrategy;
  /** Whether the bytes changed (replacing a passage with itself writes nothing). */
  changed: boolean;
}

const EDIT_CODES: Record<'target-too-short' | 'target-too-long' | 'not-found' | 'ambiguous', DiaryErrorCode> = {
  'target-too-short': 'target-too-short',
  'target-too-long': 'target-too-long',
  'not-found': 'target-not-found',
  ambiguous: 'target-ambiguous',
};

/**
 * Replaces one anchored passage of a diary. Any failure throws a DiaryError and leaves the file
 * byte for byte as it was; success replaces it atomically (keeping its permissions).
 */
export async function editEntry(diaryDir: string, relPath: string, target: string, replacement: string, minTarget: number): Promise<EditEntryResult> {
  const abs = safeJoin(diaryDir, relPath);
  if (!DIARY_EXTS.has(extOf(abs))) throw new DiaryError('invalid-input', `only .txt and .md diaries can be edited: ${relPath}`);
  const file = await readForRewrite(abs, relPath);
  const content = file.text;
  const result = anchoredReplace(content, target, matchLineEndings(content, replacement), minTarget);
  if (!result.ok) {
    throw new DiaryError(EDIT_CODES[result.code], `${relPath}: ${result.message}`, {
      path: relPath,
      ...(result.matches !== undefined ? { matches: result.matches } : {}),
    });
  }
  const changed = result.content !== content;
  if (changed) assertWritableSize(result.content, relPath);
  // Re-checked under the lock right before the rename: a change made meanwhile is not overwritten.
  if (changed) await rewriteIfUnchanged(abs, file, result.content);
  const path = checkRelativePath(relPath).join('/');
  return { path, docId: docIdFor('diary', path), strategy: result.strategy, changed };
}

// ---------------------------------------------------------------------------------------------
// archive / restore

export interface MoveResult {
  /** The new relative path. */
  path: string;
  from: string;
  to: string;
  /** docId of the file at its new path. */
  docId: string;
}

/** `name` with a collision counter, placed before an embedded id so the id stays recognisable. */
export function withCollisionSuffix(name: string, n: number): string {
  if (n <= 1) return name;
  const ext = /\.[^.]+$/.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - ext.length);
  const id = parseFileName(name).id;
  if (id && stem.toLowerCase().endsWith(`-${id}`)) {
    return `${stem.slice(0, stem.length - id.length - 1)}-${n}${stem.slice(stem.length - id.length - 1)}${ext}`;
  }
  return `${stem}-${n}${ext}`;
}

async function moveWithinRoot(diaryDir: string, fromSegments: string[], toDirSegments: string[]): Promise<MoveResult> {
  const fromRel = fromSegments.join('/');
  const src = safeJoin(diaryDir, fromRel);
  try {
    const st = await lstat(src);
    if (!st.isFile()) throw new DiaryError('not-a-file', `not a regular file: ${fromRel}`);
  } catch (e) {
    if (isDiaryError(e)) throw e;
    if (isGoneError(e)) throw movedAwayError(fromRel);
    throw e;
  }
  const toDirRel = toDirSegments.join('/');
  await mkdir(safeJoin(diaryDir, toDirRel), { recursive: true });
  const name = fromSegments[fromSegments.length - 1]!;
  for (let n = 1; n <= 1000; n++) {
    const toRel = [...toDirSegments, withCollisionSuffix(name, n)].join('/');
    try {
      await moveNoOverwrite(src, safeJoin(diaryDir, toRel));
      return { path: toRel, from: fromRel, to: toRel, docId: docIdFor('diary', toRel) };
    } catch (e) {
      if (!isDiaryError(e, 'exists')) throw e;
    }
  }
  throw new DiaryError('exists', `could not find a free name for ${name} in ${toDirRel}`);
}

/** Moves a diary into `<archiveFolder>/<its sub-path>`; never overwrites (adds -2, -3… instead), never deletes. */
export async function archiveEntry(diaryDir: string, relPath: string, archiveFolder: string): Promise<MoveResult> {
  const segments = checkRelativePath(relPath);
  const archiveSegments = checkRelativePath(archiveFolder);
  if (segments.length === 0 || archiveSegments.length === 0) throw new DiaryError('invalid-input', 'a file path and an archive folder are required');
  if (archiveSegments.every((s, i) => segments[i] === s)) throw new DiaryError('already-archived', `${relPath} is already in ${archiveFolder}/`);
  return moveWithinRoot(diaryDir, segments, [...archiveSegments, ...segments.slice(0, -1)]);
}

/** Moves an archived diary back to its original sub-folder (the inverse of archiveEntry). */
export async function restoreEntry(diaryDir: string, relPath: string, archiveFolder: string): Promise<MoveResult> {
  const segments = checkRelativePath(relPath);
  const archiveSegments = checkRelativePath(archiveFolder);
  if (archiveSegments.length === 0 || !archiveSegments.every((s, i) => segments[i] === s) || segments.length <= archiveSegments.length) {
    throw new DiaryError('not-archived', `${relPath} is not inside ${archiveFolder}/`);
  }
  return moveWithinRoot(diaryDir, segments, segments.slice(archiveSegments.length, -1));
}
