import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, seedCorpus, tempDirs } from './helpers.ts';

const reply = (inner: string) => `好的,已经处理完毕。\n\n<<<DailyNoteStart>>>\n${inner}\n<<<DailyNoteEnd>>>\n`;

test('semantic blocks: preview writes nothing; apply creates once even when delivered twice', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const text = reply('command: create\ntitle: 语义块写入验证\ntags: 语义块, 幂等\n\n[14:20] 语义块写入验证\n\n> 同一条回复投递两次只写一次。\n\n正文内容。\n\nTag: 语义块, 幂等');
    const before = (await engine.list()).length;
    const preview = await engine.previewNoteBlocks(text);
    assert.equal(preview.blocks.length, 1);
    assert.deepEqual(preview.blocks[0]!.outcome.ok, true);
    assert.equal((await engine.list()).length, before, 'preview writes nothing');
    const applied = new Set<string>();
    const first = await engine.applyNoteBlocks(text, applied);
    const second = await engine.applyNoteBlocks(text, applied);
    assert.equal(first.results[0]!.ok, true);
    assert.equal(second.results[0]!.duplicate, true);
    assert.equal((await engine.list()).filter((m) => m.title === '语义块写入验证').length, 1);
    const again = await engine.applyNoteBlocks(text, new Set());
    assert.equal(again.results[0]!.code, 'title-exists', 'a fresh delivery of an existing title is refused, not overwritten');
  } finally {
    engine.close();
  }
});

test('semantic update: finds the one diary holding the anchor and replaces it; ambiguity is refused', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const ok = await engine.applyNoteBlocks(reply('command: update\ntarget: 上次去的川菜馆在地铁站旁边,水煮鱼很好吃\nreplace: 上次去的川菜馆搬到了公园北门,水煮鱼依旧好吃'), new Set());
    assert.equal(ok.results[0]!.ok, true, ok.results[0]!.message);
    assert.match(readFileSync(join(dirs.diaryDir, '2026-10-24-dinner.txt'), 'utf8'), /公园北门/);
    const preview = await engine.previewNoteBlocks(reply('command: update\ntarget: 这段话没有出现在任何一篇日记里面\nreplace: x'));
    assert.equal(preview.blocks[0]!.outcome.ok, false);
    const short = await engine.applyNoteBlocks(reply('command: update\ntarget: 川菜馆\nreplace: x'), new Set());
    assert.equal(short.results[0]!.code, 'target-too-short');
    assert.equal(Object.keys(files).length, (await engine.list()).length);
  } finally {
    engine.close();
  }
});
