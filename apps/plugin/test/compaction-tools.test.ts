// history_read, the recheck route, and the optional model assistance through the host's llm.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmCall } from '@engram/dsh-sim';
import { CompactionMemory, modelUsageByDay } from '@engram/engine';
import { COMPACTION_RECHECK_PATH } from '../src/host/compaction/routes.ts';
import { HISTORY_READ_TOOL } from '../src/host/compaction/tools.ts';
import { CLIENT_CONFIG_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { compactionMessages, loadCompactionPlugin } from './compaction-helpers.ts';

const ANSWER = '443 被 nginx 占用。建议东京节点改用 8443 端口,并重启 sing-box 服务。';

test('history_read returns the folded turns verbatim, for the calling session only', async (t) => {
  const { host } = await loadCompactionPlugin(t);
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: ANSWER }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  assert.ok(host.tools!.schemas().some((s) => s.name === HISTORY_READ_TOOL), 'offered to the model');

  const result = await host.tools!.call(HISTORY_READ_TOOL, JSON.stringify({ query: '东京节点端口', k: 1 }), session);
  assert.equal(result.error, undefined);
  assert.ok(result.text.includes(ANSWER), 'the assistant’s words, verbatim');
  assert.ok(result.text.includes('东京节点 443 端口被占用了怎么办?'));
  assert.doesNotMatch(result.text, /周报每周五/, 'k = 1');

  const other = host.createSession({ cwd: '/w' });
  const none = await host.tools!.call(HISTORY_READ_TOOL, JSON.stringify({ query: '东京节点端口' }), other);
  assert.match(none.text, /没有找到/, 'another session sees none of it');
  await host.settle();
  host.assertClean();
});

test('model assistance: keywords at ingest through the host llm; a failing model behaves as if off', async (t) => {
  const { host, engine } = await loadCompactionPlugin(t, { compaction: { assist: { mode: 'main' } } });
  const calls: LlmCall[] = [];
  host.llm!.responder = (call) => {
    calls.push(call);
    return '{"1":["端口冲突","tokyo port"],"2":["周报格式"]}';
  };
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: ANSWER }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  const turn = await session.userTurn('tokyo port 是多少', [{ text: '8443' }]);
  assert.equal(calls.length, 1, 'one call for the batch of dialogue blocks (tool and summary blocks are not sent)');
  assert.equal(calls[0]!.model, 'deepseek-chat', 'mode main uses the session’s own model');
  const memory = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
  const blocks = await memory.listBlocks({ workspace: '/w', sessionId: session.id });
  assert.deepEqual(blocks.find((b) => b.kind === 'dialogue' && /东京/.test(b.body))?.modelKeywords, ['端口冲突', 'tokyo port']);
  assert.equal(compactionMessages(turn.requests[0]!, 'compaction-recall').length, 1, 'the model’s words make an English question hit');

  // A provider that fails: the ingest still stores everything, with no model keywords.
  host.llm!.responder = () => {
    throw new Error('429 rate limit');
  };
  const second = host.createSession({ cwd: '/w' });
  await second.userTurn('数据库迁移要注意什么?', [{ text: '迁移前必须先备份。' }]);
  second.compact({ summary: '## 迁移\n迁移前必须先备份。' });
  const after = await second.userTurn('数据库迁移之前要做什么?', [{ text: '备份' }]);
  assert.equal(compactionMessages(after.requests[0]!, 'compaction-recall').length, 1);
  const stored = await memory.listBlocks({ workspace: '/w', sessionId: second.id });
  assert.ok(stored.length > 0);
  assert.ok(stored.every((b) => b.modelKeywords.length === 0));
  assert.ok(host.logs.some((l) => /assist ingest failed, paused 10 min/.test(l.message)));
  await host.settle();
  host.assertClean();
});

