// What an MCP client is told when a call fails, and what the server's log keeps. The engine's one
// distinction (errors.ts): an EngramError is the engine speaking to the person — bad arguments, not
// found, a locked database whose words were already saved — and goes out as it is. Anything else is
// internal: a driver's "Failed query: … params: …" carries SQL and the memory's own words, an fs error
// a path on this machine. The client gets fixed words under a stable code (a locked or unreachable
// database under the engine's own codes for them, so a program knows to try again later) and the
// engine's log gets the whole error, with the secrets the engine holds masked.
import { isUnreachable } from '@engram/db/reachability';
import { getPath } from '../config/merge.ts';
import { secretPaths } from '../config/schema.ts';
import type { Engine } from '../engine.ts';
import { errorMessage, isDatabaseBusy, isEngramError, rootReason } from '../errors.ts';
import { redact } from '../semantic/embedding-fault.ts';

/** A failure as the client reads it: `code` is stable for programs, `message` is for people. */
export interface ClientFailure {
  code: string;
  message: string;
}

// Chinese first, English after, as the engine's own messages. No "nothing was written": a write can
// fail after its file is saved (the index failing), and these words cannot know which happened.
const INTERNAL: ClientFailure = {
  code: 'failed',
  message: '引擎内部出错，这次调用没有完成；原因已记入服务器日志（engram mcp 的 stderr）。 / Internal error in the engine: this call did not complete; the cause is in the server log (the stderr of engram mcp).',
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

/** The password and query values of a URL (libSQL takes `?authToken=…` in the URL itself). */
function urlCredentials(url: string): string[] {
  try {
    const u = new URL(url);
    return [decodeURIComponent(u.password), ...u.searchParams.values()].filter((v) => v !== '');
  } catch {
    return [];
  }
}

/** The secrets an engine holds: its API keys and database token, and credentials in the database URL. */
export function engineSecrets(engine: Engine): string[] {
  try {
    const configured = secretPaths.map((path) => getPath(engine.config, path)).filter((v): v is string => typeof v === 'string' && v !== '');
    return [...configured, ...urlCredentials(engine.database.url)];
  } catch {
    // The settings themselves failing is then the error being logged: there is nothing to mask from them.
    return [];
  }
}

/**
 * Logs a failure whose cause the client was not told (anything but an EngramError): what failed and
 * the whole error — message, innermost cause, stack — with the engine's secrets and `alsoSecret`
 * (the install token) masked.
 */
export function logInternalFailure(engine: Engine, what: string, e: unknown, alsoSecret: readonly string[] = []): void {
  if (isEngramError(e)) return;
  const secrets = [...alsoSecret, ...engineSecrets(engine)];
  const mask = (text: string) => redact(text, secrets);
  const message = errorMessage(e);
  const cause = rootReason(e);
  const code = (e as { code?: unknown } | null)?.code;
  engine.log('error', `mcp: ${what} failed`, {
    error: mask(message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(cause !== message ? { cause: mask(cause) } : {}),
    ...(e instanceof Error && e.stack ? { stack: mask(e.stack) } : {}),
  });
}
