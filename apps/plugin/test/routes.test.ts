// The host-half HTTP routes on the simulated host's real HTTP server: status, client config, the
// guarded console start, and the console proxy.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { HOST_VARIANTS } from '@engram/dsh-sim';
import { CLIENT_CONFIG_PATH, CONSOLE_START_PATH, STATUS_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { loadPlugin } from './helpers.ts';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function fakeConsole(t: { after(fn: () => unknown): void }): Promise<{ url: string; seen: { url: string; headers: IncomingMessage['headers']; body: string }[] }> {
  const seen: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/html', 'x-console': 'yes' }).end(`<html>console ${req.url}</html>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`status route reports engine, modes and console (${variant})`, async (t) => {
    const port = await freePort();
    const { host } = await loadPlugin(t, { host: hostOptions, config: { console: { url: `http://127.0.0.1:${port}` } } });
    const base = await host.listen();
    const res = await fetch(`${base}${STATUS_PATH}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { plugin: { routesOn: string }; engine: { ready: boolean; documents: number }; modes: { resident: string; recall: string }; console: { reachable: boolean } };
    assert.equal(body.plugin.routesOn, hostOptions.httpService);
    assert.equal(body.engine.ready, true);
    assert.equal(body.engine.documents, 12);
    assert.deepEqual(body.modes, { resident: 'section', recall: 'message' });
    assert.equal(body.console.reachable, false);
    await host.settle();
    host.assertClean();
  });
}

test('client config gives the console URL and token to same-origin pages only', async (t) => {
  const { host } = await loadPlugin(t, { config: { console: { url: 'http://127.0.0.1:3999', token: 'x'.repeat(40) } } });
  const base = await host.listen();
  const ok = await fetch(`${base}${CLIENT_CONFIG_PATH}`, { headers: { origin: base } });
  assert.equal(ok.status, 200);
  const config = (await ok.json()) as { consoleUrl: string; proxyPath: string; token: string };
  assert.equal(config.consoleUrl, 'http://127.0.0.1:3999');
  assert.equal(config.proxyPath, '/engram/console/');
  assert.equal(config.token, 'x'.repeat(40));
  assert.equal(ok.headers.get('access-control-allow-origin'), null);
  const foreign = await fetch(`${base}${CLIENT_CONFIG_PATH}`, { headers: { origin: 'http://evil.example' } });
  assert.equal(foreign.status, 403);
});

test('console start: refused without the token or from another origin; 501 without a command', async (t) => {
  const port = await freePort();
  const { host, corpus } = await loadPlugin(t, { config: { console: { url: `http://127.0.0.1:${port}` } } });
  const base = await host.listen();
  // The token is the console's own install token, created in the data dir when missing.
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  assert.ok(token.length >= 32);
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(`${corpus.dataDir}/console-token`, 'utf8').trim(), token);

  assert.equal((await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST' })).status, 403);
  assert.equal((await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: 'wrong' } })).status, 403);
  assert.equal((await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token, origin: 'http://evil.example' } })).status, 403);
  assert.equal((await fetch(`${base}${CONSOLE_START_PATH}`)).status, 405);
  const noCommand = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token, origin: base } });
  assert.equal(noCommand.status, 501);
  assert.match(((await noCommand.json()) as { message: string }).message, /console\.command/);
});

test('console start runs the configured command when the console is down, and stops it on unload', async (t) => {
  const port = await freePort();
  const serverScript = "require('http').createServer((q, s) => s.end('console')).listen(Number(process.env.PORT), process.env.HOST)";
  const { host } = await loadPlugin(t, { config: { console: { url: `http://127.0.0.1:${port}`, command: [process.execPath, '-e', serverScript] } } });
  const base = await host.listen();
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  const started = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token } });
  assert.equal(started.status, 200);
  const outcome = (await started.json()) as { state: string; pid: number };
  assert.equal(outcome.state, 'started');
  let reachable = false;
  for (let i = 0; i < 100 && !reachable; i++) {
    reachable = ((await (await fetch(`${base}${STATUS_PATH}`)).json()) as { console: { reachable: boolean } }).console.reachable;
    if (!reachable) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(reachable, 'the started console answers');
  const again = (await (await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token } })).json()) as { state: string };
  assert.equal(again.state, 'running', 'a running console is not started twice');

  host.unload('engram');
  let alive = true;
  for (let i = 0; i < 100 && alive; i++) {
    try {
      process.kill(outcome.pid, 0);
      await new Promise((r) => setTimeout(r, 50));
    } catch {
      alive = false;
    }
  }
  assert.equal(alive, false, 'the console the plugin started is stopped with it');
});

