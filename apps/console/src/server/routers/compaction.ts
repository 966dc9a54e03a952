// Cross-compaction memory, read-only: the sessions that have stored blocks, and per session its
// blocks, the overview of its current window, its trash, rules book, archive head and audit log.
import { z } from 'zod';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

const scopeInput = z.object({ workspace: z.string().max(4096), sessionId: z.string().trim().min(1).max(512) });

const memoryOf = (runtime: Parameters<typeof servicesOf>[0]) => servicesOf(runtime).compaction;

export const compactionRouter = createTRPCRouter({
  /** Sessions with stored compaction memory, newest activity first. */
  sessions: procedure.query(({ ctx }) => memoryOf(ctx.runtime).listSessions()),

  /** One session: blocks, trash, the current overview, compactions, rules book, archive head, audit. */
  session: procedure.input(scopeInput).query(async ({ ctx, input }) => {
    const memory = memoryOf(ctx.runtime);
    const [blocks, trashed, runs, audit, rules, archive] = await Promise.all([
      memory.listBlocks(input),
      memory.listBlocks(input, { trashed: true }),
      memory.runs(input),
      memory.auditLog(input, 100),
      memory.rulesBook(input).catch(() => []),
      memory.archive(input).catch(() => null),
    ]);
    const latest = runs.at(-1);
    return {
      blocks,
      trashed,
      overview: latest?.overview ?? '',
      overviewTokens: latest?.overviewTokens ?? 0,
      compactions: runs.map((r) => ({ key: r.dedupeKey, ord: r.ord, createdAt: r.createdAt, blocksAdded: r.blocksAdded, blocksSkipped: r.blocksSkipped, overviewTokens: r.overviewTokens })),
      rules,
      archive: archive ? { head: archive.head, sections: archive.sections.length } : null,
      audit,
      /** `compaction.trash` now: whether a removal can be restored (the page asks before one that cannot). */
      trash: ctx.runtime.engine.config.compaction.trash,
    };
  }),

  /** The delete / restore / purge log across sessions, newest first. */
  audit: procedure.query(({ ctx }) => memoryOf(ctx.runtime).auditLog(null, 200)),
});
