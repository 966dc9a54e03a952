// Issue #25 item 4 — an editor outside Engram that saves every few milliseconds (appending in place,
// or writing a temp file and renaming it over the diary) lost words when Engram saved the same
// memory: the external save landed between Engram's last content check and its rename, and the
// rename replaced it. Here a separate process saves one unique line every 0–3 ms while this process
// runs whole-file saves and anchored edits of the same diary, round after round; afterwards every
// line the editor saved must be on disk — in the diary itself or in a conflict copy beside it.
// ENGRAM_RACE_ROUNDS raises the rounds (default 2,000 per kind of editor).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs, { accessSync, appendFileSync, closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isDiaryError } from '../../src/diary/errors.ts';
import { replaceIfUnchanged, sweepOrphanTemps } from '../../src/diary/fsio.ts';
import { ASIDE_PREFIX, asidePathFor, conflictCopyName, parseAsideName } from '../../src/diary/swap.ts';
import { editEntry } from '../../src/diary/store.ts';
import { readForRewrite, rewriteIfUnchanged } from '../../src/diary/textfile.ts';
import { withFsSyncPatch } from './integrity-fsfault.ts';
import { diaryText, here, repoRoot } from './helpers.ts';

const EDITOR = join(here, 'workers/external-editor.ts');
const ROUNDS = Number(process.env.ENGRAM_RACE_ROUNDS) > 0 ? Math.floor(Number(process.env.ENGRAM_RACE_ROUNDS)) : 2_000;
const COUNTER = /引擎计数:(\d+)。/;

/**
 * A folder in memory (/dev/shm) where there is one: the race is about names and inodes (rename, link,
 * open), which behave the same there, while the fsync of every save costs nothing — on a disk each
 * round waits for the journal and the run takes ten times as long.
 */
function raceFolder(): string {
  let base = tmpdir();
  try {
    accessSync('/dev/shm', constants.W_OK);
    base = '/dev/shm';
  } catch {
    // no memory-backed folder: the race runs on the temp folder's disk, slower
  }
  return mkdtempSync(join(base, 'engram-editor-race-'));
}

function startEditor(file: string, mode: 'append' | 'rename') {
  const child = spawn(process.execPath, ['--import', 'tsx', EDITOR, file, mode, mode], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  // Decoded as a stream: a chunk boundary inside a multi-byte character must not garble a line.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  child.stderr.on('data', (d: string) => (err += d));
  const ready = new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => out.includes('ready\n') && (clearInterval(poll), resolve()), 5);
    child.once('exit', (code) => (clearInterval(poll), reject(new Error(`editor exited early (${code}): ${err}`))));
  });
  const finished = new Promise<string[]>((resolve, reject) => {
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`editor failed (${code}): ${err}`));
      resolve((JSON.parse(out.trim().split('\n').at(-1)!) as { saved: string[] }).saved);
    });
  });
  return { ready, stop: () => (child.stdin.end(), finished) };
}

/** One save of the diary the way the console does it: read, change, write back if unchanged. */
async function engineRound(diaryDir: string, rel: string, round: number): Promise<'saved' | 'refused' | 'keptBothOursInPlace' | 'keptBothTheirsInPlace'> {
  const abs = join(diaryDir, rel);
  try {
    const file = await readForRewrite(abs, rel);
    const counter = COUNTER.exec(file.text);
    if (round % 2 === 0 || !counter) {
      // Whole-file save (the console's editor): the counter line is rewritten, or added back.
      const next = counter ? file.text.replace(COUNTER, `引擎计数:${round}。`) : `${file.text}引擎计数:${round}。\n`;
      await rewriteIfUnchanged(abs, file, next);
    } else {
      // Anchored edit (the edit tool): the counter line located by quoting it.
      await editEntry(diaryDir, rel, counter[0], `引擎计数:${round}。`, 5);
    }
    return 'saved';
  } catch (e) {
    // Refusing is fine (the file changed under us), and so is keeping both versions when the other
    // save landed during the swap itself; losing the other side's save is not.
    const details = (e as { details?: { conflictCopy?: string; written?: boolean } }).details;
    if (isDiaryError(e, 'conflict') && details?.conflictCopy) return details.written ? 'keptBothOursInPlace' : 'keptBothTheirsInPlace';
    if (isDiaryError(e, 'conflict') || isDiaryError(e, 'target-not-found') || isDiaryError(e, 'not-found')) return 'refused';
    throw e;
  }
}

