// The wall between sessions, as the console sees it: every message (not only those one session
// may read), and posting as "console" — publicly, to a session (id prefix) or to a workspace.
import { GLOBAL_WORKSPACE, wallMessageView } from '@engram/engine';
import { listWallMessages } from '@engram/db';
import { wallListInput, wallPostInput } from '../../shared/validators.ts';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

/** The session name the console posts under. */
export const CONSOLE_SESSION = 'console';

export const wallRouter = createTRPCRouter({
  /** Newest first, paged; `hasMore` says whether an older page exists. */
  list: procedure.input(wallListInput).query(async ({ ctx, input }) => {
    const rows = await listWallMessages(ctx.runtime.engine.db, { limit: input.limit + 1, offset: input.offset });
    return {
      items: rows.slice(0, input.limit).map(wallMessageView),
      hasMore: rows.length > input.limit,
    };
  }),

  /** Posts as the console; PRECONDITION_FAILED when the wall is switched off in the settings. */
  post: procedure.input(wallPostInput).mutation(({ ctx, input }) =>
    servicesOf(ctx.runtime).cross.wallPost({ fromSession: CONSOLE_SESSION, fromWorkspace: input.workspace ?? GLOBAL_WORKSPACE, to: input.to, text: input.text }),
  ),
});
