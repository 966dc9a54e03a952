// The public scripting API: every procedure is documented in docs/api.md.
import { compactionRouter } from './routers/compaction.ts';
import { memoriesRouter } from './routers/memories.ts';
import { modelRouter } from './routers/model.ts';
import { recallRouter } from './routers/recall.ts';
import { indexRouter } from './routers/index.ts';
import { settingsRouter } from './routers/settings.ts';
import { systemRouter } from './routers/system.ts';
import { sessionsRouter } from './routers/sessions.ts';
import { wallRouter } from './routers/wall.ts';
import { workspacesRouter } from './routers/workspaces.ts';
import { previewRouter } from './routers/preview.ts';
import { searchRouter } from './routers/search.ts';
import { archiveRouter } from './routers/archive.ts';
import { compactionTrashRouter } from './routers/compaction-trash.ts';
import { usageRouter } from './routers/usage.ts';
import { createCallerFactory, createTRPCRouter } from './trpc.ts';

export const appRouter = createTRPCRouter({
  memories: memoriesRouter,
  recall: recallRouter,
  index: indexRouter,
  settings: settingsRouter,
  system: systemRouter,
  compaction: compactionRouter,
  workspaces: workspacesRouter,
  sessions: sessionsRouter,
  wall: wallRouter,
  model: modelRouter,
  preview: previewRouter,
  search: searchRouter,
  archive: archiveRouter,
  compactionTrash: compactionTrashRouter,
  usage: usageRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
