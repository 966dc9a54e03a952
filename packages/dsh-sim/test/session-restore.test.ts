// A host restart: the session comes back from its journal (same events and seqs, the same
// model-visible history, compactions included), no session/event is replayed to plugins, and the
// conversation goes on with ids that do not collide with the recorded ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, type EventEnvelope } from '../src/index.ts';
import { timelineProbe, todoCall } from './helpers.ts';

test('a resumed session has the recorded log and history, replays nothing, and takes new turns', async () => {
  const first = createHost();
  const session = first.createSession({ cwd: '/w' });
  await session.userTurn('整理一下待办', [todoCall([{ content: '写测试', status: 'in_progress' }]), { text: 'done' }]);
  await session.userTurn('周报怎么写?', [{ text: '周五写' }]);
  session.compact({ summary: '## 待办\n写测试。' });
  await session.userTurn('继续', [{ text: 'ok' }]);
  await first.close();

  const second = createHost();
  const timeline: string[] = [];
  await second.load(timelineProbe(timeline));
  const resumed = second.resumeSession(session);
  assert.equal(resumed.id, session.id);
  assert.deepEqual(resumed.recordedEvents(), session.recordedEvents());
  assert.deepEqual(resumed.keptHistory(), session.keptHistory(), 'the compaction still hides what it folded');
  assert.deepEqual(timeline, [], 'loading a journal emits no session/event');

  const turn = await resumed.userTurn('还有别的吗?', [{ text: '没有了' }]);
  assert.equal(turn.status, 'completed');
  const ids = resumed.recordedEvents().filter((e: EventEnvelope) => e.type === 'user/message').map((e) => e.data.id);
  assert.equal(new Set(ids).size, ids.length, 'new message ids do not collide with recorded ones');
  assert.ok(turn.turn > session.turnCount, 'turn numbers go on');
  assert.throws(() => second.createSession({ id: session.id }), /already exists/);
  assert.notEqual(second.createSession().id, session.id);
  await second.close();
});
