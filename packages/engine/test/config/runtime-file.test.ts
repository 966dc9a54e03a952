// diary.runtimeFile (seed 000-52): the resident memories file is a setting. Set in the settings it
// is read without a restart, and a later pass over a few written paths keeps its memories (such a
// pass once handed back no resident memories at all, so a write emptied them).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { openEngine, type Engine } from '../../src/engine.ts';

test('diary.runtimeFile is in the config schema, empty by default', () => {
  assert.equal(configSchema.parse({}).diary.runtimeFile, '');
  assert.equal(configSchema.parse({ diary: { runtimeFile: '/x/memories.json' } }).diary.runtimeFile, '/x/memories.json');
});

test('a runtime file set in the settings gives its resident memories at once, and a write keeps them', async () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-runtime-file-'));
  const diaryDir = join(root, 'diaries');
  const dataDir = join(root, 'data');
  mkdirSync(diaryDir);
  mkdirSync(dataDir);
  const file = join(root, 'memories.json');
  writeFileSync(file, JSON.stringify({ memories: [{ text: '回答一律用简体中文', critical: true }, '用户叫小林'] }));
  let engine: Engine | undefined;
  after(() => {
    engine?.close();
    rmSync(root, { recursive: true, force: true });
  });
  engine = await openEngine({ env: { ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: root } });
  await engine.index();
  assert.deepEqual(engine.residentMemories(), []);

  const saved = await engine.saveSettings({ diary: { runtimeFile: file } });
  assert.equal(saved.ok, true, JSON.stringify(saved));
  assert.deepEqual(engine.residentMemories(), [
    { text: '回答一律用简体中文', critical: true },
    { text: '用户叫小林', critical: false },
  ]);

  await engine.write({ content: '[12:00] 咖啡偏好\n\n> 浅烘。\n\n用户喜欢浅烘的咖啡豆。\n\nTag: 咖啡' });
  assert.equal(engine.residentMemories().length, 2, 'a pass over the written path keeps the resident memories');
});
