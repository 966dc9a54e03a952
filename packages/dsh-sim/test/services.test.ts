import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { test } from 'node:test';
import { createHost, HOST_VARIANTS, type Context, type PluginModule } from '../src/index.ts';

/** The host requires an output declaration whose render returns content blocks. */
const TEXT_OUTPUT = { schema: {}, render: (_args: unknown, value: unknown) => [{ type: 'text', text: String(value) }] };

/** Registers its routes on whichever HTTP service the host offers. */
const routePlugin: PluginModule = {
  name: 'routes',
  inject: { required: ['systemPrompt'], optional: ['webServer', 'httpServer'] },
  apply(ctx: Context) {
    const server = ctx.httpServer ?? ctx.webServer;
    if (!server) return;
    server.register({
      kind: 'exact',
      path: '/engram/state',
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      },
    });
    server.register({
      kind: 'prefix',
      path: '/engram/console',
      handler: (req: IncomingMessage, res: ServerResponse) => {
        res.end(`console:${req.method}:${req.url}`);
      },
    });
    server.register({
      kind: 'exact',
      path: '/engram/boom',
      handler: () => {
        throw new Error('handler failed');
      },
    });
  },
};

for (const [variant, options] of Object.entries(HOST_VARIANTS)) {
  test(`routes are served over real HTTP (${variant}: ${options.httpService})`, async (t) => {
    const host = createHost(options);
    t.after(() => host.close());
    await host.load(routePlugin);
    await host.listen();
    assert.match(host.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);

    const state = await fetch(`${host.baseUrl}/engram/state`);
    assert.equal(state.status, 200);
    assert.deepEqual(await state.json(), { ok: true });
    assert.equal(await (await fetch(`${host.baseUrl}/engram/console/assets/app.js?v=1`)).text(), 'console:GET:/engram/console/assets/app.js?v=1');
    assert.equal((await fetch(`${host.baseUrl}/engram/consoles`)).status, 404, 'a prefix matches whole path segments only');
    assert.equal((await fetch(`${host.baseUrl}/engram/state/extra`)).status, 404);
    assert.equal((await fetch(`${host.baseUrl}/engram/boom`)).status, 500);
    assert.equal(host.errors.length, 1);
  });
}

test('only the service name of the variant exists; duplicate paths throw', async (t) => {
  const rc8 = createHost(HOST_VARIANTS.rc8);
  const current = createHost(HOST_VARIANTS.current);
  assert.ok(rc8.serviceNames().includes('webServer') && !rc8.serviceNames().includes('httpServer'));
  assert.ok(current.serviceNames().includes('httpServer') && !current.serviceNames().includes('webServer'));
  const none = createHost({ httpService: 'none' });
  await none.load(routePlugin);
  assert.throws(() => none.baseUrl, /no HTTP service/);

  const host = createHost({ httpService: 'both' });
  t.after(() => host.close());
  await assert.rejects(
    host.load({
      name: 'dup',
      inject: ['webServer', 'httpServer'],
      apply(ctx) {
        ctx.webServer.register({ kind: 'exact', path: '/x', handler: () => {} });
        ctx.httpServer.register({ kind: 'prefix', path: '/x', handler: () => {} });
      },
    }),
    /route "\/x" is already registered/,
  );
});

test('tools.call parses the JSON string, checks the schema and renders the output', async () => {
  const host = createHost();
  const received: unknown[] = [];
  await host.load({
    name: 't',
    inject: ['tools'],
    apply(ctx) {
      ctx.tools.register({
        name: 'engram_search',
        description: 'search memory',
        parameters: { type: 'object', required: ['query'], properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
        output: { schema: { type: 'array', items: { type: 'string' } }, render: (args: { query: string }, value: string[]) => [{ type: 'text', text: `${args.query}: ${value.join(', ')}` }] },
        execute: (args: unknown, exec: { arguments: unknown; callId: string; signal: AbortSignal }) => {
          received.push(args, typeof exec.arguments, exec.signal instanceof AbortSignal);
          return ['周报', '日记'];
        },
      });
    },
  });
  const session = host.createSession();
  const ok = await host.tools!.call('engram_search', '{"query":"周报","limit":2}', session);
  assert.equal(ok.text, '周报: 周报, 日记');
  assert.deepEqual(received, [{ query: '周报', limit: 2 }, 'object', true]);
  assert.equal((await host.tools!.call('engram_search', '{"query":', session)).error?.code, 'invalid-arguments');
  assert.match((await host.tools!.call('engram_search', '{}', session)).text, /missing required argument "query"/);
  assert.match((await host.tools!.call('engram_search', '{"query":"x","limit":"2"}', session)).text, /"limit" should be integer/);
  assert.equal((await host.tools!.call('engram_search', '["query"]', session)).error?.code, 'invalid-arguments');
});

test('a tool that throws gives the model an error result and is listed in toolFailures; timeouts abort the signal', async () => {
  const host = createHost();
  let aborted = false;
  await host.load({
    name: 't',
    inject: ['tools'],
    apply(ctx) {
      ctx.tools.register({ name: 'broken', description: '', parameters: {}, output: TEXT_OUTPUT, execute: () => { throw new Error('db locked'); } });
      ctx.tools.register({
        name: 'slow',
        description: '',
        parameters: {},
        timeoutMs: 5,
        output: TEXT_OUTPUT,
        execute: (_a: unknown, exec: { signal: AbortSignal }) =>
          new Promise((resolve) => exec.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('too late');
          })),
      });
    },
  });
  const broken = await host.tools!.call('broken', '{}');
  assert.deepEqual(broken.error, { name: 'broken', code: 'execute', message: 'db locked' });
  assert.equal(host.toolFailures[0]!.plugin, 't');
  const slow = await host.tools!.call('slow', '{}');
  assert.equal(slow.error?.code, 'timeout');
  assert.equal(aborted, true);
});

test('llm.stream yields scripted chunks and records the call; no responder means a loud failure', async () => {
  const host = createHost();
  let llm: any;
  await host.load({ name: 'summariser', inject: ['llm'], apply: (ctx) => void (llm = ctx.llm) });
  await assert.rejects(async () => {
    for await (const _ of llm.stream({ provider: 'deepseek', model: 'deepseek-chat', messages: [] })) void _;
  }, /no llm responder/);

  host.setLlmResponder((call) => ({ text: `summary of ${call.messages.length}`, usage: { inputTokens: 10, outputTokens: 3 } }));
  const chunks: any[] = [];
  for await (const chunk of llm.stream({ provider: 'deepseek', model: 'deepseek-chat', system: 'be brief', messages: [{ role: 'user', content: 'a' }], signal: new AbortController().signal })) chunks.push(chunk);
  const text = chunks.filter((c) => c.type === 'text-delta').map((c) => c.text).join('');
  assert.equal(text, 'summary of 1');
  assert.ok(chunks.filter((c) => c.type === 'text-delta').length > 1, 'text arrives in more than one delta');
  assert.deepEqual(chunks.at(-2), { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } });
  assert.equal(chunks.at(-1).type, 'finish');
  assert.equal(host.llm!.calls.at(-1)!.owner, 'summariser');
  assert.equal(host.llm!.calls.at(-1)!.system, 'be brief');
  assert.throws(() => llm.stream({ model: 'm', messages: [] }), /needs a provider/);

  const controller = new AbortController();
  controller.abort();
  await assert.rejects(async () => {
    for await (const _ of llm.stream({ provider: 'p', model: 'm', messages: [], signal: controller.signal })) void _;
  }, /abort/i);
});
