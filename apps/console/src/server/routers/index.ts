import { rebuildInput } from '../../shared/validators.ts';
import { z } from 'zod';
import { tailPluginLog } from '../plugin-log.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const indexRouter = createTRPCRouter({
  status: procedure.query(({ ctx }) => ctx.runtime.engine.status()),

  /** The live pick-up of outside changes: whether a pass runs, where it is, files waiting (the Index page polls it). */
  liveSync: procedure.query(({ ctx }) => ctx.runtime.engine.liveSync),

  /** Rebuild without progress (for scripts); the UI streams progress from /api/index/rebuild. */
  rebuild: procedure.input(rebuildInput).mutation(({ ctx, input }) => ctx.runtime.engine.index({ full: input.full })),

  /** Re-embeds a sample of chunks and compares them with the stored vectors. */
  integrity: procedure.mutation(({ ctx }) => ctx.runtime.engine.integrityCheck()),

  /** The last lines of the plugin's own log file (`<dataDir>/logs/engram-plugin.log`), newest last. */
  pluginLog: procedure
    .input(z.object({ lines: z.number().int().min(1).max(2000).default(200) }).prefault({}))
    .query(({ ctx, input }) => tailPluginLog(ctx.runtime.dataDir, input.lines)),
});
