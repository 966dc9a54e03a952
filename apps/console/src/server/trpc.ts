// tRPC set-up in one place: the context (engine runtime + request headers), the error shape, and the
// procedure kinds. Every procedure is timed and has its errors mapped; every mutation is guarded.
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { checkMutation } from '@engram/engine';
import { guardPolicy, type ConsoleRuntime } from './engine.ts';
import { EngineErrorCause, toTRPCError } from './errors.ts';
import { changesMemories } from './mirrors.ts';
import { servicesOf } from './services.ts';

export interface TRPCContext {
  runtime: ConsoleRuntime;
  /** Request headers; null for trusted in-process callers (server code only). */
  headers: Headers | null;
  /** Response headers of the HTTP answer, when there is one (Server-Timing goes here). */
  resHeaders: Headers | null;
}

export function createContext(runtime: ConsoleRuntime, req?: { headers: Headers; resHeaders?: Headers }): TRPCContext {
  return { runtime, headers: req?.headers ?? null, resHeaders: req?.resHeaders ?? null };
}

export interface InputIssue {
  path: string;
  message: string;
}

const t = initTRPC.context<TRPCContext>().create({
  // Never put stacks in answers, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause : null;
    const issues: InputIssue[] | null = zod
      ? zod.issues.map((i) => ({ path: i.path.map(String).join('.') || '(input)', message: i.message }))
      : null;
    const engramCode = error.cause instanceof EngineErrorCause ? error.cause.engramCode : null;
    const message = issues ? `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : shape.message;
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path ?? null, engramCode, issues },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const timedAndMapped = t.middleware(async ({ ctx, path, next }) => {
  const started = performance.now();
  const result = await next();
  const ms = performance.now() - started;
  ctx.resHeaders?.append('Server-Timing', `${path.replaceAll('.', '-')};dur=${ms.toFixed(1)}`);
  if (!result.ok) throw toTRPCError(result.error);
  return result;
});

const guardMutations = t.middleware(({ ctx, type, next }) => {
  if (type !== 'query' && ctx.headers) {
    const verdict = checkMutation(ctx.headers, guardPolicy(ctx.runtime));
    if (!verdict.ok) throw new TRPCError({ code: 'FORBIDDEN', message: verdict.reason });
  }
  return next();
});

/** A mutation that changed memories refreshes the workspaces' Memory.md in the background. */
const mirrorAfterWrites = t.middleware(async ({ ctx, type, path, next }) => {
  const result = await next();
  if (result.ok && type === 'mutation' && changesMemories(path)) servicesOf(ctx.runtime).mirrors.schedule();
  return result;
});

/** Queries and mutations alike; mutations additionally need the token and an allowed origin. */
export const procedure = t.procedure.use(timedAndMapped).use(guardMutations).use(mirrorAfterWrites);
