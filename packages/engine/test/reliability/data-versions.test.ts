// What opening a data folder does with data it cannot simply use: a database from a newer build is
// read-only with its reason; a corrupt database is moved aside and rebuilt from the diary files;
// saved settings that no longer validate are backed up and dropped; a broken config file is refused
// with its name, untouched.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase, writeSettingsOverlay } from '@engram/db';
import { openEngine } from '../../src/engine.ts';
import { listAll, migrateWithFutureBuild, seedDiaries, tempDirs } from './helpers.ts';

const envOf = (dirs: { diaryDir: string; dataDir: string }) => ({ ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.dataDir });
const snapshot = (dir: string) => Object.fromEntries(listAll(dir).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));

test('a database written by a newer build opens read-only: recall works, every write is refused with the reason', async () => {
  const dirs = tempDirs();
  seedDiaries(dirs.diaryDir, 8);
  (await openEngine({ env: envOf(dirs) })).close();
  await migrateWithFutureBuild(join(dirs.dataDir, 'engram.db'));
  const files = snapshot(dirs.diaryDir);

  const engine = await openEngine({ env: envOf(dirs) });
  try {
    const status = await engine.status();
    assert.match(status.warnings[0] ?? '', /newer version of Engram.*read-only/);
    assert.equal(status.documents, 8, 'what was indexed is still there');
    assert.ok((await engine.recall('东京节点 端口')).hits.length > 0, 'recall answers');
    const [first] = await engine.list();
    const refusals = [
      engine.write({ title: '新的一篇', content: '只读数据里不能写入。' }),
      engine.edit(first!.docId, '编号 0。', '编号 零。'),
      engine.forget(first!.docId),
      engine.index({ full: true }),
      engine.saveSettings({ inject: { header: 'x' } }),
    ];
    for (const p of refusals) await assert.rejects(p, (e: { code?: string; message?: string }) => e.code === 'read-only-data' && /newer version/.test(e.message ?? ''));
  } finally {
    engine.close();
  }
  assert.deepEqual(snapshot(dirs.diaryDir), files, 'no diary file changed');
});

test('a corrupt database is moved aside byte for byte and rebuilt from the diary files on open', async () => {
  const dirs = tempDirs();
  seedDiaries(dirs.diaryDir, 12);
  const first = await openEngine({ env: envOf(dirs) });
  const before = (await first.list()).map((m) => m.title).sort();
  first.close();
  const dbFile = join(dirs.dataDir, 'engram.db');
  const garbage = Buffer.alloc(statSync(dbFile).size, 0x42);
  writeFileSync(dbFile, garbage);
  for (const s of ['-wal', '-shm']) if (existsSync(dbFile + s)) writeFileSync(dbFile + s, '');

  const engine = await openEngine({ env: envOf(dirs), syncOnOpen: false });
  try {
    assert.deepEqual((await engine.list()).map((m) => m.title).sort(), before, 'every diary is back, even without syncOnOpen');
    const status = await engine.status();
    const note = status.warnings.find((w) => /corrupt/.test(w));
    assert.ok(note, 'the rebuild is reported');
    const backup = /moved to (\S+) and rebuilt/.exec(note)![1]!;
    assert.deepEqual(readFileSync(backup), garbage, 'the corrupt file is kept as it was');
  } finally {
    engine.close();
  }
});

test('saved settings that no longer validate are backed up and dropped leaf by leaf; the rest is kept', async () => {
  const dirs = tempDirs();
  seedDiaries(dirs.diaryDir, 3);
  (await openEngine({ env: envOf(dirs) })).close();
  const db = await openDatabase({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
  const stored = { recall: { kBase: 999, kMax: 8 }, inject: { header: '保留这一项' }, embedding: { provider: 'quantum' } };
  await writeSettingsOverlay(db.db, stored);
  db.close();

  const engine = await openEngine({ env: envOf(dirs) });
  try {
    assert.equal(engine.config.recall.kMax, 8);
    assert.equal(engine.config.inject.header, '保留这一项');
    assert.equal(engine.config.recall.kBase, 5, 'the invalid leaf fell back to the default');
    assert.equal(engine.config.embedding.provider, 'auto');
    const warnings = (await engine.status()).warnings.join('\n');
    assert.match(warnings, /recall\.kBase/);
    assert.match(warnings, /embedding\.provider/);
    const backup = /original is in (\S+)/.exec(warnings)![1]!;
    assert.deepEqual(JSON.parse(readFileSync(backup, 'utf8')), stored);
  } finally {
    engine.close();
  }
  // Repaired for good: the next open has nothing to repair.
  const again = await openEngine({ env: envOf(dirs) });
  assert.equal((await again.status()).warnings.filter((w) => /settings/.test(w)).length, 0);
  again.close();
});

test('unreadable saved settings (not JSON) are backed up as text and replaced by none', async () => {
  const dirs = tempDirs();
  seedDiaries(dirs.diaryDir, 3);
  (await openEngine({ env: envOf(dirs) })).close();
  const db = await openDatabase({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
  await writeSettingsOverlay(db.db, { inject: { header: 'x' } });
  await db.client.execute("UPDATE settings_overlay SET json = '{\"inject\": {\"header\": ' WHERE id = 'overlay'");
  db.close();

  const engine = await openEngine({ env: envOf(dirs) });
  try {
    const warnings = (await engine.status()).warnings.join('\n');
    assert.match(warnings, /unreadable/);
    const backup = /original is in (\S+)/.exec(warnings)![1]!;
    assert.equal(readFileSync(backup, 'utf8'), '{"inject": {"header": ');
    assert.deepEqual(engine.getSettings().overlay, {});
    assert.ok((await engine.list()).length === 3);
  } finally {
    engine.close();
  }
});

test('a config file that is not valid JSON is refused with its name and left untouched', async () => {
  const dirs = tempDirs();
  const file = join(dirs.root, 'engram.json');
  writeFileSync(file, '{ "diaryDir": ');
  await assert.rejects(openEngine({ env: { ...envOf(dirs), ENGRAM_CONFIG: file } }), (e: { code?: string; message?: string }) => e.code === 'config-invalid' && e.message!.includes(file));
  assert.equal(readFileSync(file, 'utf8'), '{ "diaryDir": ');
  assert.equal(existsSync(join(dirs.dataDir, 'engram.db')), false, 'nothing was created from a config that could not be read');
  assert.deepEqual(readdirSync(dirs.diaryDir), []);
});
