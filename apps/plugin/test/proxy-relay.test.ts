// The console proxy may only ever reach the configured console. A request target that URL resolution
// would turn into another host (`//evil/x`, `\\evil\x`, encoded slashes, absolute form…) must be
// refused before anything is fetched, the install token must never leave for anything but the
// console, and the browser's cookies and authorization for the host must not be forwarded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONSOLE_PROXY_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { consoleTarget, unsafePathReason } from '../src/host/routes/proxy-target.ts';
import { loadPlugin } from './helpers.ts';
import { assertNoRelay, recorder } from './relay-check.ts';

test('the console proxy refuses every spelling of another host and never contacts it', async (t) => {
  const consoleSide = await recorder(t, 'console');
  const attacker = await recorder(t, 'attacker');
  const { host } = await loadPlugin(t, { config: { console: { url: consoleSide.url } } });
  await assertNoRelay(await host.listen(), consoleSide, attacker);
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
