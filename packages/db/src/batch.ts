// Several drizzle-built statements run as one libSQL batch in `write` mode (BEGIN IMMEDIATE): the
// batch takes the write lock up front, waiting out the busy timeout, instead of starting as a reader
// and failing to upgrade when another process wrote meanwhile. drizzle's own `db.batch` has no mode.
import type { Client, ResultSet } from '@libsql/client';
import type { EngramDb } from './client.ts';

/** The libSQL client under the drizzle instance (drizzle keeps it as `$client`; its type leaves it out). */
export const clientOf = (db: EngramDb): Client => (db as unknown as { $client: Client }).$client;

/** Anything drizzle can render to one SQL statement with its (already encoded) parameters. */
export interface BuiltStatement {
  toSQL(): { sql: string; params: unknown[] };
}

/** Runs the statements in one write transaction; one result per statement, in order. */
export async function writeBatch(db: EngramDb, statements: readonly BuiltStatement[]): Promise<ResultSet[]> {
  if (statements.length === 0) return [];
  return clientOf(db).batch(
    statements.map((s) => {
      const q = s.toSQL();
      return { sql: q.sql, args: q.params as never[] };
    }),
    'write',
  );
}
