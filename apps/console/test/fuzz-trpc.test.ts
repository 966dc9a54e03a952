// tRPC inputs, fuzzed three ways: every procedure's input validator (10,000 cases each, pure), every
// procedure called with arbitrary input through the router over a real engine, and the HTTP route
// handler fed arbitrary requests. Never a crash or a 500, never a stack or a path in an answer, a
// typed error naming the problem, mutations refused without the token or from a foreign origin,
// bodies over the limit refused with 413 — and nothing outside the diary folder touched.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { openEngine, type Engine } from '@engram/engine';
import { runtimeFor, type ConsoleRuntime } from '../src/server/engine.ts';
import { appRouter, createCaller } from '../src/server/root.ts';
import { createContext } from '../src/server/trpc.ts';
import { MAX_BATCH, MAX_REQUEST_BYTES } from '../src/server/limits.ts';
import { GET, POST } from '../src/app/api/trpc/[trpc]/route.ts';

const RUNS = (base: number) => {
  const n = Number(process.env.ENGRAM_FUZZ_RUNS);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : base;
};

const root = mkdtempSync(join(tmpdir(), 'engram-console-fuzz-'));
const outside = join(root, 'outside');
// Endpoints locked to a closed local port: no fuzzed setting can send traffic off this machine.
const env = {
  ENGRAM_DIARY_DIR: join(root, 'diary'),
  ENGRAM_DATA_DIR: join(root, 'data'),
  HOME: root,
  ENGRAM_EMBEDDING_PROVIDER: 'none',
  ENGRAM_EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1',
  ENGRAM_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1',
};
let engine: Engine;
let runtime: ConsoleRuntime;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

/** Procedures that reach the network by design (a probe of a draft endpoint): not fuzzed. */
// model.install fetches from the npm registry (or reads a folder / URL the input names): never from a fuzzer.
const NETWORK = new Set(['settings.testEmbedding', 'index.integrity', 'model.install']);

type Proc = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: { parse?: (v: unknown) => unknown; '~standard'?: unknown }[] } };
const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Proc> } })._def.procedures);

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'do not touch');
  for (let i = 0; i < 6; i++) {
    writeFileSync(join(env.ENGRAM_DIARY_DIR, `2026-09-0${i + 1}-note-${i}.txt`), `[10:0${i}] 模糊测试种子 ${i}\n\n> 第 ${i} 篇。\n\n正文编号 ${i},这一行足够长可以作为锚点使用。\n\nTag: 种子, 编号${i}\n`);
  }
  engine = await openEngine({ env });
  runtime = await runtimeFor(engine);
  (globalThis as Record<symbol, unknown>)[Symbol.for('engram.console.runtime')] = { runtime: Promise.resolve(runtime) };
});

after(() => {
  engine?.close();
  process.off('unhandledRejection', onUnhandled);
});

const STACK = /\n\s+at |\/work\/|node_modules|\.ts:\d+/;

const hostile = fc.oneof(
  fc.constantFrom('../outside/secret.txt', '/etc/passwd', '..\\..\\x', 'diary:../../outside/secret.txt', '', ' ', '\u0000', 'C:\\x', '%2e%2e/x'),
  fc.string({ maxLength: 30 }),
);
const nearValid = fc.record(
  {
    id: fc.oneof(hostile, fc.constantFrom('2026-09-01-note-0.txt', 'diary:2026-09-02-note-1.txt')),
    query: fc.oneof(fc.string({ maxLength: 50 }), fc.constantFrom('模糊测试种子', '正文编号')),
    content: fc.string({ maxLength: 200 }),
    title: fc.string({ maxLength: 30 }),
    folder: hostile,
    tags: fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }),
    date: fc.oneof(fc.constant('2026-02-30'), fc.string({ maxLength: 12 })),
    time: fc.oneof(fc.constant('25:61'), fc.string({ maxLength: 6 })),
    target: fc.oneof(fc.constant('这一行足够长可以作为锚点使用。'), fc.string({ maxLength: 30 })),
    replacement: fc.string({ maxLength: 30 }),
    raw: fc.string({ maxLength: 100 }),
    expectedHash: fc.string({ maxLength: 40 }),
    patch: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ recall: fc.record({ kBase: fc.jsonValue() }, { requiredKeys: [] }), inject: fc.record({ header: fc.jsonValue() }, { requiredKeys: [] }) }, { requiredKeys: [] })),
    confirm: fc.constantFrom('rebuild', 'save-only', 'yes', 1),
    full: fc.oneof(fc.boolean(), fc.jsonValue()),
    k: fc.oneof(fc.integer({ min: -5, max: 60 }), fc.double(), fc.string()),
    only: fc.constantFrom('lexical', 'semantic', 'both', null),
    includeArchived: fc.oneof(fc.boolean(), fc.string()),
    text: fc.string({ maxLength: 200 }),
    workspace: fc.string({ maxLength: 20 }),
    sessionId: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: [] },
);
const anyInput = fc.oneof({ weight: 3, arbitrary: nearValid }, { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });

