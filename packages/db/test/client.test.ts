import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bulkWriteMode, corpusCounts, getMeta, openDatabase, WAL_AUTOCHECKPOINT_PAGES, readSettingsOverlay, readSettingsOverlayText, replaceDocument, setMeta, writeSettingsOverlay } from '../src/index.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-db-'));

const doc = (id: string, archived = false) => ({
  id,
  root: 'diary' as const,
  path: `${id}.txt`,
  title: `t-${id}`,
  date: '2026-11-01',
  contentHash: 'h',
  mtimeMs: 1,
  size: 1,
  archived,
  indexedAt: new Date().toISOString(),
});

test('opens a file database in WAL mode with migrations applied', async () => {
  const dir = tmp();
  const db = await openDatabase({ url: `file:${join(dir, 'engram.db')}` });
  const mode = await db.client.execute('PRAGMA journal_mode');
  assert.equal(String(mode.rows[0]?.journal_mode).toLowerCase(), 'wal');
  await setMeta(db.db, 'k', 'v');
  db.close();
  const again = await openDatabase({ url: `file:${join(dir, 'engram.db')}` });
  assert.equal(await getMeta(again.db, 'k'), 'v');
  again.close();
  assert.ok(readdirSync(dir).includes('engram.db'));
});

test('live counts follow the rows: replacing a document replaces its chunks, archived are excluded', async () => {
  const db = await openDatabase({ url: `file:${join(tmp(), 'engram.db')}` });
  const chunk = (docId: string, ord: number) => ({ id: `${docId}#${ord}`, docId, ord, text: 'x', tokens: 'x', start: 0, end: 1, fingerprint: 'f' });
  await replaceDocument(db.db, doc('a'), [chunk('a', 0), chunk('a', 1)]);
  await replaceDocument(db.db, doc('b'), [chunk('b', 0)]);
  await replaceDocument(db.db, doc('a'), [chunk('a', 0)]);
  await replaceDocument(db.db, doc('c', true), [chunk('c', 0)]);
  assert.deepEqual(await corpusCounts(db.db), { documents: 2, archived: 1, chunks: 2 });
  db.close();
});

test('the settings overlay reads back as its stored text even when that text is not JSON', async () => {
  const db = await openDatabase({ url: `file:${join(tmp(), 'engram.db')}` });
  assert.equal(await readSettingsOverlayText(db.db), '', 'no row: empty text');
  await writeSettingsOverlay(db.db, { recall: { kBase: 4 } });
  assert.deepEqual(JSON.parse(await readSettingsOverlayText(db.db)), { recall: { kBase: 4 } });
  await db.client.execute("UPDATE settings_overlay SET json = '{not json' WHERE id = 'overlay'");
  await assert.rejects(() => readSettingsOverlay(db.db), 'the parsed read refuses it');
  assert.equal(await readSettingsOverlayText(db.db), '{not json');
  db.close();
});

test('bulk write mode lets the WAL grow past the default checkpoint, and its undo brings the checkpoints back', async () => {
  const dir = tmp();
  const file = join(dir, 'engram.db');
  const db = await openDatabase({ url: `file:${file}` });
  await db.client.execute('CREATE TABLE scratch (v BLOB)');
  const pageSize = Number((await db.client.execute('PRAGMA page_size')).rows[0]?.page_size);
  // 1,500 rows of a page each, 100 to a transaction: past the default's 1,000 pages.
  const fill = async () => {
    for (let i = 0; i < 15; i++) await db.client.batch(Array.from({ length: 100 }, () => ({ sql: 'INSERT INTO scratch (v) VALUES (randomblob(?))', args: [pageSize - 100] })), 'write');
  };
  const walPages = () => statSync(`${file}-wal`).size / pageSize;
  await fill();
  assert.ok(walPages() < WAL_AUTOCHECKPOINT_PAGES + 300, `default: the WAL is copied every ${WAL_AUTOCHECKPOINT_PAGES} pages (${walPages()})`);
  await db.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  const undo = await bulkWriteMode(db.db);
  await fill();
  assert.ok(walPages() > 1400, `bulk: the WAL holds the whole write (${walPages()})`);
  await undo();
  assert.equal(Number((await db.client.execute('PRAGMA wal_autocheckpoint')).rows[0]?.wal_autocheckpoint), WAL_AUTOCHECKPOINT_PAGES);
  assert.equal(Number((await db.client.execute('SELECT COUNT(*) AS n FROM scratch')).rows[0]?.n), 3000);
  db.close();
});
