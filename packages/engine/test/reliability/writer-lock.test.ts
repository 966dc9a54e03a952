// The data folder's single-writer lock: mutual exclusion across processes, a clear "busy" error
// naming the holder, and takeover of a lock left by a dead process or a stopped heartbeat.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { WriterLock } from '../../src/diary/lock.ts';
import { openEngine } from '../../src/engine.ts';
import { here, repoRoot, runWorker, seedDiaries, tempDirs } from './helpers.ts';

const WORKER = join(here, 'workers/lock-holder.ts');

/** Starts a holder and resolves once it holds the lock. */
function startHolder(lockPath: string, ms: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, 'hold', lockPath, String(ms)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, held, exited };
}

test('four processes incrementing one counter under the lock lose no increment', { timeout: 120_000 }, async () => {
  const { root } = tempDirs('engram-lock-');
  const counter = join(root, 'counter');
  writeFileSync(counter, '0');
  const results = await Promise.all([0, 1, 2, 3].map(() => runWorker(WORKER, ['count', join(root, 'engram.lock'), counter, '40'])));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(counter, 'utf8'), '160');
  assert.equal(existsSync(join(root, 'engram.lock')), false, 'released at the end');
});

test('a live holder makes others wait, then fail with writer-busy naming it', { timeout: 60_000 }, async () => {
  const { root } = tempDirs('engram-lock-');
  const path = join(root, 'engram.lock');
  const holder = startHolder(path, 30_000);
  await holder.held;
  try {
    const lock = new WriterLock(path, { waitMs: 300, staleMs: 60_000 });
    await assert.rejects(lock.acquire(), (e: { code?: string; message?: string }) => e.code === 'writer-busy' && e.message!.includes(String(holder.child.pid)));
  } finally {
    holder.child.kill('SIGTERM');
    await holder.exited;
  }
});

test('a lock left by a process killed with -9 is taken over at once (pid gone), not after the stale time', { timeout: 60_000 }, async () => {
  const { root } = tempDirs('engram-lock-');
  const path = join(root, 'engram.lock');
  const holder = startHolder(path, 60_000);
  await holder.held;
  holder.child.kill('SIGKILL');
  await holder.exited;
  assert.ok(existsSync(path), 'the dead holder left its lock behind');
  // An hour of stale time: only the dead pid can explain a takeover.
  const lock = new WriterLock(path, { staleMs: 3_600_000, waitMs: 10_000 });
  const release = await lock.acquire();
  assert.equal(lock.takeovers, 1);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid);
  await release();
  assert.equal(existsSync(path), false);
});

test('a holder on another host is taken over only when its heartbeat stopped', async () => {
  const { root } = tempDirs('engram-lock-');
  const path = join(root, 'engram.lock');
  const foreign = { pid: 1, host: `${hostname()}-elsewhere`, nonce: 'n1', since: new Date().toISOString(), purpose: 'index' };
  writeFileSync(path, JSON.stringify(foreign));
  const fresh = new WriterLock(path, { staleMs: 5_000, waitMs: 200 });
  await assert.rejects(fresh.acquire(), /writer-busy|another Engram process/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(path, old, old);
  const release = await fresh.acquire();
  assert.equal(fresh.takeovers, 1);
  await release();
});

test('an empty or garbled lock file (a crash while creating it) is taken over once it is a few seconds old', async () => {
  const { root } = tempDirs('engram-lock-');
  const path = join(root, 'engram.lock');
  writeFileSync(path, '{"pid": 12');
  const old = new Date(Date.now() - 10_000);
  utimesSync(path, old, old);
  const lock = new WriterLock(path, { staleMs: 3_600_000, waitMs: 5_000 });
  const release = await lock.acquire();
  assert.equal(lock.takeovers, 1);
  await release();
});

test('release never removes a lock another process took over meanwhile', async () => {
  const { root } = tempDirs('engram-lock-');
  const path = join(root, 'engram.lock');
  const lock = new WriterLock(path);
  const release = await lock.acquire();
  const thief = { pid: process.pid, host: hostname(), nonce: 'someone-else', since: new Date().toISOString(), purpose: 'x' };
  writeFileSync(path, JSON.stringify(thief));
  await release();
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).nonce, 'someone-else');
});

test('an engine opening while another process holds the lock starts anyway, says why it skipped the sync, and refuses writes with writer-busy', { timeout: 60_000 }, async () => {
  const dirs = tempDirs('engram-lock-');
  seedDiaries(dirs.diaryDir, 4);
  const env = { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root };
  (await openEngine({ env })).close();
  const holder = startHolder(join(dirs.dataDir, 'engram.lock'), 50_000);
  await holder.held;
  try {
    // The default wait for a write is two minutes; the open-time sync gives up after a few seconds.
    const engine = await openEngine({ env, writerLock: { waitMs: 500 } });
    try {
      const warnings = (await engine.status()).warnings.join('\n');
      assert.match(warnings, /index on open failed: another Engram process is writing/);
      assert.equal((await engine.list()).length, 4, 'it answers from what is indexed');
      await assert.rejects(engine.write({ title: '等锁', content: '写不进去。' }), (e: { code?: string }) => e.code === 'writer-busy');
    } finally {
      engine.close();
    }
  } finally {
    holder.child.kill('SIGTERM');
    await holder.exited;
  }
});
