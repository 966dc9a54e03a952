import { rebuildInput } from '../../shared/validators.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const indexRouter = createTRPCRouter({
  status: procedure.query(({ ctx }) => ctx.runtime.engine.status()),

  /** Rebuild without progress (for scripts); the UI streams progress from /api/index/rebuild. */
  rebuild: procedure.input(rebuildInput).mutation(({ ctx, input }) => ctx.runtime.engine.index({ full: input.full })),

  /** Re-embeds a sample of chunks and compares them with the stored vectors. */
  integrity: procedure.mutation(({ ctx }) => ctx.runtime.engine.integrityCheck()),
});
