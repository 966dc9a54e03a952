// The console proxy may only ever reach the configured console. A request target that URL resolution
// would turn into another host (`//evil/x`, `\\evil\x`, encoded slashes, absolute form…) must be
// refused before anything is fetched, the install token must never leave for anything but the
// console, and the browser's cookies and authorization for the host must not be forwarded.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { test } from 'node:test';
import { CONSOLE_PROXY_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { consoleTarget, unsafePathReason } from '../src/host/routes/proxy-target.ts';
import { loadPlugin } from './helpers.ts';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
}

async function recorder(t: { after(fn: () => unknown): void }, label: string): Promise<{ url: string; hostPort: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `from=${label}; Path=/` }).end(`<script>/* ${label} */</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, seen };
}

/** A raw request: the target is sent exactly as given (fetch and URL would normalise it). */
function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes on a socket, for targets node's client refuses to send (control characters). */
function rawSocket(base: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    let out = '';
    socket.on('data', (c) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

test('the console proxy refuses every spelling of another host and never contacts it', async (t) => {
  const consoleSide = await recorder(t, 'console');
  const attacker = await recorder(t, 'attacker');
  const { host } = await loadPlugin(t, { config: { console: { url: consoleSide.url } } });
  const base = await host.listen();
  const a = attacker.hostPort;
  const spellings = [
    `${CONSOLE_PROXY_PATH}//${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/\\\\${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/\\/${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/%2f%2f${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/%2F%2F${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/%5c%5c${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/../../${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/%2e%2e/%2e%2e/pwn`,
    `${CONSOLE_PROXY_PATH}/a/..//${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/@${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/x%40${a}/pwn`,
    `${CONSOLE_PROXY_PATH}/%0d%0aHost:%20${a}`,
    `${CONSOLE_PROXY_PATH}/%00/pwn`,
    `${CONSOLE_PROXY_PATH}/%zz/pwn`,
    `http://${a}${CONSOLE_PROXY_PATH}/pwn`,
  ];
  for (const target of spellings) {
    const res = await rawGet(base, target, { cookie: 'dsh_session=secret', authorization: 'Bearer host-secret' });
    assert.ok(res.status === 400 || res.status === 404, `${target}: ${res.status} ${res.body.slice(0, 120)}`);
    assert.doesNotMatch(res.body, /attacker/, target);
    assert.equal(res.headers['set-cookie'], undefined, target);
  }
  // Control characters node's own client will not send.
  for (const line of [`GET ${CONSOLE_PROXY_PATH}/\t//${a}/pwn HTTP/1.1`, `GET ${CONSOLE_PROXY_PATH}/\u0001x HTTP/1.1`]) {
    const out = await rawSocket(base, line);
    assert.doesNotMatch(out, /attacker/, JSON.stringify(line));
    assert.doesNotMatch(out, /^HTTP\/1\.1 200/, JSON.stringify(line));
  }
  assert.equal(attacker.seen.length, 0, 'the attacker was never contacted');
  assert.equal(consoleSide.seen.length, 0, 'nothing refused reached the console either');

  // A plain page still goes to the console, without the browser's host credentials, and the console
  // cannot set cookies on the host's origin.
  const ok = await rawGet(base, `${CONSOLE_PROXY_PATH}/memories?tab=recall&q=a%40b`, { cookie: 'dsh_session=secret', authorization: 'Bearer host-secret' });
  assert.equal(ok.status, 200);
  assert.match(ok.body, /console/);
  assert.equal(ok.headers['set-cookie'], undefined);
  const seen = consoleSide.seen.at(-1)!;
  assert.equal(seen.url, '/memories?tab=recall&q=a%40b');
  assert.equal(seen.headers.cookie, undefined);
  assert.equal(seen.headers.authorization, undefined);
});

test('the proxy vouches with the token only for browser writes from the host page itself', async (t) => {
  const consoleSide = await recorder(t, 'console');
  const { host } = await loadPlugin(t, { config: { console: { url: consoleSide.url } } });
  const base = await host.listen();
  const post = (headers: Record<string, string>) => fetch(`${base}${CONSOLE_PROXY_PATH}/api/trpc/x`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', ...headers } });
  await post({ origin: base });
  assert.ok(consoleSide.seen.at(-1)!.headers[TOKEN_HEADER], 'a write from the host page carries the token upstream');
  await post({ origin: 'http://evil.example' });
  assert.equal(consoleSide.seen.at(-1)!.headers[TOKEN_HEADER], undefined, 'a foreign page gets no token');
  await post({});
  assert.equal(consoleSide.seen.at(-1)!.headers[TOKEN_HEADER], undefined, 'a script without Origin gets no token');
  await fetch(`${base}${CONSOLE_PROXY_PATH}/`, { headers: { origin: base } });
  assert.equal(consoleSide.seen.at(-1)!.headers[TOKEN_HEADER], undefined, 'a read gets no token');
});

test('consoleTarget builds the upstream from the configured origin, never from the request', () => {
  const target = consoleTarget('http://127.0.0.1:3000', '/engram/console/a/b?x=1', CONSOLE_PROXY_PATH, '');
  assert.deepEqual(target.ok && [target.origin.host, target.path], ['127.0.0.1:3000', '/a/b?x=1']);
  const root = consoleTarget('http://127.0.0.1:3000', '/engram/console', CONSOLE_PROXY_PATH, '');
  assert.equal(root.ok && root.path, '/');
  // The base-path console's root has no trailing slash (Next redirects the slashed form to it).
  const based = consoleTarget('http://127.0.0.1:3000', '/engram/console', CONSOLE_PROXY_PATH, '/engram/console');
  assert.equal(based.ok && based.path, '/engram/console');
  const slashed = consoleTarget('http://127.0.0.1:3000', '/engram/console/_next/static/chunks/%5Btrpc%5D-1.js', CONSOLE_PROXY_PATH, '/engram/console');
  assert.equal(slashed.ok && slashed.path, '/engram/console/_next/static/chunks/%5Btrpc%5D-1.js');
  for (const bad of ['/engram/consolehttp://evil/x', '/engram/console.evil', 'http://evil/engram/console/x', '//evil/engram/console', '*']) {
    assert.equal(consoleTarget('http://127.0.0.1:3000', bad, CONSOLE_PROXY_PATH, '').ok, false, bad);
  }
  assert.equal(consoleTarget('file:///etc/passwd', '/engram/console/', CONSOLE_PROXY_PATH, '').ok, false);
  assert.equal(unsafePathReason('/a/b.c/d-e_f~g'), null);
  assert.notEqual(unsafePathReason('/a/%2e/b'), null);
});
