// Model endpoints behind a proxy: the judge's calls go through HTTPS_PROXY / HTTP_PROXY unless
// NO_PROXY names the endpoint, and the judge reports its health (ready / failing with why, last
// latency, the proxy without its credentials) for `engram status` and the console.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../../src/config/schema.ts';
import { createJudge } from '../../src/judge/judge.ts';
import { describeProxy, fetchForEnv, proxySettings } from '../../src/net/proxy-fetch.ts';
import { OpenAiEmbedder } from '../../src/semantic/openai-embedder.ts';

async function listen(server: Server, t: { after(fn: () => unknown): void }): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  return (server.address() as AddressInfo).port;
}

/** A CONNECT proxy that records every tunnel it opens. */
async function proxy(t: { after(fn: () => unknown): void }): Promise<{ port: number; tunnels: string[] }> {
  const tunnels: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { port: await listen(server, t), tunnels };
}

async function endpoint(t: { after(fn: () => unknown): void }, status = 200): Promise<{ port: number; calls: number[] }> {
  const calls: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    calls.push(Date.now());
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: '是' } }] }));
  });
  return { port: await listen(server, t), calls };
}

const judgeConfig = (port: number) => ({ ...configSchema.parse({}).judge, enabled: true, baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'sk-secret' });
const candidates: Parameters<NonNullable<ReturnType<typeof createJudge>['judge']>>[1] = [{ chunkId: 'c1', title: 't', text: 'x' }];

test('the judge goes through the environment’s proxy and says so; NO_PROXY bypasses it', async (t) => {
  const p = await proxy(t);
  const e = await endpoint(t);
  const env = { HTTPS_PROXY: `http://user:pw@127.0.0.1:${p.port}`, HTTP_PROXY: `http://user:pw@127.0.0.1:${p.port}` };
  const { judge, status } = createJudge(judgeConfig(e.port), fetchForEnv(env), env);
  assert.equal(status.state, 'ready');
  assert.equal(status.proxy, `http://127.0.0.1:${p.port}`, 'the proxy is named without its credentials');
  const verdict = await judge!('q', candidates);
  assert.equal(verdict.applied, true, verdict.reason ?? '');
  assert.deepEqual(p.tunnels, [`127.0.0.1:${e.port}`], 'the call went through the proxy');
  assert.equal(e.calls.length, 1);
  assert.equal(typeof status.lastLatencyMs, 'number');
  assert.ok(status.lastAt);

  const bypass = { ...env, NO_PROXY: '127.0.0.1' };
  const direct = createJudge(judgeConfig(e.port), fetchForEnv(bypass), bypass);
  assert.equal((await direct.judge!('q', candidates)).applied, true);
  assert.equal(p.tunnels.length, 1, 'NO_PROXY kept the call off the proxy');
  assert.equal(e.calls.length, 2);
});

test('a failing endpoint turns the judge to failing with the reason (key masked), and back to ready', async (t) => {
  const bad = await endpoint(t, 500);
  const { judge, status } = createJudge(judgeConfig(bad.port), fetch, {});
  const verdict = await judge!('q', candidates);
  assert.equal(verdict.applied, false);
  assert.equal(status.state, 'failing');
  assert.match(status.reason ?? '', /HTTP 500/);
  assert.doesNotMatch(JSON.stringify(status), /sk-secret/);
  assert.equal(createJudge({ ...judgeConfig(bad.port), enabled: false }).status.state, 'off');
});

test('proxy settings: none set means the plain fetch; upper case wins; a described proxy has no credentials', () => {
  assert.equal(proxySettings({}), null);
  assert.equal(fetchForEnv({}), globalThis.fetch);
  assert.deepEqual(proxySettings({ https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2', no_proxy: 'x' }), { httpsProxy: 'http://b:2', httpProxy: null, noProxy: 'x' });
  assert.equal(describeProxy('http://u:p@proxy.example:3128/'), 'http://proxy.example:3128');
});

test('the embedding endpoint’s default fetch is the environment’s: its calls go through the proxy too', async (t) => {
  const p = await proxy(t);
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: [0.6, 0.8] }] }));
  });
  const port = await listen(server, t);
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  });
  process.env.HTTP_PROXY = process.env.HTTPS_PROXY = `http://127.0.0.1:${p.port}`;
  delete process.env.NO_PROXY;
  const embedder = new OpenAiEmbedder({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k', dimensions: 0, timeoutMs: 5000 });
  assert.equal((await embedder.embed(['你好'])).length, 1);
  assert.deepEqual(p.tunnels, [`127.0.0.1:${port}`], 'the call went through the proxy');
});

test('a proxied call prints no warning a user cannot act on (undici calls its proxy agent experimental)', () => {
  // A process of its own: undici warns once per process, and this file's other tests load it first.
  const module = fileURLToPath(new URL('../../src/net/proxy-fetch.ts', import.meta.url));
  const code = `const { fetchForEnv } = await import(${JSON.stringify(module)});
    await fetchForEnv({ HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' })('http://127.0.0.1:9/').catch(() => undefined);
    process.emitWarning('a warning of our own still shows');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /EnvHttpProxyAgent|UNDICI-EHPA/);
  assert.match(r.stderr, /a warning of our own still shows/, 'only that one warning is dropped');
});
