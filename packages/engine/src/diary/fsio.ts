// The only places the diary layer writes bytes. Two guarantees: a crash never leaves a half-written
// file under a final name, and nothing is written outside the diary root.
import { randomBytes } from 'node:crypto';
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { link, lstat, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import { DiaryError, fsCode, isGoneError, movedAwayError, withStorageErrors } from './errors.ts';
import { lateWrite, moveNoReplaceSync, parseAsideName, recoverAside, swapIfUnchanged, type SwapOutcome } from './swap.ts';

/** Temp files of atomic writes start with this (a dot-file, so scanners skip them anyway). */
export const TEMP_PREFIX = '.engram-tmp-';
export const isTempFileName = (name: string): boolean => name.startsWith(TEMP_PREFIX) || name.endsWith('.tmp');

function tempPathFor(path: string): string {
  return join(dirname(path), `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes content to a fresh temp file next to `path` and fsyncs it; returns the temp path. With
 * `exactMode` the mode is set as given (the umask would otherwise strip bits of a file we replace).
 */
async function writeTemp(path: string, content: string | Uint8Array, mode: number, exactMode = false): Promise<string> {
  const tmp = tempPathFor(path);
  const handle = await open(tmp, 'wx', mode);
  try {
    if (exactMode) await handle.chmod(mode);
    await handle.writeFile(content);
    await handle.sync();
    await handle.close();
  } catch (e) {
    await handle.close().catch(() => {});
    // A full disk fails here, with a 0-byte or partial temp file: it must not stay behind.
    await rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
  return tmp;
}

/** Makes a rename/link durable: fsync the directory entry (best effort; not supported everywhere). */
async function syncDir(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Windows and some filesystems refuse to open or fsync directories.
  }
}

/** Replaces `path` atomically: readers see either the old or the new content, never a mix. */
export async function writeFileAtomic(path: string, content: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  await withStorageErrors(path, async () => {
    const tmp = await writeTemp(path, content, options.mode ?? 0o666, options.mode !== undefined);
    try {
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    }
  });
  await syncDir(dirname(path));
}

/**
 * Replaces `path` atomically, but only if it still holds `expected` (the bytes the new content was
 * computed from), and never over a save another program makes meanwhile (swap.ts has the exact
 * guarantee). Throws DiaryError 'conflict' when the file changed: with nothing written (the usual
 * case: it changed before the swap), or — when the other save landed during the swap itself — with
 * both versions kept, one in place and one as a conflict copy beside it (`conflictCopy`, `written`).
 */
export async function replaceIfUnchanged(path: string, expected: Uint8Array, content: Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const outcome = await withStorageErrors(path, async () => {
    // Its folder gone (moved, archived, renamed) before the temp file could be made beside it.
    const tmp = await writeTemp(path, content, options.mode ?? 0o666, options.mode !== undefined).catch((e: unknown) => {
      throw isGoneError(e) ? movedAwayError(path) : e;
    });
    try {
      return swapIfUnchanged(path, tmp, expected);
    } finally {
      // Gone already when it was linked in; left when the swap refused or failed.
      await rm(tmp, { force: true }).catch(() => {});
    }
  });
  if (outcome.kind !== 'replaced') {
    if (outcome.kind !== 'changed') await syncDir(dirname(path));
    throw swapConflict(path, outcome);
  }
  // A write through a descriptor opened before the swap can land just after its last read (a
  // program descheduled between its open and its write): the replaced version is looked at once
  // more a moment later, in the background (a save does not wait for it), and what came is kept as
  // a conflict copy beside the diary.
  setTimeout(() => {
    try {
      if (lateWrite(path, outcome.replaced) !== null) void syncDir(dirname(path)).catch(() => {});
    } catch {
      // The copy could not be written (a full disk): the replaced version's descriptor is closed.
    }
  }, LATE_WRITE_GRACE_MS);
  await syncDir(dirname(path));
}

/** How long after a swap the replaced version is looked at once more. */
const LATE_WRITE_GRACE_MS = 20;

function swapConflict(path: string, outcome: Exclude<SwapOutcome, { kind: 'replaced' }>): DiaryError {
  const name = basename(path);
  if (outcome.kind === 'changed' && outcome.deleted) return movedAwayError(path);
  if (outcome.kind === 'changed') {
    return new DiaryError(
      'conflict',
      `${name} 在读取之后被其他程序修改了，这次没有写入，以免覆盖那次修改；请重新打开后再改。 / ${name} changed on disk after it was read; nothing was written so that change is not overwritten — reload it and try again.`,
      { path },
    );
  }
  const copy = basename(outcome.copy);
  const message = outcome.written
    ? `${name} 在保存的同一瞬间被其他程序修改了：你的修改已保存，另一个程序的版本另存为 ${copy}，两边都没有丢；请核对后合并。 / ${name} was changed by another program at the very moment it was saved: your change is saved and the other program's version is kept as ${copy} — nothing is lost; compare and merge the two.`
    : `${name} 在保存的同一瞬间被其他程序写入了：这次没有写入，它的版本留在原处，写入前的版本另存为 ${copy}；请核对后再改。 / ${name} was written by another program at the very moment it was saved: nothing was written, its version stays in place and the version before it is kept as ${copy} — check them and try again.`;
  return new DiaryError('conflict', message, { path, conflictCopy: outcome.copy, written: outcome.written });
}

/**
 * Creates `path` only if nothing exists there (DiaryError 'exists' otherwise). The content is
 * written to a temp file first and hard-linked into place — link() fails atomically when the name is
 * taken, so there is no check-then-write race and no half-written file under the final name.
 * Filesystems without hard links fall back to an exclusive `wx` open (still never overwrites).
 */
export async function createFileExclusive(path: string, content: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  await withStorageErrors(path, () =>
    createExclusive(path, content, options.mode ?? 0o666).catch((e: unknown) => {
      if (!isGoneError(e)) throw e;
      // Its folder was moved, renamed or deleted by another program since it was made.
      const folder = basename(dirname(path));
      throw new DiaryError(
        'not-found',
        `文件夹已被移动或删除：${folder} 在写入新记忆时已不在原处（被移动、改名或删除），这次没有写入；请重试。 / The folder was moved or deleted: ${folder} was no longer there while the new memory was being written; nothing was written — try again.`,
        { path, moved: true },
      );
    }),
  );
  await syncDir(dirname(path));
}

async function createExclusive(path: string, content: string | Uint8Array, mode: number): Promise<void> {
  const tmp = await writeTemp(path, content, mode);
  try {
    await link(tmp, path);
  } catch (e) {
    const code = fsCode(e);
    if (code === 'EEXIST') throw new DiaryError('exists', `refusing to overwrite an existing file: ${basename(path)}`, { path });
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV') {
      await createWithExclusiveOpen(path, content, mode);
    } else throw e;
  } finally {
    await rm(tmp, { force: true }).catch(() => {});
  }
}

async function createWithExclusiveOpen(path: string, content: string | Uint8Array, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'wx', mode);
  } catch (e) {
    if (fsCode(e) === 'EEXIST') throw new DiaryError('exists', `refusing to overwrite an existing file: ${basename(path)}`, { path });
    throw e;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
    await handle.close();
  } catch (e) {
    await handle.close().catch(() => {});
    await rm(path, { force: true }); // it is ours: we created it exclusively a moment ago
    throw e;
  }
}

