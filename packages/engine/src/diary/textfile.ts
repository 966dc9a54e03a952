// A diary file as text and back to the same bytes. Every rewrite (anchored edit, pin/lock, summary,
// whole-file save) reads through here, so a UTF-16 file stays UTF-16, a BOM stays, and the bytes
// the new text was computed from are checked again right before the write.
import { lstat, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { DiaryError, isDiaryError, isGoneError, movedAwayError } from './errors.ts';
import { replaceIfUnchanged } from './fsio.ts';

/** Files larger than this are skipped by the scanner (a diary is text written by hand or a model). */
export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Refuses to write a diary of `bytes` bytes that the scanner would skip: it would be indexed right
 * after the write and then vanish from recall at the next full rebuild.
 */
export function assertWritableBytes(bytes: number, what: string): void {
  if (bytes > DEFAULT_MAX_FILE_BYTES) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    throw new DiaryError('too-large', `${what} would be ${mb(bytes)} MB; diaries over ${mb(DEFAULT_MAX_FILE_BYTES)} MB are not indexed — split it into several entries`, { bytes });
  }
}

/** The encodings the scanner reads (UTF-16 only with its BOM). */
export type DiaryEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export function detectEncoding(buf: Uint8Array): DiaryEncoding {
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/**
 * Bytes → text. A BOM is kept in the text (ignoreBOM), so `raw` is the content exactly as
 * `readFile(path, 'utf8')` returns it for UTF-8 files, and encodeText gives back the same bytes.
 */
export function decodeText(buf: Uint8Array): { ok: true; text: string; encoding: DiaryEncoding } | { ok: false; reason: string } {
  const opts = { fatal: true, ignoreBOM: true };
  const encoding = detectEncoding(buf);
  try {
    if (encoding !== 'utf-8') return { ok: true, text: new TextDecoder(encoding, opts).decode(buf), encoding };
    if (buf.includes(0)) return { ok: false, reason: 'binary content (NUL bytes)' };
    return { ok: true, text: new TextDecoder('utf-8', opts).decode(buf), encoding };
  } catch {
    return { ok: false, reason: 'bad encoding (not valid UTF-8); re-save the file as UTF-8' };
  }
}

/** Text → bytes in `encoding` (a BOM in the text is written as that encoding's BOM). */
export function encodeText(text: string, encoding: DiaryEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
}

export interface DiaryFileText {
  /** Decoded text, BOM included when the file has one. */
  text: string;
  encoding: DiaryEncoding;
  /** The bytes read: the write is refused unless the file still holds exactly these. */
  bytes: Buffer;
  /** Permission bits, kept by the rewrite. */
  mode: number;
}

/** Reads a diary for rewriting; a file that does not decode is refused (rewriting it would damage it). */
export async function readForRewrite(abs: string, relPath: string): Promise<DiaryFileText> {
  let bytes: Buffer;
  let mode: number;
  try {
    const st = await lstat(abs);
    if (!st.isFile()) throw new DiaryError('not-a-file', `not a regular file: ${relPath}`);
    mode = st.mode & 0o7777;
    bytes = await readFile(abs);
  } catch (e) {
    if (isDiaryError(e)) throw e;
    if (isGoneError(e)) throw movedAwayError(relPath);
    throw e;
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    throw new DiaryError('invalid-input', `${relPath} 不是 UTF-8（或带 BOM 的 UTF-16）文本，为免损坏不做修改；请另存为 UTF-8。 / ${relPath} is not UTF-8 (or UTF-16 with a BOM); refusing to rewrite it — re-save it as UTF-8. (${decoded.reason})`, {
      path: relPath,
    });
  }
  return { text: decoded.text, encoding: decoded.encoding, bytes, mode };
}

/**
 * Writes `text` back in the file's own encoding and permissions, if it differs from what was read
 * and the file has not changed since (DiaryError 'conflict' otherwise). Returns whether it wrote.
 */
export async function rewriteIfUnchanged(abs: string, before: DiaryFileText, text: string): Promise<boolean> {
  if (text === before.text) return false;
  // Measured in the file's own bytes: a UTF-16 diary is twice its UTF-8 size in Latin text.
  const bytes = encodeText(text, before.encoding);
  assertWritableBytes(bytes.length, basename(abs));
  await replaceIfUnchanged(abs, before.bytes, bytes, { mode: before.mode });
  return true;
}
