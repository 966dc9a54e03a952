// Issue #13 item 2 — an acknowledged edit was lost: a 50 s anchored search stopped the console's
// lock heartbeat, `engram edit` took the "stale" lock from the live console, wrote, and then the
// console wrote its result computed from the old text. Three guards, each tested here: a live
// holder on this machine is never taken over; the file is re-checked under the lock right before
// the write; the anchored search is linear (a 100k target on a 450k diary).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { WriterLock } from '../../src/diary/lock.ts';
import { storageError } from '../../src/diary/errors.ts';
import { anchoredReplace } from '../../src/diary/edit.ts';
import { editEntry } from '../../src/diary/store.ts';
import { openEngine } from '../../src/engine.ts';
import { withFsPatch } from './integrity-fsfault.ts';
import { diaryText, here, repoRoot, tempDirs } from './helpers.ts';

const HOLDER = join(here, 'workers/lock-holder.ts');

function startHolder(lockPath: string, ms: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, 'hold', lockPath, String(ms)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, held, exited };
}

test('a live holder on this machine is never taken over, even with its heartbeat quiet far past the stale time', { timeout: 60_000 }, async () => {
  const { root } = tempDirs('engram-integrity-');
  const path = join(root, 'engram.lock');
  const holder = startHolder(path, 30_000);
  await holder.held;
  try {
    const before = readFileSync(path, 'utf8');
    // The holder's event loop "stalls": its heartbeat has not touched the lock for a minute,
    // 300 × the stale time the contender uses.
    const quiet = new Date(Date.now() - 60_000);
    utimesSync(path, quiet, quiet);
    const contender = new WriterLock(path, { staleMs: 200, waitMs: 1_500, retryMs: 20 });
    await assert.rejects(contender.acquire('edit'), (e: { code?: string }) => e.code === 'writer-busy');
    assert.equal(contender.takeovers, 0);
    assert.equal(readFileSync(path, 'utf8'), before, 'the holder still owns its lock');
  } finally {
    holder.child.kill('SIGTERM');
    await holder.exited;
  }
});

test('once the holder is gone (same machine), its lock is taken over at once', { timeout: 60_000 }, async () => {
  const { root } = tempDirs('engram-integrity-');
  const path = join(root, 'engram.lock');
  const holder = startHolder(path, 30_000);
  await holder.held;
  holder.child.kill('SIGKILL');
  await holder.exited;
  const lock = new WriterLock(path, { staleMs: 3_600_000, waitMs: 5_000 });
  const release = await lock.acquire();
  assert.equal(lock.takeovers, 1);
  await release();
});

test('a same-host lock written before this machine last booted is stale even if its pid is in use again', async () => {
  const { root } = tempDirs('engram-integrity-');
  const path = join(root, 'engram.lock');
  // Our own pid: alive. Only the lock's age relative to the boot can tell it is a leftover.
  writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'before-reboot', since: '', purpose: 'write' }));
  const beforeBoot = new Date(Date.now() - uptime() * 1000 - 3_600_000);
  utimesSync(path, beforeBoot, beforeBoot);
  const lock = new WriterLock(path, { waitMs: 2_000 });
  const release = await lock.acquire();
  assert.equal(lock.takeovers, 1);
  await release();
  // The same lock written after the boot belongs to a live process: left alone.
  writeFileSync(path, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'live', since: '', purpose: 'write' }));
  await assert.rejects(new WriterLock(path, { waitMs: 300, staleMs: 100 }).acquire(), (e: { code?: string }) => e.code === 'writer-busy');
});

test('a full database (SQLITE_FULL, wrapped by the query layer) is the same typed disk-full error', () => {
  const sqlite = Object.assign(new Error('SQLITE_FULL: database or disk is full'), { code: 'SQLITE_FULL' });
  const wrapped = Object.assign(new Error('Failed query: insert into chunks …'), { cause: sqlite });
  const e = storageError(wrapped) as { code?: string; message?: string };
  assert.equal(e.code, 'disk-full');
  assert.match(e.message!, /磁盘空间已满/);
  const other = new Error('something else');
  assert.equal(storageError(other), other, 'anything else passes through unchanged');
});

const DIARY = diaryText('09:00', '端口处置记录', '东京节点端口被占用后的处置。', '东京节点的 443 端口被 nginx 占用，改由 sing-box 接管。\n第二段：时区调整为 UTC+9。', ['东京节点']);
const EXTERNAL = DIARY.replace('第二段', '编辑器里改过的第二段');

