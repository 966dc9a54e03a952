// model.install from the console: the engine's model install run as a job with its phases and
// progress, then the provider switched to the model and the existing chunks embedded. From a local
// folder only (the real model's test cache); never the network. Errors carry the install's code.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { manifestKey, DEFAULT_MODEL } from '../../../packages/engine/src/model/manifest.ts';
import { servicesOf } from '../src/server/services.ts';
import { openHarness, type Harness } from './harness.ts';

const cacheDir = process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? join(process.env.ENGRAM_MODEL_CACHE ?? join(homedir(), '.cache/engram-models'), manifestKey());
const modelFolder = join(cacheDir, 'models', ...DEFAULT_MODEL.id.split('/'));
const noModel = existsSync(join(modelFolder, 'config.json')) ? false : `no cached model at ${modelFolder} (node scripts/test-all.mjs installs it)`;

/** The model cache is per user, shared by every data dir: each test here is a user with an empty one. */
function freshModelCache(t: { after(fn: () => unknown): void }): void {
  const previous = process.env.ENGRAM_MODEL_CACHE;
  process.env.ENGRAM_MODEL_CACHE = mkdtempSync(join(tmpdir(), 'engram-model-jobs-cache-'));
  t.after(() => {
    if (previous === undefined) delete process.env.ENGRAM_MODEL_CACHE;
    else process.env.ENGRAM_MODEL_CACHE = previous;
  });
}

async function finish(h: Harness, from: string) {
  const started = await h.api().model.install({ from });
  assert.equal(started.state, 'running');
  for (;;) {
    const { job } = await h.api().model.status();
    if (job && job.state !== 'running') return { job, phases: job.phases as string[] };
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('install from a folder: phases in order, provider switched from none to the model, chunks embedded', { skip: noModel }, async (t) => {
  freshModelCache(t);
  const h = await openHarness(t);
  await h.engine.saveSettings({ embedding: { provider: 'none' } });
  await h.api().memories.create({ title: '潮汐表', content: '潮汐每天涨落两次,大潮在朔望前后。' });
  assert.equal((await h.api().model.status()).installed, false);

  const { job, phases } = await finish(h, modelFolder);
  assert.equal(job.state, 'done', JSON.stringify(job.error));
  for (const p of ['download', 'verify', 'write', 'switch', 'embed']) assert.ok(phases.includes(p), `phase ${p} seen (${phases.join(' → ')})`);
  assert.ok(phases.indexOf('download') < phases.indexOf('write') && phases.indexOf('write') < phases.indexOf('embed'));
  const status = await h.api().model.status();
  assert.equal(status.installed, true);
  assert.equal(status.provider, 'auto', 'none became auto');
  assert.equal(job.result?.semantic, 'ready');
  assert.ok((job.result?.vectors ?? 0) > 0, 'the existing memory has vectors');
  assert.ok((await h.engine.status()).vectors > 0);
});

test('failures are reported with their code: no model in the folder, a file that fails its hash', { skip: noModel }, async (t) => {
  freshModelCache(t);
  const h = await openHarness(t);
  const empty = join(h.root, 'empty');
  mkdirSync(empty);
  const missing = await finish(h, empty);
  assert.equal(missing.job.state, 'failed');
  assert.equal(missing.job.error?.code, 'source');

  const bad = join(h.root, 'bad');
  cpSync(modelFolder, bad, { recursive: true });
  writeFileSync(join(bad, 'vocab.txt'), 'tampered\n');
  const tampered = await finish(h, bad);
  assert.equal(tampered.job.state, 'failed');
  assert.equal(tampered.job.error?.code, 'integrity');
  assert.match(tampered.job.error?.message ?? '', /vocab\.txt/);
  assert.equal((await h.api().model.status()).installed, false, 'nothing half-installed');
});

test('one job at a time: a second start answers the running job', { skip: noModel }, async (t) => {
  freshModelCache(t);
  const h = await openHarness(t);
  const jobs = servicesOf(h.runtime).model;
  const first = jobs.start({ from: modelFolder });
  const second = jobs.start({ from: '/elsewhere' });
  assert.equal(second.job.id, first.job.id);
  const done = await first.done;
  assert.equal(done.state, 'done', JSON.stringify(done.error));
  assert.equal(h.engine.config.embedding.provider, 'auto', 'auto stays auto');
  assert.equal(done.result?.semantic, 'ready', 'and its channel re-opened onto the model');
});

test('the status names what an install costs before it starts: the download and the size on disk', async (t) => {
  freshModelCache(t);
  const h = await openHarness(t);
  const status = await h.api().model.status();
  assert.equal(status.installed, false);
  assert.equal(status.sizes.download, DEFAULT_MODEL.npm.bytes);
  assert.equal(status.sizes.disk, DEFAULT_MODEL.files.reduce((n, f) => n + f.bytes, 0));
  assert.ok(status.sizes.disk > status.sizes.download, 'the files unpack larger than the download');
});
