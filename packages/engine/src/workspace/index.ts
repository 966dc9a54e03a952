export {
  WorkspaceRegistry,
  type ResolvedWorkspace,
  type RewriteReport,
  type WorkspaceClaim,
  type WorkspaceEngine,
  type WorkspaceInfo,
  type WorkspaceRegistryOptions,
} from './registry.ts';
export {
  isGeneratedMirror,
  MEMORY_MIRROR_FILE,
  MIRROR_MARKER,
  NOTES_MARKER,
  refreshAllMirrors,
  refreshMemoryMirror,
  renderMemoryMirror,
  type MirrorOutcome,
  type MirrorStatus,
  type MirrorWorkspace,
} from './mirror.ts';
export { movedFromReason, pastPathsOf } from './past-paths.ts';
export { applyScopedNoteBlocks, type NoteScope, type ScopedNoteEngine } from './notes.ts';
