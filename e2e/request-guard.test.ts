// The request guard against the production console (`next build` + `next start`), with real HTTP
// requests carrying forged Host / X-Forwarded-Host headers (#13 item 1), and bodies that must not be
// buffered before the guard has refused them (#13 item 6). Before the fix: `Host: 127.evil.example`
// got the page with the install token, a forged X-Forwarded-Host made a foreign Origin "same-origin",
// and an unauthenticated POST was only answered after Next had buffered its whole body.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browserSessionValue, PROXY_HEADER } from '../packages/engine/src/security/request-guard.ts';
import { seedDiary } from './fixtures.ts';
import { ensureBuild, freePort, startConsole, type RunningConsole } from './server.ts';

/** A raw request (fetch would not let us set Host). */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/**
 * Sends the request head and a first piece of the body, never the rest; resolves with the status
 * line if the server answers within `ms`, else with null (it is waiting for — buffering — the body).
 */
function answerBeforeBody(port: number, head: string, ms: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, ms);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes('\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got.slice(0, got.indexOf('\r\n')));
      }
    });
    socket.on('error', () => {
      clearTimeout(timer);
      resolve(got ? got.slice(0, got.indexOf('\r\n')) : null);
    });
    socket.write(head);
    socket.write('x'.repeat(64 * 1024));
  });
}

describe('request guard on the production console', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-e2e-guard-'));
  const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  let server: RunningConsole | null = null;
  let port = 0;
  let token = '';
  const create = JSON.stringify({ title: '守卫测试', content: '经过插件代理写入的记忆:请求守卫只相信带着安装令牌的代理转发头,结论是插件代理仍然可以写入。', tags: ['守卫'] });

  before(async () => {
    ensureBuild((s) => console.log(`# ${s}`));
    mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
    seedDiary(env.ENGRAM_DIARY_DIR);
    port = await freePort();
    server = await startConsole(env, port);
    const page = await raw(port, 'GET', '/', { host: `127.0.0.1:${port}` });
    assert.equal(page.status, 200);
    token = readFileSync(join(env.ENGRAM_DATA_DIR, 'console-token'), 'utf8').trim();
    assert.ok(token.length > 20);
    assert.equal(page.text.includes(token), false, 'the page carries no write key');
    assert.equal(page.text.includes(browserSessionValue(token)), false, 'nor the session cookie value');
    const cookie = String(page.headers['set-cookie'] ?? '');
    assert.match(cookie, /engram_session=/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
  });
  after(async () => server?.stop());

  test('a page on a rebinding host name gets no page and no token', async () => {
    for (const host of [`127.evil.example:${port}`, `evil.example:${port}`, `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
      const res = await raw(port, 'GET', '/', { host });
      assert.equal(res.status, 421, host);
      assert.equal(res.text.includes(token), false, `${host} got the token`);
    }
    for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) assert.equal((await raw(port, 'GET', '/', { host })).status, 200, host);
  });

  test('API reads and writes from a rebinding host are refused, even with the token', async () => {
    const host = `127.evil.example:${port}`;
    const read = await raw(port, 'GET', '/api/trpc/index.status', { host });
    assert.equal(read.status, 421);
    const write = await raw(port, 'POST', '/api/trpc/memories.create', { host, origin: `http://${host}`, 'x-engram-token': token, 'content-type': 'application/json' }, create);
    assert.equal(write.status, 421, write.text);
  });

  test('a forged X-Forwarded-Host does not make a foreign origin the console’s own', async () => {
    const headers = { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', origin: 'http://evil.example', 'x-engram-token': token, 'content-type': 'application/json' };
    const write = await raw(port, 'POST', '/api/trpc/memories.create', headers, create);
    assert.equal(write.status, 403, write.text);
    const rebuild = await raw(port, 'POST', '/api/index/rebuild', headers, '{}');
    assert.equal(rebuild.status, 403, rebuild.text);
  });

  test('Engram’s own proxy (the plugin) is believed when it carries the token, and only for accepted hosts', async () => {
    const viaPlugin = { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'localhost:7860', [PROXY_HEADER]: token, origin: 'http://localhost:7860', 'x-engram-token': token, 'content-type': 'application/json' };
    const ok = await raw(port, 'POST', '/api/trpc/memories.create', viaPlugin, create);
    assert.equal(ok.status, 200, ok.text);
    const evil = await raw(port, 'POST', '/api/trpc/memories.create', { ...viaPlugin, 'x-forwarded-host': 'evil.example:7860', origin: 'http://evil.example:7860' }, create);
    assert.equal(evil.status, 421, evil.text);
    const page = await raw(port, 'GET', '/', { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example', [PROXY_HEADER]: token });
    assert.equal(page.status, 421);
    const wrongProxyToken = await raw(port, 'POST', '/api/trpc/memories.create', { ...viaPlugin, [PROXY_HEADER]: 'x'.repeat(token.length) }, create);
    assert.equal(wrongProxyToken.status, 403, 'an unproven proxy header is ignored: the origin is foreign again');
  });

  test('an unauthenticated POST is refused before its body arrives (declared 10 MB, or chunked)', async () => {
    const base = `POST /api/trpc/memories.create HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\n`;
    const declared = await answerBeforeBody(port, `${base}Content-Length: ${10 * 1024 * 1024}\r\n\r\n`, 5_000);
    assert.ok(declared !== null, 'no answer while the body was still coming: the server was buffering it');
    assert.match(declared, / (403|413) /);
    const chunked = await answerBeforeBody(port, `${base}Transfer-Encoding: chunked\r\n\r\n10000\r\n`, 5_000);
    assert.ok(chunked !== null, 'no answer to a chunked unauthenticated POST while its body was coming');
    assert.match(chunked, / 403 /);
  });

  test('a POST to a page (no page takes a body) is refused; Next keeps at most 16 KB of it for the proxy', async () => {
    // Next holds a request the proxy matches until its body has arrived (it re-attaches the body
    // afterwards), so this one is answered after the upload; proxyClientMaxBodySize bounds the copy —
    // e2e/bench-body-flood.ts measures the memory.
    const res = await raw(port, 'POST', '/', { host: `127.0.0.1:${port}`, 'content-type': 'text/plain' }, 'x'.repeat(10 * 1024 * 1024));
    assert.equal(res.status, 405);
    assert.equal(res.text.includes(token), false);
  });

  test('an authenticated POST declaring more than 2 MB gets 413 without sending it', async () => {
    const head = `POST /api/trpc/memories.create HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nx-engram-token: ${token}\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`;
    const status = await answerBeforeBody(port, head, 5_000);
    assert.ok(status !== null);
    assert.match(status, / 413 /);
  });
});
