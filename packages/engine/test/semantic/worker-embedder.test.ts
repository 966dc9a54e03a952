// The local model in a worker thread (src/semantic/worker-embedder.ts): the main thread never loads
// the ONNX runtime, vectors match the inline embedder's, faults keep their kinds, a crashed worker
// is replaced, and an idle worker is ended and started again on the next request.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EmbeddingFault } from '../../src/semantic/embedding-fault.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';
import { WorkerEmbedder, workerEntry } from '../../src/semantic/worker-embedder.ts';
import { buildTinyModel } from './tiny-onnx.ts';

const FAKE = join(import.meta.dirname, 'fake-embed-worker.mjs');
const FIXTURE = join(import.meta.dirname, 'main-thread-runtime.fixture.ts');

let root: string;
let modelDir: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-worker-embedder-'));
  modelDir = buildTinyModel(join(root, 'tiny-bert'), { dims: 16 });
});
after(() => rmSync(root, { recursive: true, force: true }));

const kindOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    assert.ok(e instanceof EmbeddingFault, `not an EmbeddingFault: ${String(e)}`);
    return e.kind;
  }
};

/** Waits (bounded, not timed) until the condition holds: the idle timer and thread exit are asynchronous. */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((ok) => setTimeout(ok, 10));
  assert.ok(cond(), what);
}

describe('the main thread and the ONNX runtime', () => {
  const run = (mode: string) => {
    const dir = join(root, mode);
    mkdirSync(dir, { recursive: true });
    const res = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, modelDir, mode, dir], { encoding: 'utf8', cwd: import.meta.dirname });
    assert.equal(res.status, 0, res.stderr);
    return JSON.parse(res.stdout.trim().split('\n').pop() as string) as { dims: number; hits: number; runtimeInMainThread: boolean; nativeInProcess: boolean };
  };

  it('the inline embedder loads onnxruntime-node into the calling thread (what the check detects)', () => {
    const r = run('embedder-main');
    assert.equal(r.dims, 16);
    assert.equal(r.runtimeInMainThread, true);
    assert.equal(r.nativeInProcess, true);
  });

  it('thread: worker — the calling thread never loads it, the process does (in the worker), and the vectors come', () => {
    const r = run('embedder-thread');
    assert.equal(r.dims, 16);
    assert.equal(r.runtimeInMainThread, false);
    assert.equal(r.nativeInProcess, true);
  });

  it('thread: worker, isolation: process — not even the calling process loads it', () => {
    const r = run('embedder-process');
    assert.equal(r.dims, 16);
    assert.equal(r.runtimeInMainThread, false);
    assert.equal(r.nativeInProcess, false);
  });

  for (const isolation of ['thread', 'process']) {
    it(`an engine opened with model.thread = worker (${isolation}) searches semantically without loading it in its thread`, () => {
      const r = run(`engine-${isolation}`);
      assert.equal(r.dims, 16);
      assert.ok(r.hits > 0, 'the semantic channel answered');
      assert.equal(r.runtimeInMainThread, false);
      assert.equal(r.nativeInProcess, isolation === 'thread');
    });
  }
});

it('finds its entry next to its own module (the .ts source here)', () => {
  assert.match(workerEntry() ?? '', /embed-worker\.ts$/);
});

