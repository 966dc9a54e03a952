// Scanning the two roots into ParsedDocuments: the diary folder (listed, then read and parsed a batch
// at a time), the read-only legacy corpus and its resident memories.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ParsedDocument } from '../types.ts';
import { DiaryError, fsCode, missingDiaryDirText } from './errors.ts';
import { DEFAULT_MAX_FILE_BYTES, DIARY_EXTS, extOf, isDirectory, readTextFileSync } from './files.ts';
import { isTempFileName } from './fsio.ts';
import { normaliseNewlines, normaliseTitle, parseDiaryText } from './parse.ts';

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

/**
 * The resident memories file: diary.runtimeFile when set, else <legacyDir>/runtime/memories.json.
 * A missing file is a warning only when it was named on purpose. Read by every index pass (a pass
 * over a few changed paths too), so resident memories never drop out after a write.
 */
export async function readResidentFile(opts: Pick<ScanOptions, 'runtimeFile' | 'legacyDir'>): Promise<{ resident: ResidentMemory[]; warnings: string[] }> {
  const runtimeFile = opts.runtimeFile || (opts.legacyDir ? join(opts.legacyDir, 'runtime', 'memories.json') : '');
  if (!runtimeFile) return { resident: [], warnings: [] };
  try {
    return parseResidentMemories(await readFile(runtimeFile, 'utf8'), runtimeFile);
  } catch (e) {
    return { resident: [], warnings: fsCode(e) !== 'ENOENT' || opts.runtimeFile ? [`${runtimeFile}: unreadable (${fsCode(e) ?? String(e)})`] : [] };
  }
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
      throw new DiaryError('diary-dir-missing', missingDiaryDirText(opts.diaryDir), {
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
  const residentRead = await readResidentFile(opts);
  resident = residentRead.resident;
  warnings.push(...residentRead.warnings);

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
      await nextTurn();
    }
  }

  return { total: legacyDocs.length + diaryFiles.length, batches, warnings, skipped, resident };
}
