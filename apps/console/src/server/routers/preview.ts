// 「我的 agent 会看到什么」: the blocks the plugin would inject for a message, computed by the engine's
// previewInjection (the same rendering the plugin uses), with the near misses.
import { previewInjection } from '@engram/engine';
import { z } from 'zod';
import { workspaceId } from '../../shared/validators.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

const previewInput = z.object({
  query: z.string().trim().min(1, 'query is required').max(4_000),
  /** As a session in this workspace (its memories + global); omitted = every memory. */
  workspace: workspaceId.optional(),
  /** The host offers Engram's tools (adds the tool guidance); default true. */
  toolsAvailable: z.boolean().default(true),
});

export const previewRouter = createTRPCRouter({
  /** Resident, workspace (pinned first) and recalled blocks with token counts, the recall explanation, the near misses. */
  run: procedure.input(previewInput).query(({ ctx, input }) => previewInjection(ctx.runtime.engine, input.query, { workspace: input.workspace ?? null, toolsAvailable: input.toolsAvailable })),
});
