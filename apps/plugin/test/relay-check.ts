// The open-relay checks, shared by the source plugin and the packed bundle: every spelling of another
// host is refused before anything is fetched, and a plain page reaches the console without the
// browser's credentials for the host.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { CONSOLE_PROXY_PATH } from '../src/host/routes/routes.ts';

export interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
}

export interface Recorder {
  url: string;
  hostPort: string;
  seen: Seen[];
}

export async function recorder(t: { after(fn: () => unknown): void }, label: string): Promise<Recorder> {
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
export function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
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
export function rawSocket(base: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${requestLine}\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
    let out = '';
    socket.on('data', (c) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

/** Runs every spelling against a listening host whose plugin proxies to `consoleSide`. */
export async function assertNoRelay(base: string, consoleSide: Recorder, attacker: Recorder): Promise<void> {
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
}
