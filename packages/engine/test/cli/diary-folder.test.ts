// A data dir remembers the diary folder its index was built from. A command that names another
// folder (or none, so the default one) must not sync that folder into it — that would drop every
// document of the real folder from the index. Run through the compiled CLI, as a user runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';
import { ensureCompiledCli } from './compiled-cli.ts';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(engineDir, 'bin/engram.js');

function engram(args: string[], home: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const listed = (stdout: string) => (JSON.parse(stdout) as { docId: string }[]).length;

before(ensureCompiledCli);

test('a command without --diary-dir on a data dir built from another folder is refused and drops nothing', () => {
  const dirs = tempDirs();
  const seeded = Object.keys(seedCorpus(dirs.diaryDir)).length;
  const data = ['--data-dir', dirs.dataDir];
  const built = engram(['index', '--diary-dir', dirs.diaryDir, ...data], dirs.root);
  assert.equal(built.code, 0, built.stderr);

  const defaultFolder = join(dirs.dataDir, 'diaries');
  for (const command of [['list'], ['index'], ['status'], ['recall', '东京节点']]) {
    const r = engram([...command, ...data, '--json'], dirs.root);
    assert.notEqual(r.code, 0, `${command[0]} must refuse: ${r.stdout}`);
    assert.equal(r.stdout, '', `${command[0]} prints nothing on stdout when it refuses`);
    assert.match(r.stderr, /^engram \S+: [\u4e00-\u9fff]/, 'the message starts in Chinese');
    assert.ok(r.stderr.includes(dirs.diaryDir), `names the remembered folder: ${r.stderr}`);
    assert.ok(r.stderr.includes(defaultFolder), `names the folder asked for: ${r.stderr}`);
    assert.match(r.stderr, /--switch-diary-dir/, 'names the flag that switches on purpose');
  }

  const kept = engram(['list', '--diary-dir', dirs.diaryDir, ...data, '--json'], dirs.root);
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(listed(kept.stdout), seeded, 'the refused commands left the index whole');
});

test('--switch-diary-dir moves the data dir to another folder on purpose, and the old folder is then refused', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const other = join(dirs.root, 'other-diaries');
  mkdirSync(other);
  const data = ['--data-dir', dirs.dataDir];
  assert.equal(engram(['index', '--diary-dir', dirs.diaryDir, ...data], dirs.root).code, 0);

  const refused = engram(['index', '--diary-dir', other, ...data], dirs.root);
  assert.notEqual(refused.code, 0, 'another named folder is refused as well');

  const switched = engram(['index', '--diary-dir', other, '--switch-diary-dir', ...data, '--json'], dirs.root);
  assert.equal(switched.code, 0, switched.stderr);
  const now = engram(['list', '--diary-dir', other, ...data, '--json'], dirs.root);
  assert.equal(now.code, 0, now.stderr);
  assert.equal(listed(now.stdout), 0, 'the index now holds the (empty) new folder');

  const back = engram(['list', '--diary-dir', dirs.diaryDir, ...data, '--json'], dirs.root);
  assert.notEqual(back.code, 0, 'the folder it was switched away from is now the mismatch');
  assert.ok(back.stderr.includes(other), back.stderr);
});

test('a fresh data dir remembers the first folder it is opened with, the default one included', () => {
  const dirs = tempDirs();
  const data = ['--data-dir', dirs.dataDir];
  const first = engram(['status', ...data, '--json'], dirs.root);
  assert.equal(first.code, 0, first.stderr);
  const named = engram(['status', '--diary-dir', dirs.diaryDir, ...data, '--json'], dirs.root);
  assert.notEqual(named.code, 0, 'the default folder was remembered, so another one is a switch');
  assert.ok(named.stderr.includes(join(dirs.dataDir, 'diaries')), named.stderr);
});

