// A follow-up names its subject only through the previous message (「那它现在多重？」 after a question
// about the cat): alone the gates silence it; the plugin asks again with the previous message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFollowUp } from '../src/host/recall/follow-up.ts';
import { loadPlugin, recallMessages } from './helpers.ts';

test('a short message that points back is a follow-up; a message that names its subject is not', () => {
  for (const t of ['那它现在多重？', '他后来怎么样了', 'what about it?', '这个呢']) assert.ok(isFollowUp(t), t);
  for (const t of ['猫咪体检的结果', '周报怎么写?', '', '那'.repeat(60)]) assert.ok(!isFollowUp(t), t);
  // Written in 繁體 (這個, 這些): the pointing words read as the engine reads the words.
  for (const t of ['這個現在多少錢？', '價格還是這些嗎', '這條後來改了沒有']) assert.ok(isFollowUp(t), t);
});

test('a follow-up silenced alone is recalled with the previous message, and the log says so', async (t) => {
  const { host, engine } = await loadPlugin(t);
  const followUp = '那它现在多重？';
  const alone = await engine.recall(followUp);
  assert.equal(alone.hits.length, 0, 'alone it recalls nothing');
  assert.ok(['no-distinctive-query', 'vague-query'].includes(alone.explain.gate.silencedBy?.rule ?? ''), JSON.stringify(alone.explain.gate.silencedBy));
  const session = host.createSession();
  await session.userTurn('家里的猫该做体检了', [{ text: '好的' }]);
  const second = await session.userTurn(followUp, [{ text: '4.2 公斤' }]);
  assert.ok(host.logs.some((l) => /a follow-up \((no-distinctive-query|vague-query)\), asked again with the previous message/.test(l.message)));
  const line = host.logs.filter((l) => l.message.startsWith('recall user-message') && l.message.includes('hits=')).at(-1);
  assert.match(line?.message ?? '', /hits=1 \[2026-03-06 猫咪体检\]/);
  // The first turn showed the note already: the follow-up's block leaves it out rather than repeating it.
  assert.ok(recallMessages(second.requests[0]!).length <= 1);
  await host.settle();
});

test('a follow-up in the first message of a session has nothing to lean on and recalls nothing', async (t) => {
  const { host } = await loadPlugin(t);
  const session = host.createSession();
  const turn = await session.userTurn('那它现在多重？', [{ text: '?' }]);
  assert.equal(recallMessages(turn.requests[0]!).length, 0);
  assert.ok(!host.logs.some((l) => l.message.includes('a follow-up')));
  await host.settle();
});

test('a follow-up silenced by any rule, or finding nothing, is asked again with the previous message', async (t) => {
  const { host, engine } = await loadPlugin(t);
  // 抬头 is the invoice note's word, but alone it carries too little of this question for any note.
  const followUp = '它的抬头后来改成英文简称了吗';
  const alone = await engine.recall(followUp);
  assert.equal(alone.hits.length, 0, 'alone it recalls nothing');
  assert.equal(alone.explain.gate.silencedBy?.rule, 'every-candidate', JSON.stringify(alone.explain.gate.silencedBy));
  const session = host.createSession();
  await session.userTurn('报销发票要交给谁？', [{ text: '财务' }]);
  await session.userTurn(followUp, [{ text: '没有' }]);
  assert.ok(host.logs.some((l) => /a follow-up \(every-candidate\), asked again with the previous message/.test(l.message)), host.logs.map((l) => l.message).join('\n'));
  const line = host.logs.filter((l) => l.message.startsWith('recall user-message') && l.message.includes('hits=')).at(-1);
  assert.match(line?.message ?? '', /hits=1 \[2026-03-09 发票报销规则\]/);

  // Words that reach no note at all: asked again as well.
  const nowhere = '它用的是哪个防火墙';
  assert.equal((await engine.recall(nowhere)).explain.gate.silencedBy ?? null, null, 'no candidate, so no rule silenced it');
  await session.userTurn('东京节点的端口后来怎么处理的', [{ text: '改用 8443' }]);
  await session.userTurn(nowhere, [{ text: '?' }]);
  assert.ok(host.logs.some((l) => /a follow-up \(no candidates\), asked again with the previous message/.test(l.message)));
  const last = host.logs.filter((l) => l.message.startsWith('recall user-message') && l.message.includes('hits=')).at(-1);
  assert.match(last?.message ?? '', /hits=1 \[2026-03-02 东京节点端口处置\]/);
  await host.settle();
});
