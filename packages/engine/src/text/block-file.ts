// The prebuilt tables of the compiled CLI that are read in parts (the jieba word index, the background
// IDF table): words grouped in blocks by their first UTF-16 unit, behind a directory.
//
//   magic (8 bytes) | header length (u32 LE) | header JSON | pad to 8 | body:
//     first unit of each block (u16, padded to 4) | block word starts (i32 × blocks+1) | block byte offsets (i32 × blocks+1) | blocks
//
// Opening checks the file was built from the source it names (size, and the SHA-1 when the mtime is
// not the one recorded) and is undamaged (the body's SHA-1, hashed through a small buffer: every byte
// checked, few pages of memory touched); the file is then kept open and blocks are read on demand.
// Hashing the body costs every one-shot command several milliseconds (the word index is 5 MB), so a
// body found whole is marked in `<file>.checked` with the file's size, inode, mtime and change time
// (which no tool can set back); the next open skips the hash while they are unchanged. Any write to
// the file, a copy over it or a rebuild hashes it again; without a writable folder every open hashes.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';

const CHUNK = 64 * 1024;

export interface BlockFileHeader {
  format: number;
  blocks: number;
  bodyBytes: number;
  bodySha1: string;
}

export interface BlockFileSpec<H extends BlockFileHeader> {
  magic: string;
  format: number;
  /** What the file is, in reasons: "no word index", "not a jieba word index". */
  missing: string;
  notThis: string;
  /** Thrown when the file is shorter than its header says. */
  short: string;
  /** The source it was built from, as its header records it ("another dictionary", "another idf.txt"). */
  source: (header: H) => { path: string; size: number; mtimeMs: number | undefined; sha1: string; another: string };
  /** A further refusal from the header (e.g. another keep threshold), or null. */
  check?: (header: H) => string | null;
}

export interface OpenBlockFile<H> {
  fd: number;
  header: H;
  /** Byte offset of the body (where the block offsets count from). */
  bodyAt: number;
  firstUnits: Uint16Array;
  blockLo: Int32Array;
  blockAt: Int32Array;
}

export function openBlockFile<H extends BlockFileHeader>(file: string, spec: BlockFileSpec<H>): { ok: true; file: OpenBlockFile<H> } | { ok: false; reason: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? spec.missing : `unreadable: ${(e as Error).message}` };
  }
  let keep = false;
  try {
    const stats = fstatSync(fd);
    const size = stats.size;
    const chunk = Buffer.allocUnsafeSlow(Math.min(CHUNK, Math.max(size, 12)));
    const first = readSync(fd, chunk, 0, chunk.length, 0);
    if (first < 12 || chunk.toString('latin1', 0, 8) !== spec.magic) return { ok: false, reason: spec.notThis };
    const headerLength = chunk.readUInt32LE(8);
    const headerBytes = headerLength + 12 <= first ? chunk.subarray(12, 12 + headerLength) : Buffer.from(readAligned(fd, 12, headerLength, spec.short));
    const header = JSON.parse(headerBytes.toString('utf8')) as H;
    if (header.format !== spec.format) return { ok: false, reason: `format ${header.format}, expected ${spec.format}` };
    const refused = spec.check?.(header);
    if (refused) return { ok: false, reason: refused };
    const source = spec.source(header);
    const stat = statSync(source.path);
    if (stat.size !== source.size) return { ok: false, reason: `built from ${source.another} (size differs)` };
    if (stat.mtimeMs !== source.mtimeMs && createHash('sha1').update(readFileSync(source.path)).digest('hex') !== source.sha1)
      return { ok: false, reason: `built from ${source.another} (SHA-1 differs)` };
    let at = 12 + headerLength;
    at += (8 - (at % 8)) % 8;
    if (at + header.bodyBytes !== size) return { ok: false, reason: 'damaged (length)' };
    const mark = checkedMark(stats, header.bodySha1);
    if (!hasMark(file, mark)) {
      const hash = createHash('sha1');
      for (let pos = at; pos < size; ) {
        const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - pos), pos);
        if (n <= 0) return { ok: false, reason: 'damaged (length)' };
        hash.update(chunk.subarray(0, n));
        pos += n;
      }
      if (hash.digest('hex') !== header.bodySha1) return { ok: false, reason: 'damaged (checksum)' };
      writeMark(file, mark);
    }
    const { blocks } = header;
    const unitsBytes = blocks * 2 + ((4 - ((blocks * 2) % 4)) % 4);
    const directory = readAligned(fd, at, unitsBytes + 2 * (blocks + 1) * 4, spec.short);
    keep = true;
    return {
      ok: true,
      file: {
        fd,
        header,
        bodyAt: at,
        firstUnits: new Uint16Array(directory, 0, blocks),
        blockLo: new Int32Array(directory, unitsBytes, blocks + 1),
        blockAt: new Int32Array(directory, unitsBytes + (blocks + 1) * 4, blocks + 1),
      },
    };
  } catch (e) {
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  } finally {
    if (!keep) closeSync(fd);
  }
}

/** What `<file>.checked` holds for a body found whole: the file as it was then, and the body's SHA-1. */
const checkedMark = (stats: Stats, bodySha1: string): string => `${stats.size}:${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:${bodySha1}`;

function hasMark(file: string, mark: string): boolean {
  try {
    return readFileSync(`${file}.checked`, 'utf8') === mark;
  } catch {
    return false;
  }
}

/** Best effort: without the mark the next open only hashes the body again. */
function writeMark(file: string, mark: string): void {
  const tmp = `${file}.checked.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, mark);
    renameSync(tmp, `${file}.checked`);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** `length` bytes at `position` in an ArrayBuffer of their own (typed arrays need aligned offsets). */
export function readAligned(fd: number, position: number, length: number, short: string): ArrayBuffer {
  const buffer = new ArrayBuffer(length);
  const view = new Uint8Array(buffer);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, view, done, length - done, position + done);
    if (n <= 0) throw new Error(short);
    done += n;
  }
  return buffer;
}
