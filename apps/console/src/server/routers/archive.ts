// Archived memories back: `memories.archive` moves a memory under the archive folder, this moves it
// back (never overwriting a file that took its name meanwhile).
import { restoreMemory } from '@engram/engine';
import { z } from 'zod';
import { memoryId } from '../../shared/validators.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const archiveRouter = createTRPCRouter({
  /** Moves an archived memory back to its folder and re-indexes it; answers its new id and paths. */
  restore: procedure.input(z.object({ id: memoryId })).mutation(({ ctx, input }) => restoreMemory(ctx.runtime.engine, input.id)),
});
