// No failure inside the plugin reaches the conversation: a missing engine, a failing recall, missing
// optional services, another plugin rejecting the step. Each hook logs and hands the host's value back.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import { RECALL_CONTEXT_NAME } from '../src/host/recall/channel.ts';
import { GUIDELINE_SECTION_NAME, RESIDENT_SECTION_NAME } from '../src/host/resident/channel.ts';
import { isOwn, loadPlugin, makeCorpus, NO_MODEL_INSTALL, recallMessages } from './helpers.ts';

test('an engine that cannot open leaves the plugin loaded and inert; turns run normally', async (t) => {
  const corpus = makeCorpus();
  const host = createHost();
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  await host.load(createHostPlugin({ env: {} }), { diaryDir: join(corpus.root, 'does-not-exist'), dataDir: corpus.dataDir, tools: { profile: 'full' }, ...NO_MODEL_INSTALL });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  assert.equal(turn.status, 'completed');
  assert.equal(turn.requests[0]!.messages.filter((m) => isOwn(m)).length, 0);
  assert.ok(host.logs.some((l) => l.level === 'error' && /engine failed to open.*diary-dir-missing/.test(l.message)));
  const toolResult = turn.events.find((e) => e.type === 'tool/result')!;
  assert.match(toolResult.data.message.content[0].text, /\[not-ready\]/, 'tools say why they cannot work');
  await host.settle();
  host.assertClean();
});

test('a recall that throws mid-session is logged; the step goes on with the host’s decision', async (t) => {
  const { host, engine } = await loadPlugin(t);
  const session = host.createSession();
  await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  const original = engine.recall.bind(engine);
  engine.recall = async () => {
    throw new Error('database is locked');
  };
  t.after(() => {
    engine.recall = original;
  });
  const turn = await session.userTurn('东京节点的端口是多少', [{ text: 'ok' }]);
  assert.equal(turn.status, 'completed');
  assert.equal(recallMessages(turn.requests[0]!).length, 1, 'only the earlier block');
  assert.ok(host.logs.some((l) => l.level === 'warn' && /recall user-message .*failed: database is locked/.test(l.message)));
  await host.settle();
  host.assertClean();
});

test('a step another plugin rejects stays rejected', async (t) => {
  const { host } = await loadPlugin(t);
  await host.load({
    name: 'gate',
    apply(ctx) {
      // Registered after engram: engram's `await next()` returns this reject, which engram must pass on.
      ctx.on('agent/pre-step', async () => ({ kind: 'reject' }));
    },
  });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(turn.status, 'blocked');
  assert.equal(turn.requests.length, 0);
});

test('without the tools and HTTP services the plugin still loads and injects', async (t) => {
  const { host } = await loadPlugin(t, { host: { tools: false, httpService: 'none' } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(recallMessages(turn.requests[0]!).length, 1);
  assert.doesNotMatch(turn.requests[0]!.system, /engram_search/, 'no tool guidance without tools');
  await host.settle();
  host.assertClean();
});

test('unloading removes every registration and closes the engine', async (t) => {
  const { host, engine } = await loadPlugin(t);
  assert.ok(host.systemPrompt.sectionNames().includes(RESIDENT_SECTION_NAME));
  assert.ok(host.systemPrompt.contextNames().includes(RECALL_CONTEXT_NAME));
  host.unload('engram');
  assert.ok(!host.systemPrompt.sectionNames().includes(RESIDENT_SECTION_NAME));
  assert.ok(!host.systemPrompt.sectionNames().includes(GUIDELINE_SECTION_NAME));
  assert.ok(!host.systemPrompt.contextNames().includes(RECALL_CONTEXT_NAME));
  assert.equal(host.tools!.names().filter((n) => n.startsWith('engram_')).length, 0);
  assert.equal(host.http!.paths().filter((p) => p.startsWith('/engram')).length, 0);
  await assert.rejects(engine.recall('周报'));
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(turn.requests[0]!.messages.filter((m) => isOwn(m)).length, 0);
});
