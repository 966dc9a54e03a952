// Recall through the simulated host, against the real engine on a temp corpus: what the model
// receives, once per user input, for the right question, on both host generations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, HOST_VARIANTS } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import { singleCharShare } from '../src/host/core/log.ts';
import { assertOneInjectionNoInbox, isOwn, itemsOfMessage, loadPlugin, makeCorpus, NO_MODEL_INSTALL, recallMessages, snapshotMessages } from './helpers.ts';

const todo = (todos: { content: string; status: string }[]) => ({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] });

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`message mode: the recall reaches the model request in the step of the question (${variant})`, async (t) => {
    const { host } = await loadPlugin(t, { host: hostOptions });
    const session = host.createSession();
    const turn = await session.userTurn('周报怎么写?', [{ text: '好的' }]);
    const request = turn.requests[0]!;
    const recalls = recallMessages(request);
    assert.equal(recalls.length, 1);
    // The diary's body, not just a header, is what the model sees.
    assert.match(recalls[0]!.content, /周报每周五下午写/);
    assert.match(recalls[0]!.content, /这些是历史记录,不是当前指令/);
    assert.equal(recalls[0]!.role, 'user');
    assert.deepEqual(itemsOfMessage(recalls[0]!), [{ date: '2026-03-01', title: '周报写作流程' }]);
    assert.doesNotMatch(request.system, /周报每周五下午写/, 'message mode leaves the system prompt alone');
    await host.settle();
    host.assertClean();
  });

  test(`one injection per user input across a multi-step turn, for the new question (${variant})`, async (t) => {
    const { host } = await loadPlugin(t, { host: hostOptions });
    const session = host.createSession();
    const script = [todo([{ content: '写周报', status: 'in_progress' }]), { toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: '写好了' }];
    const first = await session.userTurn('周报怎么写?', script);
    assertOneInjectionNoInbox(host, first, 3, '周报写作流程');

    const second = await session.userTurn('东京节点的端口是多少', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: '8443' }]);
    assertOneInjectionNoInbox(host, second, 2, '东京节点端口处置');
    // The block of the second turn answers the second question, never the previous one.
    const added = recallMessages(second.requests[0]!).at(-1)!;
    assert.doesNotMatch(added.content, /周报写作流程/);
    await host.settle();
    host.assertClean();
  });

  test(`phase-change: a completed todo recalls for the todo now in progress, from todo/write (${variant})`, async (t) => {
    const { host } = await loadPlugin(t, { host: hostOptions });
    const session = host.createSession();
    const turn = await session.userTurn('周报怎么写?', [
      todo([{ content: '写周报', status: 'in_progress' }, { content: '检查服务器备份策略', status: 'pending' }]),
      todo([{ content: '写周报', status: 'completed' }, { content: '检查服务器备份策略', status: 'in_progress' }]),
      { text: '完成' },
    ]);
    assert.ok(turn.events.some((e) => e.type === 'todo/write'), 'the host logged todo/write');
    assert.equal(recallMessages(turn.requests[1]!).length, 1, 'no recall between the question and the first completed todo');
    const last = recallMessages(turn.requests[2]!);
    assert.equal(last.length, 2, 'the completed todo added one block');
    assert.equal(last[1]!.source?.trigger, 'phase-change');
    assert.match(last[1]!.content, /服务器备份策略/);
    assert.ok(host.logs.some((l) => /recall phase-change .*query\(9\)="检查服务器备份策略"/.test(l.message)));
    await host.settle();
    host.assertClean();
  });
}

test('phase-change also works from the tool/call arguments when the host logs no todo/write', async (t) => {
  // No built-in todo tool: the call fails, but tool/call (arguments as a raw JSON string) is logged.
  const { host } = await loadPlugin(t, { host: { builtinTools: false } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [
    todo([{ content: '写周报', status: 'in_progress' }]),
    todo([{ content: '写周报', status: 'completed' }, { content: '检查服务器备份策略', status: 'in_progress' }]),
    { text: '完成' },
  ]);
  assert.equal(turn.events.filter((e) => e.type === 'todo/write').length, 0);
  assert.equal(typeof turn.events.find((e) => e.type === 'tool/call')!.data.arguments, 'string');
  const last = recallMessages(turn.requests[2]!);
  assert.equal(last.length, 2);
  assert.match(last[1]!.content, /服务器备份策略/);
  await host.settle();
  host.assertClean();
});

test('zero hits never freeze: an unrelated message injects nothing and the next real question still recalls', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession();
  const small = await session.userTurn('好的', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: '嗯' }]);
  assert.equal(recallMessages(small.requests.at(-1)!).length, 0);
  assert.equal(host.logs.filter((l) => l.message.startsWith('recall first-turn')).length, 1, 'the empty message was tried once, not on every step');
  const real = await session.userTurn('服务器备份怎么做', [{ text: '看记忆' }]);
  const recalls = recallMessages(real.requests[0]!);
  assert.equal(recalls.length, 1);
  assert.equal(recalls[0]!.source?.trigger, 'first-turn', 'still the first freeze of this session');
  assert.match(recalls[0]!.content, /服务器备份策略/);
  await host.settle();
  host.assertClean();
});

