// Item dedupe over a whole session: questions whose recalls overlap, replayed through the host.
// An item (date + title) reaches the history once; blocks written without item metadata are read
// back from their text; maxMessages caps blocks with one warning per distinct block.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSchema, renderRecallBlock } from '@engram/engine';
import type { PluginModule, RequestMessage } from '@engram/dsh-sim';
import { itemKey } from '../src/host/recall/dedupe.ts';
import { CORPUS, itemsOfMessage, loadPlugin, makeCorpus, recallMessages } from './helpers.ts';

/** Overlapping questions, as a real session drifts between topics. */
const REPLAY = [
  '周报怎么写?',
  '周报和服务器备份怎么安排',
  '服务器备份和东京节点端口',
  '东京节点端口和周报',
  '数据库迁移复盘',
  '数据库迁移和服务器备份',
  '发票报销规则',
  '发票报销和周报',
];

const itemsIn = (messages: RequestMessage[]) => messages.flatMap((m) => itemsOfMessage(m).map(itemKey));

test('replayed session: every item reaches the history once, fully shown batches inject nothing', async (t) => {
  const { host, engine } = await loadPlugin(t);
  const session = host.createSession();
  let rawItems = 0;
  for (const question of REPLAY) {
    rawItems += (await engine.recall(question)).hits.length;
    await session.userTurn(question, [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  }
  const finalRecalls = recallMessages(session.requests.at(-1)!);
  const injected = itemsIn(finalRecalls);
  assert.equal(new Set(injected).size, injected.length, `an item was injected twice: ${injected.join(' / ')}`);
  assert.ok(rawItems > injected.length, `dedupe removed repeats (${rawItems} recalled items → ${injected.length} injected)`);
  // Each injected block carries only items not shown before it, and its text lists exactly those.
  for (const m of finalRecalls) {
    const titles = [...m.content.matchAll(/^\[\d+\] \S+ · (.+)$/gm)].map((x) => x[1]);
    assert.deepEqual(titles, itemsOfMessage(m).map((i) => i.title));
  }
  const skippedTurns = host.logs.filter((l) => /already in the history, nothing injected/.test(l.message)).length;
  assert.ok(skippedTurns >= 1, 'at least one batch was entirely old and injected nothing');
  t.diagnostic(`replay: ${REPLAY.length} questions, ${rawItems} recalled items, ${injected.length} injected in ${finalRecalls.length} blocks, ${skippedTurns} batch(es) skipped as already shown`);
  await host.settle();
  host.assertClean();
});

/** Puts one recall block written by an older plugin version (no item metadata) into the first step. */
function legacyInjector(items: { date: string; title: string; text: string }[]): PluginModule {
  let done = false;
  return {
    name: 'legacy-engram',
    apply(ctx) {
      ctx.on('agent/pre-step', async (_payload: unknown, next: () => Promise<{ kind: string; messages: unknown[] }>) => {
        const decision = await next();
        if (done || decision.kind !== 'enter') return decision;
        done = true;
        const text = renderRecallBlock(items, configSchema.parse({}).inject, { frozen: '2026-03-01T09:00' });
        return { ...decision, messages: [...decision.messages, { role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } }] };
      });
    },
  };
}

test('legacy blocks without item metadata are parsed back, so their items are not injected again', async (t) => {
  const question = '周报每周五怎么写,服务器每天几点做增量备份';
  const corpusProbe = await loadPlugin(t);
  const hits = (await corpusProbe.engine.recall(question)).hits;
  assert.ok(hits.length >= 2, 'the question recalls at least two diaries');
  const [legacyHit, ...rest] = hits;

  const { host } = await loadPlugin(t);
  await host.load(legacyInjector([{ date: legacyHit!.date, title: legacyHit!.title, text: legacyHit!.text }]));
  const session = host.createSession();
  await session.userTurn('你好', [{ text: 'hi' }]);
  const turn = await session.userTurn(question, [{ text: 'ok' }]);
  const recalls = recallMessages(turn.requests[0]!);
  assert.equal(recalls.length, 2, 'the legacy block plus one new block');
  assert.equal(itemsOfMessage(recalls[0]!).length, 0, 'the legacy block has no item metadata');
  assert.deepEqual(itemsOfMessage(recalls[1]!).map((i) => i.title), rest.map((h) => h.title));
  assert.ok(!recalls[1]!.content.includes(`· ${legacyHit!.title}`), 'the item the legacy block showed is not repeated');
  await host.settle();
  host.assertClean();
});

test('maxMessages caps recall blocks, with one warning per distinct block', async (t) => {
  const { host } = await loadPlugin(t, { config: { inject: { maxMessages: 2 } } });
  const session = host.createSession();
  for (const question of ['周报怎么写?', '东京节点的端口是多少', '服务器备份怎么做', '数据库迁移复盘']) {
    await session.userTurn(question, [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  }
  assert.equal(recallMessages(session.requests.at(-1)!).length, 2);
  const warnings = host.logs.filter((l) => l.level === 'warn' && /inject\.maxMessages=2 reached/.test(l.message));
  assert.equal(warnings.length, 2, 'two distinct blocks were refused, each warned once (not once per step)');
});

test('maxMessages 0 means unlimited', async (t) => {
  const { host } = await loadPlugin(t, { config: { inject: { maxMessages: 0 } } });
  const session = host.createSession();
  const questions = ['周报怎么写?', '东京节点的端口是多少', '发票报销规则', '日语学习进度', '猫咪体检'];
  for (const question of questions) await session.userTurn(question, [{ text: 'ok' }]);
  assert.equal(recallMessages(session.requests.at(-1)!).length, questions.length);
});

test('a passage cut short by recall.maxChars is shown but not counted as shown, so it can come back whole', async (t) => {
  const long = (what: string) => `灯塔项目${what}。${'灯塔项目的里程碑评审记录,包含范围、风险、负责人和下一步安排。'.repeat(5)}`;
  const corpus = makeCorpus([...CORPUS, ['2026-04-01', '灯塔项目启动会', long('启动会确定了范围')], ['2026-04-02', '灯塔项目中期评审', long('中期评审调整了排期')]]);
  t.after(() => corpus.cleanup());
  const { host, engine } = await loadPlugin(t, { corpus, config: { recall: { maxChars: 300 } } });
  const probe = await engine.recall('灯塔项目的评审');
  assert.equal(probe.hits.length, 2, 'both project diaries are recalled');
  assert.equal(probe.explain.maxChars.truncatedItems, 1, 'the second one is cut by the budget');

  const session = host.createSession();
  const first = await session.userTurn('灯塔项目的评审', [{ text: 'ok' }]);
  const block = recallMessages(first.requests[0]!)[0]!;
  assert.match(block.content, new RegExp(`· ${probe.hits[1]!.title}`), 'the cut passage is in the text');
  assert.deepEqual(itemsOfMessage(block).map((i) => i.title), [probe.hits[0]!.title], 'but only the whole one counts as shown');

  await engine.saveSettings({ recall: { maxChars: 4000 } });
  const second = await session.userTurn('灯塔项目评审的结论', [{ text: 'ok' }]);
  const again = recallMessages(second.requests[0]!).at(-1)!;
  assert.notEqual(again, block);
  assert.deepEqual(itemsOfMessage(again).map((i) => i.title), [probe.hits[1]!.title], 'the cut passage comes back whole, the shown one does not');
});

test('after compaction folds a block away, its items count as unseen again', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession();
  await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  session.compact({ summary: '之前讨论了周报。' });
  const turn = await session.userTurn('周报要发给谁', [{ text: 'ok' }]);
  const visible = recallMessages(turn.requests[0]!);
  assert.equal(visible.length, 1, 'the old block is gone from what the model sees; a new one is there');
  assert.deepEqual(itemsOfMessage(visible[0]!).map((i) => i.title), ['周报写作流程']);
  await host.settle();
  host.assertClean();
});
