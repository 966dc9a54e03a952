import type { Client, Config } from '@libsql/client';
// The embedded (file) client only: `@libsql/client`'s entry also loads the HTTP and WebSocket
// clients (the `ws` package), ~30 ms of every one-shot command that never talks to a server. A
// remote URL loads the full client when it is opened (`createClientFor`).
import { createClient as createFileClient } from '@libsql/client/sqlite3';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import { drizzle } from 'drizzle-orm/libsql/sqlite3';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.ts';
import { DatabaseUnreachableError, isUnreachable } from './reachability.ts';

export { DatabaseUnreachableError, displayUrl, isUnreachable } from './reachability.ts';

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
  /**
   * A file that is not a database or fails its integrity check is moved to `backups/` and a fresh
   * database is created in its place (the caller rebuilds it from the diary files). Off: it throws.
   */
  recoverCorrupt?: boolean;
}

/** Why a database was opened read-only: it was written by a newer Engram (migrations we do not know). */
export interface ReadOnlyReason {
  reason: string;
  /** Migrations recorded in the file / known to this build. */
  applied: number;
  known: number;
}

/** A corrupt file that was moved aside and replaced by an empty database. */
export interface Recovery {
  reason: string;
  /** Where the corrupt file went. */
  backup: string;
}

export interface Database {
  client: Client;
  db: EngramDb;
  url: string;
  /** Path of the database file in embedded mode, null for remote or in-memory databases. */
  filePath: string | null;
  /** Set when the data was written by a newer version: nothing may be written (migrations were not run). */
  readOnly: ReadOnlyReason | null;
  /** Set when a corrupt file was replaced by an empty database on this open. */
  recovered: Recovery | null;
  /** Whether this open ran the integrity check (skipped when the file is as a healthy close left it). */
  integrityChecked: boolean;
  /**
   * Moves the WAL into the database file (passive: never waits for another process's reader);
   * true when every frame made it. A process about to exit calls it before close() so the mark of a
   * healthy close still holds after the exit (see checkpointAll).
   */
  checkpoint(): Promise<boolean>;
  /** Closes the client; `checkpointed`: what checkpoint() just answered (nothing written since). */
  close(options?: { checkpointed?: boolean }): void;
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

/**
 * Opens (creating if needed) the database, configures WAL and a busy timeout, and applies migrations
 * (after a backup). A database written by a newer version is opened without migrating and marked
 * read-only; a corrupt file is moved aside and replaced when `recoverCorrupt` is set.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const filePath = filePathOfUrl(options.url);
  if (filePath) mkdirSync(dirname(filePath), { recursive: true });
  try {
    return await openOnce(options, filePath, null);
  } catch (error) {
    if (!filePath || !options.recoverCorrupt || !isCorruption(error)) throw error;
    const backup = moveCorruptAside(filePath);
    return openOnce(options, filePath, { reason: describeCorruption(error), backup });
  }
}

async function openOnce(options: OpenDatabaseOptions, filePath: string | null, recovered: Recovery | null): Promise<Database> {
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000));
  let integrityChecked = false;
  // Before the client opens it: opening in WAL mode creates the -wal file.
  const asLeftHealthy = filePath !== null && unchangedSinceHealthyClose(filePath);
  // `timeout` reaches every pooled connection (the PRAGMA below only the first one).
  const client = await createClientFor({ url: options.url, authToken: options.authToken, ...(filePath ? { timeout: busyTimeoutMs } : {}) });
  try {
    if (filePath) {
      await client.execute(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      await client.execute('PRAGMA journal_mode = WAL');
      await client.execute('PRAGMA synchronous = NORMAL');
      if (existsSync(filePath) && statSync(filePath).size > 0 && !asLeftHealthy) {
        await checkIntegrity(client);
        integrityChecked = true;
      }
    }
    await client.execute('PRAGMA foreign_keys = ON');
    const db = drizzle(client, { schema });
    const folder = options.migrationsFolder ?? defaultMigrationsFolder();
    const recorded = await recordedMigrations(client, folder);
    const readOnly = newerThanThisBuild(recorded);
    // Up to date (every migration of this build recorded, the newest last): drizzle's migrate would
    // read and hash every migration file only to run none, in every one-shot command.
    if (!readOnly && !upToDate(recorded)) {
      if (filePath) await backupBeforeMigrating(client, filePath, folder, options.keepBackups ?? 5);
      await migrate(db, { migrationsFolder: folder });
    }
    const checkpoint = async () => filePath !== null && !readOnly && (await checkpointAll(client));
    const close = (opts: { checkpointed?: boolean } = {}) => {
      client.close();
      if (filePath && !readOnly) markHealthyClose(filePath, opts.checkpointed === true);
    };
    return { client, db, url: options.url, filePath, readOnly, recovered, integrityChecked, checkpoint, close };
  } catch (error) {
    client.close();
    if (!filePath && isUnreachable(error)) throw new DatabaseUnreachableError(options.url, error);
    throw error;
  }
}

/** `file:` and `:memory:` URLs get the embedded client; anything else (http, https, libsql, ws) the full one. */
async function createClientFor(config: Config): Promise<Client> {
  if (config.url.startsWith('file:') || config.url === ':memory:') return createFileClient(config);
  const { createClient } = await import('@libsql/client');
  return createClient(config);
}

/** Thrown by the integrity check; recognised by `isCorruption` like SQLite's own errors. */
class CorruptDatabaseError extends Error {
  readonly code = 'SQLITE_CORRUPT';
}

async function checkIntegrity(client: Client): Promise<void> {
  // quick_check reads every page but skips the index cross-checks: milliseconds for a diary corpus.
  const rows = await client.execute('PRAGMA quick_check(5)');
  const verdicts = rows.rows.map((r) => String(Object.values(r)[0]));
  if (verdicts.length !== 1 || verdicts[0] !== 'ok') throw new CorruptDatabaseError(`integrity check failed: ${verdicts.join('; ')}`);
}

/*
 * The integrity check reads every page: ~50 ms at 5,000 memories, ten times that at 50,000, in every
 * one-shot command. It is skipped when the database file and its WAL are exactly as a process left
 * them when it closed the database after a checked (or likewise skipped) open: size, inode and
 * change time (which no tool can set back) of both, recorded in `<db>.checked`. Any other change —
 * a copy, a restore, a disk error written back, another program — runs the check again.
 */
const fileStamp = (path: string): string => {
  try {
    const s = statSync(path);
    return `${s.size}:${s.ino}:${s.ctimeMs}`;
  } catch {
    return '-';
  }
};
// An empty WAL holds nothing: missing and zero bytes are one state.
const walStamp = (filePath: string): string => {
  const s = fileStamp(`${filePath}-wal`);
  return s.startsWith('0:') ? '-' : s;
};
const databaseStamp = (filePath: string) => `${fileStamp(filePath)}|${walStamp(filePath)}`;
const healthyMarkOf = (filePath: string) => `${filePath}.checked`;
/** Appended to the mark when every WAL frame was in the file at close: the WAL may then be gone. */
const CHECKPOINTED = '|checkpointed';

/*
 * The embedded driver releases its connections only when the process exits (prepared statements
 * hold them), and the last one to close checkpoints the WAL into the file and deletes it. A mark of
 * the WAL as close() saw it never matched what the next process found, so every command after a
 * write read every page again. A process about to exit therefore checkpoints first (passive: it
 * never waits for a reader of another process); when every frame made it into the file, the mark
 * accepts the WAL being gone or empty, the file itself unchanged. A write after the checkpoint only
 * costs the next open its check: the exit-time checkpoint then changes the file.
 */
async function checkpointAll(client: Client): Promise<boolean> {
  try {
    const r = await client.execute('PRAGMA wal_checkpoint(PASSIVE)');
    const [busy, frames, done] = Object.values(r.rows[0] ?? {}).map(Number);
    return busy === 0 && frames !== undefined && frames >= 0 && frames === done;
  } catch {
    return false;
  }
}

function unchangedSinceHealthyClose(filePath: string): boolean {
  let mark: string;
  try {
    mark = readFileSync(healthyMarkOf(filePath), 'utf8');
  } catch {
    return false;
  }
  const now = databaseStamp(filePath);
  const checkpointed = mark.endsWith(CHECKPOINTED);
  const stamp = checkpointed ? mark.slice(0, -CHECKPOINTED.length) : mark;
  if (stamp === now) return true;
  return checkpointed && now === `${stamp.split('|')[0]}|-`;
}

/** Best effort: without the mark the next open only runs the check. */
function markHealthyClose(filePath: string, checkpointed: boolean): void {
  const mark = healthyMarkOf(filePath);
  const tmp = `${mark}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, databaseStamp(filePath) + (checkpointed ? CHECKPOINTED : ''));
    renameSync(tmp, mark);
  } catch {
    rmSync(tmp, { force: true });
  }
}

export function isCorruption(error: unknown): boolean {
  const text = `${(error as { code?: unknown })?.code ?? ''} ${error instanceof Error ? error.message : String(error)}`;
  return /SQLITE_NOTADB|SQLITE_CORRUPT|file is not a database|database disk image is malformed|integrity check failed/i.test(text);
}

const describeCorruption = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** Moves the database file and its WAL/SHM companions to `backups/engram-corrupt-<time>.db`. */
function moveCorruptAside(filePath: string): string {
  const dir = join(dirname(filePath), 'backups');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = join(dir, `engram-corrupt-${stamp}.db`);
  renameSync(filePath, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(filePath + suffix)) renameSync(filePath + suffix, target + suffix);
  }
  return target;
}

interface JournalEntry {
  when: number;
  tag: string;
}

const readJournal = (folder: string): JournalEntry[] =>
  (JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] }).entries;

/** The migrations a database records (none: no table yet) against the ones this build ships. */
interface RecordedMigrations {
  table: boolean;
  applied: number;
  newest: number;
  known: number;
  ourNewest: number;
}

async function recordedMigrations(client: Client, folder: string): Promise<RecordedMigrations> {
  const journal = readJournal(folder);
  const known = { known: journal.length, ourNewest: Math.max(0, ...journal.map((e) => e.when)) };
  const table = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'");
  if (table.rows.length === 0) return { table: false, applied: 0, newest: 0, ...known };
  const rows = await client.execute('SELECT COUNT(*) AS n, MAX(created_at) AS newest FROM __drizzle_migrations');
  return { table: true, applied: Number(rows.rows[0]?.n ?? 0), newest: Number(rows.rows[0]?.newest ?? 0), ...known };
}

/** drizzle runs the migrations created after the newest recorded one: none when ours is recorded, with every one before it. */
const upToDate = (r: RecordedMigrations): boolean => r.table && r.applied === r.known && r.newest === r.ourNewest;

/**
 * Did a newer Engram migrate this database? It did when the file records more migrations than this
 * build ships, or one created after our newest. Migrating it again (or writing to it) could break it.
 */
function newerThanThisBuild({ table, applied, newest, known, ourNewest }: RecordedMigrations): ReadOnlyReason | null {
  if (!table) return null;
  if (applied <= known && newest <= ourNewest) return null;
  return {
    reason: `this database was written by a newer version of Engram (${applied} schema migrations, this version knows ${known}); it is open read-only — upgrade Engram to write to it`,
    applied,
    known,
  };
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
  const journal = readJournal(folder);
  const applied = await appliedMigrationCount(client);
  if (applied === 0 || applied >= journal.length) return;
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  const dir = join(dirname(filePath), 'backups');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  copyFileSync(filePath, join(dir, `engram-${stamp}-v${applied}.db`));
  // Only pre-migration copies (engram-<time>-v<n>.db) rotate; corrupt files moved aside are never pruned.
  const old = readdirSync(dir).filter((f) => /^engram-\d.*-v\d+\.db$/.test(f)).sort();
  for (const f of old.slice(0, Math.max(0, old.length - keep))) rmSync(join(dir, f));
}
