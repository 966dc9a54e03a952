// Swapping a new version of a diary into place when other programs may be saving the same file at
// the same moment. Editors, autosave and sync tools ignore Engram's writer lock, and rename(2)
// cannot compare-and-swap: it replaces whatever is at the name when it runs, checked or not, and
// Node offers no renameat2(RENAME_EXCHANGE). Checking the bytes and then renaming lost 4 of 488
// saves of an editor saving every few milliseconds (issue #25). So the version being replaced is
// first moved aside — from then on nobody can open it by its name, so it can be checked for good —
// and the new version is hard-linked in, which refuses a name someone else took meanwhile.
// See swapIfUnchanged for the exact guarantee.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fsCode } from './errors.ts';

/** The version being replaced waits under this dot-file name prefix (scanners and watchers skip dot-files). */
export const ASIDE_PREFIX = '.engram-prev-';
/** Marks a conflict copy's name: `<name>.冲突副本-<YYYYMMDD-HHMMSS>[-n].<ext>`. */
export const CONFLICT_COPY_MARK = '冲突副本';
const MAX_NAME_BYTES = 255;

/** Codes of file systems (or sandboxes) without hard links: a guarded rename stands in for link. */
const NO_LINK_CODES = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0;

/**
 * Moves `from` to `to` unless `to` exists; returns whether it moved. link() fails atomically when the
 * name is taken (a symlink counts); without hard links, a rename guarded by an existence check (a tiny window remains
 * there, which only such file systems have). Synchronous: the swap below runs no JavaScript between
 * its steps.
 */
export function moveNoReplaceSync(from: string, to: string): boolean {
  try {
    linkSync(from, to);
  } catch (e) {
    const code = fsCode(e);
    if (code === 'EEXIST') return false;
    if (!code || !NO_LINK_CODES.has(code)) throw e;
    if (lstatSync(to, { throwIfNoEntry: false }) !== undefined) return false;
    renameSync(from, to);
    return true;
  }
  unlinkSync(from);
  return true;
}

/**
 * The aside name of `path` for this process: `.engram-prev-<pid>-<random>~<name>`, so a writer
 * killed mid-swap leaves a file that says whose it was and where it belongs (recoverAside). A name
 * too long to carry the original keeps only its extension (`.engram-prev-<pid>-<random>.<ext>`).
 */
export function asidePathFor(path: string): string {
  const head = `${ASIDE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`;
  const full = `${head}~${basename(path)}`;
  return join(dirname(path), Buffer.byteLength(full) <= MAX_NAME_BYTES ? full : `${head}${extname(path)}`);
}

/** The writer's pid and the original name (null when it did not fit) of an aside name; null for other names. */
export function parseAsideName(name: string): { pid: number; original: string | null } | null {
  if (!name.startsWith(ASIDE_PREFIX)) return null;
  const m = /^(\d+)-[0-9a-f]{12}(?:~(.+)|(\.[^.~]*)?)$/.exec(name.slice(ASIDE_PREFIX.length));
  return m ? { pid: Number(m[1]), original: m[2] ?? null } : null;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `a.txt` → `a.冲突副本-20261203-071012.txt` (local time; `-n` from the second one on), within the name limit. */
export function conflictCopyName(name: string, when: Date, n = 1): string {
  const ext = extname(name);
  let stem = name.slice(0, name.length - ext.length);
  const stamp = `${when.getFullYear()}${pad(when.getMonth() + 1)}${pad(when.getDate())}-${pad(when.getHours())}${pad(when.getMinutes())}${pad(when.getSeconds())}`;
  const tail = `.${CONFLICT_COPY_MARK}-${stamp}${n > 1 ? `-${n}` : ''}${ext}`;
  while (stem.length > 0 && Buffer.byteLength(stem + tail) > MAX_NAME_BYTES) stem = Array.from(stem).slice(0, -1).join('');
  return `${stem}${tail}`;
}

/** Tries conflict copy names beside `path` until `place` takes one; returns the path it took. */
function placeConflictCopy(path: string, place: (to: string) => boolean): string {
  const when = new Date();
  for (let n = 1; n <= 1000; n++) {
    const to = join(dirname(path), conflictCopyName(basename(path), when, n));
    if (place(to)) return to;
  }
  throw new Error(`no free conflict copy name beside ${basename(path)}`);
}

/** Moves `from` (another program's version) to a conflict copy of `path`; returns the copy's path. */
export function keepAsConflictCopy(from: string, path: string): string {
  return placeConflictCopy(path, (to) => moveNoReplaceSync(from, to));
}

/** Writes `bytes` (a version that has no name any more) as a new conflict copy of `path`. */
function writeConflictCopy(path: string, bytes: Uint8Array, mode: number): string {
  return placeConflictCopy(path, (to) => {
    let fd: number;
    try {
      fd = openSync(to, 'wx', mode);
    } catch (e) {
      if (fsCode(e) === 'EEXIST') return false;
      throw e;
    }
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return true;
  });
}

/** Same inode, same size, not modified (mtime) nor touched otherwise (ctime: writes, renames, links). */
const sameFileState = (a: BigIntStats, b: BigIntStats): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/** The whole content behind a descriptor, read from its start (positioned reads: the offset stays). */
function readAllSync(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = readSync(fd, chunk, 0, chunk.length, pos);
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, n));
    pos += n;
  }
}

export type SwapOutcome =
  /**
   * Our version is in place; the one replaced was exactly `expected`. `replaced` is the replaced
   * version, still open: lateWrite reads it once more a moment later and closes it.
   */
  | { kind: 'replaced'; replaced: ReplacedVersion }
  /** Nothing written: the file no longer held `expected` (or was gone) and stays as the other program left it. */
  | { kind: 'changed'; deleted: boolean }
  /**
   * Another program saved during the swap. Both versions are on disk: `written` says whether ours
   * is in place (theirs then is the conflict copy) or theirs is (the version we moved aside is the
   * copy, since their save may be only a fragment such as an appended line).
   */
  | { kind: 'kept-both'; written: boolean; copy: string };