for (const mode of ['append', 'rename'] as const) {
  test(`an external editor saving every few ms (${mode}) while Engram saves the same diary ${ROUNDS} times: no external save is lost`, { timeout: 600_000 }, async () => {
    const diaryDir = raceFolder();
    const rel = '2026-12-03-race.txt';
    writeFileSync(join(diaryDir, rel), diaryText('08:00', '外部编辑器竞争', '外部编辑器与控制台同时保存。', '引擎计数:0。', ['竞争']));

    const editor = startEditor(join(diaryDir, rel), mode);
    await editor.ready;
    const outcomes = { saved: 0, refused: 0, keptBothOursInPlace: 0, keptBothTheirsInPlace: 0 };
    let externalSaves: string[];
    try {
      for (let round = 1; round <= ROUNDS; round++) outcomes[await engineRound(diaryDir, rel, round)]++;
    } finally {
      externalSaves = await editor.stop();
    }
    // The last save's second look at the version it replaced comes a moment after it returned.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const files = readdirSync(diaryDir).filter((name) => !name.startsWith('.'));
    const onDisk = files.map((name) => readFileSync(join(diaryDir, name), 'utf8')).join('\n');
    const present = new Set(onDisk.split('\n'));
    const lost = externalSaves.filter((line) => !present.has(line));
    console.log(`# editor race (${mode}) ${JSON.stringify({ rounds: ROUNDS, ...outcomes, externalSaves: externalSaves.length, lost: lost.length, files: files.length })}`);

    // The two writers really overlapped: the editor saved throughout and Engram had to refuse some saves.
    assert.ok(externalSaves.length >= ROUNDS / 20, `the editor saved only ${externalSaves.length} times`);
    assert.ok(outcomes.refused > 0 && outcomes.saved > 0, 'the race never happened');
    assert.deepEqual(lost, [], `${lost.length} of ${externalSaves.length} external saves were lost`);
    // Nothing of Engram's own is left behind (temp files, the replaced file moved aside).
    assert.deepEqual(readdirSync(diaryDir).filter((name) => name.startsWith('.engram')), []);
    rmSync(diaryDir, { recursive: true, force: true });
  });
}

// ---------------------------------------------------------------------------------------------
// Each moment of the swap, hit on purpose: the other program's save lands exactly there.

const BASE = diaryText('08:00', '交换时刻', '外部保存落在交换的每一步。', '原来的正文。', ['交换']);
const OURS = BASE.replace('原来的正文。', '控制台改过的正文。');
const THEIRS = BASE.replace('原来的正文。', '编辑器改过的正文。');
const APPENDED = '编辑器追加的一行。\n';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-swap-'));
  const file = join(dir, 'a.txt');
  writeFileSync(file, BASE, { mode: 0o640 });
  return { dir, file, replace: () => replaceIfUnchanged(file, Buffer.from(BASE), Buffer.from(OURS), { mode: 0o640 }) };
}

/** The conflict copies beside `file`, and whatever else is there besides the diary itself. */
function besides(dir: string) {
  const names = readdirSync(dir).filter((n) => n !== 'a.txt');
  return { copies: names.filter((n) => n.includes('冲突副本')).map((n) => readFileSync(join(dir, n), 'utf8')), others: names.filter((n) => !n.includes('冲突副本')) };
}

/** `fn` runs once, right after the first call of fs.`name` whose first argument is `path` (or passes `when`). */
function after<K extends 'lstatSync' | 'renameSync' | 'unlinkSync' | 'linkSync'>(name: K, when: (arg: string) => boolean, fn: () => void) {
  let fired = false;
  return withFsSyncPatch.bind(null, name, (original) =>
    ((...args: unknown[]) => {
      const result = (original as (...a: unknown[]) => unknown)(...args);
      if (!fired && when(String(args[0]))) {
        fired = true;
        fn();
      }
      return result;
    }) as never,
  );
}

const conflict = (written: boolean) => (e: { code?: string; details?: { written?: boolean; conflictCopy?: string }; message?: string }) =>
  e.code === 'conflict' && e.details?.written === written && typeof e.details.conflictCopy === 'string' && /冲突副本/.test(e.message!);

test('swap: unchanged → replaced in place, mode kept, nothing left beside it', async () => {
  const { dir, file, replace } = setup();
  await replace();
  assert.equal(readFileSync(file, 'utf8'), OURS);
  assert.equal(statSync(file).mode & 0o777, 0o640);
  assert.deepEqual(besides(dir), { copies: [], others: [] });
});

