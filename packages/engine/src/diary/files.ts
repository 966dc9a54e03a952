// Reading one diary file as the scanner does (size limit, text decoding), the size rule every write
// follows, and which files count as diaries.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { fsCode } from './errors.ts';
import { assertWritableBytes, decodeText, DEFAULT_MAX_FILE_BYTES } from './textfile.ts';

export { DEFAULT_MAX_FILE_BYTES } from './textfile.ts';

/** assertWritableBytes for a new diary's text (written as UTF-8); a rewrite measures the file's own encoding (textfile.ts). */
export function assertWritableSize(text: string, what: string): void {
  assertWritableBytes(Buffer.byteLength(text, 'utf8'), what);
}

/** The extensions read as diaries. */
export const DIARY_EXTS = new Set(['txt', 'md']);
export const extOf = (name: string): string => /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

export type ReadOutcome = { ok: true; text: string; mtimeMs: number; size: number } | { ok: false; reason: string };

/** Reads a text file for indexing: UTF-8 (or UTF-16 with a BOM); binary or undecodable → a reason. */
export async function readTextFile(abs: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<ReadOutcome> {
  let handle: FileHandle | undefined;
  try {
    // As readTextFileSync: the size and type of the file that was opened (a file swapped or grown
    // between a stat and the read is judged as read), a FIFO refused instead of waited on.
    handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = await handle.stat();
    const refused = refusal(st, maxBytes);
    return refused !== null ? { ok: false, reason: refused } : outcome(await handle.readFile(), st);
  } catch (e) {
    return unreadable(e);
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * readTextFile without the thread-pool round trips (open, fstat, read, close: four waits per
 * file, the whole scan's cost on a busy machine). For the scanner's batches: a batch of small local
 * files blocks for a few milliseconds, less than indexing that batch does anyway. The size and type
 * come from the open file (no separate stat: one path lookup per file less over a 50,000-file
 * build); opened non-blocking, so a FIFO in the folder is refused instead of waited on.
 */
export function readTextFileSync(abs: string, maxBytes = DEFAULT_MAX_FILE_BYTES): ReadOutcome {
  let fd: number | undefined;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    const refused = refusal(st, maxBytes);
    return refused !== null ? { ok: false, reason: refused } : outcome(readOpenFile(fd, st.size), st);
  } catch (e) {
    return unreadable(e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Why an opened file is not read for indexing, or null. */
function refusal(st: Stats, maxBytes: number): string | null {
  if (!st.isFile()) return 'not a regular file';
  if (st.size > maxBytes) return `too large (${st.size} bytes > ${maxBytes})`;
  return null;
}

const unreadable = (e: unknown): ReadOutcome => ({ ok: false, reason: `unreadable (${fsCode(e) ?? (e instanceof Error ? e.message : String(e))})` });

function outcome(buf: Buffer, st: Stats): ReadOutcome {
  const decoded = decodeText(buf);
  return decoded.ok ? { ok: true, text: decoded.text, mtimeMs: st.mtimeMs, size: st.size } : decoded;
}

/** The file's `size` bytes from an open descriptor (fewer when it shrank meanwhile), as readFileSync reads a regular file. */
function readOpenFile(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const n = readSync(fd, buf, length, size - length, null);
    if (n === 0) break;
    length += n;
  }
  return length === size ? buf : buf.subarray(0, length);
}

/** Whether `p` is a directory, at once (false when it is missing or unreachable: a drive gone). */
export function isDirectorySync(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `p` is a directory (false when it is missing or unreadable). */
export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
