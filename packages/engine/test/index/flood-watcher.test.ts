// The diary watcher coalesces a burst of file events into one sync that names the changed files,
// holds a bounded number of them (more fall back to one manifest scan of the whole folder), runs
// one sync at a time (events meanwhile make one more), and follows folders created after it started.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DiaryWatcher, type SyncTrigger } from '../../src/index/watcher.ts';
import { tempDirs } from '../engine/helpers.ts';
import { floodFile } from './flood-files.ts';

interface Call {
  trigger: SyncTrigger;
  paths: string[] | null;
}

/** A watcher on `dir` whose syncs are recorded; each waits for `hold` (so a burst can arrive during one). */
function recording(dir: string, options: ConstructorParameters<typeof DiaryWatcher>[2] = {}, hold: () => Promise<unknown> = async () => undefined) {
  const calls: Call[] = [];
  let running = 0;
  let overlapped = false;
  const watcher = new DiaryWatcher(
    dir,
    async (trigger, paths) => {
      if (running++ > 0) overlapped = true;
      calls.push({ trigger, paths: paths && [...paths].sort() });
      await hold();
      running--;
    },
    // A quiet time well above the pause between the tests' write batches, even on a loaded machine.
    { debounceMs: 400, intervalMs: 0, ...options },
  ).start();
  return { watcher, calls, overlapped: () => overlapped };
}

async function settle(watcher: DiaryWatcher, quietMs = 800): Promise<void> {
  // Wait until no sync runs and nothing is waiting for its burst to end.
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    await watcher.idle();
    if (watcher.pendingCount() === 0 && !watcher.waiting()) return;
  }
}

// One burst, written without yielding to the event loop: the watcher reads its events after the
// last write. A writer that yielded between batches split the burst on a loaded machine: a batch
// that took longer than the quiet time left the watcher's timer due, and the loop runs due timers
// before it reads the events that arrived meanwhile, so the first batch became a sync of its own.
const writeFlood = (dir: string, from: number, to: number, sub = '') => {
  const names: string[] = [];
  for (let i = from; i < to; i++) {
    const { name, text } = floodFile(i);
    writeFileSync(join(dir, sub, name), text);
    names.push(sub ? `${sub}/${name}` : name);
  }
  return names;
};

test('a burst of file events is one sync naming exactly the changed diary files (dot-files and temp files left out)', async () => {
  const { diaryDir } = tempDirs();
  const { watcher, calls } = recording(diaryDir);
  try {
    const names = writeFlood(diaryDir, 0, 600);
    writeFileSync(join(diaryDir, '.hidden.txt'), 'x');
    writeFileSync(join(diaryDir, '.engram-tmp-1-abc.tmp'), 'x');
    writeFileSync(join(diaryDir, 'photo.png'), 'x');
    await settle(watcher);
    assert.equal(calls.length, 1, `syncs: ${JSON.stringify(calls.map((c) => c.paths?.length ?? 'scan'))}`);
    assert.equal(calls[0]!.trigger, 'event');
    assert.deepEqual(calls[0]!.paths, names.sort());
  } finally {
    watcher.close();
  }
});

test('more changed files than the queue holds fall back to one manifest scan (no path list)', async () => {
  const { diaryDir } = tempDirs();
  const { watcher, calls } = recording(diaryDir, { maxPending: 50 });
  try {
    writeFlood(diaryDir, 0, 400);
    await settle(watcher);
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0], { trigger: 'event', paths: null });
    assert.equal(watcher.pendingCount(), 0);
  } finally {
    watcher.close();
  }
});

test('events during a running sync make one more sync after it, never two at once', async () => {
  const { diaryDir } = tempDirs();
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const { watcher, calls, overlapped } = recording(diaryDir, {}, () => held);
  try {
    const first = writeFlood(diaryDir, 0, 50);
    while (calls.length === 0) await new Promise((r) => setTimeout(r, 20));
    // The first sync is running (held); this burst lands inside it.
    const second = writeFlood(diaryDir, 50, 300);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(calls.length, 1, 'nothing starts while a sync runs');
    release();
    await settle(watcher, 800);
    assert.equal(overlapped(), false);
    assert.equal(calls.length, 2, `syncs: ${JSON.stringify(calls.map((c) => c.paths?.length ?? 'scan'))}`);
    assert.deepEqual(calls[0]!.paths, first.sort());
    assert.deepEqual(calls[1]!.paths, second.sort());
  } finally {
    watcher.close();
  }
});

test('a folder created or moved in after the start is followed: its files are synced, then later edits inside it too', async () => {
  const { root, diaryDir } = tempDirs();
  const { watcher, calls } = recording(diaryDir);
  try {
    // Made elsewhere and moved in whole (as a sync tool does): its files raise no events of their own.
    const outside = join(root, 'incoming');
    mkdirSync(join(outside, 'deep'), { recursive: true });
    writeFileSync(join(outside, 'deep', floodFile(1).name), floodFile(1).text);
    renameSync(outside, join(diaryDir, 'work'));
    await settle(watcher);
    assert.ok(calls.length >= 1);
    // A new folder is looked at as a whole (the manifest scan finds what is inside).
    assert.equal(calls.at(-1)!.paths, null);

    const seen = calls.length;
    const names = writeFlood(diaryDir, 10, 20, 'work/deep');
    await settle(watcher);
    assert.equal(calls.length, seen + 1);
    assert.deepEqual(calls.at(-1)!.paths, names.sort());
  } finally {
    watcher.close();
  }
});

test('the periodic check still runs a manifest scan with events on', async () => {
  const { diaryDir } = tempDirs();
  const { watcher, calls } = recording(diaryDir, { intervalMs: 150 });
  try {
    await new Promise((r) => setTimeout(r, 500));
    await watcher.idle();
    assert.ok(calls.some((c) => c.trigger === 'poll' && c.paths === null));
  } finally {
    watcher.close();
  }
});
