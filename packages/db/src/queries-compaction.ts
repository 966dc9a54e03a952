// Rows of the compaction channel (cross-compaction memory): the blocks stored when a session's
// history was compacted, one run row per compaction ingested (the de-duplication record), the audit
// of deletes/restores/purges, and the optional model assistance's answer cache and daily usage.
// Every function is one statement or one write batch (a batch is one transaction).
import { and, asc, count, desc, eq, getTableColumns, gte, isNotNull, isNull, lt, max, notInArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { writeBatch } from './batch.ts';
import type { EngramDb } from './client.ts';
import { compactionAudit, compactionBlocks, compactionLlmCache, compactionLlmUsage, compactionRuns } from './schema.ts';

export type CompactionBlockRow = typeof compactionBlocks.$inferSelect;
/** A run as read back: its id is derived from scope + dedupe key and is not part of the record. */
export type CompactionRunRow = Omit<typeof compactionRuns.$inferSelect, 'id'>;
export type NewCompactionRunRow = typeof compactionRuns.$inferInsert;
export type CompactionAuditRow = typeof compactionAudit.$inferSelect;
export type CompactionAuditAction = CompactionAuditRow['action'];

/** Which session a compaction row belongs to. */
export interface CompactionScope {
  workspace: string;
  sessionId: string;
}

/** A block to append: the session's next `ord` values are given to the blocks in this order. */
export type NewCompactionBlock = Omit<CompactionBlockRow, 'workspace' | 'sessionId' | 'compactionId' | 'ord' | 'createdAt' | 'injectedAt' | 'deletedAt'>;

export interface CompactionSessionRow extends CompactionScope {
  /** Live blocks (not in the trash). */
  blocks: number;
  trashed: number;
  compactions: number;
  /** When the newest compaction was ingested; null when the session has blocks but no run row. */
  lastAt: string | null;
}

/**
 * JSON columns read leniently: a value that does not parse (a hand-edited row) reads as the
 * fallback instead of failing the whole listing, as drizzle's json mode would.
 */
const lenientJson = <T>(column: AnyColumn, fallback: T) =>
  sql<T>`${column}`.mapWith((value: unknown): T => {
    if (typeof value !== 'string') return fallback;
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  });

const blockColumns = {
  ...getTableColumns(compactionBlocks),
  keywords: lenientJson<string[]>(compactionBlocks.keywords, []),
  modelKeywords: lenientJson<string[]>(compactionBlocks.modelKeywords, []),
};

const { id: _runId, ...runTableColumns } = getTableColumns(compactionRuns);
const runColumns = { ...runTableColumns, report: lenientJson<Record<string, unknown>>(compactionRuns.report, {}) };

const inBlockScope = (scope: CompactionScope) => and(eq(compactionBlocks.workspace, scope.workspace), eq(compactionBlocks.sessionId, scope.sessionId));
const inRunScope = (scope: CompactionScope) => and(eq(compactionRuns.workspace, scope.workspace), eq(compactionRuns.sessionId, scope.sessionId));

/**
 * Appends the blocks of one compaction (after the session's highest `ord`) in one transaction; a
 * block whose id or fingerprint the session already has — live or in the trash — is skipped.
 * Returns the ids of the rows actually added, in input order.
 */
export async function insertCompactionBlocks(
  db: EngramDb,
  scope: CompactionScope,
  compactionId: string,
  blocks: readonly NewCompactionBlock[],
  createdAt: string,
): Promise<string[]> {
  if (blocks.length === 0) return [];
  const [top] = await db
    .select({ m: sql<number>`COALESCE(MAX(${compactionBlocks.ord}), 0)`.mapWith(Number) })
    .from(compactionBlocks)
    .where(inBlockScope(scope));
  let ord = top?.m ?? 0;
  const statements = blocks.map((b) =>
    db
      .insert(compactionBlocks)
      .values({ ...b, workspace: scope.workspace, sessionId: scope.sessionId, compactionId, ord: ++ord, createdAt })
      .onConflictDoNothing(),
  );
  const results = await writeBatch(db, statements);
  return blocks.filter((_, i) => (results[i]?.rowsAffected ?? 0) > 0).map((b) => b.id);
}

export async function setCompactionModelKeywords(db: EngramDb, id: string, keywords: readonly string[]): Promise<void> {
  await db.update(compactionBlocks).set({ modelKeywords: [...keywords] }).where(eq(compactionBlocks.id, id));
}

/** A session's live blocks (or, with `trashed`, the ones in the trash), in `ord` order. */
export async function compactionBlocksOf(db: EngramDb, scope: CompactionScope, options: { trashed?: boolean } = {}): Promise<CompactionBlockRow[]> {
  const deleted = options.trashed ? isNotNull(compactionBlocks.deletedAt) : isNull(compactionBlocks.deletedAt);
  return db.select(blockColumns).from(compactionBlocks).where(and(inBlockScope(scope), deleted)).orderBy(asc(compactionBlocks.ord));
}

export async function compactionBlockCount(db: EngramDb, scope: CompactionScope): Promise<number> {
  const [row] = await db.select({ n: count() }).from(compactionBlocks).where(and(inBlockScope(scope), isNull(compactionBlocks.deletedAt)));
  return row?.n ?? 0;
}

/** Records when blocks were first injected (a block already marked keeps its first time). */
export async function markCompactionBlocksInjected(db: EngramDb, ids: readonly string[], at: string): Promise<void> {
  await writeBatch(
    db,
    ids.map((id) => db.update(compactionBlocks).set({ injectedAt: at }).where(and(eq(compactionBlocks.id, id), isNull(compactionBlocks.injectedAt)))),
  );
}

/**
 * Moves blocks of the session to the trash (every live one when `ids` is null); returns how many moved.
 */
export async function trashCompactionBlocks(db: EngramDb, scope: CompactionScope, ids: readonly string[] | null, at: string): Promise<number> {
  return updateBlocks(db, scope, ids, { deletedAt: at }, isNull(compactionBlocks.deletedAt));
}

/** Takes blocks of the session out of the trash (every trashed one when `ids` is null). */
export async function restoreCompactionBlocks(db: EngramDb, scope: CompactionScope, ids: readonly string[] | null): Promise<number> {
  return updateBlocks(db, scope, ids, { deletedAt: null }, isNotNull(compactionBlocks.deletedAt));
}

/** Deletes blocks of the session for good: only trashed ones (`onlyTrashed`) or any; null ids = all. */
export async function purgeCompactionBlocks(db: EngramDb, scope: CompactionScope, ids: readonly string[] | null, onlyTrashed: boolean): Promise<number> {
  const filter = onlyTrashed ? isNotNull(compactionBlocks.deletedAt) : undefined;
  if (ids === null) {
    const r = await db.delete(compactionBlocks).where(and(inBlockScope(scope), filter));
    return r.rowsAffected;
  }
  const results = await writeBatch(
    db,
    ids.map((id) => db.delete(compactionBlocks).where(and(inBlockScope(scope), eq(compactionBlocks.id, id), filter))),
  );
  return results.reduce((n, r) => n + r.rowsAffected, 0);
}

/** Sessions with blocks trashed before `before` (ISO time): how many, and the distinct trash times. */
export async function expiredCompactionTrash(db: EngramDb, before: string): Promise<(CompactionScope & { count: number; trashedAt: string[] })[]> {
  const rows = await db
    .select({ workspace: compactionBlocks.workspace, sessionId: compactionBlocks.sessionId, deletedAt: compactionBlocks.deletedAt, n: count() })
    .from(compactionBlocks)
    .where(and(isNotNull(compactionBlocks.deletedAt), lt(compactionBlocks.deletedAt, before)))
    .groupBy(compactionBlocks.workspace, compactionBlocks.sessionId, compactionBlocks.deletedAt);
  const byScope = new Map<string, CompactionScope & { count: number; trashedAt: string[] }>();
  for (const r of rows) {
    const key = `${r.workspace}\u0000${r.sessionId}`;
    const entry = byScope.get(key) ?? { workspace: r.workspace, sessionId: r.sessionId, count: 0, trashedAt: [] };
    entry.count += r.n;
    entry.trashedAt.push(r.deletedAt!);
    byScope.set(key, entry);
  }
  return [...byScope.values()];
}

/** Deletes for good the session's blocks trashed before `before` (ISO time); returns how many. */
export async function purgeCompactionTrashBefore(db: EngramDb, scope: CompactionScope, before: string): Promise<number> {
  const r = await db.delete(compactionBlocks).where(and(inBlockScope(scope), isNotNull(compactionBlocks.deletedAt), lt(compactionBlocks.deletedAt, before)));
  return r.rowsAffected;
}

async function updateBlocks(db: EngramDb, scope: CompactionScope, ids: readonly string[] | null, set: { deletedAt: string | null }, filter: SQL): Promise<number> {
  if (ids === null) {
    const r = await db.update(compactionBlocks).set(set).where(and(inBlockScope(scope), filter));
    return r.rowsAffected;
  }
  const results = await writeBatch(
    db,
    ids.map((id) => db.update(compactionBlocks).set(set).where(and(inBlockScope(scope), eq(compactionBlocks.id, id), filter))),
  );
  return results.reduce((n, r) => n + r.rowsAffected, 0);
}

export async function hasCompactionRun(db: EngramDb, scope: CompactionScope, dedupeKey: string): Promise<boolean> {
  const rows = await db.select({ one: sql`1` }).from(compactionRuns).where(and(inRunScope(scope), eq(compactionRuns.dedupeKey, dedupeKey))).limit(1);
  return rows.length > 0;
}

/** A session's runs in `ord` order. */
export async function compactionRunsOf(db: EngramDb, scope: CompactionScope): Promise<CompactionRunRow[]> {
  return db.select(runColumns).from(compactionRuns).where(inRunScope(scope)).orderBy(asc(compactionRuns.ord));
}

/** Records a run; a second run with the same id (scope + dedupe key) is ignored. */
export async function insertCompactionRun(db: EngramDb, run: NewCompactionRunRow): Promise<void> {
  await db.insert(compactionRuns).values(run).onConflictDoNothing();
}

export async function insertCompactionAudit(db: EngramDb, entry: Omit<CompactionAuditRow, 'id'>): Promise<void> {
  await db.insert(compactionAudit).values(entry);
}

/** The audit, newest first: one session's, or everyone's when scope is null. */
export async function compactionAuditLog(db: EngramDb, scope: CompactionScope | null, limit = 200): Promise<CompactionAuditRow[]> {
  const where = scope ? and(eq(compactionAudit.workspace, scope.workspace), eq(compactionAudit.sessionId, scope.sessionId)) : undefined;
  return db.select().from(compactionAudit).where(where).orderBy(desc(compactionAudit.id)).limit(limit);
}

/**
 * Every session with stored compaction memory (blocks or runs), newest compaction first; sessions
 * without a run last. Both counts are read in one transaction, so they agree with each other.
 */
export async function compactionSessions(db: EngramDb): Promise<CompactionSessionRow[]> {
  const [blockCounts, runCounts] = await db.batch([
    db
      .select({ workspace: compactionBlocks.workspace, sessionId: compactionBlocks.sessionId, all: count(), trashed: count(compactionBlocks.deletedAt) })
      .from(compactionBlocks)
      .groupBy(compactionBlocks.workspace, compactionBlocks.sessionId),
    db
      .select({ workspace: compactionRuns.workspace, sessionId: compactionRuns.sessionId, compactions: count(), lastAt: max(compactionRuns.createdAt) })
      .from(compactionRuns)
      .groupBy(compactionRuns.workspace, compactionRuns.sessionId),
  ]);
  const byScope = new Map<string, CompactionSessionRow>();
  const entry = (workspace: string, sessionId: string): CompactionSessionRow => {
    const key = `${workspace}\u0000${sessionId}`;
    let row = byScope.get(key);
    if (!row) byScope.set(key, (row = { workspace, sessionId, blocks: 0, trashed: 0, compactions: 0, lastAt: null }));
    return row;
  };
  for (const b of blockCounts) Object.assign(entry(b.workspace, b.sessionId), { blocks: b.all - b.trashed, trashed: b.trashed });
  for (const r of runCounts) Object.assign(entry(r.workspace, r.sessionId), { compactions: r.compactions, lastAt: r.lastAt ?? null });
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...byScope.values()].sort(
    (a, b) =>
      (a.lastAt === b.lastAt ? 0 : a.lastAt === null ? 1 : b.lastAt === null ? -1 : cmp(b.lastAt, a.lastAt)) || cmp(a.workspace, b.workspace) || cmp(a.sessionId, b.sessionId),
  );
}

