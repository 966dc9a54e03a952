// Engine capabilities the console offers but the engine may not expose yet. Looked up by name (an
// Engine method first, then a package export) so a missing one becomes a typed PRECONDITION_FAILED in
// the UI instead of a crash or a build error.
import { TRPCError } from '@trpc/server';
import * as engineModule from '@engram/engine';
import type { Engine } from '@engram/engine';

const unavailable = (what: string) => new TRPCError({ code: 'PRECONDITION_FAILED', message: `this engine version does not provide ${what}` });

/** `engine[name](...)`, or `@engram/engine`'s export `fallbackExport(...)`. */
export function engineFunction<Args extends unknown[], R>(engine: Engine, name: string, fallbackExport?: string): (...args: Args) => Promise<R> {
  const method = (engine as unknown as Record<string, unknown>)[name];
  if (typeof method === 'function') return async (...args: Args) => (await (method as (...a: Args) => R | Promise<R>).apply(engine, args)) as R;
  const exported = fallbackExport ? (engineModule as Record<string, unknown>)[fallbackExport] : undefined;
  if (typeof exported === 'function') return async (...args: Args) => (await (exported as (...a: Args) => R | Promise<R>)(...args)) as R;
  throw unavailable(`${name}()`);
}

/** A constant exported by `@engram/engine` (e.g. the built-in guideline text). */
export function engineConstant(name: string): string {
  const value = (engineModule as Record<string, unknown>)[name];
  if (typeof value !== 'string') throw unavailable(name);
  return value;
}
