// Reading one diary file as the scanner does (size limit, text decoding), the size rule every write
// follows, and which files count as diaries.
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { DiaryError, fsCode } from './errors.ts';
import { decodeText } from './textfile.ts';

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

/** The extensions read as diaries. */
export const DIARY_EXTS = new Set(['txt', 'md']);
export const extOf = (name: string): string => /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

export type ReadOutcome = { ok: true; text: string; mtimeMs: number; size: number } | { ok: false; reason: string };

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

/** Whether `p` is a directory (false when it is missing or unreadable). */
export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
