// The diary folder deleted, or its drive unmounted, under a running engine that watches it (the
// console, the plugin). The files are the truth and they are gone: recall injects nothing from the
// index, says why, and the engine logs it once; status says where the folder was expected. The index
// itself is kept exactly as it was: when the folder comes back (a remount) recall answers again at
// once, without indexing anything again, and what changed while it was away is indexed by the
// ordinary live sync.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import type { Logger } from '../../src/log.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const DINNER = '川菜馆 聚餐 订位';

/** The engine's log, as lines a test can count. */
function recordingLog(): { log: Logger; lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  return { log: (level, message) => lines.push({ level, message }), lines };
}

function writeAll(diaryDir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(diaryDir, path)), { recursive: true });
    writeFileSync(join(diaryDir, path), text);
  }
}

/** Waits for what file events start (no awaitable exists for an event not yet delivered); fails with `what` after a generous deadline. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

const paths = async (engine: Engine, query: string) => (await engine.recall(query)).hits.map((h) => h.path);

test('a diary folder deleted under a watching engine silences recall, says why, and keeps the index for its return', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const { log, lines } = recordingLog();
  const engine = await openTestEngine(dirs, { watch: { debounceMs: 50, intervalMs: 0 }, log });
  try {
    assert.deepEqual(await paths(engine, DINNER), ['2026-10-24-dinner.txt']);
    const before = await engine.status();

    rmSync(dirs.diaryDir, { recursive: true });

    // Noticed by the recall itself (a stat), not only by a sync that may come 30 s later.
    const silenced = await engine.recall(DINNER);
    assert.deepEqual(silenced.hits, [], 'nothing from the deleted folder is injected');
    assert.equal(silenced.explain.gate.silencedBy?.rule, 'diary-missing');
    const why = silenced.explain.gate.silencedBy?.detail ?? '';
    assert.ok(why.includes(dirs.diaryDir), `names the folder: ${why}`);
    assert.match(why, /^日记文件夹不见了.* \/ The diary folder is missing/s, 'Chinese first, then English');
    assert.equal(engine.renderInjection(silenced), '', 'the injection block is empty');
    // A time question reads the index too (the time channel): silenced the same way.
    assert.deepEqual((await engine.recall('10月24日做了什么')).hits, []);

    const status = await engine.status();
    assert.ok(status.diaryMissing, 'status says the folder is missing');
    assert.ok(status.diaryMissing.message.includes(dirs.diaryDir), status.diaryMissing.message);
    assert.match(status.diaryMissing.message, /召回已暂停.*recall is paused/s);
    assert.ok(!Number.isNaN(Date.parse(status.diaryMissing.since)));
    assert.equal(status.diaryDir, dirs.diaryDir);
    // Nothing is dropped from the index while the folder is away.
    assert.equal(status.documents, before.documents);

    // The periodic check of the live sync, twice, while it is away: the index is left as it is,
    // and no failure is logged each time.
    const watcher = engine.watch();
    await watcher.trigger('poll');
    await watcher.trigger('poll');
    assert.equal((await engine.status()).documents, before.documents);
    assert.equal(engine.liveSync.lastError, null);
    assert.deepEqual(
      lines.filter((l) => l.level === 'warn' || l.level === 'error').map((l) => l.message),
      ['diary folder is missing: recall is paused until it is back (the index is kept)'],
      'logged once, however many recalls and checks met it',
    );

    // Back with the same files (a remount; here a copy, so every file has a new mtime).
    writeAll(dirs.diaryDir, files);
    assert.deepEqual(await paths(engine, DINNER), ['2026-10-24-dinner.txt'], 'recall answers again at once');
    assert.equal((await engine.status()).diaryMissing, null);
    assert.ok(lines.some((l) => l.level === 'info' && l.message === 'diary folder is back: recall resumed'));
    // The sync the return started compares the folder with the index: the same files, nothing indexed again.
    await watcher.idle();
    const after = await engine.status();
    assert.equal(after.documents, before.documents);
    assert.equal(after.builtAt, before.builtAt, 'no full rebuild');
    assert.equal(engine.liveSync.lastChanges, 0, 'no file indexed again');
    assert.equal(engine.liveSync.lastError, null);
  } finally {
    engine.close();
  }
});

test('a diary folder that comes back changed: the live sync indexes the changes, and follows the folder again', async () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, { watch: { debounceMs: 50, intervalMs: 0 } });
  try {
    assert.deepEqual(await paths(engine, DINNER), ['2026-10-24-dinner.txt']);
    rmSync(dirs.diaryDir, { recursive: true });
    // The live sync's check meets it first this time.
    const watcher = engine.watch();
    await watcher.trigger('poll');
    assert.ok((await engine.status()).diaryMissing);

    // Back without the dinner note, with a note written elsewhere meanwhile.
    const { ['2026-10-24-dinner.txt']: _gone, ...rest } = files;
    writeAll(dirs.diaryDir, {
      ...rest,
      '2026-10-25-garden.txt': diary('08:00', '阳台种番茄', '阳台的番茄每天浇水一次。', '番茄苗移栽到阳台的大花盆里,每天早上浇水一次,两周施一次肥。', ['番茄', '阳台']),
    });
    await watcher.trigger('poll');
    await watcher.idle();
    assert.equal((await engine.status()).diaryMissing, null);
    assert.deepEqual(await paths(engine, DINNER), [], 'the note that did not come back is gone from the index');
    assert.deepEqual(await paths(engine, '阳台 番茄 浇水'), ['2026-10-25-garden.txt'], 'the new note is indexed');

    // The folder that came back is a new folder: its file events reach the engine (no periodic check runs here).
    writeFileSync(join(dirs.diaryDir, '2026-10-26-bike.txt'), diary('07:30', '自行车保养', '链条每月上一次油。', '山地车的链条每个月上一次油,刹车片半年换一次。', ['自行车', '链条']));
    await until('a file written into the returned folder is indexed', async () => (await paths(engine, '自行车 链条 上油')).includes('2026-10-26-bike.txt'));
  } finally {
    engine.close();
  }
});
