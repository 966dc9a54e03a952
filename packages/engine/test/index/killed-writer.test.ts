// A writer killed between storing a memory's rows and announcing them (the generation bump and its
// change log come after the vectors and the manifest): the next process loads the lexical snapshot,
// which is current by the generation but lacks the memory. Its open compares the folder with what it
// loaded, finds the file, reads it — and the database already holds it unchanged. The memory must
// still reach the loaded index (it was on disk and in the database, yet list and recall missed it).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

test('a memory stored by a writer killed before it bumped the generation is in the next open’s index', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  let engine = await openTestEngine(dirs);
  const snapshot = `${engine.database.filePath}.lexical`;
  const generation = engine.live.generation;
  engine.close();
  assert.ok(existsSync(snapshot), 'the open saved the snapshot');

  // The write, then the kill's effect undone by hand: the generation and its change log as they were.
  engine = await openTestEngine(dirs, { syncOnOpen: false });
  const written = await engine.write({ title: '法兰克福节点迁移', content: '法兰克福节点迁移到新机房,带宽 10 Gbps,窗口在周二凌晨。', tags: ['法兰克福'] });
  const db = engine.database.db;
  await db.run(sql`UPDATE meta SET value = ${String(generation)} WHERE key = 'generation'`);
  await db.run(sql`DELETE FROM meta WHERE key LIKE 'changed:%' AND CAST(substr(key, 9) AS INTEGER) > ${generation}`);
  engine.close();

  engine = await openTestEngine(dirs);
  try {
    const titles = (await engine.list()).map((m) => m.title);
    assert.ok(titles.includes('法兰克福节点迁移'), `listed: ${titles.join(', ')}`);
    assert.ok(engine.live.lexical.search(engine.tokenizer.tokenize('法兰克福'), 5).some((h) => h.docId === written.docId), 'and recalled');
  } finally {
    engine.close();
  }
  // The other processes hear of it too: the open announced the document it found missing.
  engine = await openTestEngine(dirs, { syncOnOpen: false });
  try {
    assert.ok((await engine.list()).some((m) => m.title === '法兰克福节点迁移'), 'a later process without its own sync sees it');
  } finally {
    engine.close();
  }
});