test('the console the plugin starts gets the plugin config: address, folders, allowed origins and hosts, base path', async (t) => {
  const port = await freePort();
  // A stand-in console that records the environment it was started with, then serves.
  const serverScript =
    "require('fs').writeFileSync(process.env.ENGRAM_DATA_DIR + '/started-env.json', JSON.stringify(process.env)); require('http').createServer((q, s) => s.end('console')).listen(Number(process.env.PORT), process.env.HOST)";
  const { host, corpus } = await loadPlugin(t, {
    config: {
      console: { url: `http://127.0.0.1:${port}`, command: [process.execPath, '-e', serverScript], allowedOrigins: ['http://dsh.local:5173/'], allowedHosts: ['dsh.local'], basePath: '/engram/console' },
    },
  });
  const base = await host.listen();
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  const started = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token, origin: base } });
  assert.equal(started.status, 200);
  const file = join(corpus.dataDir, 'started-env.json');
  let env: Record<string, string> | null = null;
  for (let i = 0; i < 100 && env === null; i++) {
    try {
      env = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  assert.ok(env, 'the console was started');
  assert.equal(env!.PORT, String(port));
  assert.equal(env!.HOST, '127.0.0.1');
  assert.equal(env!.ENGRAM_DATA_DIR, corpus.dataDir);
  assert.equal(env!.ENGRAM_DIARY_DIR, corpus.diaryDir);
  // The configured origin (normalised) and the DSH page that asked for the start may frame it.
  assert.deepEqual(env!.ENGRAM_ALLOWED_ORIGINS!.split(',').sort(), ['http://dsh.local:5173', base].sort());
  assert.equal(env!.ENGRAM_ALLOWED_HOSTS, 'dsh.local');
  assert.equal(env!.ENGRAM_CONSOLE_BASE_PATH, '/engram/console');
  assert.equal(env!.ENGRAM_CONSOLE_DIST, '.next-engram-console');
  host.unload('engram');
});

test('the console proxy forwards method, path, query, body and the browser host', async (t) => {
  const fake = await fakeConsole(t);
  const { host, corpus } = await loadPlugin(t, { config: { console: { url: fake.url } } });
  const base = await host.listen();
  const page = await fetch(`${base}/engram/console/memories?tab=recall`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('x-console'), 'yes');
  assert.match(await page.text(), /console \/memories\?tab=recall/);
  const post = await fetch(`${base}/engram/console/api/trpc/save`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', [TOKEN_HEADER]: 't', 'x-forwarded-host': 'evil.example', 'x-engram-proxy': 'guess' } });
  assert.equal(post.status, 200);
  const last = fake.seen.at(-1)!;
  assert.equal(last.url, '/api/trpc/save');
  assert.equal(last.body, '{"a":1}');
  assert.equal(last.headers[TOKEN_HEADER], 't');
  assert.equal(last.headers.host, new URL(fake.url).host, 'the console sees its own loopback host name');
  assert.equal(last.headers['x-forwarded-host'], new URL(base).host, 'and where the browser really was, not what the client claimed');
  assert.equal(last.headers['x-engram-proxy'], readFileSync(`${corpus.dataDir}/console-token`, 'utf8').trim(), 'with the token that makes the console believe this proxy');
  // A rebinding page (foreign Host) is not proxied at all.
  const rebound = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${base}/engram/console/`, { headers: { host: 'evil.example' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on('error', reject);
    req.end();
  });
  assert.equal(rebound, 421);
  assert.equal((await fetch(`${base}/engram/console`)).status, 200);
  assert.equal(fake.seen.at(-1)!.url, '/');
});

test('the console proxy answers 502 when the console is down', async (t) => {
  const port = await freePort();
  const { host } = await loadPlugin(t, { config: { console: { url: `http://127.0.0.1:${port}` } } });
  const base = await host.listen();
  const res = await fetch(`${base}/engram/console/`);
  assert.equal(res.status, 502);
  assert.match(((await res.json()) as { error: string }).error, /not reachable/);
  await host.settle();
  host.assertClean();
});
