// Which diary folder an index belongs to, recorded in its database.
// - Remote mode: one machine owns the diary folder and writes the index; others read. The owner is
//   recorded in the shared database (host + diary folder). Without this, a second machine opening the
//   server would "sync" its own copy of the folder into it — and remove every row it does not have.
// - A local data dir remembers the folder it was first opened with. Opening it with another folder
//   (a command without --diary-dir falls back to the default one) would sync that folder into it and
//   drop every document of the real one, so it is refused unless the switch is asked for on purpose.
//   The index itself tells a moved folder from a swapped one: a folder that holds the files it
//   indexed is the same diary (moved or copied with its data dir: a sync drops nothing), and a data
//   dir indexed before it remembered a folder refuses a folder that holds none of them.
import { existsSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { documentHashes, getMeta, setMeta, type EngramDb } from '@engram/db';
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

export const diaryFolderUnknown = (indexed: number, asked: string): string =>
  `数据目录里已有 ${indexed} 条日记的索引,但它们的文件一个也不在 ${asked} 中(索引建自另一个文件夹):已拒绝,以免把它们从索引中删掉。` +
  `继续用原文件夹:加 --diary-dir <原文件夹>;有意换成这个文件夹并按它重建索引:加 --switch-diary-dir(控制台/插件:设 ENGRAM_SWITCH_DIARY_DIR=1)。` +
  ` (the index holds ${indexed} diary files and none of them is in ${asked})`;

/** Indexed files sampled to tell whether a folder is the one the index was built from. */
const SAMPLE = 32;

/** How many diary files the index has, and how many of an even sample of them are in `diaryDir`. */
async function indexedFilesIn(db: EngramDb, diaryDir: string): Promise<{ indexed: number; sampled: number; found: number }> {
  const paths = [...(await documentHashes(db)).keys()].filter((k) => k.startsWith('diary:')).map((k) => k.slice('diary:'.length));
  const step = Math.max(1, Math.floor(paths.length / SAMPLE));
  let sampled = 0;
  let found = 0;
  for (let i = 0; i < paths.length; i += step, sampled++) if (existsSync(join(diaryDir, paths[i]!))) found++;
  return { indexed: paths.length, sampled, found };
}

/**
 * Checks `diaryDir` against the folder the data dir remembers, and remembers it (when `writable`)
 * if it is taken. Taken: the remembered folder; a switch on purpose; a folder that holds every
 * sampled file of the index (the diary folder moved or copied: a sync drops nothing); the first
 * folder of a data dir that remembers none, unless it holds none of the indexed files. Anything else
 * throws `diary-dir-mismatch`.
 */
export async function checkDiaryFolder(db: EngramDb, diaryDir: string, opts: { switchOnPurpose: boolean; writable: boolean }): Promise<void> {
  const remembered = await getMeta(db, DIARY_FOLDER_KEY);
  if (remembered !== undefined && sameFolder(remembered, diaryDir)) return;
  if (!opts.switchOnPurpose) {
    const files = await indexedFilesIn(db, diaryDir);
    const holdsTheIndex = files.indexed > 0 && files.found === files.sampled;
    if (!holdsTheIndex && remembered !== undefined)
      throw new EngramError('diary-dir-mismatch', diaryFolderMismatch(remembered, diaryDir), { remembered, asked: diaryDir });
    if (files.indexed > 0 && files.found === 0)
      throw new EngramError('diary-dir-mismatch', diaryFolderUnknown(files.indexed, diaryDir), { remembered: null, asked: diaryDir, indexed: files.indexed });
  }
  if (opts.writable) await rememberDiaryFolder(db, diaryDir);
}

/** Whether this data dir remembers `diaryDir` as the folder its index was built from (not a folder mistyped or never used). */
export async function remembersDiaryFolder(db: EngramDb, diaryDir: string): Promise<boolean> {
  const remembered = await getMeta(db, DIARY_FOLDER_KEY);
  return remembered !== undefined && sameFolder(remembered, diaryDir);
}

/** Records the folder the index now follows (the console's settings move it on purpose). */
export const rememberDiaryFolder = (db: EngramDb, diaryDir: string): Promise<void> => setMeta(db, DIARY_FOLDER_KEY, diaryDir);
