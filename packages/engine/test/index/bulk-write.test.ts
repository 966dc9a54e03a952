// The index pass writes rows through replaceDocumentsBulk (multi-row statements built without
// drizzle's query builder): the table must hold exactly what replaceDocuments writes, row for row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunks, documents, openDatabase, replaceDocuments, replaceDocumentsBulk } from '@engram/db';
import { asc } from 'drizzle-orm';
import { docIdFor } from '../../src/diary/ids.ts';
import { scanRoots } from '../../src/diary/store.ts';
import { documentRows } from '../../src/index/rows.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

test('replaceDocumentsBulk writes the same rows as replaceDocuments, replaces what was there, and is all or nothing', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  // Meta line (workspace, pinned, supersedes), no time anchor, no tags, an empty body, a long body.
  writeFileSync(join(dirs.diaryDir, '2026-10-25-meta.md'), '---\ntitle: 带元数据\n---\n\n> 摘要\n\n正文。\n\nMeta: workspace=ws-1; pinned; supersedes=diary:a.txt\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-26-bare.txt'), '只有一行');
  writeFileSync(join(dirs.diaryDir, '2026-10-27-long.txt'), `[08:00] 长文\n\n${'第一段落的内容很长。'.repeat(400)}\n\nTag: 长\n`);
  const scan = await scanRoots({ diaryDir: dirs.diaryDir, archiveFolder: '已整理', requireTag: false, timePrefix: true });
  const tokenizer = createTokenizer({ kind: 'auto' });
  const rows = scan.docs.map((d) => documentRows(d, docIdFor(d.root, d.path), tokenizer, { size: 800, overlap: 120 }, '2026-11-01T00:00:00.000Z'));
  assert.ok(rows.some((r) => r.chunks.length > 1), 'a document of several chunks');

  const drizzleDb = await openDatabase({ url: `file:${join(dirs.root, 'a.db')}` });
  const bulkDb = await openDatabase({ url: `file:${join(dirs.root, 'b.db')}` });
  const dump = async (db: typeof drizzleDb.db) => ({
    documents: await db.select().from(documents).orderBy(asc(documents.id)),
    chunks: await db.select().from(chunks).orderBy(asc(chunks.id)),
  });
  await replaceDocuments(drizzleDb.db, rows);
  // Written twice: the second write replaces (no duplicate key), as the drizzle path does.
  await replaceDocumentsBulk(bulkDb.db, rows);
  await replaceDocumentsBulk(bulkDb.db, rows);
  const expected = await dump(drizzleDb.db);
  assert.equal(expected.documents.length, scan.docs.length);
  assert.deepEqual(await dump(bulkDb.db), expected);

  // A batch that fails part-way (a chunk of an unknown document: foreign key) changes nothing.
  const broken = [{ ...rows[0]!, doc: { ...rows[0]!.doc, title: '改过的标题' } }, { doc: rows[1]!.doc, chunks: [{ ...rows[1]!.chunks[0]!, docId: 'diary:nowhere' }] }];
  await assert.rejects(replaceDocumentsBulk(bulkDb.db, broken));
  assert.deepEqual(await dump(bulkDb.db), expected, 'the failed batch left the rows as they were');
  drizzleDb.close();
  bulkDb.close();
});
