import { createClient, type Client } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';

export type EngramDb = LibSQLDatabase<typeof schema>;

export interface OpenDatabaseOptions {
  /** `file:/abs/path.db`, `:memory:`, or a remote `libsql://` / `http(s)://` URL. */
  url: string;
  authToken?: string;
  /** Folder holding drizzle migrations; defaults to the repository's `drizzle/`. */
  migrationsFolder?: string;
  /** How long a writer waits for a lock held by another process before failing. */
  busyTimeoutMs?: number;
  /** How many pre-migration backups to keep next to a file database. */
  keepBackups?: number;
}

export interface Database {
  client: Client;
  db: EngramDb;
  url: string;
  /** Path of the database file in embedded mode, null for remote or in-memory databases. */
  filePath: string | null;
  close(): void;
}

export const defaultMigrationsFolder = (): string => {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.ENGRAM_MIGRATIONS_DIR, join(here, '../../../drizzle'), join(here, '../drizzle')];
  for (const c of candidates) if (c && existsSync(join(c, 'meta/_journal.json'))) return c;
  throw new Error(`drizzle migrations not found (looked in ${candidates.filter(Boolean).join(', ')})`);
};

export const filePathOfUrl = (url: string): string | null => {
  if (!url.startsWith('file:')) return null;
  const rest = url.slice('file:'.length);
  if (rest === '' || rest === ':memory:') return null;
  return rest.startsWith('//') ? fileURLToPath(url) : rest;
};

/** Opens (creating if needed) the database, configures WAL and a busy timeout, and applies migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const filePath = filePathOfUrl(options.url);
  if (filePath) mkdirSync(dirname(filePath), { recursive: true });
  const client = createClient({ url: options.url, authToken: options.authToken });
  try {
    if (filePath) {
      await client.execute(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
      await client.execute('PRAGMA journal_mode = WAL');
      await client.execute('PRAGMA synchronous = NORMAL');
    }
    await client.execute('PRAGMA foreign_keys = ON');
    const db = drizzle(client, { schema });
    const folder = options.migrationsFolder ?? defaultMigrationsFolder();
    if (filePath) await backupBeforeMigrating(client, filePath, folder, options.keepBackups ?? 5);
    await migrate(db, { migrationsFolder: folder });
    return { client, db, url: options.url, filePath, close: () => client.close() };
  } catch (error) {
    client.close();
    throw error;
  }
}

async function appliedMigrationCount(client: Client): Promise<number> {
  const table = await client.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
  );
  if (table.rows.length === 0) return 0;
  const rows = await client.execute('SELECT COUNT(*) AS n FROM __drizzle_migrations');
  return Number(rows.rows[0]?.n ?? 0);
}

/** Copies a non-empty database file aside before pending migrations run; keeps the newest `keep`. */
async function backupBeforeMigrating(client: Client, filePath: string, folder: string, keep: number) {
  if (!existsSync(filePath) || statSync(filePath).size === 0) return;
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  const applied = await appliedMigrationCount(client);
  if (applied === 0 || applied >= journal.entries.length) return;
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  const dir = join(dirname(filePath), 'backups');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  copyFileSync(filePath, join(dir, `engram-${stamp}-v${applied}.db`));
  const old = readdirSync(dir).filter((f) => f.startsWith('engram-') && f.endsWith('.db')).sort();
  for (const f of old.slice(0, Math.max(0, old.length - keep))) rmSync(join(dir, f));
}
