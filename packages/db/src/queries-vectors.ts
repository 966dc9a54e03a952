// SQL of the semantic channel's tables: `vectors` (one F32_BLOB(dim) row per chunk, with the
// fingerprint it was built with), `vector_meta` (key/value: the current fingerprint, one entry per
// backup) and the timestamped backups `vectors_backup_*`. Raw SQL through the libSQL client, not
// drizzle: the vector column's type carries the dimension, so the table is created at run time and
// has no place in the static schema. Fingerprints are stored as the caller's JSON text; what they
// mean is the engine's business (semantic/fingerprint.ts).
import type { Client, InStatement } from '@libsql/client';

export const VECTOR_TABLE = 'vectors';
export const VECTOR_META_TABLE = 'vector_meta';
export const VECTOR_BACKUP_PREFIX = 'vectors_backup_';
const FINGERPRINT_KEY = 'fingerprint';
const backupKey = (table: string) => `backup:${table}`;
// Backup names are built by us (prefix + digits); anything else found by LIKE is not ours to touch.
const BACKUP_NAME = /^vectors_backup_[0-9_]+$/;

export interface VectorRow {
  id: string;
  fingerprint: string;
  vector: Float32Array;
}

/** Little-endian float32 bytes, the F32_BLOB layout. */
export function vectorBlob(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

export function blobVector(value: unknown): Float32Array | null {
  // libSQL hands out a fresh ArrayBuffer per row: wrapping it is safe and saves a copy.
  if (value instanceof ArrayBuffer) return value.byteLength % 4 === 0 ? new Float32Array(value) : null;
  if (ArrayBuffer.isView(value) && value.byteLength % 4 === 0) {
    return new Float32Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  return null;
}

/** The n of `F32_BLOB(n)` in a CREATE TABLE statement. */
export function dimensionsOfDdl(sql: string): number | null {
  const m = /F32_BLOB\s*\(\s*(\d+)\s*\)/i.exec(sql);
  return m ? Number(m[1]) : null;
}

export async function tableExists(client: Client, name: string): Promise<boolean> {
  const r = await client.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", args: [name] });
  return r.rows.length > 0;
}

export async function ensureVectorMeta(client: Client): Promise<void> {
  await client.execute(`CREATE TABLE IF NOT EXISTS ${VECTOR_META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
}

async function metaValue(client: Client, key: string): Promise<string | undefined> {
  const r = await client.execute({ sql: `SELECT value FROM ${VECTOR_META_TABLE} WHERE key = ?`, args: [key] });
  return r.rows[0]?.value as string | undefined;
}

const setMeta = (key: string, value: string): InStatement => ({
  sql: `INSERT INTO ${VECTOR_META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  args: [key, value],
});
const deleteMeta = (key: string): InStatement => ({ sql: `DELETE FROM ${VECTOR_META_TABLE} WHERE key = ?`, args: [key] });

/** The stored fingerprint's JSON text (undefined when there is none). Needs the meta table. */
export const readVectorFingerprint = (client: Client): Promise<string | undefined> => metaValue(client, FINGERPRINT_KEY);

export async function writeVectorFingerprint(client: Client, json: string): Promise<void> {
  await client.execute(setMeta(FINGERPRINT_KEY, json));
}

export async function clearVectorFingerprint(client: Client): Promise<void> {
  await client.execute(deleteMeta(FINGERPRINT_KEY));
}

/** The dimension of the existing vector table, null when there is none. */
export async function vectorTableDimensions(client: Client): Promise<number | null> {
  const r = await client.execute({ sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", args: [VECTOR_TABLE] });
  const sql = r.rows[0]?.sql;
  return typeof sql === 'string' ? dimensionsOfDdl(sql) : null;
}

export async function createVectorTable(client: Client, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims <= 0) throw new Error(`cannot create a vector table with ${dims} dimensions`);
  await client.execute(
    `CREATE TABLE IF NOT EXISTS ${VECTOR_TABLE} (chunk_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, ` +
      `vec F32_BLOB(${dims}) NOT NULL CHECK (length(vec) = ${dims * 4}))`,
  );
}

/** Rows of a table that exists (the caller checks). */
async function rowCount(client: Client, table: string): Promise<number> {
  const r = await client.execute(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(r.rows[0]?.n ?? 0);
}

export async function countVectors(client: Client): Promise<number> {
  if ((await vectorTableDimensions(client)) === null) return 0;
  return rowCount(client, VECTOR_TABLE);
}

/** Streams every stored vector in pages (a 100k × 512 table is 200 MB: never one result set). */
export async function loadAllVectors(client: Client, onRow: (row: VectorRow) => void, pageSize = 2000): Promise<{ loaded: number; malformed: number }> {
  let lastRowid = -1;
  let loaded = 0;
  let malformed = 0;
  for (;;) {
    const r = await client.execute({
      sql: `SELECT rowid AS rid, chunk_id, fingerprint, vec FROM ${VECTOR_TABLE} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      args: [lastRowid, pageSize],
    });
    for (const row of r.rows) {
      const vector = blobVector(row.vec);
      if (vector) {
        onRow({ id: String(row.chunk_id), fingerprint: String(row.fingerprint), vector });
        loaded++;
      } else malformed++;
      lastRowid = Number(row.rid);
    }
    if (r.rows.length < pageSize) return { loaded, malformed };
  }
}

export async function getVectors(client: Client, ids: string[]): Promise<Map<string, VectorRow>> {
  const out = new Map<string, VectorRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const r = await client.execute({
      sql: `SELECT chunk_id, fingerprint, vec FROM ${VECTOR_TABLE} WHERE chunk_id IN (${part.map(() => '?').join(',')})`,
      args: part,
    });
    for (const row of r.rows) {
      const vector = blobVector(row.vec);
      if (vector) out.set(String(row.chunk_id), { id: String(row.chunk_id), fingerprint: String(row.fingerprint), vector });
    }
  }
  return out;
}

export async function upsertVectors(client: Client, rows: VectorRow[]): Promise<void> {
  if (rows.length === 0) return;
  const stmts: InStatement[] = rows.map((r) => ({
    sql: `INSERT INTO ${VECTOR_TABLE} (chunk_id, fingerprint, vec) VALUES (?, ?, ?) ` +
      'ON CONFLICT(chunk_id) DO UPDATE SET fingerprint = excluded.fingerprint, vec = excluded.vec',
    args: [r.id, r.fingerprint, vectorBlob(r.vector)],
  }));
  await client.batch(stmts, 'write');
}

export async function deleteVectors(client: Client, ids: string[]): Promise<void> {
  if (ids.length === 0 || (await vectorTableDimensions(client)) === null) return;
  const stmts: InStatement[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    stmts.push({ sql: `DELETE FROM ${VECTOR_TABLE} WHERE chunk_id IN (${part.map(() => '?').join(',')})`, args: part });
  }
  await client.batch(stmts, 'write');
}

export async function listVectorIds(client: Client): Promise<{ id: string; fingerprint: string }[]> {
  if ((await vectorTableDimensions(client)) === null) return [];
  const r = await client.execute(`SELECT chunk_id, fingerprint FROM ${VECTOR_TABLE}`);
  return r.rows.map((row) => ({ id: String(row.chunk_id), fingerprint: String(row.fingerprint) }));
}

export interface VectorBackupRow {
  table: string;
  rows: number;
  /** The fingerprint JSON recorded with the backup ('null' or undefined when none). */
  fingerprint: string | undefined;
}

/** Backup tables, oldest first (names sort by their timestamp). */
export async function listVectorBackups(client: Client): Promise<VectorBackupRow[]> {
  const r = await client.execute({
    sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ORDER BY name",
    args: [`${VECTOR_BACKUP_PREFIX}%`],
  });
  const out: VectorBackupRow[] = [];
  for (const row of r.rows) {
    const table = String(row.name);
    if (!BACKUP_NAME.test(table)) continue;
    out.push({ table, rows: await rowCount(client, table), fingerprint: await metaValue(client, backupKey(table)) });
  }
  return out;
}

/**
 * Renames the vector table to a timestamped backup (recording `fingerprintJson` with it) and drops
 * all but the newest `keep` backups. An empty table is just dropped. Returns the backup table name,
 * if any. `now` names the backup.
 */
export async function backupAndClearVectors(client: Client, fingerprintJson: string, keep = 2, now = new Date()): Promise<string | null> {
  if ((await vectorTableDimensions(client)) === null) return null;
  const rows = await countVectors(client);
  if (rows === 0) {
    await client.batch([`DROP TABLE ${VECTOR_TABLE}`, deleteMeta(FINGERPRINT_KEY)], 'write');
    return null;
  }
  const existing = new Set((await listVectorBackups(client)).map((b) => b.table));
  const stamped = `${VECTOR_BACKUP_PREFIX}${now.toISOString().replace(/\D/g, '').slice(0, 17)}`;
  let table = stamped;
  for (let n = 2; existing.has(table); n++) table = `${stamped}_${n}`;
  await client.batch([`ALTER TABLE ${VECTOR_TABLE} RENAME TO ${table}`, setMeta(backupKey(table), fingerprintJson), deleteMeta(FINGERPRINT_KEY)], 'write');
  const all = (await listVectorBackups(client)).map((b) => b.table);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) {
    await client.batch([`DROP TABLE IF EXISTS ${old}`, deleteMeta(backupKey(old))], 'write');
  }
  return table;
}
