// The import job board: progress only moves forward and reads 100 only once the job is done; a
// failure keeps its code; finished jobs are pruned, running ones never.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImportReport } from '@engram/engine';
import { ImportJobs, importPercent } from '../src/server/import-jobs.ts';

const report: ImportReport = { imported: 2, updated: 0, skipped: 0, empty: 0, failed: [] };
const describe = (e: unknown) => ({ code: (e as { code?: string }).code ?? 'x', message: String((e as Error).message) });

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

test('importPercent stays below 100 until the end and is 0 without a total', () => {
  assert.equal(importPercent(0, 0), 0);
  assert.equal(importPercent(1, 2), 50);
  assert.equal(importPercent(2, 2), 99);
  assert.equal(importPercent(5, 2), 99);
  assert.equal(importPercent(-1, 2), 0);
});

test('a job reports progress, never goes back, and reaches 100 only when finished', async () => {
  const jobs = new ImportJobs();
  const gate = deferred<ImportReport>();
  let progress!: (done: number, total: number) => void;
  const started = jobs.start({ workspace: 'ws-1', sessionIds: ['a', 'b', 'c', 'd'] }, (p) => ((progress = p), gate.promise), describe);
  assert.equal(started.status, 'running');
  assert.equal(started.total, 4);
  await Promise.resolve();
  await Promise.resolve();
  progress(2, 4);
  assert.equal(jobs.get(started.id)!.percent, 50);
  progress(1, 4); // a late, smaller count must not move the bar back
  assert.equal(jobs.get(started.id)!.percent, 50);
  progress(4, 4);
  assert.equal(jobs.get(started.id)!.percent, 99);
  assert.equal(jobs.get(started.id)!.status, 'running');
  gate.resolve(report);
  await gate.promise;
  await new Promise((r) => setImmediate(r));
  const done = jobs.get(started.id)!;
  assert.equal(done.status, 'done');
  assert.equal(done.percent, 100);
  assert.deepEqual(done.report, report);
  assert.ok(done.finishedAt);
  // Callers get copies: changing one does not change the board.
  done.percent = 3;
  assert.equal(jobs.get(started.id)!.percent, 100);
});

test('a failed job keeps the error; old finished jobs are pruned, running ones kept', async () => {
  const jobs = new ImportJobs();
  const failing = jobs.start({ workspace: 'w', sessionIds: ['x'] }, async () => {
    throw Object.assign(new Error('no session log for "x"'), { code: 'not-found' });
  }, describe);
  const hanging = jobs.start({ workspace: 'w', sessionIds: ['y'] }, () => new Promise<ImportReport>(() => {}), describe);
  for (let i = 0; i < 25; i++) jobs.start({ workspace: 'w', sessionIds: [String(i)] }, async () => report, describe);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(jobs.get(failing.id), null, 'the oldest finished job was pruned');
  const failed = new ImportJobs();
  const f = failed.start({ workspace: 'w', sessionIds: ['x'] }, async () => {
    throw Object.assign(new Error('gone'), { code: 'not-found' });
  }, describe);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(failed.get(f.id)!.error, { code: 'not-found', message: 'gone' });
  assert.equal(failed.get(f.id)!.status, 'failed');
  assert.equal(jobs.get(hanging.id)!.status, 'running');
  const list = jobs.list();
  assert.equal(list.length, 21, '20 finished + the running one');
  assert.equal(list.at(-1)!.id, hanging.id, 'newest first');
});
