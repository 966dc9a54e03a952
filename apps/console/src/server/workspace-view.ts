// How the console slices memories by workspace and where a workspace's past sessions may be. Pure.
import { formatProvenance, GLOBAL_WORKSPACE, type MemorySummary, type WorkspaceClaim } from '@engram/engine';

export type MemoryScope = 'workspace' | 'global' | 'all';

export interface ListedMemory extends MemorySummary {
  /** Where it comes from relative to the list's workspace ('all' when the list was not filtered). */
  scope: MemoryScope;
  /** `〔s:1a2b3c4d · 控制台〕`, '' when nothing is known. */
  provenance: string;
}

/**
 * The memories a workspace filter keeps: its own and (with `includeGlobal`) the global ones. Applied
 * here rather than by the engine so the console's filter means the same with scoping switched off.
 */
export function filterByWorkspace(memories: readonly MemorySummary[], workspace: string | undefined, includeGlobal: boolean): ListedMemory[] {
  const out: ListedMemory[] = [];
  for (const m of memories) {
    let scope: MemoryScope = 'all';
    if (workspace !== undefined) {
      if (m.workspace === workspace) scope = workspace === GLOBAL_WORKSPACE ? 'global' : 'workspace';
      else if (includeGlobal && m.workspace === GLOBAL_WORKSPACE) scope = 'global';
      else continue;
    }
    out.push({ ...m, scope, provenance: formatProvenance(m) });
  }
  return out;
}

// The claim record of an automatic rename says where the folder was; the path itself is not a column.
const MOVED_FROM = /^moved from (.+) \(matched by the /;

/**
 * Folders a workspace lived in before (renames it was claimed through, workspaces merged into it):
 * its past sessions were recorded with those as their cwd.
 */
export function pastPathsOf(claims: readonly WorkspaceClaim[], workspaceId: string, currentPath: string): string[] {
  const paths = new Set<string>();
  for (const c of claims) {
    if (c.workspaceId !== workspaceId || c.status !== 'applied') continue;
    if (c.decision === 'merge' && c.path) paths.add(c.path);
    if (c.decision === 'claim') {
      const from = MOVED_FROM.exec(c.reason)?.[1];
      if (from) paths.add(from);
    }
  }
  paths.delete(currentPath);
  return [...paths].filter((p) => p.trim() !== '');
}
