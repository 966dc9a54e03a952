// The open relay, as an attacker would use it, in real Chromium: a page on another origin navigates
// the browser to the DSH host's console proxy with a path that names the attacker's server. Before
// the fix the plugin fetched the attacker's page and served it under the host's origin, where its
// script could read /engram/client-config and drive the host. Now every spelling gets a refusal, the
// attacker's server is never contacted through the host, and no foreign script runs on the host's origin.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../apps/plugin/src/host/apply.ts';
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from './console-in-chromium.ts';

async function serve(t: { after(fn: () => unknown): void }, handler: (url: string) => { type: string; body: string }): Promise<{ base: string; hostPort: string; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const { type, body } = handler(req.url ?? '');
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, hostPort: `127.0.0.1:${port}`, hits };
}

test('a page on another origin cannot get foreign content served under the host through the proxy', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 120_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-relay-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const consoleSide = await serve(t, () => ({ type: 'text/html', body: '<title>console</title>' }));
  // The attacker's payload: if it ever runs on the host's origin it reads the client config.
  const attacker = await serve(t, (url) =>
    url.startsWith('/pwn')
      ? { type: 'text/html', body: "<title>pwned</title><script>fetch('/engram/client-config').then(r=>r.text()).then(t=>{document.title='pwned '+t})</script>" }
      : { type: 'text/html', body: '<title>attacker</title>' },
  );
  const host = createHost({});
  t.after(() => host.close());
  await host.load(createHostPlugin({ env: { ...process.env, ENGRAM_MODEL_AUTO_INSTALL: '0' } }), {
    diaryDir: join(root, 'diaries'),
    dataDir: join(root, 'data'),
    model: { autoInstall: false },
    console: { url: consoleSide.base },
  });
  const hostBase = await host.listen();
  const a = attacker.hostPort;
  const spellings = [`//${a}/pwn`, `/\\\\${a}/pwn`, `/%2f%2f${a}/pwn`, `/%5c%5c${a}/pwn`, `/..//${a}/pwn`, `/@${a}/pwn`, `/%0d%0a//${a}/pwn`];

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  t.after(() => browser.close());
  const page = await browser.newPage();
  for (const spelling of spellings) {
    const target = `${hostBase}/engram/console${spelling}`;
    await page.goto(`${attacker.base}/start`);
    // The attacker's page sends the browser to the host, as a link or a script would.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.evaluate((u) => void (location.href = u), target)]);
    await page.waitForTimeout(200);
    const landed = new URL(page.url());
    assert.equal(landed.origin, hostBase, `${spelling}: the browser stayed on the host`);
    const title = await page.title();
    const text = await page.evaluate(() => document.documentElement.outerHTML);
    assert.doesNotMatch(title, /pwned/, spelling);
    assert.doesNotMatch(text, /pwned|client-config/, `${spelling}: ${text.slice(0, 200)}`);
  }
  assert.deepEqual(attacker.hits.filter((h) => h.startsWith('/pwn')), [], 'the attacker’s server was never reached through the host');
  assert.equal(consoleSide.hits.length, 0, 'the refused paths did not reach the console either');
});