// The console and the plugin open through the same engine open: the same rule, the switch by env,
// and a folder changed in the console's settings is a switch on purpose.
test('engine open: a mismatch is refused for every host, ENGRAM_SWITCH_DIARY_DIR=1 switches, a settings change is remembered', async () => {
  const { openEngine } = await import('../../src/engine.ts');
  const dirs = tempDirs();
  const moved = join(dirs.root, 'moved');
  mkdirSync(moved);
  const env = { HOME: dirs.root, ENGRAM_DATA_DIR: dirs.dataDir };
  // A folder from env is locked against the settings: the first engine uses the default one.
  const first = await openEngine({ env, createDiaryDir: true, syncOnOpen: false });
  const saved = await first.saveSettings({ diaryDir: moved }, { confirmDiaryDir: moved });
  assert.equal(saved.ok, true, JSON.stringify(saved));
  first.close();

  // The console's own start (no folder in env: the saved settings name it) opens without a word.
  const console = await openEngine({ env, createDiaryDir: true, syncOnOpen: false });
  assert.equal(console.config.diaryDir, moved);
  console.close();

  await assert.rejects(openEngine({ env: { ...env, ENGRAM_DIARY_DIR: dirs.diaryDir }, syncOnOpen: false }), (e: { code?: string; message?: string }) =>
    e.code === 'diary-dir-mismatch' && e.message!.includes(moved) && e.message!.includes('ENGRAM_SWITCH_DIARY_DIR'));
  const switched = await openEngine({ env: { ...env, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_SWITCH_DIARY_DIR: '1' }, syncOnOpen: false });
  switched.close();
  const after = await openEngine({ env: { ...env, ENGRAM_DIARY_DIR: dirs.diaryDir }, syncOnOpen: false });
  assert.equal(after.config.diaryDir, dirs.diaryDir);
  after.close();
});

// A data dir indexed before it remembered its folder: the first open that names another folder must
// not sync it in either. The index itself says where it came from: none of its files is in that folder.
test('a data dir that remembers no folder yet refuses a folder holding none of its indexed files', async () => {
  const { openDatabase } = await import('@engram/db');
  const dirs = tempDirs();
  const seeded = Object.keys(seedCorpus(dirs.diaryDir)).length;
  const data = ['--data-dir', dirs.dataDir];
  assert.equal(engram(['index', '--diary-dir', dirs.diaryDir, ...data], dirs.root).code, 0);
  // As a data dir from before the folder was recorded.
  const db = await openDatabase({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
  await db.client.execute("DELETE FROM meta WHERE key = 'diary-folder'");
  db.close();

  const refused = engram(['list', ...data, '--json'], dirs.root);
  assert.notEqual(refused.code, 0, `the default folder holds none of the ${seeded} indexed files: ${refused.stdout}`);
  assert.match(refused.stderr, /--switch-diary-dir/);
  assert.ok(refused.stderr.includes(join(dirs.dataDir, 'diaries')), refused.stderr);

  const kept = engram(['list', '--diary-dir', dirs.diaryDir, ...data, '--json'], dirs.root);
  assert.equal(kept.code, 0, kept.stderr);
  assert.equal(listed(kept.stdout), seeded, 'the right folder opens, and nothing was dropped');
  assert.notEqual(engram(['list', ...data, '--json'], dirs.root).code, 0, 'and is remembered from then on');
});

// Moving (or copying) the diary folder with its data dir is not a swap: the folder asked for holds
// the files the index has, so syncing it drops nothing. Such a folder is taken and remembered.
test('a folder that holds the indexed files (the diary folder moved or copied) is taken without the switch', () => {
  const dirs = tempDirs();
  const seeded = Object.keys(seedCorpus(dirs.diaryDir)).length;
  const data = ['--data-dir', dirs.dataDir];
  assert.equal(engram(['index', '--diary-dir', dirs.diaryDir, ...data], dirs.root).code, 0);
  const moved = join(dirs.root, 'moved-diaries');
  cpSync(dirs.diaryDir, moved, { recursive: true });

  const opened = engram(['list', '--diary-dir', moved, ...data, '--json'], dirs.root);
  assert.equal(opened.code, 0, opened.stderr);
  assert.equal(listed(opened.stdout), seeded);
  const status = JSON.parse(engram(['status', '--diary-dir', moved, ...data, '--json'], dirs.root).stdout) as { diaryDir: string };
  assert.equal(status.diaryDir, moved);
  const empty = engram(['list', ...data, '--json'], dirs.root);
  assert.notEqual(empty.code, 0, 'an empty folder is still refused');
  assert.ok(empty.stderr.includes(moved), `and the moved folder is the one remembered: ${empty.stderr}`);
});

test('serve refuses another diary folder in the terminal before it starts the console', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const data = ['--data-dir', dirs.dataDir];
  assert.equal(engram(['index', '--diary-dir', dirs.diaryDir, ...data], dirs.root).code, 0);
  // Only the refusal is run here: a serve that passed the check would build and start the console,
  // so npm is kept out of reach (an empty PATH; node is run by its absolute path).
  const r = spawnSync(process.execPath, [bin, 'serve', '--port', '1', ...data], { encoding: 'utf8', env: { PATH: '', HOME: dirs.root }, timeout: 60_000 });
  assert.equal(r.status, 1, r.stdout);
  assert.match(r.stderr, /^engram serve: [\u4e00-\u9fff].*--switch-diary-dir/s);
  assert.equal(r.stdout, '', 'nothing was started');
});

test('a diary folder that does not exist is refused without the data dir remembering it', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const data = ['--data-dir', dirs.dataDir];
  // A typo in the folder's name (given by ENGRAM_DIARY_DIR: the flag is checked before any open).
  const r = spawnSync(process.execPath, [bin, 'status', ...data], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root, ENGRAM_DIARY_DIR: `${dirs.diaryDir}-typo` }, timeout: 60_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /does not exist.*diary-dir-missing/s);
  // In the reader's language first, with what to do (the folder is named by a person, who may have mistyped it).
  assert.match(r.stderr, /日记文件夹不存在.*先创建它/s);
  const flag = spawnSync(process.execPath, [bin, 'status', '--diary-dir', `${dirs.diaryDir}-typo`, ...data], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root }, timeout: 60_000 });
  assert.equal(flag.status, 2);
  assert.match(flag.stderr, /--diary-dir.*文件夹不存在.*does not exist/s);
  // The right folder next: taken as the data dir's first folder, not refused as another one.
  const right = engram(['index', '--diary-dir', dirs.diaryDir, ...data, '--json'], dirs.root);
  assert.equal(right.code, 0, right.stderr);
});

