import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, type Context } from '../src/index.ts';

/** The host requires an output declaration whose render returns content blocks. */
const TEXT_OUTPUT = { schema: {}, render: (_args: unknown, value: unknown) => [{ type: 'text', text: String(value) }] };

type Next = () => Promise<string[]>;

async function runChain(host: ReturnType<typeof createHost>): Promise<string[]> {
  return (await host.bus.waterfall('demo/chain', [], () => [])) as string[];
}

test('waterfall: prepend listeners run outermost, each sees what the ones after it returned', async () => {
  const host = createHost();
  const calls: string[] = [];
  const tag = (label: string) => async (next: Next) => {
    calls.push(`enter ${label}`);
    const inner = await next();
    return [...inner, label];
  };
  await host.load({
    name: 'p',
    apply(ctx) {
      ctx.on('demo/chain', tag('a'));
      ctx.on('demo/chain', tag('b'));
      ctx.on('demo/chain', tag('first'), { prepend: true });
      ctx.on('demo/chain', tag('very-first'), true);
    },
  });
  const result = await runChain(host);
  assert.deepEqual(calls, ['enter very-first', 'enter first', 'enter a', 'enter b']);
  // The outermost listener sees the final array: that is why the dynamic layer listens with prepend.
  assert.deepEqual(result, ['b', 'a', 'first', 'very-first']);
});

test('waterfall: a listener that never calls next vetoes the rest and is recorded', async () => {
  const host = createHost();
  let reached = false;
  await host.load({
    name: 'vetoer',
    apply(ctx) {
      ctx.on('demo/chain', async () => ['mine']);
      ctx.on('demo/chain', async (next: Next) => {
        reached = true;
        return next();
      });
    },
  });
  assert.deepEqual(await runChain(host), ['mine']);
  assert.equal(reached, false);
  assert.deepEqual(host.vetoes, [{ event: 'demo/chain', plugin: 'vetoer' }]);
});

test('disposers remove listeners, sections, contexts, tools and routes; unload removes everything', async () => {
  const host = createHost({ httpService: 'both' });
  let disposeListener!: () => void;
  let disposeSection!: () => void;
  let effectDisposed = 0;
  await host.load({
    name: 'owner',
    inject: ['systemPrompt', 'tools', 'webServer'],
    apply(ctx) {
      disposeListener = ctx.on('demo/chain', async (next: Next) => next());
      disposeSection = ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'P' });
      ctx.systemPrompt.section({ name: 'guide', order: 100, text: 'G' });
      ctx.systemPrompt.context({ name: 'recall', order: 10, text: '' });
      ctx.effect(() => ctx.tools.register({ name: 'mem_search', description: 'd', parameters: { type: 'object' }, output: TEXT_OUTPUT, execute: () => 'x' }));
      ctx.webServer.register({ kind: 'exact', path: '/engram', handler: (_req: unknown, res: any) => res.end('ok') });
      ctx.effect(() => () => effectDisposed++);
    },
  });
  assert.equal(host.bus.count('demo/chain'), 1);
  disposeListener();
  disposeListener();
  assert.equal(host.bus.count('demo/chain'), 0);
  disposeSection();
  assert.deepEqual(host.systemPrompt.sectionNames().sort(), ['guide', 'harness:identity']);

  const sessionEventListenersBefore = host.bus.count('session/event');
  host.unload('owner');
  assert.deepEqual(host.systemPrompt.sectionNames(), ['harness:identity']);
  assert.deepEqual(host.systemPrompt.contextNames(), ['working-directory']);
  assert.equal(host.tools!.has('mem_search'), false);
  assert.deepEqual(host.http!.paths(), []);
  assert.equal(effectDisposed, 1);
  assert.equal(host.bus.count('session/event'), sessionEventListenersBefore);
  // Reloading works because nothing of the first load is left behind.
  await host.load({ name: 'owner', inject: ['systemPrompt'], apply: (ctx) => void ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'P' }) });
});

test('duplicate registrations throw', async () => {
  const host = createHost();
  await assert.rejects(
    host.load({
      name: 'dup',
      inject: ['systemPrompt', 'tools'],
      apply(ctx) {
        ctx.tools.register({ name: 't', description: '', parameters: {}, output: TEXT_OUTPUT, execute: () => '' });
        ctx.tools.register({ name: 't', description: '', parameters: {}, output: TEXT_OUTPUT, execute: () => '' });
      },
    }),
    /tool "t" is already registered/,
  );
  // A failed apply leaves nothing registered.
  assert.equal(host.tools!.has('t'), false);
  assert.deepEqual(host.loadedPlugins(), []);
});

test('load fails clearly when a required service is missing; optional services go through ctx.inject', async () => {
  const host = createHost({ llm: false, httpService: 'none' });
  await assert.rejects(host.load({ name: 'needs-web', inject: ['systemPrompt', 'webServer'], apply() {} }), /required service "webServer" not available/);

  const ran: string[] = [];
  await host.load({
    name: 'optional',
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.inject(['tools'], (scoped: Context) => {
        ran.push('tools');
        scoped.tools.register({ name: 'only-with-tools', description: '', parameters: {}, output: TEXT_OUTPUT, execute: () => '' });
      });
      ctx.inject(['llm'], () => ran.push('llm'));
      ctx.inject(['webServer'], () => ran.push('webServer'));
    },
  });
  assert.deepEqual(ran, ['tools']);
  assert.equal(host.tools!.has('only-with-tools'), true);
  host.unload('optional');
  assert.equal(host.tools!.has('only-with-tools'), false, 'scoped registrations die with the plugin');
});

test('a service read without declaring it yields undefined and is recorded (pitfall #4)', async () => {
  const host = createHost();
  let seen: unknown = 'unset';
  await host.load({
    name: 'forgetful',
    inject: ['systemPrompt'],
    apply(ctx) {
      seen = ctx.webServer ?? ctx.get('webServer');
    },
  });
  assert.equal(seen, undefined);
  assert.deepEqual(host.undeclaredServiceAccess[0], { plugin: 'forgetful', service: 'webServer' });
  assert.throws(() => host.assertClean(), /without declaring/);
});

test('emit never throws to the emitter; errors are recorded with the plugin name', async () => {
  const host = createHost();
  await host.load({
    name: 'thrower',
    apply(ctx) {
      ctx.on('demo/ping', () => {
        throw new Error('listener failed');
      });
    },
  });
  host.root.emit('demo/ping', 1);
  assert.equal(host.errors.length, 1);
  assert.equal(host.errors[0]!.plugin, 'thrower');
  assert.equal(host.errors[0]!.where, 'demo/ping');
});

test('ctx.logger captures lines under the plugin name and named loggers', async () => {
  const host = createHost();
  await host.load({
    name: 'talker',
    apply(ctx) {
      ctx.logger.info('loaded %d sections', 2);
      ctx.logger('engram:recall').warn('zero hits for %s', '再看看');
    },
  });
  assert.deepEqual(
    host.logs.map(({ name, level, message }) => ({ name, level, message })),
    [
      { name: 'talker', level: 'info', message: 'loaded 2 sections' },
      { name: 'engram:recall', level: 'warn', message: 'zero hits for 再看看' },
    ],
  );
});

test('a plugin Config schema resolves the config before apply', async () => {
  const host = createHost();
  let received: unknown;
  await host.load({ name: 'cfg', Config: { parse: (v: any) => ({ limit: 3, ...v }) }, apply: (_ctx, config) => void (received = config) }, { mode: 'message' });
  assert.deepEqual(received, { limit: 3, mode: 'message' });
});
