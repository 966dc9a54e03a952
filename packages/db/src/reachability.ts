// Telling a database server that cannot be reached from a failing query, and naming it safely. Pure
// and free of the driver, so error handling (the engine's errors.ts, loaded by every CLI command)
// does not load libSQL for commands that never open the database (`--version`).

const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_\w+)$/;

/**
 * Did a call fail because the remote server could not be reached (refused, name not found, reset,
 * timed out, or answering that it cannot serve) rather than because of the query? The libSQL client reports these as fetch's
 * `TypeError: fetch failed` with the system error as its cause.
 */
export function isUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseUnreachableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
    // The server answering that it cannot serve: shutting down or overloaded (502/503/504), or a
    // stream it no longer knows (404: it restarted while a request sequence was under way).
    const status = (e as { status?: unknown }).status;
    if ((e as { name?: unknown }).name === 'HttpServerError' && typeof status === 'number' && SERVER_GONE_STATUS.has(status)) return true;
  }
  return false;
}

const SERVER_GONE_STATUS = new Set([404, 502, 503, 504]);

/** A URL safe to show: no credentials, no query string (an auth token can hide in either). */
export const displayUrl = (url: string): string => url.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '');

/** The remote database server did not answer. The diary files are untouched; nothing was written. */
export class DatabaseUnreachableError extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
  constructor(url: string, cause: unknown) {
    let reason = '';
    for (let e: unknown = cause, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) reason = e instanceof Error ? e.message : String(e);
    super(`database server unreachable at ${displayUrl(url)} (${reason}) / 无法连接数据库服务器`, { cause });
    this.name = 'DatabaseUnreachableError';
  }
}

