// Data versions and damaged files: a database migrated by a newer build opens read-only with a
// reason; pending migrations back the file up first and keep the last five copies; a file that is
// not a database, or fails its integrity check, is moved aside whole and replaced (never emptied in place).
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { defaultMigrationsFolder, getMeta, isCorruption, openDatabase, setMeta } from '../src/index.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-dbv-'));

/** A copy of the real migrations with the journal cut to the first `keep` entries and/or a future one added. */
function migrationsVariant(opts: { keep?: number; future?: boolean }): string {
  const src = defaultMigrationsFolder();
  const dir = join(tmp(), 'drizzle');
  cpSync(src, dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[] };
  if (opts.keep !== undefined) journal.entries = journal.entries.slice(0, opts.keep);
  if (opts.future) {
    const last = journal.entries.at(-1)!;
    const tag = `${String(journal.entries.length).padStart(4, '0')}_from_the_future`;
    journal.entries.push({ ...last, idx: journal.entries.length, when: last.when + 86_400_000, tag });
    writeFileSync(join(dir, `${tag}.sql`), 'CREATE TABLE `future_feature` (`id` text PRIMARY KEY NOT NULL);\n');
  }
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  return dir;
}

test('a database migrated by a newer build opens read-only with the reason, unmigrated and intact', async () => {
  const file = join(tmp(), 'engram.db');
  const newer = await openDatabase({ url: `file:${file}`, migrationsFolder: migrationsVariant({ future: true }) });
  assert.equal(newer.readOnly, null);
  await setMeta(newer.db, 'written-by', 'the future');
  newer.close();

  const current = await openDatabase({ url: `file:${file}` });
  assert.ok(current.readOnly, 'marked read-only');
  assert.match(current.readOnly.reason, /newer version of Engram.*read-only/);
  assert.ok(current.readOnly.applied > current.readOnly.known);
  assert.equal(await getMeta(current.db, 'written-by'), 'the future', 'its data is still readable');
  current.close();
  assert.equal(existsSync(join(file, '..', 'backups')), false, 'nothing was migrated, so nothing was backed up');

  // The same build again: not read-only.
  const same = await openDatabase({ url: `file:${file}`, migrationsFolder: migrationsVariant({ future: true }) });
  assert.equal(same.readOnly, null);
  same.close();
});

test('a database with every migration of this build recorded is not migrated again (the migration files are not read)', async () => {
  const file = join(tmp(), 'engram.db');
  const first = await openDatabase({ url: `file:${file}` });
  await setMeta(first.db, 'k', 'kept');
  first.close();
  // The same journal without its SQL files: reading them (drizzle's migrate) would throw.
  const journalOnly = migrationsVariant({});
  for (const f of readdirSync(journalOnly)) if (f.endsWith('.sql')) rmSync(join(journalOnly, f));
  const again = await openDatabase({ url: `file:${file}`, migrationsFolder: journalOnly });
  assert.equal(again.readOnly, null);
  assert.equal(await getMeta(again.db, 'k'), 'kept');
  again.close();
  // One migration short of this build: migrated (and so the files are read).
  const behind = join(tmp(), 'engram.db');
  const old = await openDatabase({ url: `file:${behind}`, migrationsFolder: migrationsVariant({ keep: 1 }) });
  old.close();
  await assert.rejects(openDatabase({ url: `file:${behind}`, migrationsFolder: journalOnly }));
});

test('pending migrations back the file up first and only the newest five copies are kept', async () => {
  const dir = tmp();
  const file = join(dir, 'engram.db');
  const old = await openDatabase({ url: `file:${file}`, migrationsFolder: migrationsVariant({ keep: 1 }) });
  await setMeta(old.db, 'k', 'before the upgrade');
  old.close();
  const backups = join(dir, 'backups');
  mkdirSync(backups);
  for (let i = 1; i <= 6; i++) writeFileSync(join(backups, `engram-2020-01-0${i}T00-00-00-000Z-v1.db`), `old ${i}`);
  writeFileSync(join(backups, 'engram-corrupt-2019-01-01T00-00-00-000Z.db'), 'a corrupt file moved aside earlier');

  const upgraded = await openDatabase({ url: `file:${file}` });
  assert.equal(upgraded.readOnly, null);
  assert.equal(await getMeta(upgraded.db, 'k'), 'before the upgrade');
  upgraded.close();

  const kept = readdirSync(backups).filter((f) => /-v\d+\.db$/.test(f)).sort();
  assert.equal(kept.length, 5);
  assert.ok(!kept.includes('engram-2020-01-01T00-00-00-000Z-v1.db') && !kept.includes('engram-2020-01-02T00-00-00-000Z-v1.db'), 'the two oldest were dropped');
  const fresh = kept.filter((f) => !f.startsWith('engram-2020-'));
  assert.equal(fresh.length, 1, 'one new backup');
  // The copy is the database as it was before migrating: it opens with the old schema and data.
  const copy = await openDatabase({ url: `file:${join(backups, fresh[0]!)}`, migrationsFolder: migrationsVariant({ keep: 1 }) });
  assert.equal(await getMeta(copy.db, 'k'), 'before the upgrade');
  copy.close();
  assert.ok(existsSync(join(backups, 'engram-corrupt-2019-01-01T00-00-00-000Z.db')), 'corrupt-file backups are not rotated away');
});