/** A cached model answer, if stored at or after `notBefore`. */
export async function compactionCacheGet(db: EngramDb, key: string, notBefore: string): Promise<string | null> {
  const rows = await db
    .select({ value: compactionLlmCache.value })
    .from(compactionLlmCache)
    .where(and(eq(compactionLlmCache.key, key), gte(compactionLlmCache.createdAt, notBefore)));
  return rows[0]?.value ?? null;
}

/** Stores an answer; in the same transaction drops the expired entries and keeps only the newest `keep`. */
export async function compactionCachePut(db: EngramDb, entry: { key: string; value: string; createdAt: string }, notBefore: string, keep: number): Promise<void> {
  const newest = db.select({ key: compactionLlmCache.key }).from(compactionLlmCache).orderBy(desc(compactionLlmCache.createdAt)).limit(keep);
  await writeBatch(db, [
    db
      .insert(compactionLlmCache)
      .values(entry)
      .onConflictDoUpdate({ target: compactionLlmCache.key, set: { value: sql`excluded.value`, createdAt: sql`excluded.created_at` } }),
    db.delete(compactionLlmCache).where(lt(compactionLlmCache.createdAt, notBefore)),
    db.delete(compactionLlmCache).where(notInArray(compactionLlmCache.key, newest)),
  ]);
}