test(`every procedure's input validator: parses or explains, never throws anything else (${Math.max(10_000, RUNS(10_000))} cases each)`, () => {
  const n = Math.max(10_000, RUNS(10_000));
  let checked = 0;
  for (const [path, proc] of procedures) {
    for (const parser of proc._def.inputs) {
      if (typeof parser.parse !== 'function') continue;
      checked++;
      fc.assert(
        fc.property(anyInput, (input) => {
          try {
            parser.parse!(input);
          } catch (e) {
            assert.ok(e instanceof ZodError, `${path}: ${String(e)}`);
            assert.ok(e.issues.length > 0 && e.issues.every((i) => i.message.length > 0));
          }
        }),
        { numRuns: n },
      );
    }
  }
  assert.ok(checked >= 8, `validators found: ${checked}`);
});

const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

test(`every procedure called with arbitrary input: a value or a typed error, never a 500 (${RUNS(1_500)} calls)`, { timeout: 300_000 }, async () => {
  const caller = createCaller(createContext(runtime)) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
  const paths = procedures.map(([p]) => p).filter((p) => !NETWORK.has(p));
  const before = snapshot(outside);
  const codes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), anyInput, async (path, input) => {
      const [group, name] = path.split('.') as [string, string];
      try {
        await caller[group]![name]!(input);
        codes.set('ok', (codes.get('ok') ?? 0) + 1);
      } catch (e) {
        assert.ok(e instanceof TRPCError, `${path}: not a TRPCError: ${String(e)}`);
        assert.notEqual(e.code, 'INTERNAL_SERVER_ERROR', `${path} crashed on ${JSON.stringify(input)?.slice(0, 200)}: ${String(e.cause ?? e)}`);
        assert.ok(e.message.length > 0 && !STACK.test(e.message), `${path}: ${e.message}`);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
      }
    }),
    { numRuns: RUNS(1_500) },
  );
  assert.deepEqual(snapshot(outside), before, 'nothing outside the diary folder changed');
  assert.ok((codes.get('BAD_REQUEST') ?? 0) > 0 && (codes.get('ok') ?? 0) > 0, JSON.stringify(Object.fromEntries(codes)));
  assert.deepEqual(unhandled, []);
  console.log(`# trpc fuzz ${JSON.stringify(Object.fromEntries(codes))}`);
});

test('diary-layer refusals reach the client typed: a taken title is CONFLICT, an escaping folder BAD_REQUEST', async () => {
  const caller = createCaller(createContext(runtime));
  await caller.memories.create({ title: '唯一标题', content: '第一次用这个标题写入,用来确认同名的第二次写入会被拒绝。' });
  await assert.rejects(caller.memories.create({ title: '唯一标题', content: '第二次写。' }), (e: unknown) => e instanceof TRPCError && e.code === 'CONFLICT' && /already exists/.test(e.message));
  await assert.rejects(caller.memories.create({ title: '逃逸', content: '试图把这一篇写到日记目录外面的文件夹里去。', folder: '../outside' }), (e: unknown) => e instanceof TRPCError && e.code === 'BAD_REQUEST' && /not allowed/.test(e.message));
});

const ORIGIN = 'http://127.0.0.1:3999';
const handler = (req: Request) => (req.method === 'GET' ? GET(req) : POST(req));