test('recheck route: token and same origin required; a strong local hit skips the rewrite; found blocks come with the next question', async (t) => {
  const { host } = await loadCompactionPlugin(t, { compaction: { assist: { mode: 'model', provider: 'deepseek', model: 'cheap' } } });
  const base = await host.listen();
  const calls: LlmCall[] = [];
  host.llm!.responder = (call) => {
    calls.push(call);
    return call.messages.some((m) => String(m.content).includes('"pick"')) ? '{"pick":1}' : '{"1":["端口"],"2":["周报"]}';
  };
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: ANSWER }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  await session.userTurn('帮我写一个快速排序', [{ text: 'def qs(): ...' }]);
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  const body = JSON.stringify({ sessionId: session.id, query: '东京节点端口' });
  assert.equal((await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body })).status, 403);
  assert.equal((await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body, headers: { [TOKEN_HEADER]: token, origin: 'http://evil.example' } })).status, 403);
  assert.equal((await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body: JSON.stringify({ sessionId: 'nope' }), headers: { [TOKEN_HEADER]: token } })).status, 404);
  const before = calls.length;
  const response = await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body, headers: { [TOKEN_HEADER]: token } });
  assert.equal(response.status, 200);
  const outcome = (await response.json()) as { result: { found: boolean; skippedRewrite: boolean; verdict: number; blocks: { title: string }[] } };
  assert.equal(outcome.result.skippedRewrite, true, 'the local top was strong: no rewrite call');
  assert.equal(outcome.result.verdict, 1);
  assert.equal(outcome.result.found, true);
  assert.equal(calls.length - before, 1, 'only the verdict call');
  // The person just goes on: the found block comes with the next question, whatever it is.
  const next = await session.userTurn('好的,继续', [{ text: 'ok' }]);
  const injected = compactionMessages(next.requests[0]!, 'compaction-recall');
  assert.equal(injected.length, 1);
  assert.ok(injected[0]!.content.includes(outcome.result.blocks[0]!.title.slice(0, 8)));
  await host.settle();
  host.assertClean();
});

test('no thinking-effort parameter on any compaction model call: not passed, not inherited from the session', async (t) => {
  const { host } = await loadCompactionPlugin(t, { compaction: { assist: { mode: 'main' } } });
  const base = await host.listen();
  host.llm!.responder = (call) => (String(call.messages[0]?.content).includes('"pick"') ? '{"pick":1}' : String(call.messages[0]?.content).includes('"keywords"') ? '{"keywords":["端口"]}' : '{"1":["端口"],"2":["周报"]}');
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: ANSWER }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  // The person turned thinking up for the session: the host logs it in the request header's config.
  session.appendEvent('request/header', { header: { config: { provider: 'deepseek', model: 'deepseek-chat', reasoningEffort: 'high' } }, reason: 'change' });
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  await session.userTurn('帮我写一个快速排序', [{ text: 'def qs(): ...' }]);
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  // A vague question: the local top is weak, so look-again makes both the rewrite and the verdict call.
  const response = await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body: JSON.stringify({ sessionId: session.id, query: '那个怎么处理来着' }), headers: { [TOKEN_HEADER]: token } });
  assert.equal(response.status, 200);
  const calls = host.llm!.calls;
  const prompts = calls.map((c) => String(c.messages[0]?.content));
  assert.ok(prompts.some((p) => p.includes('短检索词')), 'an ingest keywords call was made');
  assert.ok(prompts.some((p) => p.includes('"keywords"')), 'a rewrite call was made');
  assert.ok(prompts.some((p) => p.includes('"pick"')), 'a verdict call was made');
  for (const call of calls) {
    // The request carries the route, the prompt and an output cap; DSH's effort field
    // (reasoningEffort) and any look-alike are absent, so the model's own setting applies.
    assert.deepEqual(Object.keys(call).sort(), ['maxTokens', 'messages', 'model', 'owner', 'provider', 'system'], `keys of ${JSON.stringify(call).slice(0, 200)}`);
    assert.doesNotMatch(JSON.stringify(call), /effort|thinking|reasoning/i);
  }
  await host.settle();
  host.assertClean();
});

test('model assistance tokens: the host stream’s usage report is what counts, the estimate only without one', async (t) => {
  const { host, engine } = await loadCompactionPlugin(t, { compaction: { assist: { mode: 'main' } } });
  let usage: { inputTokens: number; outputTokens: number } | undefined = { inputTokens: 900, outputTokens: 75 };
  host.llm!.responder = () => ({ text: '{"1":["端口冲突"],"2":["周报格式"]}', ...(usage ? { usage } : {}) });
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: ANSWER }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  await session.userTurn('东京节点端口', [{ text: '8443' }]);
  await host.settle();
  let today = (await modelUsageByDay(engine.database.db, 1))[0]!.byWork.compaction;
  assert.deepEqual(today, { calls: 1, tokens: 975 }, 'the provider’s count (reasoning included), not the estimate');

  usage = undefined;
  const second = host.createSession({ cwd: '/w' });
  await second.userTurn('数据库迁移要注意什么?', [{ text: '迁移前必须先备份。' }]);
  second.compact({ summary: '## 迁移\n迁移前必须先备份。' });
  await second.userTurn('迁移', [{ text: '备份' }]);
  await host.settle();
  today = (await modelUsageByDay(engine.database.db, 1))[0]!.byWork.compaction;
  assert.equal(today.calls, 2);
  assert.ok(today.tokens > 975 && today.tokens < 975 + 400, `an estimate for the call without a report: ${today.tokens - 975}`);
  host.assertClean();
});
