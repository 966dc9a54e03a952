// How the console slices memories by workspace. Pure.
import { formatProvenance, GLOBAL_WORKSPACE, type MemorySummary } from '@engram/engine';

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