/**
 * Puts the file `tmp` (our new version, complete and synced) at `path` if `path` still holds
 * `expected`, without ever losing a version another program saves meanwhile. Synchronous from the
 * check to the end, so no other JavaScript of this process (its watcher, a request) runs in between.
 *
 *  1. check: `path` holds `expected` and, right before step 2, still names the same unmodified
 *     file (inode, size, mtime, ctime); else 'changed' and nothing is touched (the usual refusal);
 *  2. move aside: rename `path` to a dot-file. The version moved is frozen: nobody can open it by
 *     its name any more, only through a descriptor opened before;
 *  3. link `tmp` in, refusing if someone created `path` between 2 and 3 (their file stays);
 *  4. verify: the moved version is read and compared with `expected`; it is unlinked and read once
 *     more through the same descriptor, which catches writes through descriptors opened before 2.
 *
 * Every external save that lands anywhere in 1–4 is detected and kept: changed between 1 and 2 (in
 * place, appended, or renamed over) → ours in place, theirs as a conflict copy; a file created
 * between 2 and 3 → theirs in place, the moved version as a conflict copy; written through an old
 * descriptor during 2–4 → ours in place, that version as a conflict copy. Each is 'kept-both'.
 *
 * What remains, stated exactly: a program that opened the file before step 2 and writes through
 * that descriptor after the last read of step 4 writes into a file that has no name any more — as
 * it would after any editor's atomic save; no rename-based replace can prevent it. The replaced
 * version is handed back open, and lateWrite looks at it once more a moment later: a write that
 * comes within that moment is kept too. And between 2
 * and 3 (one system call) the name is absent: another process may see ENOENT for that instant.
 * A writer killed between 2 and 3 leaves the original under its aside name; recoverAside puts it
 * back at the next start.
 */
export function swapIfUnchanged(path: string, tmp: string, expected: Uint8Array): SwapOutcome {
  let checked: BigIntStats;
  let current: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      checked = fstatSync(fd, { bigint: true });
      current = readAllSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (fsCode(e) === 'ENOENT') return { kind: 'changed', deleted: true };
    throw e;
  }
  if (!sameBytes(current, expected)) return { kind: 'changed', deleted: false };
  // Right before the move, the name must still point at the file just read, unmodified: this
  // narrows the window in which a save becomes a conflict copy to two system calls. A save within
  // the same clock tick and of the same size passes here and is caught by the check after the move.
  const now = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (now === undefined) return { kind: 'changed', deleted: true };
  if (!sameFileState(checked, now)) return { kind: 'changed', deleted: false };

  const aside = asidePathFor(path);
  try {
    renameSync(path, aside);
  } catch (e) {
    if (fsCode(e) === 'ENOENT') return { kind: 'changed', deleted: true };
    throw e;
  }
  let placed: boolean;
  try {
    placed = moveNoReplaceSync(tmp, path);
  } catch (e) {
    // Our version could not go in (a full directory, an I/O error): the original goes back.
    if (!moveNoReplaceSync(aside, path)) keepAsConflictCopy(aside, path);
    throw e;
  }

  let fd: number;
  try {
    fd = openSync(aside, 'r');
  } catch (e) {
    // The moved version is out of reach (it should not be): never delete it, show it beside the diary.
    keepAsConflictCopy(aside, path);
    throw e;
  }
  let handedOver = false;
  try {
    const moved = readAllSync(fd);
    if (!placed || !sameBytes(moved, expected)) return { kind: 'kept-both', written: placed, copy: keepAsConflictCopy(aside, path) };
    unlinkSync(aside);
    const copy = keepWhatCame(path, fd, moved);
    if (copy !== null) return { kind: 'kept-both', written: true, copy };
    handedOver = true;
    return { kind: 'replaced', replaced: { fd, bytes: moved } };
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/** The version a swap replaced: its descriptor (the name is gone) and the bytes it last held. */
export interface ReplacedVersion {
  fd: number;
  bytes: Uint8Array;
}

/**
 * The last look at a replaced version, a moment after the swap (the caller waits): a program that
 * opened the file before the swap and was held up between its open and its write (a busy machine
 * deschedules it for milliseconds) writes into the replaced version after the swap's own last read.
 * What it wrote is kept as a conflict copy beside `path` (its path is returned); null when nothing
 * came. Always closes the descriptor.
 */
export function lateWrite(path: string, replaced: ReplacedVersion): string | null {
  try {
    return keepWhatCame(path, replaced.fd, replaced.bytes);
  } finally {
    closeSync(replaced.fd);
  }
}

/** What was written through `fd` since it held `bytes`, kept as a conflict copy beside `path` (its path returned); null when nothing was. */
function keepWhatCame(path: string, fd: number, bytes: Uint8Array): string | null {
  const now = readAllSync(fd);
  return sameBytes(now, bytes) ? null : writeConflictCopy(path, now, fstatSync(fd).mode & 0o7777);
}

/**
 * A version a killed writer left aside (`name` in `dir`, parsed by parseAsideName): back under its
 * own name when that is free, else (a new version took the name) kept as a conflict copy beside it.
 * Never deletes. Returns where the version now is.
 */
export function recoverAside(dir: string, name: string, original: string | null): string {
  const from = join(dir, name);
  if (original === null) return keepAsConflictCopy(from, join(dir, `engram-恢复${extname(name)}`));
  const to = join(dir, original);
  return moveNoReplaceSync(from, to) ? to : keepAsConflictCopy(from, to);
}
