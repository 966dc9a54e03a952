import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { createMemoryInput, editInput, listInput, memoryId, saveTextInput } from '../../shared/validators.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const memoriesRouter = createTRPCRouter({
  list: procedure.input(listInput).query(({ ctx, input }) => ctx.runtime.engine.list({ includeArchived: input.includeArchived })),

  read: procedure.input(z.object({ id: memoryId })).query(async ({ ctx, input }) => {
    const detail = await ctx.runtime.engine.read(input.id);
    if (!detail) throw new TRPCError({ code: 'NOT_FOUND', message: `memory ${input.id} does not exist` });
    return detail;
  }),

  create: procedure.input(createMemoryInput).mutation(({ ctx, input }) => ctx.runtime.engine.write(input)),

  /** Whole-file save from the editor; re-indexes that document. CONFLICT when the file changed meanwhile. */
  save: procedure.input(saveTextInput).mutation(({ ctx, input }) => ctx.runtime.engine.saveText(input.id, input.raw, input.expectedHash)),

  /** Anchored replace of one passage. */
  edit: procedure.input(editInput).mutation(({ ctx, input }) => ctx.runtime.engine.edit(input.id, input.target, input.replacement)),

  /** Moves the memory to the archive; the console never hard-deletes. */
  archive: procedure.input(z.object({ id: memoryId })).mutation(({ ctx, input }) => ctx.runtime.engine.forget(input.id)),
});
