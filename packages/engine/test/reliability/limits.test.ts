// Size limits with clear errors: a diary the scanner would skip (over 8 MB) is never written — by a
// write, an edit or a whole-file save — and a megabytes-long query is cut, not tokenised whole.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/diary/store.ts';
import { MAX_QUERY_CHARS, openEngine } from '../../src/engine.ts';
import { listAll, seedDiaries, tempDirs } from './helpers.ts';

test('writes, edits and saves that would make a diary too large to index are refused and change nothing', async () => {
  const dirs = tempDirs('engram-limits-');
  const [first] = seedDiaries(dirs.diaryDir, 3);
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root } });
  try {
    const huge = '很长的日志行。'.repeat(Math.ceil(DEFAULT_MAX_FILE_BYTES / 21) + 10);
    const files = listAll(dirs.diaryDir);
    const tooLarge = (e: { code?: string; message?: string }) => e.code === 'too-large' && /MB.*split/.test(e.message ?? '');
    await assert.rejects(engine.write({ title: '超大的一篇', content: huge }), tooLarge);
    assert.deepEqual(listAll(dirs.diaryDir), files, 'no file was created');

    const doc = (await engine.list()).find((m) => m.path === first)!;
    const before = readFileSync(join(dirs.diaryDir, first!));
    await assert.rejects(engine.edit(doc.docId, '接管,并把时区调整为 UTC+9。 编号 0。', huge), tooLarge);
    const detail = (await engine.read(doc.docId))!;
    await assert.rejects(engine.saveText(doc.docId, huge, detail.contentHash), tooLarge);
    assert.deepEqual(readFileSync(join(dirs.diaryDir, first!)), before, 'the diary is byte-identical');
    assert.equal((await engine.list()).length, 3);

    // Just under the limit is fine, and stays indexed after a full rebuild.
    const big = await engine.write({ title: '大而可索引', content: '可以索引的长文。'.repeat(Math.floor(DEFAULT_MAX_FILE_BYTES / 30)) });
    await engine.index({ full: true });
    assert.ok((await engine.list()).some((m) => m.docId === big.docId));
  } finally {
    engine.close();
  }
});

test('a query megabytes long is answered from its first characters', async () => {
  const dirs = tempDirs('engram-limits-');
  seedDiaries(dirs.diaryDir, 8);
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root } });
  try {
    const query = `东京节点 sing-box ${'日志 error at line 42 '.repeat(200_000)}`;
    const result = await engine.recall(query);
    assert.equal(result.query.length <= MAX_QUERY_CHARS, true);
    assert.ok(query.startsWith(result.query));
  } finally {
    engine.close();
  }
});
