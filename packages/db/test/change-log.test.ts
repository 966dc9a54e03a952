// The generation counter's change log: a reader a few writes behind learns which documents changed
// without listing every version; anything the log cannot vouch for reads as null (compare versions).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { bumpGeneration, CHANGE_LOG_GENERATIONS, documentsChangedSince, getMeta, openDatabase, readGeneration } from '../src/index.ts';

test('bumpGeneration records what each incremental pass changed; gaps, full passes and old generations read as unknown', async () => {
  const db = await openDatabase({ url: `file:${join(mkdtempSync(join(tmpdir(), 'engram-db-')), 'engram.db')}` });
  try {
    assert.equal(await readGeneration(db.db), 0);
    assert.equal(await bumpGeneration(db.db, ['a', 'b', 'a']), 1);
    assert.equal(await bumpGeneration(db.db, ['c']), 2);
    assert.deepEqual((await documentsChangedSince(db.db, 0, 2))?.sort(), ['a', 'b', 'c']);
    assert.deepEqual(await documentsChangedSince(db.db, 1, 2), ['c']);
    assert.deepEqual(await documentsChangedSince(db.db, 2, 2), [], 'nothing since the same generation');
    assert.equal(await documentsChangedSince(db.db, 3, 2), null, 'a reader ahead of the database (another database file)');

    assert.equal(await bumpGeneration(db.db), 3, 'a full pass: no list');
    assert.equal(await bumpGeneration(db.db, ['d']), 4);
    assert.equal(await documentsChangedSince(db.db, 1, 4), null, 'generation 3 changed everything');
    assert.deepEqual(await documentsChangedSince(db.db, 3, 4), ['d']);

    for (let i = 0; i < CHANGE_LOG_GENERATIONS + 2; i++) await bumpGeneration(db.db, [`x${i}`]);
    const now = await readGeneration(db.db);
    assert.equal(await getMeta(db.db, `changed:${now - CHANGE_LOG_GENERATIONS}`), undefined, 'old entries are pruned');
    assert.ok((await getMeta(db.db, `changed:${now - CHANGE_LOG_GENERATIONS + 1}`)) !== undefined);
    assert.equal(await documentsChangedSince(db.db, now - CHANGE_LOG_GENERATIONS - 1, now), null, 'further behind than the log');
    assert.equal((await documentsChangedSince(db.db, now - CHANGE_LOG_GENERATIONS, now))?.length, CHANGE_LOG_GENERATIONS);
  } finally {
    db.close();
  }
});
