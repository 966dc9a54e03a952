import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, SNAPSHOT_PREAMBLE, type PromptAssembly } from '../src/index.ts';
import { todoCall } from './helpers.ts';

type Next = () => Promise<PromptAssembly>;

test('context text() is evaluated before the assemble waterfall runs', async () => {
  const host = createHost({ hostContexts: false });
  const order: string[] = [];
  await host.load({
    name: 'order',
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.systemPrompt.context({
        name: 'recall',
        order: 0,
        text: () => {
          order.push('text()');
          return 'ctx';
        },
      });
      ctx.on('system-prompt/assemble', async (assembly: PromptAssembly, _c: unknown, next: Next) => {
        order.push(`waterfall sees "${assembly.contexts[0]?.text}"`);
        return next();
      });
    },
  });
  await host.systemPrompt.assemble(host.createSession());
  assert.deepEqual(order, ['text()', 'waterfall sees "ctx"']);
});

test('a recall state filled by a listener cannot reach text(), but a placeholder filled after next() does (pitfall #6)', async () => {
  const run = async (pattern: 'text-reads-state' | 'placeholder-filled-in-waterfall') => {
    const host = createHost({ hostContexts: false });
    await host.load({
      name: 'memory',
      inject: ['systemPrompt'],
      apply(ctx) {
        const recalled = new Map<string, string>();
        ctx.systemPrompt.context({
          name: 'engram:recall',
          order: 50,
          text: (c: any) => (pattern === 'text-reads-state' ? recalled.get(c.agent.session.id) ?? '' : ''),
        });
        ctx.on(
          'system-prompt/assemble',
          async (_assembly: PromptAssembly, context: any, next: Next) => {
            const result = await next();
            const sessionId = context.agent.session.id;
            await new Promise((r) => setImmediate(r)); // the recall
            recalled.set(sessionId, '[1] 2024-05-01 · 周报习惯');
            if (pattern === 'placeholder-filled-in-waterfall') {
              const entry = result.contexts.find((e) => e.name === 'engram:recall');
              if (entry) entry.text = recalled.get(sessionId)!;
            }
            return result;
          },
          { prepend: true },
        );
      },
    });
    const session = host.createSession();
    const { requests } = await session.userTurn('周报怎么写', [{ text: 'a' }]);
    return requests[0]!.messages.some((m) => m.content.includes('周报习惯'));
  };
  assert.equal(await run('text-reads-state'), false);
  assert.equal(await run('placeholder-filled-in-waterfall'), true);
});

test('the system prompt joins sections by order; contexts become one user-role snapshot after the history', async () => {
  const host = createHost();
  await host.load({
    name: 'p',
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.systemPrompt.section({ name: 'tools-guide', order: 150, text: 'Use memory tools.' });
      ctx.systemPrompt.section({ name: 'persona', order: 0, text: () => 'Persona.' });
      ctx.systemPrompt.section({ name: 'empty', order: 10, text: '' });
      ctx.systemPrompt.context({ name: 'recall', order: 50, text: 'Recalled: X' });
    },
  });
  const { requests } = await host.createSession({ cwd: '/w' }).userTurn('q', [{ text: 'a' }]);
  const request = requests[0]!;
  assert.equal(request.system, 'You are an AI agent powered by DeepSeek Harness.\n\nPersona.\n\nUse memory tools.');
  const snapshot = request.messages.at(-1)!;
  assert.equal(snapshot.role, 'user');
  assert.deepEqual(snapshot.source, {
    kind: 'plugin',
    plugin: 'system-prompt',
    form: 'snapshot',
    sections: [
      { name: 'working-directory', text: 'Working directory: /w' },
      { name: 'recall', text: 'Recalled: X' },
    ],
  });
  assert.equal(snapshot.content, `${SNAPSHOT_PREAMBLE}\n\nWorking directory: /w\n\nRecalled: X`);
});