/**
 * Moves `from` to `to` without ever replacing an existing `to` (DiaryError 'exists').
 * link + unlink where possible; otherwise a rename guarded by an existence check.
 */
export async function moveNoOverwrite(from: string, to: string): Promise<void> {
  await withStorageErrors(to, () => moveUnchecked(from, to));
}

async function moveUnchecked(from: string, to: string): Promise<void> {
  let moved: boolean;
  try {
    moved = moveNoReplaceSync(from, to);
  } catch (e) {
    // The source went away (another program moved or archived it) since the caller looked.
    if (isGoneError(e) && lstatSync(from, { throwIfNoEntry: false }) === undefined) throw movedAwayError(from);
    throw e;
  }
  if (!moved) throw new DiaryError('exists', `destination exists: ${basename(to)}`, { path: to });
  await syncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await syncDir(dirname(from));
}

/** Is `child` equal to or inside `parent` (both absolute, already resolved)? */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/**
 * Lexical checks of a user-supplied relative path: no NUL, not absolute (POSIX, drive letter or UNC),
 * no `..` segment. Returns the cleaned segments.
 */
export function checkRelativePath(relativePath: string): string[] {
  if (typeof relativePath !== 'string') throw new DiaryError('path-escape', 'path must be a string');
  if (relativePath.includes('\0')) throw new DiaryError('path-escape', 'path contains a NUL character');
  const rel = relativePath.replace(/\\/g, '/');
  if (isAbsolute(rel) || win32.isAbsolute(relativePath) || /^[A-Za-z]:/.test(rel)) {
    throw new DiaryError('path-escape', `absolute paths are not allowed: ${relativePath}`, { path: relativePath });
  }
  const segments = rel.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) {
    throw new DiaryError('path-escape', `".." is not allowed in paths: ${relativePath}`, { path: relativePath });
  }
  return segments;
}

