// The durable side of the semantic channel: vectors in libSQL, one row per chunk, plus the
// fingerprint they were built with. The SQL lives in @engram/db (queries-vectors.ts); this class
// binds it to one client and turns the stored fingerprint text into the engine's type. Search never
// runs here (see vector-index.ts); this is load and save.
import type { Client } from '@libsql/client';
import {
  backupAndClearVectors,
  blobVector,
  clearVectorFingerprint,
  countVectors,
  createVectorTable,
  deleteVectors,
  dimensionsOfDdl,
  ensureVectorMeta,
  getVectors,
  listVectorBackups,
  listVectorIds,
  loadAllVectors,
  readVectorFingerprint,
  upsertVectors,
  vectorBlob,
  vectorTableDimensions,
  VECTOR_META_TABLE,
  VECTOR_TABLE,
  writeVectorFingerprint,
  type VectorRow,
} from '@engram/db';
import { canonical, parseFingerprint, type EmbeddingFingerprint } from './fingerprint.ts';

export { blobVector, dimensionsOfDdl, vectorBlob, VECTOR_TABLE };
export const META_TABLE = VECTOR_META_TABLE;

export type StoredVector = VectorRow;

export interface VectorBackup {
  table: string;
  fingerprint: EmbeddingFingerprint | null;
  rows: number;
}

export class VectorStore {
  constructor(private readonly client: Client) {}

  ensureMeta(): Promise<void> {
    return ensureVectorMeta(this.client);
  }

  async readFingerprint(): Promise<EmbeddingFingerprint | null> {
    return parseFingerprint(await readVectorFingerprint(this.client));
  }

  writeFingerprint(fp: EmbeddingFingerprint): Promise<void> {
    return writeVectorFingerprint(this.client, JSON.stringify(canonical(fp)));
  }

  clearFingerprint(): Promise<void> {
    return clearVectorFingerprint(this.client);
  }

  /** The dimension of the existing vector table, null when there is none. */
  tableDimensions(): Promise<number | null> {
    return vectorTableDimensions(this.client);
  }

  createTable(dims: number): Promise<void> {
    return createVectorTable(this.client, dims);
  }

  count(): Promise<number> {
    return countVectors(this.client);
  }

  /** Streams every stored vector in pages. */
  loadAll(onRow: (row: StoredVector) => void, pageSize = 2000): Promise<{ loaded: number; malformed: number }> {
    return loadAllVectors(this.client, onRow, pageSize);
  }

  get(ids: string[]): Promise<Map<string, StoredVector>> {
    return getVectors(this.client, ids);
  }

  upsertMany(rows: StoredVector[]): Promise<void> {
    return upsertVectors(this.client, rows);
  }

  deleteMany(ids: string[]): Promise<void> {
    return deleteVectors(this.client, ids);
  }

  listIds(): Promise<{ id: string; fingerprint: string }[]> {
    return listVectorIds(this.client);
  }

  /**
   * Renames the vector table to a timestamped backup (with its fingerprint) and drops all but the
   * newest `keep` backups. An empty table is just dropped. Returns the backup table name, if any.
   */
  async backupAndClear(keep = 2): Promise<string | null> {
    if ((await this.tableDimensions()) === null) return null;
    const fp = await this.readFingerprint();
    return backupAndClearVectors(this.client, fp ? JSON.stringify(fp) : 'null', keep);
  }

  /** Backup tables, oldest first. */
  async backups(): Promise<VectorBackup[]> {
    return (await listVectorBackups(this.client)).map((b) => ({ table: b.table, rows: b.rows, fingerprint: parseFingerprint(b.fingerprint) }));
  }
}
