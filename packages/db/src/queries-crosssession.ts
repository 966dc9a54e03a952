// Rows of the cross-session channel: each session's brief cursor (`sync_cursors`) and the wall
// between sessions (`wall_messages`). A wall recipient is stored with its kind spelled out —
// '' (everyone), 's:<lower-case session id prefix>' or 'ws:<workspace id>' — so a workspace id that
// happens to look like a session prefix is never delivered to the wrong reader.
import { desc, eq, or, sql } from 'drizzle-orm';
import type { EngramDb } from './client.ts';
import { documents, syncCursors, wallMessages, workspaces } from './schema.ts';

export type WallMessageRow = typeof wallMessages.$inferSelect;
export type SyncCursorRow = typeof syncCursors.$inferSelect;

export const WALL_SESSION_PREFIX = 's:';

/** The DSH host prefixes every session id with this; it says nothing about which session it is. */
export const HOST_SESSION_ID_PREFIX = 'session-';

/** A session id without the host's common prefix: the part that tells sessions apart. */
export const bareSessionId = (sessionId: string): string =>
  sessionId.toLowerCase().startsWith(HOST_SESSION_ID_PREFIX) ? sessionId.slice(HOST_SESSION_ID_PREFIX.length) : sessionId;
export const WALL_WORKSPACE_PREFIX = 'ws:';

export async function getSyncCursor(db: EngramDb, sessionId: string): Promise<string | null> {
  const rows = await db.select().from(syncCursors).where(eq(syncCursors.sessionId, sessionId)).limit(1);
  return rows[0]?.syncedAt ?? null;
}

export async function setSyncCursor(db: EngramDb, sessionId: string, syncedAt: string): Promise<void> {
  await db.insert(syncCursors).values({ sessionId, syncedAt }).onConflictDoUpdate({ target: syncCursors.sessionId, set: { syncedAt } });
}

export async function insertWallMessage(db: EngramDb, row: WallMessageRow): Promise<void> {
  await db.insert(wallMessages).values(row);
}

/**
 * What one session may read on the wall, newest first: public messages, those addressed to a
 * prefix of its id or to its workspace, and (with `includeOwn`) the ones it wrote itself.
 * Prefix matching is done with substr, not LIKE, so `%` or `_` in a stored prefix match nothing.
 */
export async function wallMessagesFor(
  db: EngramDb,
  reader: { sessionId: string; workspace: string; limit: number; includeOwn?: boolean },
): Promise<WallMessageRow[]> {
  // A prefix may be of the full id or of its distinctive part (what the labels show).
  const id = reader.sessionId.toLowerCase();
  const bare = bareSessionId(reader.sessionId).toLowerCase();
  const sessionPrefix = sql`(substr(${wallMessages.recipient}, 1, 2) = ${WALL_SESSION_PREFIX} AND length(${wallMessages.recipient}) > 2 AND (substr(${id}, 1, length(${wallMessages.recipient}) - 2) = substr(${wallMessages.recipient}, 3) OR substr(${bare}, 1, length(${wallMessages.recipient}) - 2) = substr(${wallMessages.recipient}, 3)))`;
  const where = or(
    eq(wallMessages.recipient, ''),
    eq(wallMessages.recipient, `${WALL_WORKSPACE_PREFIX}${reader.workspace}`),
    sessionPrefix,
    reader.includeOwn ? eq(wallMessages.fromSession, reader.sessionId) : undefined,
  );
  return db
    .select()
    .from(wallMessages)
    .where(where)
    .orderBy(desc(wallMessages.at), desc(sql`rowid`))
    .limit(Math.max(1, reader.limit));
}

/** The whole wall, newest first (the console's view). */
export async function listWallMessages(db: EngramDb, options: { limit?: number; offset?: number } = {}): Promise<WallMessageRow[]> {
  return db
    .select()
    .from(wallMessages)
    .orderBy(desc(wallMessages.at), desc(sql`rowid`))
    .limit(Math.max(1, options.limit ?? 100))
    .offset(Math.max(0, options.offset ?? 0));
}

/** A workspace id some memory or the workspace registry knows. */
export async function isKnownWorkspace(db: EngramDb, id: string): Promise<boolean> {
  const registered = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id)).limit(1);
  if (registered.length > 0) return true;
  const used = await db.select({ id: documents.id }).from(documents).where(eq(documents.workspace, id)).limit(1);
  return used.length > 0;
}