/**
 * `root` + `relativePath`, refusing anything that would land outside `root` — lexically and after
 * following symlinks (the deepest existing ancestor is realpath'd; a dangling symlink on the way is
 * refused because writing through it would create a file wherever it points). Synchronous on
 * purpose: it is a guard in front of every path, and a couple of realpath calls are cheap.
 */
export function safeJoin(root: string, relativePath: string): string {
  const segments = checkRelativePath(relativePath);
  const rootAbs = resolve(root);
  const target = segments.length > 0 ? join(rootAbs, ...segments) : rootAbs;
  if (!isInside(rootAbs, target)) throw new DiaryError('path-escape', `path escapes the root: ${relativePath}`, { path: relativePath });

  let realRoot: string;
  try {
    realRoot = realpathSync(rootAbs);
  } catch (e) {
    throw new DiaryError('not-found', `root directory does not exist: ${rootAbs}`, { path: rootAbs, cause: fsCode(e) });
  }

  let probe = target;
  const rest: string[] = [];
  for (;;) {
    let real: string;
    try {
      real = realpathSync(probe);
    } catch (e) {
      if (fsCode(e) !== 'ENOENT' && fsCode(e) !== 'ENOTDIR') throw e;
      if (lstatOrNull(probe)?.isSymbolicLink()) {
        throw new DiaryError('path-escape', `path goes through a dangling symlink: ${relativePath}`, { path: relativePath });
      }
      const parent = dirname(probe);
      if (parent === probe) return target;
      rest.unshift(basename(probe));
      probe = parent;
      continue;
    }
    const realTarget = rest.length > 0 ? join(real, ...rest) : real;
    if (!isInside(realRoot, realTarget)) {
      throw new DiaryError('path-escape', `path leaves the root through a symlink: ${relativePath}`, { path: relativePath });
    }
    return target;
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** The writer's pid in a temp file name made by tempPathFor, or null for other temp names. */
export function tempFileOwner(name: string): number | null {
  // Checked for every file of the diary folder at each open: most names fail the prefix.
  if (!name.startsWith(TEMP_PREFIX)) return null;
  const m = TEMP_NAME.exec(name);
  return m ? Number(m[1]) : null;
}

const TEMP_NAME = new RegExp(`^${TEMP_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-[0-9a-f]+\\.tmp$`);

/**
 * Cleans up after writers that were killed: removes their temp files (the scanner skips them, but
 * they would pile up) — those whose writing process is gone, or that are over an hour old — and puts
 * back a diary a writer killed mid-swap left under its aside name (swap.ts; never deleted). Returns
 * how many temp files went.
 */
export async function sweepOrphanTemps(root: string, isAlive: (pid: number) => boolean, maxAgeMs = 3_600_000): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = () => join(dir, e.name);
      if (e.isDirectory()) await walk(full());
      else if (e.isFile()) {
        const aside = parseAsideName(e.name);
        if (aside) {
          if (aside.pid !== process.pid && !isAlive(aside.pid)) {
            try {
              recoverAside(dir, e.name, aside.original);
            } catch {
              // left where it is (a dot-file, skipped by the scanner) for the next start
            }
          }
          continue;
        }
        const pid = tempFileOwner(e.name);
        if (pid === null) continue;
        const old = await lstat(full()).then((st) => Date.now() - st.mtimeMs > maxAgeMs, () => false);
        if (old || (pid !== process.pid && !isAlive(pid))) {
          await rm(full(), { force: true });
          removed++;
        }
      }
    }
  };
  await walk(resolve(root));
  return removed;
}
