// Rows of `session_imports`: which memory a past DSH session was imported as, and a hash of what
// was imported, so importing again skips unchanged sessions and updates changed ones in place.
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { EngramDb } from './client.ts';
import { sessionImports } from './schema.ts';

export type SessionImportRow = typeof sessionImports.$inferSelect;

const BATCH = 200;

export async function getSessionImport(db: EngramDb, sessionId: string): Promise<SessionImportRow | undefined> {
  const rows = await db.select().from(sessionImports).where(eq(sessionImports.sessionId, sessionId)).limit(1);
  return rows[0];
}

/** The import rows of these sessions, by session id (sessions never imported are absent). */
export async function sessionImportsByIds(db: EngramDb, sessionIds: readonly string[]): Promise<Map<string, SessionImportRow>> {
  const out = new Map<string, SessionImportRow>();
  const ids = [...new Set(sessionIds)];
  for (let i = 0; i < ids.length; i += BATCH) {
    const rows = await db.select().from(sessionImports).where(inArray(sessionImports.sessionId, ids.slice(i, i + BATCH)));
    for (const row of rows) out.set(row.sessionId, row);
  }
  return out;
}

/** Imports, newest first; only one workspace's when given. */
export async function listSessionImports(db: EngramDb, options: { workspace?: string } = {}): Promise<SessionImportRow[]> {
  const where = options.workspace !== undefined ? eq(sessionImports.workspace, options.workspace) : undefined;
  return db.select().from(sessionImports).where(where).orderBy(desc(sessionImports.importedAt), asc(sessionImports.sessionId));
}

export async function upsertSessionImport(db: EngramDb, row: SessionImportRow): Promise<void> {
  await db
    .insert(sessionImports)
    .values(row)
    .onConflictDoUpdate({
      target: sessionImports.sessionId,
      set: { workspace: row.workspace, path: row.path, sourceHash: row.sourceHash, turns: row.turns, importedAt: row.importedAt },
    });
}

/** Forgets an import (e.g. its memory was deleted): the next import writes a new memory. */
export async function deleteSessionImport(db: EngramDb, sessionId: string): Promise<boolean> {
  const removed = await db.delete(sessionImports).where(eq(sessionImports.sessionId, sessionId)).returning({ id: sessionImports.sessionId });
  return removed.length > 0;
}
