// workspace/: which workspace a session works in (resolved once from its cwd, followed through
// merges; no cwd = global, no session = unscoped) and what the workspace layer puts in the system
// prompt (workspace.inject: hint, index, full or off).
export { WORKSPACE_SECTION_NAME, WORKSPACE_SECTION_ORDER, WorkspaceInjection } from './inject.ts';
export { MemoryMirrors } from './mirror.ts';
export { UNSCOPED, WorkspaceScopes, type SessionScope } from './scope.ts';
