import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, type EventEnvelope, type PluginModule, type UserMessage } from '../src/index.ts';
import { timelineProbe, todoCall } from './helpers.ts';

const CONTRACT_ORDER_TWO_STEPS = [
  'turn/start',
  'agent/inbox/spliced',
  '[assemble]',
  '[pre-step 1]',
  'step/start',
  'user/message:user',
  'user/message:plugin:snapshot',
  'request/header',
  'request/context',
  'assistant/chunk…',
  'assistant/message',
  'tool/call',
  'todo/write',
  'tool/result',
  'step/end',
  '[assemble]',
  '[pre-step 2]',
  'step/start',
  'assistant/chunk…',
  'assistant/message',
  'step/end',
  '[turn-stopping]',
  'turn/end',
];

test('a two-step turn with a tool call follows the contract order', async () => {
  const host = createHost();
  const timeline: string[] = [];
  await host.load(timelineProbe(timeline));
  const session = host.createSession();
  const result = await session.userTurn('整理一下待办', [todoCall([{ content: '写测试', status: 'in_progress' }]), { text: 'done' }]);
  assert.deepEqual(timeline, CONTRACT_ORDER_TWO_STEPS);
  assert.equal(result.status, 'completed');
  assert.equal(result.steps, 2);
  assert.equal(result.requests.length, 2);
  host.assertClean();
});

test('newer-host ordering assembles after the step’s user messages are logged', async () => {
  const host = createHost({ assembleAt: 'after-user-message' });
  const timeline: string[] = [];
  await host.load(timelineProbe(timeline));
  await host.createSession().userTurn('hi', [{ text: 'hello' }]);
  assert.deepEqual(timeline.slice(0, 7), ['turn/start', 'agent/inbox/spliced', '[pre-step 1]', 'step/start', 'user/message:user', '[assemble]', 'user/message:plugin:snapshot']);
});

test('at step 1 pre-step the new user message is in payload.messages but not yet in the session events', async () => {
  for (const sessionEvents of ['snapshot', 'events'] as const) {
    const host = createHost({ sessionEvents });
    const seen: { step: number; inPayload: string[]; userTextsInLog: string[] }[] = [];
    const plugin: PluginModule = {
      name: 'reader',
      apply(ctx) {
        ctx.on('agent/pre-step', async (payload: { agent: any; messages: readonly UserMessage[]; step: number }, next: () => Promise<unknown>) => {
          const session = payload.agent.session;
          const events: EventEnvelope[] = typeof session.snapshotEvents === 'function' ? session.snapshotEvents() : session.events;
          seen.push({
            step: payload.step,
            inPayload: payload.messages.map((m) => (m.content[0] as { text: string }).text),
            userTextsInLog: events.filter((e) => e.type === 'user/message' && e.data.source.kind === 'user').map((e) => e.data.content[0].text),
          });
          return next();
        });
      },
    };
    await host.load(plugin);
    const session = host.createSession();
    await session.userTurn('first question', [{ text: 'a' }]);
    await session.userTurn('second question', [todoCall([]), { text: 'b' }]);
    assert.deepEqual(seen, [
      { step: 1, inPayload: ['first question'], userTextsInLog: [] },
      { step: 1, inPayload: ['second question'], userTextsInLog: ['first question'] },
      { step: 2, inPayload: [], userTextsInLog: ['first question', 'second question'] },
    ]);
    host.assertClean();
  }
});

test('exactly one session event API exists per variant, so plugins must feature-detect', () => {
  const rc8 = createHost({ sessionEvents: 'events' }).createSession() as any;
  const current = createHost({ sessionEvents: 'snapshot' }).createSession() as any;
  assert.equal(typeof rc8.snapshotEvents, 'undefined');
  assert.ok(Array.isArray(rc8.events));
  assert.equal(typeof current.snapshotEvents, 'function');
  assert.equal(current.events, undefined);
  assert.equal('events' in current, false);
});

