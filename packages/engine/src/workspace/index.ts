export {
  WorkspaceRegistry,
  type ResolvedWorkspace,
  type RewriteReport,
  type WorkspaceClaim,
  type WorkspaceEngine,
  type WorkspaceInfo,
  type WorkspaceRegistryOptions,
} from './registry.ts';
export { applyScopedNoteBlocks, type NoteScope, type ScopedNoteEngine } from './notes.ts';
