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
import { loadPlugin, recallMessages } from './helpers.ts';

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
