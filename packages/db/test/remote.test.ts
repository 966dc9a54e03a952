// The db layer against a real libSQL server (sqld): migrations, the queries the engine relies on,
// transactions, and what an unreachable server looks like to the caller.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  chunkTextsByIds,
  corpusCounts,
  deleteDocuments,
  documentHashes,
  getMeta,
  indexRowsOfDocuments,
  openDatabase,
  DatabaseUnreachableError,
  isUnreachable,
  bumpGeneration,
  readGeneration,
  replaceDocuments,
  setMeta,
} from '../src/index.ts';
import { startSqld, type SqldServer } from './sqld.ts';

let server: SqldServer;
before(async () => {
  server = await startSqld();
});
after(async () => {
  await server?.stop();
});

const doc = (id: string, archived = false) => ({
  id,
  root: 'diary' as const,
  path: `${id}.txt`,
  title: `t-${id}`,
  date: '2026-11-01',
  contentHash: `h-${id}`,
  mtimeMs: 1,
  size: 1,
  archived,
  indexedAt: new Date().toISOString(),
});
const chunk = (docId: string, ord: number) => ({ id: `${docId}#${ord}`, docId, ord, text: `text ${docId} ${ord}`, tokens: `tok ${docId}`, start: 0, end: 1, fingerprint: 'f' });

test('remote: migrations apply on a fresh server and a second open finds them applied', async () => {
  const db = await openDatabase({ url: server.url });
  assert.equal(db.filePath, null, 'a remote database has no file');
  assert.equal(db.readOnly, null);
  const tables = await db.client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('documents', 'chunks', 'meta')");
  assert.equal(tables.rows.length, 3);
  await setMeta(db.db, 'remote-k', 'v1');
  db.close();
  const again = await openDatabase({ url: server.url });
  assert.equal(await getMeta(again.db, 'remote-k'), 'v1');
  const applied = await again.client.execute('SELECT COUNT(*) AS n FROM __drizzle_migrations');
  const first = Number(applied.rows[0]?.n);
  assert.ok(first > 0);
  again.close();
  const third = await openDatabase({ url: server.url });
  assert.equal(Number((await third.client.execute('SELECT COUNT(*) AS n FROM __drizzle_migrations')).rows[0]?.n), first, 'migrations run once');
  third.close();
});

test('remote: replace/delete in transactions, counts, index rows and the generation counter', async () => {
  const db = await openDatabase({ url: server.url });
  const items = Array.from({ length: 250 }, (_, i) => ({ doc: doc(`r${i}`, i % 50 === 0), chunks: [chunk(`r${i}`, 0), chunk(`r${i}`, 1)] }));
  await replaceDocuments(db.db, items);
  const counts = await corpusCounts(db.db);
  assert.equal(counts.archived, 5);
  assert.equal(counts.documents, 245);
  assert.equal(counts.chunks, 490, 'chunks of archived documents are not counted');
  const hashes = await documentHashes(db.db);
  assert.equal(hashes.get('diary:r7.txt')?.contentHash, 'h-r7');
  const rows = await indexRowsOfDocuments(db.db, ['r1', 'r2', 'r50']);
  assert.deepEqual(rows.map((r) => r.chunkId), ['r1#0', 'r1#1', 'r2#0', 'r2#1'], 'archived r50 has no index rows');
  assert.equal((await chunkTextsByIds(db.db, ['r3#1'])).get('r3#1'), 'text r3 1');
  // Replacing a document replaces its chunks (no duplicates from the old version).
  await replaceDocuments(db.db, [{ doc: { ...doc('r1'), contentHash: 'h2' }, chunks: [chunk('r1', 0)] }]);
  assert.deepEqual((await indexRowsOfDocuments(db.db, ['r1'])).map((r) => r.chunkId), ['r1#0']);
  await deleteDocuments(db.db, items.map((i) => i.doc.id));
  assert.deepEqual(await corpusCounts(db.db), { documents: 0, archived: 0, chunks: 0 });
  const g0 = await readGeneration(db.db);
  assert.equal(await bumpGeneration(db.db), g0 + 1);
  db.close();
});

test('remote: a failing transaction leaves nothing behind', async () => {
  const db = await openDatabase({ url: server.url });
  await replaceDocuments(db.db, [{ doc: doc('keep'), chunks: [chunk('keep', 0)] }]);
  // The second item repeats a chunk id: the insert fails, and the first item must not be half-written.
  await assert.rejects(replaceDocuments(db.db, [
    { doc: doc('t1'), chunks: [chunk('t1', 0)] },
    { doc: doc('t2'), chunks: [chunk('t1', 0)] },
  ]));
  const hashes = await documentHashes(db.db);
  assert.ok(hashes.has('diary:keep.txt'));
  assert.equal(hashes.has('diary:t1.txt'), false, 'rolled back');
  await deleteDocuments(db.db, ['keep']);
  db.close();
});

test('remote: an unreachable server fails the open with an error naming the address', async () => {
  const gone = await startSqld();
  const url = gone.url;
  await gone.stop();
  const t0 = Date.now();
  await assert.rejects(openDatabase({ url }), (e: Error) => {
    assert.ok(e instanceof DatabaseUnreachableError, String(e));
    assert.ok(isUnreachable(e));
    assert.match(e.message, new RegExp(`unreachable at ${url.replace(/[.]/g, '\\.')} \\(.*ECONNREFUSED`));
    return true;
  });
  // A query error is not a connection error.
  const db = await openDatabase({ url: server.url });
  const bad = await db.client.execute('SELECT * FROM no_such_table').then(() => null, (e: unknown) => e);
  assert.ok(bad, 'the query fails');
  assert.equal(isUnreachable(bad), false);
  db.close();
  assert.ok(Date.now() - t0 < 15_000, 'fails, does not hang');
});