for (const isolation of ['thread', 'process'] as const) describe(`worker embedder (${isolation}) with the tiny ONNX model`, () => {
  it('gives the same vectors as the inline embedder, as Float32Arrays, and reports the same facts', async () => {
    const texts = ['coffee with milk', '今天天气晴朗', '记忆向量检索 42', 'zebra'];
    const inline = await LocalEmbedder.load(modelDir, { model: 'tiny-bert' });
    const worker = await WorkerEmbedder.load(modelDir, { model: 'tiny-bert' }, { isolation, idleMs: 0 });
    try {
      assert.equal(worker.dimensions, inline.dimensions);
      assert.equal(worker.endpoint, inline.endpoint);
      assert.equal(worker.model, inline.model);
      assert.equal(worker.quantised, inline.quantised);
      assert.equal(worker.provider, 'local');
      assert.equal(worker.remote, false);
      const a = await inline.embed(texts, { purpose: 'document' });
      const b = await worker.embed(texts, { purpose: 'document' });
      assert.equal(b.length, texts.length);
      for (let i = 0; i < texts.length; i++) {
        assert.ok(b[i] instanceof Float32Array);
        assert.deepEqual([...(b[i] as Float32Array)], [...(a[i] as Float32Array)], texts[i]);
      }
    } finally {
      await inline.dispose();
      await worker.dispose();
    }
  });

  it('after idling the worker is ended; the next request starts a new one and gets identical vectors', async () => {
    const e = await WorkerEmbedder.load(modelDir, { model: 'tiny-bert' }, { isolation, idleMs: 20 });
    try {
      const texts = ['记忆向量检索', 'coffee 42'];
      const first = await e.embed(texts);
      await until(() => !e.alive, 'the idle worker ended');
      assert.equal(e.starts, 1);
      const again = await e.embed(texts);
      assert.equal(e.starts, 2, 'a fresh worker answered');
      for (let i = 0; i < texts.length; i++) assert.deepEqual([...(again[i] as Float32Array)], [...(first[i] as Float32Array)]);
    } finally {
      await e.dispose();
    }
    assert.equal(e.alive, false);
    assert.equal(await kindOf(e.embed(['after dispose'])), 'unavailable');
  });

  it('an abort reaches the caller as aborted; a model directory without weights is refused before any thread starts', async () => {
    const e = await WorkerEmbedder.load(modelDir, { model: 'tiny-bert' }, { isolation, idleMs: 0 });
    try {
      const ctl = new AbortController();
      const pending = e.embed(['咖啡猫狗'], { signal: ctl.signal });
      ctl.abort();
      assert.equal(await kindOf(pending), 'aborted');
      assert.equal(await kindOf(e.embed(['x'], { signal: ctl.signal })), 'aborted');
      assert.equal((await e.embed(['still works'])).length, 1);
    } finally {
      await e.dispose();
    }
    assert.equal(await kindOf(WorkerEmbedder.load(join(root, 'nowhere'), { model: 'x' }, { isolation })), 'unavailable');
  });
});

for (const isolation of ['thread', 'process'] as const) describe(`worker embedder (${isolation}) faults, with a stand-in worker`, () => {
  const load = (model = 'fake', idleMs = 0) => WorkerEmbedder.load(modelDir, { model }, { entry: FAKE, idleMs, isolation });

  it('a request the worker never answers times out', async () => {
    const e = await load();
    try {
      assert.equal(await kindOf(e.embed(['hang'], { timeoutMs: 30 })), 'timeout');
      assert.equal((await e.embed(['ok']))[0]?.length, 4, 'the worker still serves');
    } finally {
      await e.dispose();
    }
  });

  it("the worker's own fault kinds come through (timeout, aborted, unavailable)", async () => {
    const e = await load();
    try {
      for (const kind of ['timeout', 'aborted', 'unavailable']) assert.equal(await kindOf(e.embed([`fault:${kind}`])), kind);
    } finally {
      await e.dispose();
    }
  });

  it('a crashed worker answers unavailable and the next call starts a fresh one', async () => {
    const e = await load();
    try {
      assert.equal(await kindOf(e.embed(['crash'])), 'unavailable');
      await until(() => !e.alive, 'the crashed worker is gone');
      const [v] = await e.embed(['four']);
      assert.deepEqual([...(v as Float32Array)], [4, 1, 0, 0]);
      assert.equal(e.starts, 2);
    } finally {
      await e.dispose();
    }
  });

  it('a model the worker cannot load is refused at load, as unavailable with its reason', async () => {
    await assert.rejects(load('fail-load'), (err: unknown) => err instanceof EmbeddingFault && err.kind === 'unavailable' && /cannot load/.test(err.message));
  });

  it('a missing worker file is unavailable, not a crash', async () => {
    await assert.rejects(WorkerEmbedder.load(modelDir, { model: 'x' }, { entry: join(root, 'no-such-worker.mjs'), isolation }), (err: unknown) => err instanceof EmbeddingFault && err.kind === 'unavailable');
  });
});
