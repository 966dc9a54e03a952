import { displayUrl, isUnreachable } from '@engram/db/reachability';

/** A failure the caller can act on: `code` is stable for scripts, `message` is for people. */
export class EngramError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'EngramError';
    this.code = code;
    this.details = details;
  }
}

export const isEngramError = (e: unknown): e is EngramError => e instanceof EngramError;

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** An error and what caused it, outermost first (at most five deep). */
function* causeChain(e: unknown): Generator<unknown> {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) yield cur;
}

/** The innermost message of an error chain: for a failed fetch, the system error that caused it. */
export function rootReason(e: unknown): string {
  let reason = '';
  for (const cur of causeChain(e)) reason = errorMessage(cur);
  return reason;
}

/**
 * The remote libSQL server did not answer (or answered that it cannot serve: shutting down, its
 * stream lost in a restart), said so a person can act on it: which server, its address without
 * credentials, why, and what to do. `saved`: the diary files this write had already saved — the
 * words are safe and only their index waits (`文字已保存，索引稍后补上`).
 */
export function databaseUnreachableError(url: string, cause: unknown, saved: string[] = []): EngramError {
  const at = displayUrl(url);
  const why = rootReason(cause);
  if (saved.length > 0) {
    const files = saved.join(', ');
    return new EngramError(
      'database-unreachable',
      `文字已保存，索引稍后补上：${files} 已写入日记文件夹，但 libSQL 数据库服务器 ${at} 暂时无法连接（${why}），索引还没有更新。服务器恢复后，下一次写入、同步或 engram index 会自动补上；请确认该服务器正在运行、地址正确。 / The words are saved: ${files} is saved in the diary folder, but the index is not updated: the libSQL database server is unreachable at ${at} (${why}). It is indexed when the server answers again (next write, sync or engram index) — check that the server is running and its address is right.`,
      { url: at, saved },
    );
  }
  return new EngramError(
    'database-unreachable',
    `无法连接 libSQL 数据库服务器 ${at}（${why}）：索引这次没有更新，日记文件没有受影响。请确认该服务器正在运行、地址（设置 databaseUrl 或环境变量 ENGRAM_DATABASE_URL）正确且网络可达，然后重新索引。 / The libSQL database server at ${at} is unreachable (${why}): the index was not updated and the diary files are untouched. Check that the server is running and that its address (the databaseUrl setting or ENGRAM_DATABASE_URL) is right and reachable, then index again.`,
    { url: at },
  );
}

/** Whether `e` (or what caused it) is SQLite's "database is locked": another process held it past the busy timeout. */
export function isDatabaseBusy(e: unknown): boolean {
  for (const cur of causeChain(e)) {
    const code = (cur as { code?: unknown }).code;
    if ((typeof code === 'string' && /^SQLITE_BUSY/.test(code)) || /SQLITE_BUSY|database is locked/.test(errorMessage(cur))) return true;
  }
  return false;
}

/**
 * The database was locked by another process past the busy timeout while the index took files this
 * write had already saved: the words are safe, only their index waits (the next write or sync).
 */
export function databaseBusyError(cause: unknown, saved: string[]): EngramError {
  const files = saved.join(', ');
  const why = rootReason(cause);
  return new EngramError(
    'database-busy',
    `文字已保存，索引稍后补上：${files} 已写入日记文件夹，但数据库正被另一个进程锁住（${why}），索引还没有更新；下一次写入、同步或 engram index 会补上，不要重写一遍。 / The words are saved: ${files} is saved in the diary folder, but the database is locked by another process (${why}) and the index is not updated; the next write, sync or engram index catches up — do not write it again.`,
    { saved },
  );
}

/** `e` as databaseUnreachableError when the database server could not be reached, else `e` itself. */
export function asDatabaseOutage(e: unknown, url: string, saved: string[] = []): unknown {
  return isUnreachable(e) ? databaseUnreachableError(url, e, saved) : e;
}

/**
 * A failure as a caller outside the engine reads it (an MCP client, the model through the plugin's
 * tools): `code` is stable for programs, `message` is for people. Only an EngramError speaks to the
 * person as it is; anything else is internal — a driver's "Failed query: … params: …" carries SQL and
 * a memory's own words, an fs error a path — and gets fixed words, its cause going to the caller's log.
 */
export interface ClientFailure {
  code: string;
  message: string;
}

// Chinese first, English after, as the engine's own messages. No "nothing was written": a write can
// fail after its file is saved (the index failing), and these words cannot know which happened.
const INTERNAL: ClientFailure = {
  code: 'failed',
  message: '引擎内部出错，这次调用没有完成；原因已记入日志。 / Internal error in the engine: this call did not complete; the cause is in the log.',
};
const DATABASE_BUSY: ClientFailure = {
  code: 'database-busy',
  message: '数据库正被另一个进程锁住，这次调用没有完成；请稍后再试。 / The database is locked by another process: this call did not complete; try again shortly.',
};
const DATABASE_UNREACHABLE: ClientFailure = {
  code: 'database-unreachable',
  message: '无法连接 libSQL 数据库服务器，这次调用没有完成；日记文件不受影响。请确认该服务器正在运行、地址正确，稍后再试。 / The libSQL database server is unreachable: this call did not complete; the diary files are not affected. Check that the server is running and its address is right, then try again.',
};

/** The words a client gets for `e`: the engine's own for an EngramError, fixed ones for anything else. */
export function clientFailure(e: unknown): ClientFailure {
  if (isEngramError(e)) return { code: e.code, message: e.message };
  if (isDatabaseBusy(e)) return DATABASE_BUSY;
  if (isUnreachable(e)) return DATABASE_UNREACHABLE;
  return INTERNAL;
}

/** `[code] message`: the one line a tool error, a JSON-RPC error and an HTTP 500 all carry. */
export const failureLine = (f: ClientFailure): string => `[${f.code}] ${f.message}`;
