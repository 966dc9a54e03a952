// One-shot migration of a legacy front-matter .md corpus into .txt diaries. Metadata moves into the
// text (title line, summary quote, Tag line, provenance footer) instead of sitting in a YAML block
// that would be embedded along with every document.
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { localTimeString } from './dates.ts';
import { DiaryError, isDiaryError } from './errors.ts';
import { diaryFileName, formatDiary } from './format.ts';
import { fmString, parseFrontMatter } from './frontmatter.ts';
import { checkRelativePath, createFileExclusive, isInside, safeJoin, writeFileAtomic } from './fsio.ts';
import { normaliseNewlines, parseDiaryText, parseFileName } from './parse.ts';
import { withCollisionSuffix } from './move.ts';
import { listFiles, readTextFile } from './store.ts';

export const MIGRATION_REPORT = '_migration-report.json';
const MAX_SOURCE_PATHS = 3;

export interface MigrateOptions {
  /** Where documents from documents/archived/ go (default 已整理). */
  archiveFolder?: string;
}

export interface MigratedEntry {
  src: string;
  dst: string;
  title: string;
  tagsDerived: boolean;
  /** false when the source had no time of day (the diary then has no [HH:MM] anchor rather than an invented one). */
  anchored: boolean;
}

export interface MigrateReport {
  migrated: MigratedEntry[];
  skipped: { src: string; reason: string }[];
}