// The folder the data dir was built from, gone (deleted, its drive unmounted): `status` is how a
// person asks what happened, so it says so — where the folder was expected, that recall is paused and
// the index kept — rather than refuse it as a mistyped folder, or quietly create an empty one (a
// running plugin would sync that empty folder as the diary).
for (const folder of ['named', 'default'] as const) {
  test(`status over the ${folder} diary folder the data dir was built from, now gone, says so and creates nothing`, () => {
    const dirs = tempDirs();
    const diaryDir = folder === 'named' ? dirs.diaryDir : join(dirs.dataDir, 'diaries');
    const seeded = Object.keys(seedCorpus(diaryDir)).length;
    const env = { PATH: process.env.PATH ?? '', HOME: dirs.root, ENGRAM_DATA_DIR: dirs.dataDir, ...(folder === 'named' ? { ENGRAM_DIARY_DIR: diaryDir } : {}) };
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 60_000 });
    const built = run(['index']);
    assert.equal(built.status, 0, built.stderr);
    rmSync(diaryDir, { recursive: true });

    const text = run(['status']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^WARNING 日记文件夹不见了/, 'the first line says it, Chinese first');
    assert.ok(text.stdout.includes(diaryDir), `names where it was expected: ${text.stdout}`);
    assert.match(text.stdout, /召回已暂停.*recall is paused/);
    assert.match(text.stdout, new RegExp(`documents ${seeded} `), 'the index is still whole');
    const json = JSON.parse(run(['status', '--json']).stdout) as { documents: number; diaryMissing: { message: string } | null };
    assert.equal(json.documents, seeded);
    assert.ok(json.diaryMissing?.message.includes(diaryDir), JSON.stringify(json.diaryMissing));
    assert.equal(existsSync(diaryDir), false, 'status created no empty folder in its place');
  });
}

