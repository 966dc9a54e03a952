// First start installs the embedding model (embedding.provider auto, none in the data dir), in the
// background: the conversation never waits for it and never sees its failure; recall is lexical
// until the model is in place and semantic after; a failure leaves recall lexical with the reason in
// the log and in GET /engram/status. No network: the source is a folder (the real model from the
// test cache, like `engram model install --from DIR`), a folder that does not exist, or an install
// step that only ends when the plugin unloads.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SimHost } from '@engram/dsh-sim';
import { DEFAULT_MODEL, installedModel, installModel, ModelInstallError } from '@engram/engine';
import { STATUS_PATH } from '../src/host/routes/index.ts';
import type { ModelAutoInstall } from '../src/host/model/index.ts';
import { loadPlugin, recallMessages } from './helpers.ts';

const cached = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
const modelAvailable = Boolean(cached && installedModel(cached));
if (!modelAvailable && process.env.CI) throw new Error('CI must run the real-model tests: set ENGRAM_TEST_MODEL_DATA_DIR to a data dir with the model (scripts/test-all.mjs does)');

// Installs land in the user's model cache: this file gets its own, so no later test sees its model.
const modelCache = mkdtempSync(join(tmpdir(), 'engram-plugin-model-cache-'));
process.env.ENGRAM_MODEL_CACHE = modelCache;
after(() => rmSync(modelCache, { recursive: true, force: true }));

interface Status {
  engine: { ready: boolean; semantic?: string; semanticReason?: string | null; vectors?: number };
  model: {
    state: string;
    reason: string | null;
    source: string;
    phase: string | null;
    download: { doneBytes: number; totalBytes: number; bytesPerSecond: number; etaSeconds: number | null } | null;
  };
}
const statusOf = async (host: SimHost): Promise<Status> => (await (await fetch(`${await host.listen()}${STATUS_PATH}`)).json()) as Status;
/** The one-line-per-recall log (formatRecallLog), not the injection notes. */
const recallLogs = (host: SimHost): string[] => host.logs.map((l) => l.message).filter((m) => /^recall \S+ session=\S+ mode=/.test(m));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('a model source that fails: recall stays lexical, the reason is logged and in the status route, the conversation goes on', async (t) => {
  let install: ModelAutoInstall | undefined;
  const { host, corpus } = await loadPlugin(t, {
    config: { model: { autoInstall: true, from: '/nonexistent/engram-model-source' } },
    deps: { onModelInstall: (i) => (install = i) },
  });
  assert.ok(install, 'the plugin decided about the install');
  const outcome = await install.done;
  assert.equal(outcome.state, 'failed');
  assert.match(outcome.reason ?? '', /no model folder \(config\.json\) found in \/nonexistent\/engram-model-source/);
  assert.ok(host.logs.some((l) => l.level === 'warn' && /embedding model install failed, recall stays lexical: .*no model folder/.test(l.message)));

  const status = await statusOf(host);
  assert.equal(status.model.state, 'failed');
  assert.match(status.model.reason ?? '', /no model folder/);
  assert.equal(status.engine.ready, true);
  assert.equal(status.engine.semantic, 'off');
  assert.equal(existsSync(join(corpus.dataDir, 'models', 'BAAI')), false, 'nothing half-installed');

  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: '好的' }]);
  assert.equal(turn.status, 'completed');
  assert.match(recallMessages(turn.requests[0]!)[0]?.content ?? '', /周报每周五下午写/, 'lexical recall answers');
  await host.settle();
  host.assertClean();
});

test('an install that has not finished never holds up a turn; unloading the plugin cancels it', async (t) => {
  let install: ModelAutoInstall | undefined;
  let signal: AbortSignal | undefined;
  const { host } = await loadPlugin(t, {
    config: { model: { autoInstall: true } },
    deps: {
      onModelInstall: (i) => (install = i),
      // Stands in for a registry that does not answer: it ends only when the plugin stops it.
      modelInstall: {
        install: (opts) =>
          new Promise((_resolve, reject) => {
            signal = opts.signal;
            opts.signal?.addEventListener('abort', () => reject(new ModelInstallError('model install cancelled', 'aborted')));
          }),
      },
    },
  });
  assert.equal(install?.status().state, 'running');
  assert.equal((await statusOf(host)).model.state, 'running');

  const session = host.createSession();
  const turn = await session.userTurn('东京节点的端口是多少', [{ text: '8443' }]);
  assert.equal(turn.status, 'completed');
  assert.match(recallMessages(turn.requests[0]!)[0]?.content ?? '', /8443/);
  assert.match(recallLogs(host).at(-1) ?? '', /semantic-skipped=/, 'recall ran lexical only');
  assert.equal(install?.status().state, 'running', 'the turn did not wait for the install');

  host.unload('engram');
  assert.equal(signal?.aborted, true, 'unloading stopped the install');
  assert.equal((await install!.done).state, 'failed');
});

