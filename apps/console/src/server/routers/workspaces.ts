// Workspaces: every folder a session worked in, with its identity (path, strong and weak keys) and
// memory count; the claim records (automatic renames applied, ambiguous ones waiting for an answer);
// and the person's corrections: rename, merge, move one memory, register a folder by hand.
import { isAbsolute } from 'node:path';
import { refreshMemoryMirror } from '@engram/engine';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { claimIdInput, mergeInput, moveInput, registerInput, renameInput, workspaceId } from '../../shared/validators.ts';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

const claimsInput = z
  .object({ status: z.enum(['applied', 'pending', 'rejected']).optional(), limit: z.number().int().min(1).max(1000).default(200) })
  .prefault({});

export const workspacesRouter = createTRPCRouter({
  /** global first, then known workspaces by last use, then ids only memories carry (orphans). */
  list: procedure.query(({ ctx }) => servicesOf(ctx.runtime).registry.list()),

  /** Claim records, newest first. */
  claims: procedure.input(claimsInput).query(({ ctx, input }) => servicesOf(ctx.runtime).registry.claims(input)),

  /**
   * The answer to a pending claim: the folder is `workspaceId` (one of the candidates; its memories
   * follow), or the provisional workspace itself (keep it as a new one).
   */
  acceptClaim: procedure
    .input(claimIdInput.extend({ workspaceId }))
    .mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.acceptClaim(input.claimId, input.workspaceId)),

  /** "None of these": the folder stays a workspace of its own. */
  rejectClaim: procedure.input(claimIdInput).mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.rejectClaim(input.claimId)),

  rename: procedure.input(renameInput).mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.rename(input.id, input.name)),

  /** Every memory of `from` moves to `into` (Meta lines only) and `from` goes; re-running finishes an interrupted merge. */
  merge: procedure.input(mergeInput).mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.mergeWorkspaces(input.from, input.into)),

  /** One memory to another workspace or `global`. */
  moveMemory: procedure.input(moveInput).mutation(({ ctx, input }) => servicesOf(ctx.runtime).registry.moveMemory(input.id, input.workspace)),

  /**
   * The workspace's Memory.md brought up to date now (it is also refreshed after every write): what
   * happened, or why nothing was written (a Memory.md of the person's own, the setting off, …).
   */
  mirror: procedure.input(z.object({ id: workspaceId })).mutation(async ({ ctx, input }) => {
    const row = await servicesOf(ctx.runtime).registry.get(input.id);
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: `no workspace ${input.id} with a folder` });
    return refreshMemoryMirror(ctx.runtime.engine, { id: row.id, name: row.name, path: row.path });
  }),

  /**
   * The workspace of a folder, made (or claimed) as a session starting there would: for importing the
   * past sessions of a project no session has opened with Engram yet.
   */
  register: procedure.input(registerInput).mutation(({ ctx, input }) => {
    if (!isAbsolute(input.path)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'the folder must be an absolute path' });
    // Not the root, a system folder or the home folder itself (the reason says why).
    return servicesOf(ctx.runtime).registry.register(input.path);
  }),
});
