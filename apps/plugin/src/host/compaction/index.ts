// compaction/: what survives a host compaction — what is stored when the host folds history away,
// what comes back after it (the window's overview and rules once, relevant blocks per question,
// only above the threshold), the verbatim history_read tool, and the "look again" route
// (POST /engram/compaction/recheck).
export { CompactionChannel, listenForCompactions } from './channel.ts';
export { completeThrough, mainRouteOf, type LlmService } from './llm.ts';
export { COMPACTION_RECHECK_PATH, createCompactionRoutes } from './routes.ts';
export { createCompactionTools, HISTORY_READ_TOOL } from './tools.ts';
