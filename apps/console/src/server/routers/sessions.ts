// Past DSH sessions of a workspace: listed with what an import would do, previewed, and imported as
// memories of that workspace by a background job the page polls (it outlives the page).
import { GLOBAL_WORKSPACE, resolveDshHome } from '@engram/engine';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { sessionIds, workspaceId } from '../../shared/validators.ts';
import type { ConsoleRuntime } from '../engine.ts';
import { isEngineError } from '../errors.ts';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

async function knownWorkspace(runtime: ConsoleRuntime, id: string) {
  const row = await servicesOf(runtime).registry.get(id);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: `no workspace "${id}"` });
  return row;
}

/** What a failed job says: the engine's own code and message, or a generic line (details in the log). */
function describeFailure(e: unknown): { code: string; message: string } {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  console.error('[engram-console] session import failed', e);
  return { code: 'internal', message: 'The import failed — see the console server log.' };
}

export const sessionsRouter = createTRPCRouter({
  /** The workspace's past sessions (its folder and the folders it lived in before), newest first. */
  list: procedure.input(z.object({ workspace: workspaceId })).query(async ({ ctx, input }) => {
    if (input.workspace === GLOBAL_WORKSPACE) throw new TRPCError({ code: 'BAD_REQUEST', message: 'global has no folder: pick a workspace to list its sessions' });
    const { registry, sessions } = servicesOf(ctx.runtime);
    const ws = await knownWorkspace(ctx.runtime, input.workspace);
    const workspacePaths = (await registry.folders(ws.id)).slice(1);
    return {
      workspace: { id: ws.id, name: ws.name, path: ws.path, pastPaths: workspacePaths },
      home: resolveDshHome(ctx.runtime.engine.config.sessions.dshHome),
      sessions: await sessions.list({ cwd: ws.path, workspacePaths }),
    };
  }),

  /** What importing these sessions would write, one memory per topic (the drafts); writes nothing. `thinking`: with the reasoning. */
  preview: procedure
    .input(z.object({ ids: sessionIds, thinking: z.boolean().optional() }))
    .query(({ ctx, input }) => servicesOf(ctx.runtime).sessions.preview(input.ids, { thinking: input.thinking })),

  /** Starts the import as a background job and answers at once with it; poll `importStatus`. `thinking` keeps the model's reasoning. */
  import: procedure.input(z.object({ workspace: workspaceId, ids: sessionIds, thinking: z.boolean().optional() })).mutation(async ({ ctx, input }) => {
    if (input.workspace !== GLOBAL_WORKSPACE) await knownWorkspace(ctx.runtime, input.workspace);
    const { sessions, imports } = servicesOf(ctx.runtime);
    const ids = [...new Set(input.ids)];
    return imports.start(
      { workspace: input.workspace, sessionIds: ids },
      (onProgress) => sessions.import(ids, { workspace: input.workspace, thinking: input.thinking, onProgress }),
      describeFailure,
    );
  }),

  /** One job: status, done / total, percent (100 only when finished), the report or the error. */
  importStatus: procedure.input(z.object({ jobId: z.string().trim().min(1).max(100) })).query(({ ctx, input }) => {
    const job = servicesOf(ctx.runtime).imports.get(input.jobId);
    if (!job) throw new TRPCError({ code: 'NOT_FOUND', message: `no import job "${input.jobId}" (jobs are kept until the console restarts)` });
    return job;
  }),

  /** Recent jobs of this console process, newest first (running ones always included). */
  importJobs: procedure.query(({ ctx }) => servicesOf(ctx.runtime).imports.list()),
});
