import { EngramError } from '../errors.ts';

/** Stable failure codes of the diary layer (scripts and the console branch on these). */
export type DiaryErrorCode =
  | 'title-exists'
  | 'exists'
  | 'path-escape'
  | 'not-found'
  | 'not-a-file'
  | 'diary-dir-missing'
  // the diary folder went away under a running engine (deleted, moved, its drive unmounted): wait
  // for it, do not create it (goneDiaryWriteError, goneDiaryReadError)
  | 'diary-missing'
  | 'invalid-input'
  | 'already-archived'
  // a write whose file would exceed what the scanner indexes (DEFAULT_MAX_FILE_BYTES)
  | 'too-large'
  | 'not-archived'
  // anchored edits (editEntry); the pure anchoredReplace reports the same three without "target-"
  | 'target-too-short'
  | 'target-not-found'
  | 'target-ambiguous'
  // an anchored edit whose target is longer than the search accepts (MAX_TARGET_CHARS)
  | 'target-too-long'
  // the file changed on disk between reading it and writing it back (re-checked under the lock)
  | 'conflict'
  // storage refused the write (see storageError)
  | StorageErrorCode;

/** Why the disk refused a write, for every caller (console, plugin, CLI) to show as it is. */
export type StorageErrorCode = 'disk-full' | 'read-only-fs' | 'permission-denied';

export class DiaryError extends EngramError {
  declare readonly code: DiaryErrorCode;
  constructor(code: DiaryErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'DiaryError';
  }
}

export const isDiaryError = (e: unknown, code?: DiaryErrorCode): e is DiaryError =>
  e instanceof DiaryError && (code === undefined || e.code === code);

/**
 * The diary was renamed, moved or archived by another program while it was being changed (its
 * file or a folder on its path is gone). Nothing was written; the caller shows this as it is.
 */
export function movedAwayError(path: string): DiaryError {
  const name = path.replace(/\\/g, '/').split('/').filter(Boolean).at(-1) ?? path;
  return new DiaryError(
    'not-found',
    `记忆已被移动或归档：${name} 在这次修改进行时已不在原处（被归档、改名或移到了别的文件夹），这次没有写入。请刷新后再试。 / The memory was moved or archived: ${name} was no longer where it was while this change was being made (archived, renamed or moved to another folder); nothing was written — refresh and try again.`,
    { path, moved: true },
  );
}

/** An fs error saying a file or a folder on its path is not there (any more). */
export const isGoneError = (e: unknown): boolean => {
  const code = fsCode(e);
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** The errno-style code of a Node fs error, if any. */
export const fsCode = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;

/** errno (and SQLite) codes → the storage failure they mean. */
const STORAGE_CODES: Record<string, StorageErrorCode> = {
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
  SQLITE_FULL: 'disk-full',
  EROFS: 'read-only-fs',
  SQLITE_READONLY: 'read-only-fs',
  EACCES: 'permission-denied',
  EPERM: 'permission-denied',
};

// Chinese first (the console's language), English after: the message is shown as it is.
const STORAGE_MESSAGES: Record<StorageErrorCode, string> = {
  'disk-full': '磁盘空间已满（或超出配额），这次没有保存；已有的记忆没有受影响。请释放空间后重试。 / The disk is full (or over quota): nothing was saved this time and existing memories are intact. Free some space and try again.',
  'read-only-fs': '存储位置是只读的，无法保存；已有的记忆没有受影响。请检查磁盘是否以只读方式挂载。 / The storage is read-only: nothing was saved and existing memories are intact. Check whether the disk is mounted read-only.',
  'permission-denied': '没有写入权限，无法保存；已有的记忆没有受影响。请检查文件夹的权限。 / Permission denied: nothing was saved and existing memories are intact. Check the folder\'s permissions.',
};

/** The storage failure behind an error (its own code, or a wrapped cause's), if it is one. */
function storageCodeOf(e: unknown): StorageErrorCode | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = fsCode(cur);
    if (code && STORAGE_CODES[code]) return STORAGE_CODES[code];
  }
  return undefined;
}

/**
 * A typed DiaryError for ENOSPC / EDQUOT / EROFS / EACCES / EPERM (and SQLite's full / read-only),
 * or `e` unchanged. A full disk used to reach the console as a bare errno and show "Internal error".
 */
export function storageError(e: unknown, path?: string): unknown {
  if (e instanceof EngramError) return e;
  const code = storageCodeOf(e);
  if (!code) return e;
  return new DiaryError(code, STORAGE_MESSAGES[code], { ...(path ? { path } : {}), cause: fsCode(e) ?? (e instanceof Error ? e.message : String(e)) });
}

/** Runs an fs operation, turning storage failures into typed errors. */
export async function withStorageErrors<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw storageError(e, path);
  }
}

/**
 * The words for a diary folder that is not there (a person named it, and may have mistyped it): what
 * is missing and what to do, Chinese first.
 */
export const missingDiaryDirText = (dir: string): string =>
  `日记文件夹不存在：${dir}（先创建它，或把 diaryDir 指向你的日记）/ diary directory does not exist: ${dir} — create it or point diaryDir at your diaries`;

/**
 * What every gone wording adds for a person who deleted the folder on purpose (to make the agent
 * forget): the engine waits for the folder, so starting afresh is creating it again — and an empty
 * folder then empties the index at the next sync. Said so that nobody waits for a folder that will
 * not come back, and nobody creates one where a drive mounts without knowing what it does.
 */
