// Which diary folder an index belongs to, recorded in its database.
// - Remote mode: one machine owns the diary folder and writes the index; others read. The owner is
//   recorded in the shared database (host + diary folder). Without this, a second machine opening the
//   server would "sync" its own copy of the folder into it — and remove every row it does not have.
// - A local data dir remembers the folder it was first opened with. Opening it with another folder
//   (a command without --diary-dir falls back to the default one) would sync that folder into it and
//   drop every document of the real one, so it is refused unless the switch is asked for on purpose.
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { getMeta, setMeta, type EngramDb } from '@engram/db';
import { EngramError } from '../errors.ts';

const OWNER_KEY = 'index-owner';
const DIARY_FOLDER_KEY = 'diary-folder';

/** A database other engines share: anything but an embedded file or an in-memory database. */
export const isSharedDatabaseUrl = (url: string): boolean => !url.startsWith('file:') && url !== ':memory:';

export const indexOwnerId = (diaryDir: string, host = hostname()): string => `${host}:${diaryDir}`;

/**
 * Claims the index for `self` when nobody owns it (or when `take` is set), and returns null: this
 * engine indexes. When another owner is recorded, returns it: this engine only reads.
 */
export async function claimIndexOwner(db: EngramDb, self: string, take: boolean): Promise<string | null> {
  const owner = await getMeta(db, OWNER_KEY);
  if (owner === self) return null;
  if (owner === undefined || take) {
    await setMeta(db, OWNER_KEY, self);
    return null;
  }
  return owner;
}

const realOrSelf = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** Two spellings of one folder (a symlink, /tmp vs /private/tmp) are the same folder. */
export const sameFolder = (a: string, b: string): boolean => a === b || realOrSelf(a) === realOrSelf(b);

export const diaryFolderMismatch = (remembered: string, asked: string): string =>
  `数据目录的索引建自日记文件夹 ${remembered},本次打开的却是 ${asked}:已拒绝,以免索引被另一个文件夹覆盖。` +
  `继续用原文件夹:加 --diary-dir ${remembered};有意换成新文件夹并按它重建索引:加 --switch-diary-dir(控制台/插件:设 ENGRAM_SWITCH_DIARY_DIR=1)。` +
  ` (this data dir was built from ${remembered}, not ${asked})`;

/**
 * Checks `diaryDir` against the folder the data dir remembers. The first folder (and a switch on
 * purpose) is remembered when `writable`; a different one throws `diary-dir-mismatch`.
 */
export async function checkDiaryFolder(db: EngramDb, diaryDir: string, opts: { switchOnPurpose: boolean; writable: boolean }): Promise<void> {
  const remembered = await getMeta(db, DIARY_FOLDER_KEY);
  if (remembered !== undefined && sameFolder(remembered, diaryDir)) return;
  if (remembered !== undefined && !opts.switchOnPurpose)
    throw new EngramError('diary-dir-mismatch', diaryFolderMismatch(remembered, diaryDir), { remembered, asked: diaryDir });
  if (opts.writable) await rememberDiaryFolder(db, diaryDir);
}

/** Records the folder the index now follows (the console's settings move it on purpose). */
export const rememberDiaryFolder = (db: EngramDb, diaryDir: string): Promise<void> => setMeta(db, DIARY_FOLDER_KEY, diaryDir);