test('tool/call arguments are raw JSON strings while todo/write carries an array', async () => {
  const host = createHost();
  const session = host.createSession();
  await session.userTurn('go', [todoCall([{ content: 'x', status: 'completed' }, { content: 'y', status: 'pending' }]), { text: 'ok' }]);
  const events = session.recordedEvents();
  const call = events.find((e) => e.type === 'tool/call')!;
  assert.equal(typeof call.data.arguments, 'string');
  assert.equal(call.data.arguments.todos, undefined, 'reading .todos off the string is the pitfall #15 bug');
  assert.equal(JSON.parse(call.data.arguments).todos.length, 2);
  const write = events.find((e) => e.type === 'todo/write')!;
  assert.ok(Array.isArray(write.data.todos));
  assert.deepEqual(write.data.todos.map((t: { status: string }) => t.status), ['completed', 'pending']);
  assert.ok(call.seq < write.seq && write.seq < events.find((e) => e.type === 'tool/result')!.seq);
});

test('events are frozen: a plugin cannot rewrite the log through what it receives', async () => {
  const host = createHost();
  const session = host.createSession();
  await session.userTurn('hi', [{ text: 'yo' }]);
  const event = session.recordedEvents().find((e) => e.type === 'user/message')!;
  assert.throws(() => {
    (event.data.content as unknown[]).push({ type: 'text', text: 'x' });
  }, TypeError);
});

test('session/event reaches listeners for every logged event, and a throwing listener never breaks the turn', async () => {
  const host = createHost();
  const delivered: number[] = [];
  await host.load({
    name: 'listener',
    apply(ctx) {
      ctx.on('session/event', (_s: unknown, event: EventEnvelope) => {
        delivered.push(event.seq);
      });
      ctx.on('session/event', async (_s: unknown, event: EventEnvelope) => {
        if (event.type === 'turn/end') throw new Error('async boom');
      });
      ctx.on('session/event', (_s: unknown, event: EventEnvelope) => {
        if (event.type === 'step/start') throw new Error('sync boom');
      });
    },
  });
  const session = host.createSession();
  const result = await session.userTurn('hi', [{ text: 'yo' }]);
  await host.settle();
  assert.equal(result.status, 'completed');
  assert.deepEqual(delivered, session.recordedEvents().map((e) => e.seq));
  assert.deepEqual(host.errors.map((e) => (e.error as Error).message).sort(), ['async boom', 'sync boom']);
  assert.throws(() => host.assertClean(), /boom/);
});

test('plugin-injected messages are logged after the user message and reach the request in order', async () => {
  const host = createHost();
  await host.load({
    name: 'injector',
    apply(ctx) {
      ctx.on('agent/pre-step', async (_payload: unknown, next: () => Promise<any>) => {
        const decision = await next();
        if (decision.kind === 'reject') return decision;
        return { ...decision, messages: [...decision.messages, { role: 'user', content: [{ type: 'text', text: 'memory block' }], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } }] };
      });
    },
  });
  const session = host.createSession();
  const { requests } = await session.userTurn('question', [{ text: 'answer' }]);
  const first = requests[0]!;
  assert.deepEqual(
    first.messages.map((m) => [m.source?.kind, m.source?.form ?? null]),
    [['user', null], ['plugin', 'recall'], ['plugin', 'snapshot']],
  );
  assert.equal(first.messages[1]!.content, 'memory block');
  host.assertClean();
});