test('the download is announced with its size and how to decline it; the status route shows bytes, speed and time left', async (t) => {
  const halfway = deferred();
  const finish = deferred();
  let install: ModelAutoInstall | undefined;
  const { host } = await loadPlugin(t, {
    config: { model: { autoInstall: true } },
    deps: {
      onModelInstall: (i) => (install = i),
      // Stands in for the registry: the model arrives in two steps, then this platform's runtime.
      modelInstall: {
        runtimeMissing: () => true,
        runtimeBytes: async () => 20_000_000,
        install: async (opts) => {
          opts.onProgress?.({ phase: 'download', done: 8_000_000, total: 16_000_000 });
          halfway.resolve();
          await finish.promise;
          opts.onProgress?.({ phase: 'download', done: 16_000_000, total: 16_000_000 });
          throw new ModelInstallError('stopped here by the test', 'source');
        },
      },
    },
  });
  await halfway.promise;
  const announced = host.logs.find((l) => /embedding model not installed: downloading/.test(l.message))?.message ?? '';
  assert.match(announced, /≈ 36\.3 MB/, 'model (its pinned tarball size) + runtime, announced before the download');
  assert.match(announced, /ONNX runtime for \S+ 20\.0 MB/);
  assert.match(announced, /model\.autoInstall to false to decline/);
  await new Promise((ok) => setTimeout(ok, 20));
  const { download } = (await statusOf(host)).model;
  assert.ok(download, 'the status route has the download');
  assert.equal(download.doneBytes, 8_000_000);
  assert.equal(download.totalBytes, 36_338_020);
  assert.ok(download.bytesPerSecond > 0);
  assert.ok((download.etaSeconds ?? 0) > 0, 'time left at the current speed');
  finish.resolve();
  assert.equal((await install!.done).state, 'failed');
  assert.equal(install!.status().download?.doneBytes, 16_000_000);
});

test('the model already in the shared cache but no ONNX runtime: only the runtime is downloaded, and announced as such', async (t) => {
  // The model as `engram model install --runtime no` leaves it in the user's cache (sizes are what is checked without hashing).
  const dir = join(modelCache, ...DEFAULT_MODEL.id.split('/'));
  for (const f of DEFAULT_MODEL.files) {
    mkdirSync(join(dir, f.path, '..'), { recursive: true });
    writeFileSync(join(dir, f.path), Buffer.alloc(f.bytes));
  }
  writeFileSync(join(dir, 'engram-model.json'), JSON.stringify({ ...DEFAULT_MODEL, source: 'test', installedAt: '' }));
  t.after(() => rmSync(join(modelCache, DEFAULT_MODEL.id.split('/')[0] as string), { recursive: true, force: true }));
  let runtimeInstalls = 0;
  let install: ModelAutoInstall | undefined;
  const { host } = await loadPlugin(t, {
    config: { model: { autoInstall: true } },
    deps: {
      onModelInstall: (i) => (install = i),
      modelInstall: {
        runtimeMissing: () => true,
        runtimeBytes: async () => 20_000_000,
        installRuntime: async () => {
          runtimeInstalls++;
          throw new Error('stopped here by the test');
        },
      },
    },
  });
  assert.equal(install?.status().state, 'running', `not skipped: ${install?.status().reason}`);
  await install!.done;
  assert.equal(runtimeInstalls, 1);
  const announced = host.logs.find((l) => /downloading/.test(l.message))?.message ?? '';
  assert.match(announced, /≈ 20\.0 MB \(ONNX runtime/, announced);
});

test('model.autoInstall false, or a provider other than auto: nothing is installed', async (t) => {
  let off: ModelAutoInstall | undefined;
  const a = await loadPlugin(t, { config: { model: { autoInstall: false } }, deps: { onModelInstall: (i) => (off = i) } });
  assert.deepEqual([off?.status().state, off?.status().reason], ['skipped', 'model.autoInstall is false']);
  assert.equal((await statusOf(a.host)).model.state, 'skipped');

  let none: ModelAutoInstall | undefined;
  await loadPlugin(t, { config: { model: { autoInstall: true }, embedding: { provider: 'none' } }, deps: { onModelInstall: (i) => (none = i) } });
  assert.deepEqual([none?.status().state, none?.status().reason], ['skipped', 'embedding.provider is none']);
});

test(
  'first start installs the real model from a folder: lexical while it installs, semantic once it is in place',
  { skip: modelAvailable ? false : 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR; scripts/test-all.mjs installs it)' },
  async (t) => {
    const gate = deferred();
    let install: ModelAutoInstall | undefined;
    const { host, engine, corpus } = await loadPlugin(t, {
      config: { model: { autoInstall: true, from: join(cached as string, 'models') } },
      deps: {
        onModelInstall: (i) => (install = i),
        // The engine's own install from the folder, held until the first turn has run.
        modelInstall: {
          install: async (opts) => {
            await gate.promise;
            return installModel(opts);
          },
        },
      },
    });
    assert.equal(installedModel(corpus.dataDir), null, 'a fresh data dir has no model');
    assert.equal(install?.status().state, 'running');

    const session = host.createSession();
    const before = await session.userTurn('周报怎么写?', [{ text: '好的' }]);
    assert.match(recallMessages(before.requests[0]!)[0]?.content ?? '', /周报每周五下午写/);
    assert.match(recallLogs(host).at(-1) ?? '', /semantic-skipped=/, 'lexical until the model lands');

    gate.resolve();
    const outcome = await install!.done;
    assert.equal(outcome.state, 'done', `install: ${outcome.reason}`);
    assert.ok(installedModel(corpus.dataDir), 'the model is under the plugin data dir');
    const status = await statusOf(host);
    assert.equal(status.model.state, 'done');
    assert.equal(status.engine.semantic, 'ready');
    assert.ok((status.engine.vectors ?? 0) > 0, 'the existing chunks were embedded');
    assert.ok(host.logs.some((l) => /embedding model installed: recall is semantic \+ lexical/.test(l.message)));

    const after = await session.userTurn('东京节点的端口是多少', [{ text: '8443' }]);
    assert.match(recallMessages(after.requests[0]!).at(-1)?.content ?? '', /8443/);
    assert.doesNotMatch(recallLogs(host).at(-1) ?? '', /semantic-skipped=/, 'the semantic channel ran');
    const direct = await engine.recall('东京节点的端口是多少');
    assert.equal(direct.explain.semantic.ran, true);
    assert.ok(direct.explain.semantic.candidates > 0);
    await host.settle();
    host.assertClean();
  },
);
