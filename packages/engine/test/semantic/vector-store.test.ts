import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createClient } from '@libsql/client';
import { VectorStore, dimensionsOfDdl, vectorBlob } from '../../src/semantic/vector-store.ts';
import type { EmbeddingFingerprint } from '../../src/semantic/fingerprint.ts';

const fp = (model: string): EmbeddingFingerprint => ({ provider: 'openai', model, endpoint: 'http://x/v1', dimensions: 3, chunkSize: 800, chunkOverlap: 120, pooling: '' });
const tempClient = () => createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'engram-vs-')), 'v.db')}` });

describe('VectorStore', () => {
  it('creates an F32_BLOB table for the dimension and round-trips vectors', async () => {
    const client = tempClient();
    const store = new VectorStore(client);
    await store.ensureMeta();
    assert.equal(await store.tableDimensions(), null);
    await store.createTable(3);
    assert.equal(await store.tableDimensions(), 3);
    await store.upsertMany([
      { id: 'a', fingerprint: 'fa', vector: new Float32Array([1, 2, 3]) },
      { id: 'b', fingerprint: 'fb', vector: new Float32Array([4, 5, 6]) },
    ]);
    await store.upsertMany([{ id: 'a', fingerprint: 'fa2', vector: new Float32Array([7, 8, 9]) }]);
    const rows: Record<string, number[]> = {};
    const res = await store.loadAll((r) => (rows[`${r.id}:${r.fingerprint}`] = Array.from(r.vector)), 1);
    assert.deepEqual(res, { loaded: 2, malformed: 0 });
    assert.deepEqual(rows, { 'a:fa2': [7, 8, 9], 'b:fb': [4, 5, 6] });
    // The SQL vector functions read the same blobs.
    const d = await client.execute({ sql: 'SELECT chunk_id FROM vectors ORDER BY vector_distance_cos(vec, vector32(?)) LIMIT 1', args: ['[4,5,6]'] });
    assert.equal(d.rows[0]?.chunk_id, 'b');
    await store.deleteMany(['a', 'missing']);
    assert.equal(await store.count(), 1);
    client.close();
  });

  it('refuses a vector of the wrong length at the database level', async () => {
    const client = tempClient();
    const store = new VectorStore(client);
    await store.ensureMeta();
    await store.createTable(3);
    await assert.rejects(() => store.upsertMany([{ id: 'x', fingerprint: 'f', vector: new Float32Array([1, 2]) }]));
    await assert.rejects(() => client.execute({ sql: 'INSERT INTO vectors VALUES (?, ?, ?)', args: ['y', 'f', vectorBlob(new Float32Array(4))] }));
    client.close();
  });

  it('backs the table up with its fingerprint and keeps only the newest backups', async () => {
    const client = tempClient();
    const store = new VectorStore(client);
    await store.ensureMeta();
    for (const model of ['m1', 'm2', 'm3']) {
      await store.createTable(3);
      await store.writeFingerprint(fp(model));
      await store.upsertMany([{ id: model, fingerprint: 'f', vector: new Float32Array([1, 0, 0]) }]);
      const table = await store.backupAndClear(2);
      assert.match(table ?? '', /^vectors_backup_\d+/);
      assert.equal(await store.tableDimensions(), null);
      assert.equal(await store.readFingerprint(), null);
    }
    const backups = await store.backups();
    assert.deepEqual(backups.map((b) => b.fingerprint?.model), ['m2', 'm3']);
    assert.ok(backups.every((b) => b.rows === 1));
    // An empty table is simply dropped, not backed up.
    await store.createTable(3);
    assert.equal(await store.backupAndClear(2), null);
    assert.equal((await store.backups()).length, 2);
    client.close();
  });

  it('parses the dimension out of the DDL', () => {
    assert.equal(dimensionsOfDdl('CREATE TABLE vectors (vec F32_BLOB( 512 ) NOT NULL)'), 512);
    assert.equal(dimensionsOfDdl('CREATE TABLE t (x TEXT)'), null);
  });
});