async function damaged(how: (file: string) => void) {
  const dir = tmp();
  const file = join(dir, 'engram.db');
  const db = await openDatabase({ url: `file:${file}` });
  for (let i = 0; i < 400; i++) await setMeta(db.db, `key-${i}`, 'x'.repeat(200));
  await db.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  how(file);
  return { dir, file, bytes: readFileSync(file) };
}

const garbage = (file: string) => writeFileSync(file, Buffer.alloc(statSync(file).size, 0x5a));
const pagesOverwritten = (file: string) => {
  // Keep the 100-byte header and the first page; scribble over the pages after it.
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096 * 3, 0xa5), 0, 4096 * 3, 4096 * 2);
  closeSync(fd);
};
const truncated = (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2));

for (const [name, how] of [['garbage bytes', garbage], ['overwritten pages', pagesOverwritten], ['truncated to half', truncated]] as const) {
  test(`a corrupt database (${name}) is refused, or moved aside whole and replaced when recovery is on`, async () => {
    const { dir, file, bytes } = await damaged(how);
    await assert.rejects(openDatabase({ url: `file:${file}` }), (e: unknown) => isCorruption(e));
    assert.deepEqual(readFileSync(file), bytes, 'a refused open leaves the file as it was');

    const db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
    assert.ok(db.recovered, 'recovery reported');
    assert.match(db.recovered.reason, /not a database|malformed|integrity|corrupt/i);
    assert.deepEqual(readFileSync(db.recovered.backup), bytes, 'the corrupt file is kept byte for byte');
    assert.ok(db.recovered.backup.startsWith(join(dir, 'backups')));
    await setMeta(db.db, 'k', 'fresh');
    assert.equal(await getMeta(db.db, 'k'), 'fresh');
    db.close();
    const again = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
    assert.equal(again.recovered, null, 'the replacement is healthy');
    again.close();
  });
}

test('a healthy database is never treated as corrupt', async () => {
  const file = join(tmp(), 'engram.db');
  const db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  await setMeta(db.db, 'k', 'v');
  db.close();
  const before = readFileSync(file);
  copyFileSync(file, `${file}.copy`);
  const again = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  assert.equal(again.recovered, null);
  assert.equal(await getMeta(again.db, 'k'), 'v');
  again.close();
  assert.ok(before.length > 0);
});

test('a process that wrote and exited leaves the database trusted: the next process skips the integrity check', () => {
  // The embedded driver closes its connections for good only when the process exits (prepared
  // statements keep them), and that last close checkpoints the WAL into the file and deletes it: a
  // mark taken at close() never matched the file the next process found, so every one-shot command
  // after a write read every page again.
  const file = join(tmp(), 'engram.db');
  const script = `import { openDatabase, setMeta } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).pathname)};
const db = await openDatabase({ url: ${JSON.stringify(`file:${file}`)}, recoverCorrupt: true });
for (let i = 0; i < 20; i++) await setMeta(db.db, 'key-' + i + '-' + Math.random(), 'x'.repeat(300));
await db.db.transaction(async (tx) => { await setMeta(tx, 'in-transaction', String(Math.random())); });
process.stdout.write(JSON.stringify({ checked: db.integrityChecked }));
db.close({ checkpointed: await db.checkpoint() });`;
  const run = () => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })) as { checked: boolean };
  assert.equal(run().checked, true, 'a new file: checked once');
  assert.equal(run().checked, false, 'after a process wrote and exited, the file is as it left it');
  assert.equal(run().checked, false, 'and again');
  // Another program's change is still seen: the same size, other bytes.
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(16, 0x5a), 0, 16, 4096 + 100);
  closeSync(fd);
  assert.equal(run().checked, true, 'changed behind its back: checked');
});

test('the integrity check is skipped only while the file is exactly as a healthy close left it', async () => {
  const file = join(tmp(), 'engram.db');
  let db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  for (let i = 0; i < 50; i++) await setMeta(db.db, `key-${i}`, 'x'.repeat(200));
  db.close();
  db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  assert.equal(db.integrityChecked, false, 'unchanged since a healthy close: not read page by page');
  await setMeta(db.db, 'k', 'v');
  db.close();
  db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  assert.equal(db.integrityChecked, false, 'its own writes, then a close: still trusted');
  await db.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  // Another program changes the bytes (same size): the check runs and finds it.
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096 * 3, 0xa5), 0, 4096 * 3, 4096 * 2);
  closeSync(fd);
  db = await openDatabase({ url: `file:${file}`, recoverCorrupt: true });
  assert.ok(db.recovered, 'the damage was found although the size did not change');
  db.close();
});
