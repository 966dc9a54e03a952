// The already-shown rule across a host restart. The right memory was injected for an earlier
// question; the host restarts (a new process: the plugin's state is gone, the session comes back
// from its journal with the old recall message in it); a follow-up question recalls the same memory
// first and, below it, one that matched only a word the shown one also matched. Leaving the shown
// one out must not inject that lower one alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitShownHits } from '@engram/engine';
import { CORPUS, loadPlugin, makeCorpus, recallMessages } from './helpers.ts';

const RIGHT = '服务器备份策略';
const BESIDE = '数据库迁移复盘';

test('after a restart, a memory already shown is not replaced by a lower hit that only rode in on the same words', async (t) => {
  const corpus = makeCorpus(CORPUS);
  t.after(() => corpus.cleanup());
  const before = await loadPlugin(t, { corpus });
  const session = before.host.createSession({ cwd: '/work/project' });
  const first = await session.userTurn('服务器全量备份保留多少天?', [{ toolCalls: [{ name: 'todo_write', arguments: { todos: [{ content: '查备份策略', status: 'in_progress' }] } }] }, { text: '保留三十天。' }]);
  assert.match(recallMessages(first.requests[0]!).map((m) => m.content).join('\n'), new RegExp(RIGHT), 'the right memory was shown before the restart');
  await before.host.settle();
  await before.host.close();

  const after = await loadPlugin(t, { corpus });
  const resumed = after.host.resumeSession(session);
  // Both memories come back for the follow-up, the shown one first (what the engine ranks).
  const recalled = await after.engine.recall('那备份要保留多久?');
  assert.deepEqual(recalled.hits.map((h) => h.title), [RIGHT, BESIDE], 'the situation this test is about');

  const turn = await resumed.userTurn('那备份要保留多久?', [{ text: '三十天。' }]);
  const shownBefore = recallMessages(first.requests[0]!).length;
  const added = recallMessages(turn.requests[0]!).slice(shownBefore);
  assert.deepEqual(added.map((m) => m.content).filter((c) => c.includes(BESIDE)), [], `${BESIDE} must not be injected alone`);
  assert.ok(after.host.logs.some((l) => l.message.includes(`left out`) && l.message.includes(BESIDE)), 'the log says why it was left out');
  after.host.assertClean();
});

test('after a restart, a lower hit that answers a part of the question of its own is still injected', async (t) => {
  const corpus = makeCorpus(CORPUS);
  t.after(() => corpus.cleanup());
  const before = await loadPlugin(t, { corpus });
  const session = before.host.createSession({ cwd: '/work/project' });
  const first = await session.userTurn('数据库迁移之前要先做什么?', [{ text: '先备份。' }]);
  assert.match(recallMessages(first.requests[0]!).map((m) => m.content).join('\n'), new RegExp(BESIDE));
  await before.host.close();

  const after = await loadPlugin(t, { corpus });
  const resumed = after.host.resumeSession(session);
  const recalled = await after.engine.recall('服务器备份和数据库迁移');
  assert.equal(recalled.hits[0]?.title, BESIDE, 'the shown memory ranks first');
  assert.ok(recalled.hits.some((h) => h.title === RIGHT), 'the other one matched 服务器, which the shown one did not');
  const turn = await resumed.userTurn('服务器备份和数据库迁移', [{ text: 'ok' }]);
  const added = recallMessages(turn.requests[0]!).slice(recallMessages(first.requests[0]!).length);
  assert.equal(added.length, 1);
  assert.match(added[0]!.content, new RegExp(RIGHT));
  assert.doesNotMatch(added[0]!.content, new RegExp(BESIDE), 'the shown one is not repeated');
  after.host.assertClean();
});

test('the already-shown rule: relations that hold whatever the corpus', () => {
  const hit = (name: string, ...words: string[]) => ({ name, matched: words.map((token) => ({ token })) });
  const hits = [hit('a', '服务器', '备份'), hit('b', '备份'), hit('c', '日语'), hit('d')];
  // Nothing shown: every hit stays, in order.
  assert.deepEqual(splitShownHits(hits, () => false).fresh.map((h) => h.name), ['a', 'b', 'c', 'd']);
  // The top one shown: only a hit with a word of its own stays; nothing is promoted.
  const split = splitShownHits(hits, (h) => h.name === 'a');
  assert.deepEqual(split.fresh.map((h) => h.name), ['c']);
  assert.deepEqual(split.companions.map((c) => c.hit.name), ['b', 'd']);
  // A hit ranked above the shown one is never judged by it.
  assert.deepEqual(splitShownHits(hits, (h) => h.name === 'c').fresh.map((h) => h.name), ['a', 'b']);
  // Only distinctive words count as its own when they are given.
  assert.deepEqual(splitShownHits([hit('a', '备份'), hit('b', '备份', '的')], (h) => h.name === 'a', { distinctive: new Set(['备份']) }).fresh, []);
  // A time-channel answer (memories of a day): each one stands by itself.
  assert.deepEqual(splitShownHits(hits, (h) => h.name === 'a', { byDay: true }).fresh.map((h) => h.name), ['b', 'c', 'd']);
});