// `engram list` over the same gone folder lists what the index holds (nothing is lost; the drive may
// be remounting) but must not do it without a word, as if those files were there: the status line
// comes first, on stderr, so stdout stays the listing and --json stays parseable.
for (const folder of ['named', 'default'] as const) {
  test(`list over the ${folder} diary folder the data dir was built from, now gone, warns on stderr first, lists the index, and creates nothing`, () => {
    const dirs = tempDirs();
    const diaryDir = folder === 'named' ? dirs.diaryDir : join(dirs.dataDir, 'diaries');
    const seeded = Object.keys(seedCorpus(diaryDir)).length;
    const env = { PATH: process.env.PATH ?? '', HOME: dirs.root, ENGRAM_DATA_DIR: dirs.dataDir, ...(folder === 'named' ? { ENGRAM_DIARY_DIR: diaryDir } : {}) };
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 60_000 });
    const built = run(['index']);
    assert.equal(built.status, 0, built.stderr);
    const listedBefore = run(['list']);
    assert.doesNotMatch(listedBefore.stderr, /日记文件夹不见了|diary folder is missing/, 'no warning while the folder is there');
    rmSync(diaryDir, { recursive: true });

    for (const args of [['list'], ['list', '--json']]) {
      const r = run(args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      const first = r.stderr.split('\n')[0]!;
      assert.match(first, /^WARNING 日记文件夹不见了.*召回已暂停.* \/ The diary folder is missing.*recall is paused/, `${args.join(' ')}: the first line of stderr says it, Chinese first: ${r.stderr}`);
      assert.ok(first.includes(diaryDir), `names where it was expected: ${first}`);
      assert.doesNotMatch(r.stdout, /日记文件夹不见了|diary folder is missing/, 'stdout stays the listing');
      if (args.includes('--json')) assert.equal(listed(r.stdout), seeded, 'the JSON listing parses and holds every indexed memory');
      else assert.equal(r.stdout.trim().split('\n').length, seeded, `every indexed memory is listed: ${r.stdout}`);
    }
    assert.equal(existsSync(diaryDir), false, 'list created no empty folder in its place');
    const status = JSON.parse(run(['status', '--json']).stdout) as { documents: number };
    assert.equal(status.documents, seeded, 'and the index is still whole');
  });
}

// `engram recall` over the same gone folder: recall is paused, so its result is empty — which alone
// reads as "nothing relevant". Status's line comes first, on stderr; the index is not emptied by the
// sync at open (the default folder used to be created empty and synced as the diary).
test('recall over the default diary folder the data dir was built from, now gone, warns on stderr, answers empty, and drops nothing', () => {
  const dirs = tempDirs();
  const diaryDir = join(dirs.dataDir, 'diaries');
  const seeded = Object.keys(seedCorpus(diaryDir)).length;
  const env = { PATH: process.env.PATH ?? '', HOME: dirs.root, ENGRAM_DATA_DIR: dirs.dataDir };
  const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  assert.equal(run(['index']).status, 0);
  const answered = run(['recall', '东京节点', '--json']);
  assert.equal(answered.status, 0, answered.stderr);
  assert.ok((JSON.parse(answered.stdout) as { hits: unknown[] }).hits.length > 0, 'recall answers while the folder is there');
  assert.doesNotMatch(answered.stderr, /日记文件夹不见了|diary folder is missing/);
  rmSync(diaryDir, { recursive: true });

  for (const args of [['recall', '东京节点'], ['recall', '东京节点', '--json']]) {
    const r = run(args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    const first = r.stderr.split('\n')[0]!;
    assert.match(first, /^WARNING 日记文件夹不见了.*召回已暂停.* \/ The diary folder is missing.*recall is paused/, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(first.includes(diaryDir), first);
    if (args.includes('--json')) assert.deepEqual((JSON.parse(r.stdout) as { hits: unknown[] }).hits, [], 'the JSON parses and holds no hit');
  }
  assert.equal(existsSync(diaryDir), false, 'recall created no empty folder in its place');
  const status = JSON.parse(run(['status', '--json']).stdout) as { documents: number };
  assert.equal(status.documents, seeded, 'the index is still whole');
});