// Function words that glue a title together but make poor tags.
const CJK_GLUE = /[的与和及在了对把为是从到将被给向跟同或并而且之等]/;
const CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
const LATIN_TOKEN = /[A-Za-z0-9][A-Za-z0-9._+#-]*[A-Za-z0-9+#]|[A-Za-z0-9]/g;

/**
 * A few distinctive words of a title, most specific first: Latin names / numbers (product names,
 * ports, versions) and then CJK segments between function words (long runs cut into 4-character
 * pieces, which is how most Chinese compounds come).
 */
export function deriveTagsFromTitle(title: string, max = 6): string[] {
  const out: string[] = [];
  const add = (t: string): void => {
    if (out.length < max && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  };
  for (const m of title.matchAll(LATIN_TOKEN)) if (m[0].length >= 2) add(m[0]);
  for (const m of title.matchAll(CJK_RUN)) {
    for (const seg of m[0].split(CJK_GLUE)) {
      const cps = Array.from(seg);
      if (cps.length < 2) continue;
      if (cps.length <= 8) add(seg);
      else for (let i = 0; i < cps.length; i += 4) if (cps.length - i >= 2) add(cps.slice(i, i + 4).join(''));
    }
  }
  return out;
}

/** The provenance footer: where a migrated diary came from. */
/** How a migrated diary names the legacy id it came from (provenanceFooter writes it, migratedFrom reads it). */
const LEGACY_ID_LINE = '（溯源）旧记忆 id: ';

export function provenanceFooter(id: string, sourcePaths: string[]): string {
  const lines: string[] = [];
  if (id) lines.push(`${LEGACY_ID_LINE}${id}`);
  const shown = sourcePaths.slice(0, MAX_SOURCE_PATHS);
  if (shown.length > 0) {
    const more = sourcePaths.length > shown.length ? ` 等 ${sourcePaths.length} 处` : '';
    lines.push(`（溯源）来源: ${shown.join('; ')}${more}`);
  }
  return lines.join('\n');
}

/** Converts one legacy .md text into a diary: the file text and where it goes (pure). */
export function convertLegacyDocument(
  text: string,
  rel: string,
  mtimeMs: number,
  archiveFolder: string,
): { ok: true; folder: string[]; fileName: string; content: string; title: string; tagsDerived: boolean; anchored: boolean; legacyId: string } | { ok: false; reason: string } {
  const fm = parseFrontMatter(normaliseNewlines(text).split('\n'));
  if (!fm) return { ok: false, reason: 'no front matter (--- block); nothing to migrate' };
  const doc = parseDiaryText(text, { root: 'legacy', path: rel, mtimeMs, size: text.length, archiveFolder: '', requireTag: false, timePrefix: false });

  const hasCreated = ['created_at', 'date', 'created', 'createdAt'].some((k) => fmString(fm.data[k]) !== '');
  const dateFromName = parseFileName(rel.split('/').pop() ?? '').date !== null;
  // The time comes from created_at; with no date at all, mtime is the best (real) evidence.
  const time = doc.time ?? (!hasCreated && !dateFromName ? localTimeString(mtimeMs) : null);

  let tags = doc.tags;
  const tagsDerived = tags.length === 0;
  if (tagsDerived) tags = deriveTagsFromTitle(doc.title);

  const description = fmString(fm.data.description ?? fm.data.summary).trim();
  const id = fmString(fm.data.id).trim();
  const sources = fm.data.source_paths ?? fm.data.sources;
  const sourcePaths = sources === undefined ? [] : Array.isArray(sources) ? sources : sources.split(/[,;]\s*/).filter(Boolean);
  const footer = provenanceFooter(id, sourcePaths);
  const body = [doc.body, footer].filter((s) => s.trim() !== '').join('\n\n');

  const content = formatDiary({ time, title: doc.title, summary: description, body, tags });
  const folder = doc.archived ? [...checkRelativePath(archiveFolder), ...splitCategory(doc.category)] : splitCategory(doc.category);
  const fileId = id || createHash('sha1').update(rel).digest('hex');
  return { ok: true, folder, fileName: diaryFileName(doc.date, doc.title, fileId, 'txt'), content, title: doc.title, tagsDerived, anchored: time !== null, legacyId: id };
}

const splitCategory = (c: string): string[] => (c === '' ? [] : c.split('/'));

/**
 * Whether the diary at `path` may be this legacy note migrated before (perhaps edited since), rather
 * than another note's: only a provenance line naming another legacy id says it is another's. A file
 * edited past recognition stays this note's (skipped, as ever: never a second copy of it).
 */
async function migratedFrom(path: string, converted: { legacyId: string }): Promise<boolean> {
  if (converted.legacyId === '') return true;
  const read = await readTextFile(path);
  if (!read.ok) return true;
  const ids = read.text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.startsWith(LEGACY_ID_LINE))
    .map((line) => line.slice(LEGACY_ID_LINE.length).trim());
  return ids.length === 0 || ids.includes(converted.legacyId);
}

/**
 * Migrates every front-matter .md under `srcDir` (a legacy corpus root or a plain folder) into
 * `dstDir`. Idempotent: an existing destination file is skipped, never overwritten (it may have been
 * edited by hand since). Writes `_migration-report.json` in `dstDir`.
 */
export async function migrateLegacy(srcDir: string, dstDir: string, options: MigrateOptions = {}): Promise<MigrateReport> {
  const archiveFolder = options.archiveFolder ?? '已整理';
  const srcAbs = resolve(srcDir);
  const dstAbs = resolve(dstDir);
  try {
    if (!(await stat(srcAbs)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new DiaryError('not-found', `source directory does not exist: ${srcAbs}`, { path: srcAbs });
  }
  await mkdir(dstAbs, { recursive: true });

  const report: MigrateReport = { migrated: [], skipped: [] };
  const listSkips: { path: string; reason: string }[] = [];
  const files = (await listFiles(srcAbs, new Set(['md']), listSkips)).filter((rel) => !isInside(dstAbs, join(srcAbs, rel)));
  for (const s of listSkips) report.skipped.push({ src: s.path, reason: s.reason });

  for (const rel of files) {
    const read = await readTextFile(join(srcAbs, rel));
    if (!read.ok) {
      report.skipped.push({ src: rel, reason: read.reason });
      continue;
    }
    const converted = convertLegacyDocument(read.text, rel, read.mtimeMs, archiveFolder);
    if (!converted.ok) {
      report.skipped.push({ src: rel, reason: converted.reason });
      continue;
    }
    let dstRel = [...converted.folder, converted.fileName].join('/');
    try {
      const folderAbs = safeJoin(dstAbs, converted.folder.join('/'));
      await mkdir(folderAbs, { recursive: true });
      // Two legacy notes of one day and title can share a file name (its short id is the first eight
      // hex-looking characters of the legacy id, often its date: 20240315-01 and 20240315-02). A file
      // there from another note is not this one migrated already: this one goes beside it (-2, -3…).
      for (let n = 1; ; n++) {
        const name = withCollisionSuffix(converted.fileName, n);
        dstRel = [...converted.folder, name].join('/');
        try {
          await createFileExclusive(join(folderAbs, name), converted.content);
          report.migrated.push({ src: rel, dst: dstRel, title: converted.title, tagsDerived: converted.tagsDerived, anchored: converted.anchored });
          break;
        } catch (e) {
          if (!isDiaryError(e, 'exists') || n >= 50 || (await migratedFrom(join(folderAbs, name), converted))) throw e;
        }
      }
    } catch (e) {
      if (isDiaryError(e, 'exists')) report.skipped.push({ src: rel, reason: `destination exists (kept as is): ${dstRel}` });
      else report.skipped.push({ src: rel, reason: e instanceof Error ? e.message : String(e) });
    }
  }

  const summary = {
    srcDir: srcAbs,
    dstDir: dstAbs,
    finishedAt: new Date().toISOString(),
    counts: { migrated: report.migrated.length, skipped: report.skipped.length },
    ...report,
  };
  await writeFileAtomic(join(dstAbs, MIGRATION_REPORT), `${JSON.stringify(summary, null, 2)}\n`);
  return report;
}