test('swap: changed before the check → refused, nothing written, no copy', async () => {
  const { dir, file, replace } = setup();
  appendFileSync(file, APPENDED);
  await assert.rejects(replace(), (e: { code?: string; details?: { conflictCopy?: string } }) => e.code === 'conflict' && e.details?.conflictCopy === undefined);
  assert.equal(readFileSync(file, 'utf8'), BASE + APPENDED);
  assert.deepEqual(besides(dir), { copies: [], others: [] });
});

test('swap: an append between the check and the move → ours in place, theirs kept as a conflict copy', async () => {
  const { dir, file, replace } = setup();
  await after('lstatSync', (p) => p === file, () => appendFileSync(file, APPENDED))(() => assert.rejects(replace(), conflict(true)));
  assert.equal(readFileSync(file, 'utf8'), OURS);
  assert.deepEqual(besides(dir), { copies: [BASE + APPENDED], others: [] });
});

test('swap: a write-temp-and-rename save between the check and the move → ours in place, theirs as a conflict copy', async () => {
  const { dir, file, replace } = setup();
  const save = () => (writeFileSync(join(dir, '.editor.tmp'), THEIRS), fs.renameSync(join(dir, '.editor.tmp'), file));
  await after('lstatSync', (p) => p === file, save)(() => assert.rejects(replace(), conflict(true)));
  assert.equal(readFileSync(file, 'utf8'), OURS);
  assert.deepEqual(besides(dir), { copies: [THEIRS], others: [] });
});

test('swap: a file created while the name is absent (append with O_CREAT) → theirs in place, the moved version as a conflict copy', async () => {
  const { dir, file, replace } = setup();
  await after('renameSync', (p) => p === file, () => appendFileSync(file, APPENDED))(() => assert.rejects(replace(), conflict(false)));
  assert.equal(readFileSync(file, 'utf8'), APPENDED, 'their file is not replaced');
  assert.deepEqual(besides(dir), { copies: [BASE], others: [] }, 'and the text before it is kept');
});

test('swap: a rename-save while the name is absent → theirs in place, the moved version as a conflict copy', async () => {
  const { dir, file, replace } = setup();
  const save = () => (writeFileSync(join(dir, '.editor.tmp'), THEIRS), fs.renameSync(join(dir, '.editor.tmp'), file));
  await after('renameSync', (p) => p === file, save)(() => assert.rejects(replace(), conflict(false)));
  assert.equal(readFileSync(file, 'utf8'), THEIRS);
  assert.deepEqual(besides(dir), { copies: [BASE], others: [] });
});

test('swap: a write through a descriptor opened before the move, landing after it → caught, kept as a conflict copy', async () => {
  const { dir, file, replace } = setup();
  const fd = openSync(file, 'a');
  try {
    await after('renameSync', (p) => p === file, () => writeSync(fd, APPENDED))(() => assert.rejects(replace(), conflict(true)));
  } finally {
    closeSync(fd);
  }
  assert.equal(readFileSync(file, 'utf8'), OURS);
  assert.deepEqual(besides(dir), { copies: [BASE + APPENDED], others: [] });
});

test('swap: a write through an old descriptor after the moved version was checked and unlinked → caught by the last read', async () => {
  const { dir, file, replace } = setup();
  const fd = openSync(file, 'a');
  try {
    await after('unlinkSync', (p) => p.includes(ASIDE_PREFIX), () => writeSync(fd, APPENDED))(() => assert.rejects(replace(), conflict(true)));
  } finally {
    closeSync(fd);
  }
  assert.equal(readFileSync(file, 'utf8'), OURS);
  const copy = readdirSync(dir).find((n) => n.includes('冲突副本'))!;
  assert.equal(readFileSync(join(dir, copy), 'utf8'), BASE + APPENDED);
  assert.equal(statSync(join(dir, copy)).mode & 0o777, 0o640, 'the copy keeps the permissions');
});