const START_AFRESH_ZH = '若是有意删除、想从头开始：重新创建这个文件夹即可（空文件夹会在下次同步时清空索引）。';
const START_AFRESH_EN = 'If you deleted it on purpose to start afresh, create the folder again (an empty folder empties the index at the next sync).';

/** How every gone wording without a path opens: what is missing and why it may be. */
const GONE_ZH = '日记文件夹不见了（被删除、移走，或所在的磁盘没有挂载）';
const GONE_EN = 'The diary folder is missing (deleted, moved away, or its drive is not mounted)';

/**
 * The words for the diary folder gone under a running engine (deleted, moved away, its drive
 * unmounted): recall is paused and nothing is lost, Chinese first. Unlike missingDiaryDirText it does
 * not say "create it": an empty folder created where a drive mounts would be synced as the diary.
 */
export const goneDiaryDirText = (dir: string): string =>
  `日记文件夹不见了：${dir}（被删除、移走，或所在的磁盘没有挂载）。召回已暂停，不会注入任何记忆；索引原样保留，文件夹回来后立即恢复。${START_AFRESH_ZH} / The diary folder is missing: ${dir} (deleted, moved away, or its drive is not mounted), so recall is paused and injects nothing; the index is kept as it is and recall resumes as soon as the folder is back. ${START_AFRESH_EN}`;

/**
 * A write refused because the diary folder is gone under the running engine. Not missingDiaryDirText's
 * "create it" (only to start afresh, said as that): for an unmounted drive that is the one wrong thing — a folder created at the mount point
 * takes the notes onto the disk underneath, where the remounted drive hides them. Fixed words, no
 * path: the model reads them through the plugin's and the MCP server's tools (the folder is in
 * details, and engine status names it for a person).
 */
export const goneDiaryWriteError = (diaryDir: string): DiaryError =>
  new DiaryError(
    'diary-missing',
    `${GONE_ZH}，这次没有写入。请等它回来后再写；不要新建这个文件夹：磁盘没有挂载时，新建的文件夹会落在挂载点下面的磁盘上，磁盘重新挂上后里面的记忆就看不见了。${START_AFRESH_ZH} / ${GONE_EN}, so nothing was written. Write again once it is back; do not create the folder: with its drive unmounted, a new folder would sit on the disk under the mount point, hidden once the drive is mounted again. ${START_AFRESH_EN}`,
    { diaryDir },
  );

/**
 * An index run (`engram index`, a rebuild) refused because the diary folder is gone: with no files to
 * compare with, a pass would drop every document. Names the folder: a person runs it.
 */
export const goneDiaryIndexError = (diaryDir: string): DiaryError =>
  new DiaryError(
    'diary-missing',
    `日记文件夹不见了：${diaryDir}（被删除、移走，或所在的磁盘没有挂载），这次没有建索引；索引原样保留，文件夹回来后再运行。${START_AFRESH_ZH} / The diary folder is missing: ${diaryDir} (deleted, moved away, or its drive is not mounted), so nothing was indexed; the index is kept as it is — run it again once the folder is back. ${START_AFRESH_EN}`,
    { diaryDir },
  );

/**
 * One memory opened (read, locate, detail) while the diary folder is gone under the running engine:
 * the index still lists it, its file cannot be read until the folder is back, and nothing is lost —
 * not "cannot read <path>: ENOENT …", which reads as this memory lost. Fixed words without a path, as
 * goneDiaryWriteError; which memory is in details.
 */
export const goneDiaryReadError = (docId: string, path: string): DiaryError =>
  new DiaryError(
    'diary-missing',
    `${GONE_ZH}：这篇记忆的文件在它回来之前无法读取；记忆没有丢失，文件夹回来后即可读取。 / ${GONE_EN}: this memory's file cannot be read until it is back; nothing is lost, and it can be read again once the folder is back.`,
    { docId, path },
  );

/**
 * What a tool tells the model while the diary folder is gone (the plugin's and the MCP server's
 * tools): a search, that it cannot search until the folder is back — an empty result alone reads as
 * "no such memory" — and a listing (read from the index), that the memories it lists are not on disk
 * right now, though nothing is lost. Fixed words, Chinese first, and no path: the model cannot act on
 * where the folder was (engine status names it for a person).
 */
export function goneDiaryToolText(use: 'search' | 'listing'): string {
  return use === 'search'
    ? `${GONE_ZH}：在它回来之前无法检索记忆，没有结果不代表没有相关记忆。${START_AFRESH_ZH} / ${GONE_EN}: memories cannot be searched until it is back, so no result does not mean there is no such memory. ${START_AFRESH_EN}`
    : `${GONE_ZH}：以下记忆列自索引，文件此刻不在磁盘上；没有丢失，文件夹回来后即可读取。${START_AFRESH_ZH} / ${GONE_EN}: the memories below are listed from the index and are not on disk right now; nothing is lost, and they can be read again once it is back. ${START_AFRESH_EN}`;
}

/**
 * A tool's listing read from the index, as the model reads it: while the diary folder is gone, the
 * listing line first and then the listing as it is (the folder may be remounting); unchanged while
 * the folder is there.
 */
export const listedWhileDiaryGone = (diaryMissing: boolean | undefined, listing: string): string =>
  diaryMissing ? `${goneDiaryToolText('listing')}\n${listing}` : listing;