test('malformed pre-step results fail the turn loudly', async () => {
  const cases: [string, (next: () => Promise<any>) => Promise<unknown>, RegExp][] = [
    ['forgot to return', async (next) => void (await next()), /agent\/pre-step returned undefined/],
    ['content as a string', async (next) => {
      const d = await next();
      return { ...d, messages: [...d.messages, { role: 'user', content: 'text', source: { kind: 'plugin' } }] };
    }, /content must be an array/],
    ['no source', async (next) => {
      const d = await next();
      return { ...d, messages: [...d.messages, { role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    }, /needs source/],
    ['extra keys', async (next) => {
      const d = await next();
      return { ...d, messages: [...d.messages, { role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'plugin' }, meta: 1 }] };
    }, /unexpected meta/],
    ['mutating the frozen payload', async (next) => {
      const d = await next();
      d.messages.push({ role: 'user', content: [], source: { kind: 'plugin' } });
      return d;
    }, /not extensible|read only|frozen/],
  ];
  for (const [label, listener, pattern] of cases) {
    const host = createHost();
    await host.load({ name: 'bad', apply: (ctx) => void ctx.on('agent/pre-step', (_p: unknown, next: () => Promise<any>) => listener(next)) });
    const session = host.createSession();
    await assert.rejects(session.userTurn('q', [{ text: 'a' }]), pattern, label);
    const end = session.recordedEvents().at(-1)!;
    assert.equal(end.type, 'turn/end', label);
    assert.equal(end.data.reason.kind, 'error', label);
    assert.equal(host.errors.length, 1, label);
  }
});

test('reusing a message object across steps is caught (ids identify one occurrence)', async () => {
  const host = createHost();
  const mine = { id: 'fixed', role: 'user', content: [{ type: 'text', text: 'same' }], source: { kind: 'plugin', plugin: 'x' } };
  await host.load({
    name: 'reuser',
    apply: (ctx) =>
      void ctx.on('agent/pre-step', async (_p: unknown, next: () => Promise<any>) => {
        const d = await next();
        return { ...d, messages: [...d.messages, mine] };
      }),
  });
  await assert.rejects(host.createSession().userTurn('q', [todoCall([]), { text: 'a' }]), /already in this session/);
});

test('a rejected first step closes the turn without spending a step or a request', async () => {
  const host = createHost();
  await host.load({ name: 'gate', apply: (ctx) => void ctx.on('agent/pre-step', async () => ({ kind: 'reject' })) });
  const session = host.createSession();
  const result = await session.userTurn('q', [{ text: 'a' }]);
  assert.equal(result.status, 'blocked');
  assert.equal(result.steps, 0);
  assert.equal(session.requests.length, 0);
  assert.deepEqual(session.recordedEvents().map((e) => e.type), ['turn/start', 'agent/inbox/spliced', 'turn/end']);
  assert.deepEqual(host.vetoes, [{ event: 'agent/pre-step', plugin: 'gate' }]);
});

test('subagent sessions go through the same loop and carry their origin', async () => {
  const host = createHost();
  const origins: (string | undefined)[] = [];
  await host.load({
    name: 'watch',
    apply: (ctx) =>
      void ctx.on('agent/pre-step', async (p: { agent: any }, next: () => Promise<unknown>) => {
        origins.push(p.agent.session.header.origin);
        return next();
      }),
  });
  const parent = host.createSession({ id: 'main' });
  const child = host.createSession({ origin: 'subagent', parentSession: 'main' });
  await parent.userTurn('p', [{ text: 'x' }]);
  await child.userTurn('task for the subagent', [{ text: 'y' }]);
  assert.deepEqual(origins, [undefined, 'subagent']);
  assert.equal(child.header.parentSession, 'main');
  assert.equal(host.requests.length, 2);
  assert.equal(host.requests[1]!.origin, 'subagent');
});

test('a script step may be computed from the request the model received', async () => {
  const host = createHost();
  const session = host.createSession();
  await session.userTurn('echo me', [(request) => ({ text: `I saw ${request.messages.length} messages` })]);
  const reply = session.recordedEvents().find((e) => e.type === 'assistant/message')!;
  assert.equal(reply.data.message.content[0].text, 'I saw 2 messages');
});

test('unknown tools and broken JSON become error results for the model, not crashes', async () => {
  const host = createHost();
  const session = host.createSession();
  await session.userTurn('x', [{ toolCalls: [{ name: 'nope', arguments: {} }, { name: 'todo_write', arguments: '{"todos": [' }] }, { text: 'ok' }]);
  const results = session.recordedEvents().filter((e) => e.type === 'tool/result');
  assert.deepEqual(results.map((e) => e.data.error?.code), ['unknown-tool', 'invalid-arguments']);
  host.assertClean();
});
