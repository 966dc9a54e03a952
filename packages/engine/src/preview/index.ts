// What the agent will see (the plugin's injection, previewed) and restoring an archived memory.
export * from './texts.ts';
export * from './injection.ts';
export * from './workspace-levels.ts';
export { restoreMemory, type RestoreResult } from './restore.ts';
export { searchMemories, type MemorySearch, type MemorySearchHit } from './search.ts';
