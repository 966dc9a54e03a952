import { createTRPCRouter, procedure } from '../trpc.ts';

const startedAt = new Date().toISOString();

export const systemRouter = createTRPCRouter({
  /** Liveness plus where the data lives; safe to poll. */
  health: procedure.query(({ ctx }) => ({
    ok: true as const,
    startedAt,
    uptimeSec: Math.round(process.uptime()),
    node: process.version,
    dataDir: ctx.runtime.dataDir,
    allowedOrigins: ctx.runtime.allowedOrigins,
  })),
});
