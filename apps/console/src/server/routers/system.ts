import { createTRPCRouter, procedure } from '../trpc.ts';

const startedAt = new Date().toISOString();

export const systemRouter = createTRPCRouter({
  /**
   * Liveness plus where the data lives, as the engine opened it (a diary folder moved from Settings
   * included; `npm start`'s block shows these); safe to poll.
   */
  health: procedure.query(async ({ ctx }) => ({
    ok: true as const,
    startedAt,
    uptimeSec: Math.round(process.uptime()),
    node: process.version,
    diaryDir: (await ctx.runtime.engine.getSettings()).effective.diaryDir,
    dataDir: ctx.runtime.dataDir,
    allowedOrigins: ctx.runtime.allowedOrigins,
  })),
});
