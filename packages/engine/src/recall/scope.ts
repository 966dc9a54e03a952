// Which memories a recall may see. A session works in one workspace: it sees that workspace's
// memories and the global ones, never another workspace's. Pure.
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { DocMeta, RecallHit } from './types.ts';

export interface RecallScope {
  /** The recall's workspace id; null = unscoped (every memory, e.g. the console's "all" view). */
  workspace: string | null;
}

/** true when a memory of `memoryWorkspace` is visible from `scope`. */
export function visibleIn(scope: RecallScope, memoryWorkspace: string): boolean {
  return scope.workspace === null || memoryWorkspace === GLOBAL_WORKSPACE || memoryWorkspace === scope.workspace;
}

export function hitScope(scope: RecallScope, memoryWorkspace: string): RecallHit['scope'] {
  if (scope.workspace === null) return 'all';
  return memoryWorkspace === scope.workspace ? 'workspace' : 'global';
}

/** A replaced memory keeps this share of its score (it stays findable, below its replacement). */
export const SUPERSEDED_FACTOR = 0.5;

/** DocMeta for a chunk whose document vanished between search and render (a concurrent write). */
export function blankDocMeta(docId: string): DocMeta {
  return {
    docId, root: 'diary', path: '', title: '', date: '', category: '', tags: [],
    workspace: GLOBAL_WORKSPACE, sessionId: null, origin: '', pinned: false, locked: false, supersededBy: null, kind: '', goal: '',
  };
}
