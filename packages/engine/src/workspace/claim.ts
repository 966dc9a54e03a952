// Should a folder seen for the first time take over the memories of a known workspace (it was
// renamed or moved), or start fresh? Mixing two workspaces' memories is far worse than not seeing
// old ones for a while, so anything short of one clear candidate whose old folder is gone is
// either a question for the person or a new workspace — never a silent move.
import type { WorkspaceIdentity } from './identity.ts';

export interface KnownWorkspace {
  id: string;
  path: string;
  strong: string | null;
  /** '' = no usable weak fingerprint. */
  weak: string;
  /** Whether the known workspace's folder still exists (checked by the caller). */
  pathExists: boolean;
}

export interface ClaimCandidate {
  id: string;
  path: string;
  via: 'strong' | 'weak';
  pathExists: boolean;
}

export type ClaimDecision =
  /** The folder is a known workspace's own path. */
  | { kind: 'same'; id: string }
  /** Take over `id`: its folder is gone and this one is the only match (record `from` as migrated-from). */
  | { kind: 'claim'; id: string; via: 'strong' | 'weak'; from: string }
  /** Several candidates, or a strong match whose folder still exists (a second clone?): ask the person. */
  | { kind: 'ask'; candidates: ClaimCandidate[]; reason: string }
  /** A new workspace. */
  | { kind: 'new'; reason: string };

const candidate = (k: KnownWorkspace, via: 'strong' | 'weak'): ClaimCandidate => ({ id: k.id, path: k.path, via, pathExists: k.pathExists });

/**
 * The decision table:
 * - same path → same;
 * - strong fingerprint matches: exactly one candidate and its folder is gone → claim; its folder
 *   still exists (a second clone or a copy) or several match → ask. Weak matches are not looked at:
 *   the strong tier decides;
 * - weak only (candidates whose strong fingerprint contradicts ours are excluded): exactly one and
 *   its folder is gone → claim; exactly one that still exists → new (folders that merely look
 *   alike); several → ask;
 * - nothing → new.
 */
export function decideClaim(current: WorkspaceIdentity, known: KnownWorkspace[]): ClaimDecision {
  const same = known.find((k) => k.path === current.path);
  if (same) return { kind: 'same', id: same.id };

  if (current.strong !== null) {
    const strong = known.filter((k) => k.strong === current.strong);
    if (strong.length > 0) {
      const gone = strong.filter((k) => !k.pathExists);
      if (strong.length === 1 && gone.length === 1) return { kind: 'claim', id: gone[0]!.id, via: 'strong', from: gone[0]!.path };
      return {
        kind: 'ask',
        candidates: strong.map((k) => candidate(k, 'strong')),
        reason:
          strong.length === 1
            ? `the same repository is also at ${strong[0]!.path}, which still exists (a second clone or a copy?)`
            : `${strong.length} known workspaces are the same repository`,
      };
    }
  }

  if (current.weak === '') return { kind: 'new', reason: 'no matching repository, and too few top-level entries to compare' };
  const weak = known.filter((k) => k.weak === current.weak && !(k.strong !== null && current.strong !== null && k.strong !== current.strong));
  if (weak.length === 0) return { kind: 'new', reason: 'no known workspace matches' };
  if (weak.length > 1) return { kind: 'ask', candidates: weak.map((k) => candidate(k, 'weak')), reason: `${weak.length} known workspaces have the same top-level entries` };
  const only = weak[0]!;
  if (only.pathExists) return { kind: 'new', reason: `${only.path} has the same top-level entries but still exists: folders that look alike, not a move` };
  return { kind: 'claim', id: only.id, via: 'weak', from: only.path };
}
