// The first turn after a host start: Engram's heavy parts (the embedding model above all) load in
// the background from plugin start; a turn that comes first recalls lexically (the recall log says
// why) instead of waiting for them, and no step waits for a recall longer than recallWaitMs
// (100 ms by default): a recall still running is delivered with a later step. A stand-in semantic
// channel whose model "loads" until the test lets it shows who waited for it; no timings are
// asserted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SemanticPort } from '../../../packages/engine/src/semantic/port.ts';
import type { WarmUp } from '../src/host/recall/warm-up.ts';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import { VIEW_PATH } from '../src/host/routes/light-view.ts';
import { loadPlugin, makeCorpus, recallMessages } from './helpers.ts';

/** A semantic channel whose searches wait on `gate` (the model loading); it then finds nothing. */
function slowModel() {
  const searches: string[] = [];
  let release!: () => void;
  let gate = new Promise<void>((resolve) => (release = resolve));
  const port = {
    status: () => ({ state: 'ready', reason: null, action: null, provider: 'local', fingerprint: null, vectors: 0, dimensions: 0, degradedBatches: 0 }),
    sync: async () => ({ embedded: 0, reused: 0, removed: 0, degradedBatches: [] }),
    search: async (query: string) => {
      searches.push(query);
      await gate;
      return { ran: false as const, skipped: 'stand-in model: no vectors' };
    },
    integrityCheck: async () => ({ checked: 0, minCos: 1, ok: true }),
    close: () => {},
  } satisfies SemanticPort;
  return {
    port,
    searches,
    release: () => release(),
    /** The next searches wait again (the endpoint got slow). */
    block: () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
  };
}

/**
 * The plugin, on the 12-diary corpus, with the slow model. `recallWaitMs`: the real host's 100 ms
 * where the bound is under test; elsewhere a step waits, so a loaded test machine cannot make a
 * lexical recall late (what is under test there is that the turn never asks the loading model).
 */
async function startWithSlowModel(t: { after(fn: () => unknown): void }, recallWaitMs?: number) {
  const model = slowModel();
  let warmUp: WarmUp | undefined;
  const { host } = await loadPlugin(t, {
    config: recallWaitMs === undefined ? {} : { recallWaitMs },
    deps: { engineOptions: { semanticFactory: async () => model.port }, onWarmUp: (w) => (warmUp = w) },
  });
  assert.ok(warmUp, 'the warm-up started with the plugin');
  return { host, model, warmUp: warmUp! };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

test('the first turn recalls lexically while the model loads, without waiting for it; later turns use the model', { timeout: 120_000 }, async (t) => {
  const { host, model, warmUp } = await startWithSlowModel(t);
  // The warm-up reached the model (the word tables are loaded by then); the model is still loading.
  await until(() => model.searches.length === 1);

  const session = host.createSession({ cwd: '/work/app' });
  const first = await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'todo_write', arguments: { todos: [{ content: '写周报', status: 'in_progress' }] } }] }, { text: '好的' }]);
  assert.equal(model.searches.length, 1, 'the turn did not ask the loading model');
  assert.match(recallMessages(first.requests[0]!).map((m) => m.content).join('\n'), /周报写作流程/, 'lexical recall, in the first request');
  assert.ok(host.logs.some((l) => /recall first-turn .*lexical="the embedding model is still loading/.test(l.message)), 'the recall log says it was lexical, and why');

  model.release();
  await warmUp.done;
  const second = await session.userTurn('东京节点的端口是多少', [{ text: '8443' }]);
  assert.equal(model.searches.length, 2, 'once loaded, recall asks the model');
  assert.match(recallMessages(second.requests[0]!).map((m) => m.content).join('\n'), /东京节点端口处置/);
  const line = host.logs.filter((l) => /^recall user-message /.test(l.message)).at(-1)!;
  assert.doesNotMatch(line.message, /lexical=/);
  host.assertClean();
});

test('a step never waits for a recall that takes long: the turn goes on, and the log says so', { timeout: 120_000 }, async (t) => {
  const { host, model, warmUp } = await startWithSlowModel(t, 100);
  model.release();
  await warmUp.done;
  model.block();
  const session = host.createSession({ cwd: '/work/app' });
  const turn = await session.userTurn('发票报销有什么规则?', [{ text: '二十号之前交。' }]);
  assert.equal(turn.status, 'completed', 'the turn ran while its recall could not finish (the model does not answer)');
  assert.ok(host.logs.some((l) => /recall \(pre-step\) session=\S+: still running after 100 ms/.test(l.message)));
  // On a loaded machine the recall may reach the model only after the turn: it gets there, and waits.
  await until(() => model.searches.length === 2);
  model.release();
  await host.settle();
});

test('a host start does not wait for the index to open; a turn that comes first goes on without memory within recallWaitMs, and later turns recall', { timeout: 120_000 }, async (t) => {
  // The index's open is held (its semantic channel does not come up) until the test lets it.
  let letOpen!: () => void;
  const held = new Promise<void>((resolve) => (letOpen = resolve));
  const model = slowModel();
  model.release();
  let opening: Promise<unknown> | undefined;
  const corpus = makeCorpus();
  const host = createHost({});
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  const plugin = createHostPlugin({
    env: {},
    engineOptions: { semanticFactory: async () => (await held, model.port) },
    onOpening: (ready) => (opening = ready),
  });
  const loaded = await Promise.race([
    host.load(plugin, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, tools: { profile: 'full' }, model: { autoInstall: false }, recallWaitMs: 100 }).then(() => 'loaded'),
    new Promise((resolve) => setTimeout(() => resolve('waited for the open'), 20_000)),
  ]);
  assert.equal(loaded, 'loaded', 'the plugin loaded while its index was still opening');
  assert.ok(opening, 'the open goes on in the background');

  const session = host.createSession({ cwd: '/work/app' });
  const first = await session.userTurn('东京节点的端口是多少', [{ text: '我不记得了' }]);
  assert.equal(first.status, 'completed');
  assert.equal(recallMessages(first.requests[0]!).length, 0, 'no memory in a turn that came before the open');
  // One wait for the whole step, said once: not one per hook (the assembly's two, the pre-step).
  assert.equal(host.logs.filter((l) => /the memory index is still opening after 100 ms; this step goes on without memory/.test(l.message)).length, 1, 'the log says why, once');
  assert.match(first.requests[0]!.system, /DailyNoteStart/, 'the diary guideline needs only the settings: it is in the first request');

  // The sidebar's views say it is opening (and the light view asks again), not that it failed.
  const base = await host.listen();
  const status = (await (await fetch(`${base}/engram/status`)).json()) as { engine: { ready: boolean; opening: boolean; error: string | null } };
  assert.deepEqual(status.engine, { ready: false, opening: true, error: null });
  const view = await fetch(`${base}${VIEW_PATH}/api/list`);
  assert.equal(view.status, 503);
  assert.deepEqual(await view.json(), { error: '记忆引擎正在打开，请几秒后再试', opening: true });

  // A tool the model calls meanwhile waits for the open instead of answering "not ready".
  const searched = host.tools!.call('engram_search', JSON.stringify({ query: '东京节点端口' }), session);
  letOpen();
  await opening;
  assert.match((await searched).text, /东京节点端口处置/);
  assert.equal((await fetch(`${base}${VIEW_PATH}/api/list`)).status, 200);
  const second = await session.userTurn('东京节点的端口是多少', [{ text: '8443' }]);
  assert.match(recallMessages(second.requests[0]!).map((m) => m.content).join('\n'), /东京节点端口处置/, 'once open, recall as always');
  host.assertClean();
});