/** Simulates an editor (or a process ignoring the lock) saving the file right after Engram read it. */
function changeAfterFirstRead(file: string) {
  let fired = false;
  return (original: typeof import('node:fs/promises').readFile) =>
    (async (...args: Parameters<typeof original>) => {
      const result = await original(...args);
      if (!fired && String(args[0]) === file) {
        fired = true;
        writeFileSync(file, EXTERNAL);
      }
      return result;
    }) as typeof original;
}

test('editEntry: a change made between its read and its write is detected (conflict) and kept', async () => {
  const { diaryDir } = tempDirs('engram-integrity-');
  const file = join(diaryDir, 'a.txt');
  writeFileSync(file, DIARY);
  await withFsPatch('readFile', changeAfterFirstRead(file), async () => {
    await assert.rejects(editEntry(diaryDir, 'a.txt', '改由 sing-box 接管。', '改由 xray 接管。', 5), (e: { code?: string }) => e.code === 'conflict');
  });
  assert.equal(readFileSync(file, 'utf8'), EXTERNAL, "the other writer's change is not overwritten");
});

test('updateMeta, setSummary, saveText and edit re-check the file under the lock right before writing', { timeout: 60_000 }, async () => {
  const dirs = tempDirs('engram-integrity-');
  const file = join(dirs.diaryDir, 'a.txt');
  const env = { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root };
  const engine = await openEngine({ env });
  try {
    const ops: [string, (id: string, hash: string) => Promise<unknown>][] = [
      ['updateMeta', (id) => engine.updateMeta(id, { pinned: true })],
      ['setSummary', (id) => engine.setSummary(id, '新的摘要。', 'manual')],
      ['saveText', (id, hash) => engine.saveText(id, DIARY.replace('UTC+9', 'UTC+8'), hash)],
      ['edit', (id) => engine.edit(id, '被 nginx 占用，改由 sing-box 接管。', '被 nginx 占用，改由 xray 接管。')],
    ];
    for (const [name, op] of ops) {
      writeFileSync(file, DIARY);
      await engine.index({ full: false });
      const d = (await engine.list()).find((m) => m.path === 'a.txt')!;
      const hash = (await engine.read(d.docId))!.contentHash;
      await withFsPatch('readFile', changeAfterFirstRead(file), async () => {
        await assert.rejects(op(d.docId, hash), (e: { code?: string }) => e.code === 'conflict', `${name} must refuse`);
      });
      assert.equal(readFileSync(file, 'utf8'), EXTERNAL, `${name}: the external change is kept`);
    }
  } finally {
    engine.close();
  }
});

test('a 100k-character target on a 450k-character diary of near-repeats is answered (the search is linear)', () => {
  // V8's indexOf needs O(n·m) on this shape: a long needle that matches everywhere but in its middle.
  const hay = 'a'.repeat(450_000);
  const target = `${'a'.repeat(50_000)}b${'a'.repeat(49_999)}`;
  const r = anchoredReplace(hay, target, 'x', 15);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, 'not-found');
  // The same search finds the one real occurrence when there is one.
  const withIt = `${hay.slice(0, 200_000)}${target}${hay.slice(0, 150_000)}`;
  const found = anchoredReplace(withIt, target, 'x', 15);
  assert.ok(found.ok && found.start === 200_000 && found.content === `${hay.slice(0, 200_000)}x${hay.slice(0, 150_000)}`);
  // Periodic text: every position matches; counting stops at the cap with a clean "ambiguous".
  const ambiguous = anchoredReplace(hay, 'a'.repeat(100_000), 'x', 15);
  assert.ok(!ambiguous.ok && ambiguous.code === 'ambiguous' && ambiguous.matches === 1000);
});

test('a target past the size limit is refused with a clear error, and the file is untouched', async () => {
  const { diaryDir } = tempDirs('engram-integrity-');
  const file = join(diaryDir, 'a.txt');
  writeFileSync(file, DIARY);
  await assert.rejects(editEntry(diaryDir, 'a.txt', '长'.repeat(300_000), 'x', 15), (e: { code?: string; message?: string }) => e.code === 'target-too-long' && /at most/.test(e.message!));
  assert.equal(readFileSync(file, 'utf8'), DIARY);
});
