// Rows of `workspaces` and `workspace_claims`. Two processes (the console and the plugin) resolve
// and change workspaces over the same file, so every write here tolerates the other one having done
// the same thing first (insert-if-absent on the unique path, conditional updates that report whether
// they changed anything). Each write is one statement or one batch: a batch runs to its end without
// yielding, so it never holds the database's write lock across an await (an interactive transaction
// would, and a second connection of the same process waiting on it blocks the event loop).
import type { Client } from '@libsql/client';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { EngramDb } from './client.ts';
import { documents, workspaceClaims, workspaces } from './schema.ts';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceClaimRow = typeof workspaceClaims.$inferSelect;
export type NewWorkspaceClaimRow = typeof workspaceClaims.$inferInsert;
export type ClaimStatus = WorkspaceClaimRow['status'];

export async function listWorkspaceRows(db: EngramDb): Promise<WorkspaceRow[]> {
  return db.select().from(workspaces).orderBy(desc(workspaces.lastSeenAt), workspaces.id);
}

export async function getWorkspaceRow(db: EngramDb, id: string): Promise<WorkspaceRow | undefined> {
  const rows = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return rows[0];
}

export async function getWorkspaceByPath(db: EngramDb, path: string): Promise<WorkspaceRow | undefined> {
  const rows = await db.select().from(workspaces).where(eq(workspaces.path, path)).limit(1);
  return rows[0];
}

/** Refreshes what was seen at the workspace's own path (the fingerprints drift as files come and go). */
export async function touchWorkspace(db: EngramDb, id: string, patch: { lastSeenAt: string; strongKey: string | null; weakKey: string }): Promise<void> {
  await db.update(workspaces).set(patch).where(eq(workspaces.id, id));
}

export async function renameWorkspace(db: EngramDb, id: string, name: string): Promise<boolean> {
  const changed = await db.update(workspaces).set({ name }).where(eq(workspaces.id, id)).returning({ id: workspaces.id });
  return changed.length > 0;
}

/** The libSQL client under the drizzle instance (drizzle keeps it as `$client`; its type leaves it out). */
const clientOf = (db: EngramDb): Client => (db as unknown as { $client: Client }).$client;

type ClaimRecord = Omit<NewWorkspaceClaimRow, 'id'>;

const CLAIM_COLUMNS = 'at, path, workspace_id, candidates, decision, status, reason';
const claimArgs = (r: ClaimRecord) => [r.at, r.path, r.workspaceId ?? null, JSON.stringify(r.candidates ?? []), r.decision, r.status, r.reason ?? ''];

/**
 * Moves a workspace to a new path, only if it is still at `fromPath` (another process may have
 * moved it already), with its claim record: one batch, so the record exists exactly when the move
 * happened. Returns the claim id, or null when nothing changed. Throws on a unique-path conflict
 * (the new path got its own row meanwhile).
 */
export async function claimWorkspacePath(
  db: EngramDb,
  move: { id: string; fromPath: string; toPath: string; name?: string; strongKey: string | null; weakKey: string; lastSeenAt: string },
  record: ClaimRecord,
): Promise<number | null> {
  const results = await clientOf(db).batch(
    [
      {
        sql: `UPDATE workspaces SET path = ?, strong_key = ?, weak_key = ?, last_seen_at = ?, name = COALESCE(?, name) WHERE id = ? AND path = ?`,
        args: [move.toPath, move.strongKey, move.weakKey, move.lastSeenAt, move.name ?? null, move.id, move.fromPath],
      },
      { sql: `INSERT INTO workspace_claims (${CLAIM_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0 RETURNING id`, args: claimArgs(record) },
    ],
    'write',
  );
  const id = results[1]?.rows[0]?.id;
  return id === undefined || id === null ? null : Number(id);
}