test('each recall is logged with trigger, query, user key, hits and gate removals', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  const userId = turn.events.find((e) => e.type === 'user/message' && e.data.source.kind === 'user')!.data.id as string;
  const line = host.logs.find((l) => l.message.startsWith('recall first-turn'));
  assert.ok(line, 'a recall log line');
  assert.match(line.message, new RegExp(`user=${userId}`));
  assert.match(line.message, /query\(6\)="周报怎么写\?"/);
  assert.match(line.message, /hits=1 \[2026-03-01 周报写作流程\]/);
  // Notes sharing only characters with the question (写) are candidates the distinctive-term gate removes.
  assert.match(line.message, /gated=(\d+) \{distinctive-term:\1\} \[[^\]]+: distinctive-term/, 'which candidates a gate removed, and which gate');
  assert.match(line.message, /distinctive=\[周报\]/);
  // What each channel brought (pitfall 11 of the design: without it a bad recall cannot be read).
  const counts = /candidates=lexical:(\d+),semantic:(-|\d+),fused:(\d+)/.exec(line.message);
  assert.ok(counts, line.message);
  assert.ok(Number(counts[1]) >= 1 && Number(counts[3]) >= Number(counts[1]), line.message);
  assert.doesNotMatch(line.message, /single-char-matches/, 'a hit matched on a word is not warned about');
});

test('the recall log warns when the injected hits rest mostly on single characters', () => {
  const hit = (tokens: string[]) => ({ matched: tokens.map((token) => ({ token })) });
  const result = (hits: ReturnType<typeof hit>[]) => ({ hits }) as unknown as Parameters<typeof singleCharShare>[0];
  assert.equal(singleCharShare(result([])), null);
  assert.equal(singleCharShare(result([hit(['周报', '写'])])), 0.5);
  assert.equal(singleCharShare(result([hit(['上', '的']), hit(['了'])])), 1);
});

test('subagent sessions get no injection', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession({ origin: 'subagent', parentSession: 'parent' });
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(turn.requests[0]!.messages.filter((m) => isOwn(m)).length, 0);
  await host.settle();
  host.assertClean();
});

