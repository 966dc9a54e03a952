import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, InboxViolationError, type PluginModule } from '../src/index.ts';

const memory = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } });

/** The pitfall #7 implementation: puts the memory block into the inbox instead of the decision. */
const inboxInjector: PluginModule = {
  name: 'inbox-injector',
  apply(ctx) {
    ctx.on('agent/pre-step', async (payload: { agent: any; step: number }, next: () => Promise<unknown>) => {
      const decision = await next();
      if (payload.step === 1) payload.agent.inbox.prepend(memory('记忆块'));
      return decision;
    });
  },
};

test('every touch of the inbox sentinel records a violation and throws', () => {
  const host = createHost();
  const session = host.createSession({ id: 's' });
  const inbox = session.agent.inbox;
  const touches: [string, () => unknown][] = [
    ['prepend', () => inbox.prepend(memory('x'))],
    ['replace', () => inbox.replace('id', memory('x'))],
    ['remove', () => inbox.remove('id')],
    ['push', () => inbox.push(memory('x'))],
    ['nextStep', () => inbox.nextStep],
    ['items', () => inbox.items],
    ['length', () => inbox.length],
    ['prepend', () => 'prepend' in inbox],
    ['foo', () => {
      inbox.foo = 1;
    }],
  ];
  for (const [member, touch] of touches) assert.throws(touch, InboxViolationError, member);
  assert.deepEqual(host.inboxViolations.map((v) => v.member), touches.map(([member]) => member));
  assert.ok(host.inboxViolations.every((v) => v.sessionId === 's'));
  assert.throws(() => session.agent.inject(memory('x')), InboxViolationError);
  assert.equal(host.inboxViolations.at(-1)!.member, 'inject (agent.inject)');
  assert.throws(() => host.assertClean(), /agent\.inbox\.prepend/);
});

test('inspecting or logging the agent does not count as using the inbox', () => {
  const host = createHost();
  const session = host.createSession();
  JSON.stringify({ inbox: session.agent.inbox });
  String(Object.keys(session.agent.inbox));
  assert.equal(host.inboxViolations.length, 0);
});

test('an inbox-using plugin fails the turn on the default host and is recorded', async () => {
  const host = createHost();
  await host.load(inboxInjector);
  const session = host.createSession();
  await assert.rejects(session.userTurn('你好', [{ text: '你好！' }]), InboxViolationError);
  assert.equal(host.inboxViolations.length, 1);
  assert.equal(host.inboxViolations[0]!.member, 'prepend');
});

test('with a working inbox, a message pushed into it is claimed as new input and costs an extra model request', async () => {
  const clean = createHost({ inbox: 'working' });
  await clean.createSession().userTurn('你好', [{ text: '你好！' }]);

  const host = createHost({ inbox: 'working' });
  await host.load(inboxInjector);
  const session = host.createSession();
  const result = await session.userTurn('你好', [{ text: '你好！' }, { text: '我这边没收到您的具体指令' }]);

  assert.equal(clean.requests.length, 1);
  assert.equal(result.requests.length, 2, 'one extra model request for the inbox item');
  const extra = result.requests[1]!;
  const claimed = extra.messages.find((m) => m.content === '记忆块')!;
  assert.equal(claimed.role, 'user');
  // The claimed item lands after the first answer: the model sees a lone memory block as new input.
  assert.equal(extra.messages.at(-1)!.content, '记忆块');
  const types = session.recordedEvents().map((e) => e.type);
  assert.ok(types.filter((t) => t === 'agent/inbox/spliced').length >= 3, 'insert and claim are logged');
  assert.equal(types.filter((t) => t === 'assistant/message').length, 2);
  assert.equal(host.inboxViolations.length, 0);
});

test('a plugin that keeps feeding the working inbox hits the step limit instead of looping forever', async () => {
  const host = createHost({ inbox: 'working', maxStepsPerTurn: 5 });
  await host.load({
    name: 'feeder',
    apply: (ctx) =>
      void ctx.on('agent/pre-step', async (p: { agent: any }, next: () => Promise<unknown>) => {
        const d = await next();
        p.agent.inbox.prepend(memory('again'));
        return d;
      }),
  });
  const session = host.createSession();
  await assert.rejects(session.userTurn('q', []), /exceeded 5 steps/);
  assert.equal(session.requests.length, 5);
});
