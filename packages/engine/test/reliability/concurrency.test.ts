// The console and the plugin as two processes writing to one diary folder and one database at once:
// every edit of a shared diary survives (no lost update), a title raced by both is written once, and
// no "database is locked" (or any other unexpected error) reaches either side.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngine } from '../../src/engine.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { diaryText, here, listAll, runWorker, runs, seedDiaries, tempDirs } from './helpers.ts';

const MARKER = '追加区结束标记,请勿删除这一行文字';
const WORKER = join(here, 'workers/concurrent-writer.ts');

interface Outcome {
  role: string;
  wrote: string[];
  edited: string[];
  errors: { op: string; code: string; message: string }[];
}

test('console and plugin processes writing at once: no lost update, no locked database, no duplicate title', { timeout: 300_000 }, async () => {
  const dirs = tempDirs('engram-conc-');
  seedDiaries(dirs.diaryDir, 6);
  const shared = '2026-10-30-shared.txt';
  writeFileSync(join(dirs.diaryDir, shared), diaryText('08:00', '两进程共享的日记', '两个进程都往这里追加行。', `开始\n${MARKER}`, ['共享']));
  // Index once so both sides resolve the shared diary by path from the start.
  (await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.dataDir } })).close();

  const count = runs(24) > 1000 ? 60 : 24;
  const [a, b] = await Promise.all(
    ['console', 'plugin'].map((role) => runWorker(WORKER, [role, dirs.diaryDir, dirs.dataDir, String(count), shared], { timeoutMs: 240_000 })),
  );
  const outcomes: Outcome[] = [a!, b!].map((r) => {
    assert.equal(r.code, 0, `worker failed:\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Outcome;
  });
  const allErrors = outcomes.flatMap((o) => o.errors.map((e) => ({ ...e, role: o.role })));
  assert.deepEqual(allErrors.filter((e) => /locked|SQLITE_BUSY|busy/i.test(e.message)), [], 'a "database is locked" reached a caller');
  // The only acceptable failure: losing the race for a shared title.
  assert.deepEqual(allErrors.filter((e) => !(e.op === 'write' && e.code === 'title-exists')), [], 'unexpected errors');

  // No lost update: every edit either side reported is in the file, exactly once.
  const text = readFileSync(join(dirs.diaryDir, shared), 'utf8');
  const edited = outcomes.flatMap((o) => o.edited);
  assert.equal(edited.length, 2 * count);
  for (const line of edited) assert.equal(text.split('\n').filter((l) => l === line).length, 1, `edit ${line} was lost`);

  // Each raced title exists exactly once on disk; every reported write is on disk.
  const files = listAll(dirs.diaryDir).filter((p) => p.endsWith('.txt'));
  const titles = files.map((p) => parseDiaryText(readFileSync(join(dirs.diaryDir, p), 'utf8'), { root: 'diary', path: p, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: false, timePrefix: true }).title);
  for (let i = 0; i < count; i += 2) assert.equal(titles.filter((t) => t === `共享标题 ${i}`).length, 1, `共享标题 ${i}`);
  for (const t of outcomes.flatMap((o) => o.wrote)) assert.ok(titles.includes(t), `${t} reported written but missing`);

  // The database agrees with the files.
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.dataDir }, syncOnOpen: false });
  const listed = (await engine.list()).map((m) => m.title).sort();
  engine.close();
  assert.deepEqual(listed, [...titles].sort());
});

test('one process: settings saved and recalls made while a full rebuild runs never meet a locked database', { timeout: 120_000 }, async () => {
  const dirs = tempDirs('engram-conc-');
  seedDiaries(dirs.diaryDir, 200);
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.dataDir } });
  try {
    const errors: string[] = [];
    const rebuild = engine.index({ full: true });
    let saves = 0;
    let done = false;
    void rebuild.finally(() => (done = true));
    while (!done) {
      // libSQL answers file databases synchronously: without a macrotask turn this loop would starve
      // the rebuild's file I/O (a test artefact; real requests arrive as I/O events).
      await new Promise((r) => setImmediate(r));
      await Promise.all([
        engine.saveSettings({ inject: { header: `第 ${saves} 次保存` } }).then(() => saves++, (e: unknown) => errors.push(String(e))),
        engine.recall('东京节点 端口').catch((e: unknown) => errors.push(String(e))),
      ]);
    }
    await rebuild;
    assert.deepEqual(errors, []);
    assert.ok(saves > 0);
    assert.equal(engine.getSettings().overlay.inject && (engine.getSettings().overlay.inject as { header: string }).header, `第 ${saves - 1} 次保存`);
  } finally {
    engine.close();
  }
});
