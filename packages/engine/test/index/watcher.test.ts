// Edits made on disk under a running engine (an editor, a sync tool) reach recall without a manual
// sync: by file events, and by the periodic manifest check when events are off.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

const topPath = async (engine: Engine, query: string) => (await engine.recall(query)).hits[0]?.path;

for (const mode of ['events', 'periodic check'] as const) {
  test(`live (${mode}): files created, edited, moved and deleted on disk update the index`, async () => {
    const dirs = tempDirs();
    seedCorpus(dirs.diaryDir);
    const watch = mode === 'events' ? { debounceMs: 100, intervalMs: 0 } : { events: false, intervalMs: 200 };
    const engine = await openTestEngine(dirs, { watch: { ...watch } });
    try {
      assert.equal(engine.liveSync.watching, true);
      assert.equal(engine.liveSync.events, mode === 'events');

      // Edited in an editor.
      const file = join(dirs.diaryDir, '2026-10-21-jieba.txt');
      writeFileSync(file, readFileSync(file, 'utf8').replace('单字权重降到 0.15', '单字权重降到 0.15,另外把用户词典放进鲸鱼仓库'));
      await until('the edit is found', async () => (await topPath(engine, '鲸鱼仓库 用户词典')) === '2026-10-21-jieba.txt');

      // Created.
      writeFileSync(join(dirs.diaryDir, '2026-10-25-garden.txt'), diary('08:00', '阳台种番茄', '阳台的番茄每天浇水一次。', '番茄苗移栽到阳台的大花盆里,每天早上浇水一次,两周施一次肥。', ['番茄', '阳台']));
      await until('the new file is found', async () => (await topPath(engine, '阳台 番茄 浇水')) === '2026-10-25-garden.txt');

      // Moved into a category folder.
      mkdirSync(join(dirs.diaryDir, 'home'));
      renameSync(join(dirs.diaryDir, '2026-10-25-garden.txt'), join(dirs.diaryDir, 'home/2026-10-25-garden.txt'));
      await until('the move is seen', async () => (await topPath(engine, '阳台 番茄 浇水')) === 'home/2026-10-25-garden.txt');

      // Deleted.
      rmSync(join(dirs.diaryDir, '2026-10-24-dinner.txt'));
      await until('the deleted file leaves recall', async () => (await engine.list()).every((m) => m.path !== '2026-10-24-dinner.txt'));
      assert.equal(engine.liveSync.lastError, null);
      assert.ok(engine.liveSync.lastSyncAt);
    } finally {
      engine.close();
    }
  });
}

test('sync-conflict copies are kept as their own memories; neither version is lost', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, { watch: { debounceMs: 100, intervalMs: 0 } });
  try {
    const original = join(dirs.diaryDir, '2026-10-20-tokyo-1a2b3c4d.txt');
    const text = readFileSync(original, 'utf8');
    // Two machines edited the same diary; Syncthing and Dropbox keep the other side's version beside it.
    writeFileSync(join(dirs.diaryDir, '2026-10-20-tokyo-1a2b3c4d.sync-conflict-20261020-221400-ABCDEF1.txt'), text.replace('UTC+9', 'UTC+9,并把 sing-box 升级到 1.11 版本'));
    writeFileSync(join(dirs.diaryDir, '2026-10-20-tokyo-1a2b3c4d (conflicted copy 2026-10-21).txt'), text.replace('UTC+9', 'UTC+9,防火墙放行 8443 端口'));
    writeFileSync(original, text.replace('UTC+9', 'UTC+9,证书换成通配符证书'));
    await until('both conflict copies and the edited original are indexed', async () => (await engine.list()).filter((m) => m.path.startsWith('2026-10-20-tokyo')).length === 3);
    const paths = async (q: string) => (await engine.recall(q, { k: 5 })).hits.map((h) => h.path);
    assert.ok((await paths('sing-box 升级 1.11 版本')).some((p) => p.includes('sync-conflict')));
    assert.ok((await paths('防火墙 放行 8443 端口')).some((p) => p.includes('conflicted copy')));
    assert.ok((await paths('通配符证书')).includes('2026-10-20-tokyo-1a2b3c4d.txt'));
    // The file-name id stays the original's: a conflict copy never takes it over.
    assert.equal((await engine.resolve('1a2b3c4d'))?.path, '2026-10-20-tokyo-1a2b3c4d.txt');
  } finally {
    engine.close();
  }
});
