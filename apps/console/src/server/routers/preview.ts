// 「我的 agent 会看到什么」: the blocks the plugin would inject for a message, computed by the engine's
// previewInjection (the same rendering the plugin uses), with the near misses.
import { previewInjection, previewWorkspaceLevels } from '@engram/engine';
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
  /**
   * The workspace layer at each level (hint / index / full / off) for one workspace, with token
   * counts and the level in effect: the engine's workspaceLayer, the render the plugin injects.
   */
  workspaceLevels: procedure
    .input(z.object({ workspace: workspaceId.optional(), toolsAvailable: z.boolean().default(true) }))
    .query(({ ctx, input }) => previewWorkspaceLevels(ctx.runtime.engine, input.workspace ?? null, { toolsAvailable: input.toolsAvailable })),
  run: procedure.input(previewInput).query(({ ctx, input }) => previewInjection(ctx.runtime.engine, input.query, { workspace: input.workspace ?? null, toolsAvailable: input.toolsAvailable })),
});