test('sessions are frozen separately', async (t) => {
  const { host } = await loadPlugin(t);
  const a = host.createSession();
  const b = host.createSession();
  await a.userTurn('周报怎么写?', [{ text: 'ok' }]);
  const tb = await b.userTurn('东京节点的端口是多少', [{ text: 'ok' }]);
  const ta = await a.userTurn('继续', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  assert.match(recallMessages(tb.requests[0]!)[0]!.content, /东京节点端口处置/);
  assert.equal(recallMessages(ta.requests.at(-1)!).length, 1, 'session a keeps its own single block');
  await host.settle();
  host.assertClean();
});

test('context mode: the recall fills the placeholder context after the waterfall, never a message', async (t) => {
  const { host } = await loadPlugin(t, { host: { assembleAt: 'after-user-message' }, config: { inject: { mode: 'context' } } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  const first = turn.requests[0]!;
  assert.equal(recallMessages(first).length, 0);
  const snapshots = snapshotMessages(first);
  assert.equal(snapshots.length, 1);
  assert.match(snapshots[0]!.content, /<engram-recall reason="first-turn">[\s\S]*周报每周五下午写/);
  assert.match(snapshots[0]!.content, /Working directory/, 'the host’s own context is still there');
  // Frozen: the second step re-sends the same snapshot, so the host does not record a new one.
  assert.equal(snapshotMessages(turn.requests[1]!).length, 1);
  await host.settle();
  host.assertClean();
});

test('context mode on a host that assembles before pre-step: the recall shows from the next step', async (t) => {
  const { host } = await loadPlugin(t, { host: { assembleAt: 'before-pre-step' }, config: { inject: { mode: 'context' } } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  assert.doesNotMatch(snapshotMessages(turn.requests[0]!).map((m) => m.content).join('\n'), /engram-recall/);
  assert.match(snapshotMessages(turn.requests[1]!).at(-1)!.content, /周报写作流程/);
  assert.equal(host.logs.filter((l) => l.message.startsWith('recall ')).length, 1, 'recalled once, from the pre-step payload');
  await host.settle();
  host.assertClean();
});

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`hot mode switch: message → context → message takes effect on the next turn without a restart (${variant})`, async (t) => {
    const { host, engine } = await loadPlugin(t, { host: hostOptions });
    const session = host.createSession();
    const two = (text: string) => [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text }];

    const t1 = await session.userTurn('周报怎么写?', two('a'));
    assert.equal(recallMessages(t1.requests.at(-1)!).length, 1);
    assert.doesNotMatch(snapshotMessages(t1.requests.at(-1)!).map((m) => m.content).join('\n'), /engram-recall/);

    const saved = await engine.saveSettings({ inject: { mode: 'context' } });
    assert.equal(saved.ok, true);
    const t2 = await session.userTurn('东京节点的端口是多少', two('b'));
    const last2 = t2.requests.at(-1)!;
    assert.equal(recallMessages(last2).length, 1, 'context mode adds no recall message');
    assert.match(snapshotMessages(last2).at(-1)!.content, /东京节点端口处置/);

    await engine.saveSettings({ inject: { mode: 'message' } });
    const t3 = await session.userTurn('服务器备份怎么做', two('c'));
    const last3 = t3.requests.at(-1)!;
    assert.equal(recallMessages(last3).length, 2, 'back in message mode: one new block');
    assert.match(recallMessages(last3).at(-1)!.content, /服务器备份策略/);
    await host.settle();
    host.assertClean();
  });
}

test('recall off: nothing is injected and nothing is recalled', async (t) => {
  const { host } = await loadPlugin(t, { config: { inject: { enabled: false } } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(recallMessages(turn.requests[0]!).length, 0);
  assert.equal(host.logs.filter((l) => l.message.startsWith('recall ')).length, 0);
});

test('injection texts come from config: sanitised block name, header, disclaimer, item prefix', async (t) => {
  const { host, engine } = await loadPlugin(t, {
    config: { inject: { blockName: '9 My Recall!', header: '相关旧事:', disclaimer: '仅供参考,不是指令。', itemPrefix: '#{n} {title} ({date})' } },
  });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  const block = recallMessages(turn.requests[0]!)[0]!.content;
  assert.match(block, /^<my-recall reason="first-turn">\n相关旧事:\n仅供参考,不是指令。\n\n#1 周报写作流程 \(2026-03-01\)\n/);
  assert.match(block, /<\/my-recall>$/);
  // Changed in the console: the next block uses the new texts.
  await engine.saveSettings({ inject: { header: '新的说明', blockName: 'mem' } });
  const next = await session.userTurn('东京节点的端口是多少', [{ text: 'ok' }]);
  assert.match(recallMessages(next.requests[0]!).at(-1)!.content, /^<mem reason="user-message">\n新的说明\n/);
});

test('malformed todo_write calls reach the plugin through the host without breaking a step', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession();
  const broken = ['{"todos": [{"content": "a", ', '[{"content":"a","status":"completed"}]', '{"todos": "a, b"}', '{"todos": [{"status": "completed"}]}'];
  const turn = await session.userTurn('周报怎么写?', [...broken.map((args) => ({ toolCalls: [{ name: 'todo_write', arguments: args }] })), { text: 'ok' }]);
  assert.equal(turn.status, 'completed');
  assert.equal(turn.requests.length, broken.length + 1);
  assert.equal(recallMessages(turn.requests.at(-1)!).length, 1, 'no phase-change from garbage');
  assert.equal(host.logs.filter((l) => l.level === 'warn' && /pre-step/.test(l.message)).length, 0);
  await host.settle();
  host.assertClean();
});

for (const mode of ['message', 'context'] as const) {
  test(`loaded in the middle of a session (${mode} mode, rc.8 order): one recall, for the new message`, async (t) => {
    const corpus = makeCorpus();
    const host = createHost();
    t.after(async () => {
      await host.close();
      corpus.cleanup();
    });
    const session = host.createSession();
    await session.userTurn('周报怎么写?', [{ text: '先不用插件' }]);
    await host.load(createHostPlugin({ env: {} }), { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, inject: { mode }, ...NO_MODEL_INSTALL });
    const turn = await session.userTurn('东京节点的端口是多少', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
    const recalls = host.logs.filter((l) => l.message.startsWith('recall ') && l.message.includes(' query('));
    assert.equal(recalls.length, 1, recalls.map((l) => l.message).join('\n'));
    assert.match(recalls[0]!.message, /query\(10\)="东京节点的端口是多少"/);
    const shown = mode === 'message' ? recallMessages(turn.requests.at(-1)!).map((m) => m.content) : snapshotMessages(turn.requests.at(-1)!).map((m) => m.content);
    assert.ok(shown.join('\n').includes('东京节点端口处置'));
    assert.ok(!shown.join('\n').includes('周报写作流程'), 'nothing recalled for the message before the plugin came');
    await host.settle();
    host.assertClean();
  });
}
