// Engine failures become typed tRPC errors with a safe message and the engine's `code`; anything
// unexpected becomes a generic INTERNAL_SERVER_ERROR (logged here, never sent with a stack).
import { TRPCError } from '@trpc/server';

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