/** A new workspace and its claim record in one batch; null when the id or path was taken meanwhile. */
export async function createWorkspaceWithRecord(db: EngramDb, row: WorkspaceRow, record: ClaimRecord): Promise<number | null> {
  const results = await clientOf(db).batch(
    [
      {
        sql: `INSERT OR IGNORE INTO workspaces (id, name, path, strong_key, weak_key, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        args: [row.id, row.name, row.path, row.strongKey, row.weakKey, row.createdAt, row.lastSeenAt],
      },
      { sql: `INSERT INTO workspace_claims (${CLAIM_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0 RETURNING id`, args: claimArgs(record) },
    ],
    'write',
  );
  const id = results[1]?.rows[0]?.id;
  return id === undefined || id === null ? null : Number(id);
}

export async function insertWorkspaceClaim(db: EngramDb, record: ClaimRecord): Promise<number> {
  const [row] = await db.insert(workspaceClaims).values(record).returning({ id: workspaceClaims.id });
  return row!.id;
}

export async function getWorkspaceClaim(db: EngramDb, id: number): Promise<WorkspaceClaimRow | undefined> {
  const rows = await db.select().from(workspaceClaims).where(eq(workspaceClaims.id, id)).limit(1);
  return rows[0];
}

/** Claim records, newest first; only those with `status` when given. */
export async function listWorkspaceClaims(db: EngramDb, options: { status?: ClaimStatus; limit?: number } = {}): Promise<WorkspaceClaimRow[]> {
  const where = options.status !== undefined ? eq(workspaceClaims.status, options.status) : undefined;
  return db
    .select()
    .from(workspaceClaims)
    .where(where)
    .orderBy(desc(workspaceClaims.id))
    .limit(Math.max(1, Math.min(10_000, options.limit ?? 500)));
}

/** Settles a pending claim; false when it was not pending any more (another process settled it). */
export async function settleWorkspaceClaim(db: EngramDb, id: number, patch: { status: 'applied' | 'rejected'; workspaceId?: string | null; reason?: string }): Promise<boolean> {
  const changed = await db
    .update(workspaceClaims)
    .set(patch)
    .where(and(eq(workspaceClaims.id, id), eq(workspaceClaims.status, 'pending')))
    .returning({ id: workspaceClaims.id });
  return changed.length > 0;
}

/**
 * The end of a merge, in one batch: the merged-away workspace's row goes (its memories were
 * rewritten already), optionally the surviving one takes its path, a pending claim is settled, and
 * a 'merge' record tells sessions still holding the old id where it went.
 */
export async function finishWorkspaceMerge(
  db: EngramDb,
  merge: { fromId: string; intoId: string; takePath?: { path: string; strongKey: string | null; weakKey: string; lastSeenAt: string } },
  record: ClaimRecord,
  settle?: { claimId: number; reason: string },
): Promise<number> {
  const statements: { sql: string; args: (string | number | null)[] }[] = [{ sql: 'DELETE FROM workspaces WHERE id = ?', args: [merge.fromId] }];
  if (merge.takePath) {
    const { path, strongKey, weakKey, lastSeenAt } = merge.takePath;
    // The path is unique: whatever row still holds it (a stale provisional one) gives it up.
    statements.push({ sql: 'DELETE FROM workspaces WHERE path = ? AND id <> ?', args: [path, merge.intoId] });
    statements.push({ sql: 'UPDATE workspaces SET path = ?, strong_key = ?, weak_key = ?, last_seen_at = ? WHERE id = ?', args: [path, strongKey, weakKey, lastSeenAt, merge.intoId] });
  }
  if (settle) {
    statements.push({ sql: `UPDATE workspace_claims SET status = 'applied', workspace_id = ?, reason = ? WHERE id = ? AND status = 'pending'`, args: [merge.intoId, settle.reason, settle.claimId] });
  }
  statements.push({ sql: `INSERT INTO workspace_claims (${CLAIM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, args: claimArgs(record) });
  const results = await clientOf(db).batch(statements, 'write');
  return Number(results.at(-1)!.rows[0]!.id);
}

/** Where a merged-away workspace went: the latest applied merge naming it, or null. */
export async function mergedInto(db: EngramDb, id: string): Promise<string | null> {
  const rows = await db
    .select({ into: workspaceClaims.workspaceId })
    .from(workspaceClaims)
    .where(
      and(
        eq(workspaceClaims.decision, 'merge'),
        eq(workspaceClaims.status, 'applied'),
        sql`EXISTS (SELECT 1 FROM json_each(${workspaceClaims.candidates}) WHERE json_each.value = ${id})`,
      ),
    )
    .orderBy(desc(workspaceClaims.id))
    .limit(1);
  return rows[0]?.into ?? null;
}

/** Live (not archived) memories per workspace id, from the index. */
export async function memoryCountsByWorkspace(db: EngramDb): Promise<Map<string, number>> {
  const rows = await db
    .select({ workspace: documents.workspace, n: sql<number>`count(*)` })
    .from(documents)
    .where(eq(documents.archived, false))
    .groupBy(documents.workspace);
  return new Map(rows.map((r) => [r.workspace, Number(r.n)]));
}
