// Engine failures become typed tRPC errors with a safe message and the engine's `code`; anything
// unexpected becomes a generic INTERNAL_SERVER_ERROR (logged here, never sent with a stack).
import { TRPCError } from '@trpc/server';
import { DatabaseUnreachableError, isUnreachable } from '@engram/db';

const UNREACHABLE_MESSAGE =
  '无法连接数据库服务器，这次操作没有完成索引；日记文件不受影响。请确认 libSQL 服务器正在运行、地址正确，稍后再试。 / The database server is unreachable: this operation could not finish indexing; the diary files are not affected. Check that the libSQL server is running and its address is right, then try again.';

type TRPCCode = ConstructorParameters<typeof TRPCError>[0]['code'];

export interface EngineErrorLike {
  name: string;
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/**
 * Duck-typed so it holds across module copies (Next bundles, tsx tests): an EngramError or any
 * subclass of it (DiaryError names itself differently, so `name === 'EngramError'` alone missed it
 * and every diary-layer refusal reached the browser as a generic 500).
 */
const ENGINE_ERROR_NAMES = new Set(['EngramError', 'DiaryError']);

export function isEngineError(e: unknown): e is EngineErrorLike {
  if (!(e instanceof Error) || typeof (e as { code?: unknown }).code !== 'string') return false;
  // Names survive minified production bundles; the class chain covers subclasses named otherwise.
  if (ENGINE_ERROR_NAMES.has(e.name)) return true;
  for (let proto = Object.getPrototypeOf(e); proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: string } }).constructor?.name === 'EngramError') return true;
  }
  return false;
}

/** Which tRPC code an engine error code means. Engine errors are always the caller's to act on. */
export function trpcCodeFor(engineCode: string): TRPCCode {
  const c = engineCode.toLowerCase();
  // The remote database server is down: try again later (a write's words are already on disk).
  if (/unreachable/.test(c)) return 'SERVICE_UNAVAILABLE';
  // The diary folder gone under the engine (engine diary/errors.ts): the memory is not missing, its
  // folder must come back first — a "not found" would read as a deleted memory.
  if (c === 'diary-missing') return 'PRECONDITION_FAILED';
  if (/not-found|missing|unknown-id|no-such/.test(c)) return 'NOT_FOUND';
  if (/conflict|changed|stale|exists|duplicate|already|hash/.test(c)) return 'CONFLICT';
  // disk-full / permission-denied (and read-only-fs above): the storage refused a write (engine diary/errors.ts).
  if (/read-only|readonly|locked|manual|mismatch|requires|unavailable|degraded|busy|running|disabled|not-configured|unsupported|disk-full|permission-denied/.test(c)) {
    return 'PRECONDITION_FAILED';
  }
  return 'BAD_REQUEST';
}

export class EngineErrorCause extends Error {
  constructor(readonly engramCode: string, message: string) {
    super(message);
    this.name = 'EngineErrorCause';
  }
}

/** Normalises anything thrown by a procedure into the TRPCError the client will see. */
export function toTRPCError(err: unknown, log: (e: unknown) => void = (e) => console.error('[engram-console]', e)): TRPCError {
  const cause = err instanceof TRPCError && err.cause ? err.cause : err;
  if (isEngineError(cause)) {
    return new TRPCError({
      code: trpcCodeFor(cause.code),
      message: cause.message,
      cause: new EngineErrorCause(cause.code, cause.message),
    });
  }
  if (err instanceof TRPCError && err.code !== 'INTERNAL_SERVER_ERROR') return err;
  if (isUnreachable(cause)) {
    // The engine names the server where it knows it; anything that still slips through is an
    // outage, not a crash, and must not read as "Internal error".
    const message = `${UNREACHABLE_MESSAGE}${cause instanceof DatabaseUnreachableError ? ` (${cause.message})` : ''}`;
    return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message, cause: new EngineErrorCause('database-unreachable', message) });
  }
  log(cause);
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal error — see the console server log.' });
}

/** The engine could not open (bad config, missing folder): every procedure answers this until it can. */
export function engineUnavailable(err: unknown, log: (e: unknown) => void = (e) => console.error('[engram-console] engine failed to open', e)): TRPCError {
  if (isEngineError(err)) {
    return new TRPCError({ code: 'PRECONDITION_FAILED', message: err.message, cause: new EngineErrorCause(err.code, err.message) });
  }
  log(err);
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'The engine could not open — see the console server log.' });
}
