// Tokens of model-assisted work per day (compaction assist, summaries, judge): what the console's
// usage card shows. Read-only; the engine counts where each call ends (engine usage/model-usage.ts).
import { modelUsageByDay } from '@engram/engine';
import { z } from 'zod';
import { createTRPCRouter, procedure } from '../trpc.ts';

export const usageRouter = createTRPCRouter({
  /** The last `days` local days (today first), each with calls and tokens per kind of work and in all. */
  daily: procedure
    .input(z.object({ days: z.number().int().min(1).max(90).default(14) }).default({ days: 14 }))
    .query(async ({ ctx, input }) => ({ days: await modelUsageByDay(ctx.runtime.engine.database.db, input.days) })),
});