test(`the HTTP handler fed arbitrary requests: no 500, no stack, JSON errors (${RUNS(1_000)} requests)`, { timeout: 300_000 }, async () => {
  const paths = procedures.map(([p]) => p).filter((p) => !NETWORK.has(p));
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths, 'no.such', 'memories.list,memories.read', ''),
      fc.constantFrom('GET', 'POST'),
      fc.oneof(anyInput.map((v) => JSON.stringify(v) ?? 'null'), fc.string({ maxLength: 200 }), fc.constant('{"0":{"json":')),
      fc.boolean(),
      fc.boolean(),
      async (path, method, body, withToken, batch) => {
        const url = `http://127.0.0.1:3999/api/trpc/${path}${batch ? '?batch=1' : ''}${method === 'GET' ? `${batch ? '&' : '?'}input=${encodeURIComponent(body)}` : ''}`;
        const headers: Record<string, string> = { host: '127.0.0.1:3999', origin: ORIGIN, 'content-type': 'application/json' };
        if (withToken) headers['x-engram-token'] = runtime.token;
        const res = await handler(new Request(url, { method, headers, body: method === 'POST' ? body : undefined }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        assert.notEqual(res.status, 500, `${method} ${path}: ${await res.clone().text()}`);
        const text = await res.text();
        assert.ok(!STACK.test(text), `stack or path in an answer: ${text.slice(0, 300)}`);
        if (res.status >= 400) assert.doesNotThrow(() => JSON.parse(text), 'errors are JSON');
      },
    ),
    { numRuns: RUNS(1_000) },
  );
  console.log(`# http fuzz statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
});

test('mutations over HTTP need the token and an allowed origin; oversized bodies get 413 before they are read whole', async () => {
  const create = (headers: Record<string, string>, body = JSON.stringify({ title: `HTTP ${Math.random()}`, content: '经由 HTTP 接口写入的一条记忆,用来确认令牌和来源的检查。' })) =>
    POST(new Request('http://127.0.0.1:3999/api/trpc/memories.create', { method: 'POST', headers: { host: '127.0.0.1:3999', 'content-type': 'application/json', ...headers }, body }));
  assert.equal((await create({ origin: ORIGIN })).status, 403, 'no token');
  assert.equal((await create({ origin: 'http://evil.example', 'x-engram-token': runtime.token })).status, 403, 'foreign origin');
  assert.equal((await create({ 'sec-fetch-site': 'cross-site', 'x-engram-token': runtime.token })).status, 403, 'cross-site without origin');
  assert.equal((await create({ origin: ORIGIN, 'x-engram-token': runtime.token })).status, 200, 'same origin with the token');

  const huge = JSON.stringify({ title: 'big', content: 'x'.repeat(MAX_REQUEST_BYTES + 10) });
  const declared = await create({ origin: ORIGIN, 'x-engram-token': runtime.token }, huge);
  assert.equal(declared.status, 413);
  assert.match(((await declared.json()) as { error: { message: string } }).error.message, /larger than/);
  // A chunked body without Content-Length is cut off while streaming.
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < 40; i++) c.enqueue(new Uint8Array(128 * 1024).fill(0x61));
      c.close();
    },
  });
  const chunked = await POST(new Request('http://127.0.0.1:3999/api/trpc/memories.create', { method: 'POST', headers: { host: '127.0.0.1:3999', origin: ORIGIN, 'x-engram-token': runtime.token }, body: stream, duplex: 'half' } as RequestInit));
  assert.equal(chunked.status, 413);
});

test('queries over HTTP answer the console and plain clients, never another site: a page elsewhere cannot spend the judge or read by batch', async () => {
  // An <img> or <script> on any website can send a GET to the console (no Origin, Sec-Fetch-Site
  // cross-site): it cannot read the answer, but recall.run would still call the judge model with the
  // user's key, with the page's text and the memories' text. A batch of many calls multiplies that.
  const input = encodeURIComponent(JSON.stringify({ query: '模糊测试种子' }));
  const query = (headers: Record<string, string>, path = 'recall.run', search = `?input=${input}`) =>
    GET(new Request(`http://127.0.0.1:3999/api/trpc/${path}${search}`, { headers: { host: '127.0.0.1:3999', ...headers } }));
  assert.equal((await query({ 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' })).status, 403, 'a cross-site image');
  assert.equal((await query({ origin: 'http://evil.example' })).status, 403, 'a foreign origin');
  // A page on another port of this machine is the same site (ports do not count), not the console.
  assert.equal((await query({ 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'image' })).status, 403, 'an image on another local port');
  assert.equal((await query({ 'sec-fetch-site': 'same-origin' })).status, 200, "the console's own page");
  assert.equal((await query({ origin: ORIGIN })).status, 200, 'the console origin');
  assert.equal((await query({})).status, 200, 'a plain client (curl, @engram/client)');
  const many = (n: number) => {
    const inputs = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { query: '模糊测试种子' }]));
    return query({}, Array.from({ length: n }, () => 'recall.run').join(','), `?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`);
  };
  assert.equal((await many(MAX_BATCH)).status, 200, 'a batch at the limit');
  assert.equal((await many(MAX_BATCH + 1)).status, 400, 'a batch over the limit');
});
