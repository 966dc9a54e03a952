// Where a workspace lived before: the claim records of renames (the folder it was claimed from) and of
// workspaces merged into it. Its past sessions were recorded with those folders as their cwd. Pure.

/** The fields of a claim record (registry.ts's WorkspaceClaim) this reads. */
interface ClaimRecord {
  workspaceId: string | null;
  status: string;
  decision: string;
  path: string;
  reason: string;
}

/** The reason an automatic rename's claim records: the old folder is not a column, so it is said here. */
export const movedFromReason = (from: string, via: string): string => `moved from ${from} (matched by the ${via} fingerprint; the old folder is gone)`;

const MOVED_FROM = /^moved from (.+) \(matched by the /;

/**
 * Folders a workspace lived in before (renames it was claimed through, workspaces merged into it),
 * without `currentPath`.
 */
export function pastPathsOf(claims: readonly ClaimRecord[], workspaceId: string, currentPath: string): string[] {
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