/** Model calls and tokens spent on one day (YYYY-MM-DD); zeros when none. */
export async function compactionUsage(db: EngramDb, day: string): Promise<{ calls: number; tokens: number }> {
  const rows = await db.select({ calls: compactionLlmUsage.calls, tokens: compactionLlmUsage.tokens }).from(compactionLlmUsage).where(eq(compactionLlmUsage.day, day));
  return { calls: rows[0]?.calls ?? 0, tokens: rows[0]?.tokens ?? 0 };
}

/** Adds to a day's usage (one statement, so concurrent writers never lose an increment). */
export async function addCompactionUsage(db: EngramDb, day: string, calls: number, tokens: number): Promise<void> {
  await db
    .insert(compactionLlmUsage)
    .values({ day, calls, tokens })
    .onConflictDoUpdate({
      target: compactionLlmUsage.day,
      set: { calls: sql`${compactionLlmUsage.calls} + excluded.calls`, tokens: sql`${compactionLlmUsage.tokens} + excluded.tokens` },
    });
}

/**
 * Usage rows whose key is on or after `fromDay` (YYYY-MM-DD), in key order. A key starts with its
 * day: the bare day counts the compaction channel's calls (what its daily cap reads), "<day> <work>"
 * the other model-assisted work (engine usage/model-usage.ts), so one range covers them all.
 */
export async function compactionUsageFrom(db: EngramDb, fromDay: string): Promise<{ day: string; calls: number; tokens: number }[]> {
  return db.select().from(compactionLlmUsage).where(gte(compactionLlmUsage.day, fromDay)).orderBy(asc(compactionLlmUsage.day));
}