test('the snapshot is re-recorded only when its text changes', async () => {
  const host = createHost();
  let recall = 'A';
  await host.load({
    name: 'p',
    inject: ['systemPrompt'],
    apply: (ctx) => void ctx.systemPrompt.context({ name: 'recall', order: 50, text: () => recall }),
  });
  const session = host.createSession();
  const snapshots = () => session.recordedEvents().filter((e) => e.type === 'user/message' && e.data.source.form === 'snapshot').length;
  await session.userTurn('one', [todoCall([]), todoCall([]), { text: 'x' }]);
  assert.equal(snapshots(), 1, 'three steps with the same snapshot record it once');
  await session.userTurn('two', [{ text: 'y' }]);
  assert.equal(snapshots(), 1);
  recall = 'B';
  await session.userTurn('three', [{ text: 'z' }]);
  assert.equal(snapshots(), 2);
  const last = session.requests.at(-1)!;
  assert.match(last.messages.at(-1)!.content, /B$/);
  // The superseded snapshot stays where it was in the history: it cannot be removed.
  assert.equal(last.messages.filter((m) => m.source?.form === 'snapshot').length, 2);
});

test('request/header and request/context are logged only when they change', async () => {
  const host = createHost();
  let persona = 'v1';
  await host.load({ name: 'p', inject: ['systemPrompt'], apply: (ctx) => void ctx.systemPrompt.section({ name: 'persona', order: 0, text: () => persona }) });
  const session = host.createSession();
  await session.userTurn('a', [todoCall([]), { text: 'x' }]);
  await session.userTurn('b', [{ text: 'y' }]);
  const count = (type: string) => session.recordedEvents().filter((e) => e.type === type).length;
  assert.equal(count('request/header'), 1);
  assert.equal(count('request/context'), 1);
  persona = 'v2';
  await session.userTurn('c', [{ text: 'z' }]);
  assert.equal(count('request/header'), 2);
  assert.equal(session.recordedEvents().filter((e) => e.type === 'request/header').at(-1)!.data.reason, 'change');
});

test('text() returning a Promise fails assembly instead of rendering "[object Promise]"', async () => {
  const host = createHost();
  await host.load({
    name: 'async-text',
    inject: ['systemPrompt'],
    apply: (ctx) => void ctx.systemPrompt.context({ name: 'recall', order: 0, text: (async () => 'late') as unknown as () => string }),
  });
  await assert.rejects(host.createSession().userTurn('q', []), /evaluated synchronously/);
});

test('a `{{...}}` in section or context text must be a registered variable', async () => {
  const host = createHost();
  await host.load({
    name: 'braces',
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.systemPrompt.variable('user_name', () => '小林');
      ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'Hello {{user_name}}' });
      ctx.systemPrompt.context({ name: 'recall', order: 0, text: 'a diary line with {{ template }} inside' });
    },
  });
  await assert.rejects(host.createSession().userTurn('q', []), /malformed prompt variable reference/);
  host.unload('braces');
  await host.load({
    name: 'ok',
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.systemPrompt.variable('user_name', () => '小林');
      ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'Hello {{user_name}}, a lone {{ stays' });
    },
  });
  const { requests } = await host.createSession().userTurn('q', []);
  assert.match(requests[0]!.system, /Hello 小林, a lone \{\{ stays$/);
});

test('an assemble listener that forgets to return breaks the turn loudly', async () => {
  const host = createHost();
  await host.load({
    name: 'forgot',
    apply: (ctx) =>
      void ctx.on('system-prompt/assemble', async (_a: unknown, _c: unknown, next: Next) => {
        await next();
      }),
  });
  await assert.rejects(host.createSession().userTurn('q', []), /must return the value of `await next\(\)`/);
});

test('assemble context carries the session, so per-session state can be told apart', async () => {
  const host = createHost();
  const seen: string[] = [];
  await host.load({
    name: 'p',
    apply: (ctx) =>
      void ctx.on('system-prompt/assemble', async (_a: unknown, context: any, next: Next) => {
        seen.push(context.agent.session.id);
        return next();
      }),
  });
  await host.createSession({ id: 'a' }).userTurn('x', []);
  await host.createSession({ id: 'b' }).userTurn('y', []);
  assert.deepEqual(seen, ['a', 'b']);
});
