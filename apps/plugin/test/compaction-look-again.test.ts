// "Look again" (↻ 再查) through the simulator with the real host's session shapes: the question
// after a compaction answered through a tool call (step 1 asks for the tool, step 2 — whose
// pre-step carries no user message — answers), a host restart between the answer and the click,
// and a session that was never compacted (no button there). The step shapes are those of the host's
// agent loop (sumomok/deepseek-harness packages/core/agent-loop/src/agent.ts, preStep(): a step
// after a tool result claims nothing from the inbox, so agent/pre-step gets `messages: []`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOST_VARIANTS, type SimHost } from '@engram/dsh-sim';
import { COMPACTION_RECHECK_PATH } from '../src/host/compaction/routes.ts';
import { CLIENT_CONFIG_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { compactionMessages, fileTools, itemsOf, loadCompactionPlugin } from './compaction-helpers.ts';
import { loadPlugin, makeCorpus } from './helpers.ts';

const SUMMARY = ['## 东京节点端口', '443 端口被 nginx 占用,决定改用 8443,并重启 sing-box。配置在 config/tokyo.yaml。'].join('\n');
const QUESTION = '东京节点现在的端口配置是什么?';

interface Recheck {
  status: number;
  body: { ok: boolean; error?: string; query?: string; result?: { found: boolean; blocks: { title: string }[] }; excerpt?: string };
}

async function tokenOf(host: SimHost): Promise<string> {
  return ((await (await fetch(`${host.baseUrl}${CLIENT_CONFIG_PATH}`)).json()) as { token: string }).token;
}

async function recheck(host: SimHost, sessionId: string, query?: string): Promise<Recheck> {
  const res = await fetch(`${host.baseUrl}${COMPACTION_RECHECK_PATH}`, {
    method: 'POST',
    body: JSON.stringify({ sessionId, ...(query ? { query } : {}) }),
    headers: { [TOKEN_HEADER]: await tokenOf(host) },
  });
  return { status: res.status, body: (await res.json()) as Recheck['body'] };
}

async function availability(host: SimHost, sessionId: string): Promise<{ status: number; available?: boolean }> {
  const res = await fetch(`${host.baseUrl}${COMPACTION_RECHECK_PATH}?sessionId=${encodeURIComponent(sessionId)}`);
  const body = (await res.json()) as { available?: boolean };
  return { status: res.status, available: body.available };
}

/** Two turns, a compaction, then the question answered through a tool call over two steps. */
async function compactedSessionAnsweredByTool(host: SimHost) {
  const session = host.createSession({ cwd: '/work/project' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [
    { toolCalls: [{ name: 'read', arguments: { path: 'config/tokyo.yaml' } }] },
    { text: '443 被 nginx 占用。东京节点改用 8443 端口,并重启 sing-box 服务。' },
  ]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写,先列完成的任务再写计划。' }]);
  session.compact({ summary: SUMMARY });
  const turn = await session.userTurn(QUESTION, [
    { toolCalls: [{ name: 'read', arguments: { path: 'config/tokyo.yaml' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'ss -ltnp' } }] },
    { text: '东京节点监听 0.0.0.0:8443,上游 tokyo-1。' },
  ]);
  assert.equal(turn.requests.length, 3, 'the answer took three steps (two tool calls)');
  return session;
}

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`look again after a tool-call answer: the question before the tool steps is the one rechecked (${variant})`, async (t) => {
    const { host } = await loadPlugin(t, { corpus: makeCorpus([]), host: hostOptions });
    await host.load(fileTools);
    await host.listen();
    const session = await compactedSessionAnsweredByTool(host);
    const outcome = await recheck(host, session.id);
    assert.equal(outcome.status, 200, `look again answered ${outcome.status} ${JSON.stringify(outcome.body)}`);
    assert.equal(outcome.body.query, QUESTION);
    assert.equal(outcome.body.result?.found, true);
    await host.settle();
    host.assertClean();
  });
}

test('look again after a host restart: the compacted session is still known, with its last question', async (t) => {
  const corpus = makeCorpus([]);
  t.after(() => corpus.cleanup());
  const first = await loadPlugin(t, { corpus });
  await first.host.load(fileTools);
  const session = await compactedSessionAnsweredByTool(first.host);
  await first.host.settle();
  await first.host.close();

  // The host starts again: the plugin has seen no step of that session since.
  const second = await loadPlugin(t, { corpus });
  await second.host.listen();
  assert.equal((await availability(second.host, session.id)).available, true, 'the button shows on the compacted session');
  const outcome = await recheck(second.host, session.id);
  assert.equal(outcome.status, 200, `look again answered ${outcome.status} ${JSON.stringify(outcome.body)}`);
  assert.equal(outcome.body.query, QUESTION);
  assert.equal(outcome.body.result?.found, true);
  second.host.assertClean();
});

test('look again is offered only on compacted sessions; what it found can be read verbatim', async (t) => {
  const { host } = await loadPlugin(t, { corpus: makeCorpus([]) });
  await host.load(fileTools);
  await host.listen();
  const plain = host.createSession({ cwd: '/work/project' });
  await plain.userTurn('周报应该怎么写?', [{ toolCalls: [{ name: 'read', arguments: { path: 'a.md' } }] }, { text: '每周五写。' }]);
  const never = await availability(host, plain.id);
  assert.equal(never.status, 200);
  assert.equal(never.available, false, 'a session that was never compacted offers no look-again');
  assert.equal((await availability(host, 'session-unknown')).available, false);

  const compacted = await compactedSessionAnsweredByTool(host);
  assert.equal((await availability(host, compacted.id)).available, true);
  const outcome = await recheck(host, compacted.id);
  assert.equal(outcome.body.result?.found, true);
  // 打开原文: the found passages verbatim (the person's question and the answer), as Markdown.
  assert.match(outcome.body.excerpt ?? '', /东京节点 443 端口被占用了怎么办\?/);
  assert.match(outcome.body.excerpt ?? '', /改用 8443 端口/);
  assert.doesNotMatch(outcome.body.excerpt ?? '', /listen: 0\.0\.0\.0/, 'tool output is not part of the excerpt');
  await host.settle();
  host.assertClean();
});

/** The candidates a verdict prompt lists, in order (their heading lines). */
const verdictCandidates = (prompt: string): string[] => prompt.split('\n').filter((l) => /^\[\d+\] /.test(l));

test('look again brings back the verdict’s pick, even one shown before, and not the candidates the verdict turned down', async (t) => {
  const { host } = await loadCompactionPlugin(t, { compaction: { assist: { mode: 'model', provider: 'deepseek', model: 'cheap' } } });
  await host.listen();
  let shown: string[] = [];
  host.llm!.responder = (call) => {
    const prompt = String(call.messages[0]?.content ?? '');
    if (!prompt.includes('"pick"')) return '{"1":["端口"],"2":["周报"],"3":["证书"]}';
    shown = verdictCandidates(prompt);
    // The judge's pick: the passage about the decision (8443), wherever the local score put it.
    const pick = prompt.split(/\n(?=\[\d+\] )/).findIndex((part) => /^\[\d+\] /.test(part) && part.includes('改用 8443'));
    return `{"pick":${pick}}`;
  };
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: '443 被 nginx 占用。东京节点改用 8443 端口,并重启 sing-box 服务。' }]);
  await session.userTurn('东京节点的证书和端口要一起换吗?', [{ text: '东京节点的证书不用换,端口换成新的以后只要重载 nginx。' }]);
  await session.userTurn('东京节点端口改完要通知谁?', [{ text: '东京节点端口改完要在运维群里通知,东京节点的监控端口也要跟着改。' }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写,先列完成的任务再写计划。' }]);
  session.compact({ summary: '## 周报\n每周五下午写。' });

  // The port passage reaches the model once, by local recall.
  const first = await session.userTurn('东京节点 443 端口被占用了,改成哪个端口?', [{ text: '8443' }]);
  const firstRecall = compactionMessages(first.requests[0]!, 'compaction-recall');
  assert.equal(firstRecall.length, 1, 'local recall injected the port passage');
  assert.match(firstRecall[0]!.content, /改用 8443/);
  await session.userTurn('帮我写一个快速排序', [{ text: 'def qs(): ...' }]);

  const outcome = await recheck(host, session.id, '东京节点端口改成多少了');
  assert.equal(outcome.status, 200, JSON.stringify(outcome.body));
  assert.ok(shown.length >= 2, `the verdict saw several candidates: ${shown.join(' | ')}`);
  assert.equal(outcome.body.result?.found, true);
  const picked = outcome.body.result!.blocks[0]!.title;

  // The person goes on about the same thing: what comes back is the pick (shown before or not) and
  // none of the candidates the verdict turned down for this question.
  const next = await session.userTurn('东京节点端口和证书现在怎么配?', [{ text: 'ok' }]);
  // The first injection is still in the conversation; what this question adds is the new message.
  const injected = compactionMessages(next.requests[0]!, 'compaction-recall').slice(firstRecall.length);
  assert.equal(injected.length, 1, 'the verdict’s pick came back although it was injected before');
  const items = itemsOf(injected[0]!.content);
  assert.equal(items.length, 1, `only the pick: ${items.join(' | ')}`);
  assert.ok(items[0]!.includes(picked.slice(0, 8)), `the pick "${picked}" is what came back: ${items[0]}`);
  await host.settle();
  host.assertClean();
});
