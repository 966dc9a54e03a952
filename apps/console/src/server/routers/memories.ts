import { TRPCError } from '@trpc/server';
import { GLOBAL_WORKSPACE } from '@engram/engine';
import { z } from 'zod';
import {
  createMemoryInput,
  editInput,
  indexInput,
  listInput,
  lockInput,
  memoryId,
  moveInput,
  pinInput,
  saveFieldsInput,
  saveTextInput,
} from '../../shared/validators.ts';
import { memoryFields, saveMemoryFields } from '../memory-fields.ts';
import type { ConsoleRuntime } from '../engine.ts';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';
import { pageInput } from '../../shared/library-page.ts';

/** A write into a workspace nobody knows would make an orphan id out of a typo. */
async function requireWorkspace(runtime: ConsoleRuntime, id: string): Promise<void> {
  if (id === GLOBAL_WORKSPACE) return;
  if (!(await servicesOf(runtime).registry.get(id))) throw new TRPCError({ code: 'NOT_FOUND', message: `no workspace "${id}"` });
}

const jobsInput = z
  .object({ status: z.enum(['queued', 'running', 'done', 'failed']).optional(), limit: z.number().int().min(1).max(500).default(50) })
  .prefault({});

export const memoriesRouter = createTRPCRouter({
  /** Newest first; with `workspace`, only what that workspace sees, each marked with its scope. */
  list: procedure.input(listInput).query(({ ctx, input }) => servicesOf(ctx.runtime).library.list(input)),

  /** One page of the Library, searched, filtered and ordered on the server (with the scope's facets). */
  page: procedure.input(pageInput).query(({ ctx, input }) => servicesOf(ctx.runtime).library.page(input)),

  /** The layered index a model reads first: pinned first, then by last change, paged. */
  index: procedure.input(indexInput).query(({ ctx, input }) => ctx.runtime.engine.memoryIndex(input)),

  read: procedure.input(z.object({ id: memoryId })).query(async ({ ctx, input }) => {
    const detail = await ctx.runtime.engine.read(input.id);
    if (!detail) throw new TRPCError({ code: 'NOT_FOUND', message: `memory ${input.id} does not exist` });
    return detail;
  }),

  /** Written as the console (provenance), into `workspace` or global; may merge into a near-duplicate. */
  create: procedure.input(createMemoryInput).mutation(async ({ ctx, input }) => {
    const { workspace, ...entry } = input;
    if (workspace) await requireWorkspace(ctx.runtime, workspace);
    return ctx.runtime.engine.write({ ...entry, meta: { origin: 'console', workspace: workspace ?? GLOBAL_WORKSPACE } });
  }),

  /** Whole-file save from the editor; re-indexes that document. CONFLICT when the file changed meanwhile. */
  save: procedure.input(saveTextInput).mutation(({ ctx, input }) => ctx.runtime.engine.saveText(input.id, input.raw, input.expectedHash)),

  /** A memory as the structured editor's fields (title, tags, body), read with the engine's rules. */
  fields: procedure.input(z.object({ id: memoryId })).query(({ ctx, input }) => memoryFields(ctx.runtime.engine, input.id)),

  /** Saves fields by splicing only the changed ones into the file; a field the engine would read otherwise comes back as a problem. */
  saveFields: procedure.input(saveFieldsInput).mutation(({ ctx, input }) => saveMemoryFields(ctx.runtime.engine, input)),

  /** Anchored replace of one passage. */
  edit: procedure.input(editInput).mutation(({ ctx, input }) => ctx.runtime.engine.edit(input.id, input.target, input.replacement)),

  /** Moves the memory to the archive; the console never hard-deletes. A locked memory is refused. */
  archive: procedure.input(z.object({ id: memoryId })).mutation(({ ctx, input }) => ctx.runtime.engine.forget(input.id)),

  /** Pinned memories come first in the index (and in the Library). */
  setPinned: procedure.input(pinInput).mutation(({ ctx, input }) => ctx.runtime.engine.updateMeta(input.id, { pinned: input.pinned })),

  /** A locked memory cannot be archived (forgotten) until it is unlocked. */
  setLocked: procedure.input(lockInput).mutation(({ ctx, input }) => ctx.runtime.engine.updateMeta(input.id, { locked: input.locked })),

  /** To another workspace or `global`; only its Meta line changes (same as `workspaces.moveMemory`). */
  move: procedure.input(moveInput).mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.moveMemory(input.id, input.workspace)),

  /** Counts of the background summary queue by status, and whether summaries are on. */
  summaryStatus: procedure.query(({ ctx }) => ctx.runtime.engine.summaryQueue().status()),

  /** Summary jobs, most recently changed first (failed ones carry the error). */
  summaryJobs: procedure.input(jobsInput).query(({ ctx, input }) => ctx.runtime.engine.summaryQueue().jobs(input)),

  /** Queues the memory's summary again (auto / rule / none); a summary a person wrote is refused. */
  rerunSummary: procedure.input(z.object({ id: memoryId })).mutation(({ ctx, input }) => ctx.runtime.engine.summaryQueue().rerun(input.id)),
});
