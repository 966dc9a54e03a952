// Cross-compaction memory, the writes: remove blocks (or a whole session), restore them from the
// trash, purge the trash. `compaction.trash` (read on every call) decides what remove does: on, the
// blocks go to the trash and stay there until restored or purged; off, they are deleted for good.
// Every action writes one audit line (CompactionMemory does, in the same serial section as the
// change), which each answer carries back so the console can show what happened.
import { z } from 'zod';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

const actionInput = z.object({
  workspace: z.string().max(4096),
  sessionId: z.string().trim().min(1).max(512),
  /** Block ids; null = the whole session (its files too). */
  ids: z.array(z.string().min(1).max(200)).min(1).max(10_000).nullable(),
  /** A session's files in the trash (`_trash/<entry>`, from the audit line of its removal). */
  trashEntry: z.string().regex(/^[^/\\]+$/, 'a trash entry is one folder name').max(512).optional(),
});

type Memory = ReturnType<typeof servicesOf>['compaction'];

/** Runs one action and answers its count with the audit line it wrote. */
async function audited(memory: Memory, scope: { workspace: string; sessionId: string }, run: () => Promise<number>) {
  const count = await run();
  const [audit] = await memory.auditLog(scope, 1);
  return { count, audit: audit ?? null };
}

export const compactionTrashRouter = createTRPCRouter({
  /** Removes blocks: into the trash when `compaction.trash` is on (`trashed: true`), for good when off. */
  remove: procedure.input(actionInput.omit({ trashEntry: true })).mutation(async ({ ctx, input }) => {
    const memory = servicesOf(ctx.runtime).compaction;
    const trashed = ctx.runtime.engine.config.compaction.trash;
    const scope = { workspace: input.workspace, sessionId: input.sessionId };
    return { trashed, ...(await audited(memory, scope, () => memory.remove(scope, input.ids))) };
  }),

  /** Brings trashed blocks back (and the session's files, given their trash entry). */
  restore: procedure.input(actionInput).mutation(async ({ ctx, input }) => {
    const memory = servicesOf(ctx.runtime).compaction;
    const scope = { workspace: input.workspace, sessionId: input.sessionId };
    return audited(memory, scope, () => memory.restore(scope, input.ids, input.trashEntry));
  }),

  /** Empties the trash of a session, or of some blocks; what is purged cannot come back. */
  purge: procedure.input(actionInput).mutation(async ({ ctx, input }) => {
    const memory = servicesOf(ctx.runtime).compaction;
    const scope = { workspace: input.workspace, sessionId: input.sessionId };
    return audited(memory, scope, () => memory.purge(scope, input.ids, input.trashEntry));
  }),
});