test('swap: a write through an old descriptor just after the swap ended (a writer held up between its open and its write) → kept by the look a moment later', async () => {
  const { dir, file, replace } = setup();
  const fd = openSync(file, 'a');
  try {
    // setImmediate: the write comes once the synchronous swap has returned, after its last read.
    await after('unlinkSync', (p) => p.includes(ASIDE_PREFIX), () => setImmediate(() => writeSync(fd, APPENDED)))(() => replace());
  } finally {
    closeSync(fd);
  }
  assert.equal(readFileSync(file, 'utf8'), OURS, 'the save itself went through');
  // The look comes a moment after the save returned (it does not wait for it).
  for (let i = 0; i < 200 && besides(dir).copies.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(besides(dir), { copies: [BASE + APPENDED], others: [] });
});

test('swap: without hard links (EPERM) the same guarantees hold through a guarded rename', async () => {
  const noLinks = () => withFsSyncPatch.bind(null, 'linkSync', () => (() => { throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' }); }) as never);
  const plain = setup();
  await noLinks()(() => plain.replace());
  assert.equal(readFileSync(plain.file, 'utf8'), OURS);
  assert.deepEqual(besides(plain.dir), { copies: [], others: [] });
  const raced = setup();
  await noLinks()(() => after('renameSync', (p) => p === raced.file, () => appendFileSync(raced.file, APPENDED))(() => assert.rejects(raced.replace(), conflict(false))));
  assert.equal(readFileSync(raced.file, 'utf8'), APPENDED);
  assert.deepEqual(besides(raced.dir), { copies: [BASE], others: [] });
});

test('swap: when our version cannot be put in place (an I/O error), the original goes back and nothing is left aside', async () => {
  const { dir, file, replace } = setup();
  const failing = withFsSyncPatch.bind(null, 'linkSync', (original) => ((from: string, to: string) => {
    if (to === file && from.includes('.engram-tmp-')) throw Object.assign(new Error('EIO: i/o error, link'), { code: 'EIO' });
    return (original as typeof fs.linkSync)(from, to);
  }) as never);
  await failing(() => assert.rejects(replace(), (e: { code?: string }) => e.code === 'EIO'));
  assert.equal(readFileSync(file, 'utf8'), BASE);
  assert.deepEqual(besides(dir), { copies: [], others: [] });
});

test('a version a killed writer left aside is put back at the next start, or kept as a conflict copy — never deleted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-swap-'));
  const dead = () => false;
  // Killed while the name was absent: the version goes back under its own name.
  const lonely = asidePathFor(join(dir, 'lonely.txt')).replace(`${ASIDE_PREFIX}${process.pid}-`, `${ASIDE_PREFIX}999999-`);
  writeFileSync(lonely, BASE);
  // Killed after the new version went in: the old one is shown beside it.
  writeFileSync(join(dir, 'taken.txt'), OURS);
  writeFileSync(asidePathFor(join(dir, 'taken.txt')).replace(`${ASIDE_PREFIX}${process.pid}-`, `${ASIDE_PREFIX}999998-`), BASE);
  // This process's own aside files are in use: left alone.
  const mine = asidePathFor(join(dir, 'mine.txt'));
  writeFileSync(mine, BASE);
  await sweepOrphanTemps(dir, dead);
  assert.equal(readFileSync(join(dir, 'lonely.txt'), 'utf8'), BASE);
  assert.equal(readFileSync(join(dir, 'taken.txt'), 'utf8'), OURS);
  const copies = readdirSync(dir).filter((n) => n.startsWith('taken.冲突副本-'));
  assert.equal(copies.length, 1);
  assert.equal(readFileSync(join(dir, copies[0]!), 'utf8'), BASE);
  assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith(ASIDE_PREFIX)), [mine.split('/').at(-1)]);
});

test('aside and conflict copy names: they round-trip, and stay within 255 bytes for long Chinese names', () => {
  const long = `2026-12-03-${'很长的标题'.repeat(15)}-abcdef12.txt`;
  assert.ok(Buffer.byteLength(long) <= 255);
  for (const name of ['a.txt', long]) {
    const aside = asidePathFor(join('/x', name)).split('/').at(-1)!;
    assert.ok(Buffer.byteLength(aside) <= 255 && aside.startsWith('.'), aside);
    const parsed = parseAsideName(aside)!;
    assert.equal(parsed.pid, process.pid);
    assert.ok(parsed.original === name || (parsed.original === null && aside.endsWith('.txt')));
    const copy = conflictCopyName(name, new Date(2026, 11, 3, 7, 9, 12), 3);
    assert.ok(Buffer.byteLength(copy) <= 255 && copy.endsWith('.冲突副本-20261203-070912-3.txt'), copy);
  }
  assert.equal(parseAsideName('a.txt'), null);
  assert.equal(parseAsideName('.engram-tmp-1-abc.tmp'), null);
});
