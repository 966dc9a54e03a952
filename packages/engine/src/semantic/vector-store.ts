// The durable side of the semantic channel: vectors in libSQL as F32_BLOB(dim), one row per chunk,
// plus the fingerprint they were built with. The table is created at run time because its column
// type carries the dimension. Search never runs here (see vector-index.ts); this is load and save.
import type { Client, InStatement } from '@libsql/client';
import { canonical, parseFingerprint, type EmbeddingFingerprint } from './fingerprint.ts';

export const VECTOR_TABLE = 'vectors';
export const META_TABLE = 'vector_meta';
const BACKUP_PREFIX = 'vectors_backup_';
const FINGERPRINT_KEY = 'fingerprint';
const backupKey = (table: string) => `backup:${table}`;

export interface StoredVector {
  id: string;
  fingerprint: string;
  vector: Float32Array;
}

export interface VectorBackup {
  table: string;
  fingerprint: EmbeddingFingerprint | null;
  rows: number;
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

export class VectorStore {
  constructor(private readonly client: Client) {}

  async ensureMeta(): Promise<void> {
    await this.client.execute(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  }

  async readFingerprint(): Promise<EmbeddingFingerprint | null> {
    const r = await this.client.execute({ sql: `SELECT value FROM ${META_TABLE} WHERE key = ?`, args: [FINGERPRINT_KEY] });
    return parseFingerprint(r.rows[0]?.value as string | undefined);
  }

  async writeFingerprint(fp: EmbeddingFingerprint): Promise<void> {
    await this.client.execute({
      sql: `INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      args: [FINGERPRINT_KEY, JSON.stringify(canonical(fp))],
    });
  }

  async clearFingerprint(): Promise<void> {
    await this.client.execute({ sql: `DELETE FROM ${META_TABLE} WHERE key = ?`, args: [FINGERPRINT_KEY] });
  }

  /** The dimension of the existing vector table, null when there is none. */
  async tableDimensions(): Promise<number | null> {
    const r = await this.client.execute({ sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", args: [VECTOR_TABLE] });
    const sql = r.rows[0]?.sql;
    return typeof sql === 'string' ? dimensionsOfDdl(sql) : null;
  }

  async createTable(dims: number): Promise<void> {
    if (!Number.isInteger(dims) || dims <= 0) throw new Error(`cannot create a vector table with ${dims} dimensions`);
    await this.client.execute(
      `CREATE TABLE IF NOT EXISTS ${VECTOR_TABLE} (chunk_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, ` +
        `vec F32_BLOB(${dims}) NOT NULL CHECK (length(vec) = ${dims * 4}))`,
    );
  }

  async count(): Promise<number> {
    if ((await this.tableDimensions()) === null) return 0;
    const r = await this.client.execute(`SELECT COUNT(*) AS n FROM ${VECTOR_TABLE}`);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Streams every stored vector in pages (a 100k × 512 table is 200 MB: never one result set). */
  async loadAll(onRow: (row: StoredVector) => void, pageSize = 2000): Promise<{ loaded: number; malformed: number }> {
    let lastRowid = -1;
    let loaded = 0;
    let malformed = 0;
    for (;;) {
      const r = await this.client.execute({
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

  async get(ids: string[]): Promise<Map<string, StoredVector>> {
    const out = new Map<string, StoredVector>();
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const r = await this.client.execute({
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

  async upsertMany(rows: StoredVector[]): Promise<void> {
    if (rows.length === 0) return;
    const stmts: InStatement[] = rows.map((r) => ({
      sql: `INSERT INTO ${VECTOR_TABLE} (chunk_id, fingerprint, vec) VALUES (?, ?, ?) ` +
        'ON CONFLICT(chunk_id) DO UPDATE SET fingerprint = excluded.fingerprint, vec = excluded.vec',
      args: [r.id, r.fingerprint, vectorBlob(r.vector)],
    }));
    await this.client.batch(stmts, 'write');
  }

  async deleteMany(ids: string[]): Promise<void> {
    if (ids.length === 0 || (await this.tableDimensions()) === null) return;
    const stmts: InStatement[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      stmts.push({ sql: `DELETE FROM ${VECTOR_TABLE} WHERE chunk_id IN (${part.map(() => '?').join(',')})`, args: part });
    }
    await this.client.batch(stmts, 'write');
  }

  async listIds(): Promise<{ id: string; fingerprint: string }[]> {
    if ((await this.tableDimensions()) === null) return [];
    const r = await this.client.execute(`SELECT chunk_id, fingerprint FROM ${VECTOR_TABLE}`);
    return r.rows.map((row) => ({ id: String(row.chunk_id), fingerprint: String(row.fingerprint) }));
  }

  /**
   * Renames the vector table to a timestamped backup (with its fingerprint) and drops all but the
   * newest `keep` backups. An empty table is just dropped. Returns the backup table name, if any.
   */
  async backupAndClear(keep = 2): Promise<string | null> {
    if ((await this.tableDimensions()) === null) return null;
    const rows = await this.count();
    const fp = await this.readFingerprint();
    if (rows === 0) {
      await this.client.batch([`DROP TABLE ${VECTOR_TABLE}`, { sql: `DELETE FROM ${META_TABLE} WHERE key = ?`, args: [FINGERPRINT_KEY] }], 'write');
      return null;
    }
    const existing = new Set((await this.backups()).map((b) => b.table));
    const stamped = `${BACKUP_PREFIX}${new Date().toISOString().replace(/\D/g, '').slice(0, 17)}`;
    let table = stamped;
    for (let n = 2; existing.has(table); n++) table = `${stamped}_${n}`;
    await this.client.batch(
      [
        `ALTER TABLE ${VECTOR_TABLE} RENAME TO ${table}`,
        {
          sql: `INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
          args: [backupKey(table), fp ? JSON.stringify(fp) : 'null'],
        },
        { sql: `DELETE FROM ${META_TABLE} WHERE key = ?`, args: [FINGERPRINT_KEY] },
      ],
      'write',
    );
    const all = (await this.backups()).map((b) => b.table);
    for (const old of all.slice(0, Math.max(0, all.length - keep))) {
      await this.client.batch([`DROP TABLE IF EXISTS ${old}`, { sql: `DELETE FROM ${META_TABLE} WHERE key = ?`, args: [backupKey(old)] }], 'write');
    }
    return table;
  }

  /** Backup tables, oldest first. */
  async backups(): Promise<VectorBackup[]> {
    const r = await this.client.execute({
      sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ORDER BY name",
      args: [`${BACKUP_PREFIX}%`],
    });
    const out: VectorBackup[] = [];
    for (const row of r.rows) {
      const table = String(row.name);
      if (!/^vectors_backup_[0-9_]+$/.test(table)) continue;
      const n = await this.client.execute(`SELECT COUNT(*) AS n FROM ${table}`);
      const meta = await this.client.execute({ sql: `SELECT value FROM ${META_TABLE} WHERE key = ?`, args: [backupKey(table)] });
      out.push({ table, rows: Number(n.rows[0]?.n ?? 0), fingerprint: parseFingerprint(meta.rows[0]?.value as string | undefined) });
    }
    return out;
  }
}
