// Proxy mode with the real console: a console built with basePath /engram/console (in its own build
// folder), started BY THE PLUGIN with console.command, served through the plugin's /engram/console/
// route on the host. The page's CSS and JS must load through the host (issue #12 item 8), and the
// console must have received the plugin's config: allowed origins in its frame-ancestors (item 7),
// the plugin's data dir, the port from console.url.
// The build runs once (about two minutes on two cores) and is reused while no console source changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { CLIENT_CONFIG_PATH, CONSOLE_START_PATH, STATUS_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { loadPlugin } from './helpers.ts';

const root = resolve(import.meta.dirname, '../../..');
const consoleDir = join(root, 'apps/console');
const BASE_PATH = '/engram/console';
// This test's own build folder (the plugin's default would be consoleDistFor(BASE_PATH)).
const DIST = '.next-plugin';
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

before(() => {
  const buildId = join(consoleDir, DIST, 'BUILD_ID');
  const sources = ['apps/console/src', 'apps/console/next.config.ts', 'packages/engine/src', 'packages/db/src'].map((s) => newest(join(root, s)));
  if (existsSync(buildId) && sources.every((m) => m <= statSync(buildId).mtimeMs)) return;
  const run = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: consoleDir,
    encoding: 'utf8',
    env: { ...process.env, ENGRAM_CONSOLE_BASE_PATH: BASE_PATH, ENGRAM_CONSOLE_DIST: DIST, ENGRAM_SKIP_TYPECHECK: '1', NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 20 * 60_000,
  });
  assert.equal(run.status, 0, `console build failed:\n${run.stdout}\n${run.stderr}`);
});

/** The status of a GET to 127.0.0.1:port with the Host header given (fetch cannot set Host), and other headers. */
function statusFor(port: number, path: string, hostName: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { ...headers, host: hostName } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test('proxy mode: the plugin starts a console built for /engram/console; page, CSS and JS load through the host', { timeout: 180_000 }, async (t) => {
  const port = await freePort();
  const dshPage = 'http://dsh.example:5173';
  const { host, corpus } = await loadPlugin(t, {
    deps: { env: { ENGRAM_CONSOLE_DIST: DIST, NEXT_TELEMETRY_DISABLED: '1' } },
    config: {
      console: {
        url: `http://127.0.0.1:${port}`,
        basePath: BASE_PATH,
        // PORT and the build folder come from the plugin (console.url, console.basePath).
        command: [process.execPath, nextBin, 'start', consoleDir, '-H', '127.0.0.1'],
        allowedOrigins: [dshPage],
      },
    },
  });
  const base = await host.listen();
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  const started = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token, origin: base } });
  assert.equal(started.status, 200, await started.text());

  let page: Response | null = null;
  for (let i = 0; i < 240; i++) {
    const status = (await (await fetch(`${base}${STATUS_PATH}`)).json()) as { console: { reachable: boolean } };
    if (status.console.reachable) {
      page = await fetch(`${base}${BASE_PATH}/`);
      if (page.status === 200) break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(page && page.status === 200, `the console answers through the host (last status ${page?.status})`);
  const html = await page!.text();

  // Every asset the page names is under the base path and loads through the host's proxy route.
  const assets = [...html.matchAll(/(?:href|src)="([^"]*\/_next\/static\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const css = assets.filter((a) => a.includes('.css'));
  const js = assets.filter((a) => a.includes('.js'));
  assert.ok(css.length > 0 && js.length > 0, `assets in the page: ${assets.join(', ')}`);
  for (const asset of assets) assert.ok(asset.startsWith(`${BASE_PATH}/_next/`), `asset outside the base path: ${asset}`);
  for (const asset of [...css.slice(0, 2), ...js.slice(0, 3)]) {
    const res = await fetch(`${base}${asset}`);
    assert.equal(res.status, 200, asset);
    assert.match(res.headers.get('content-type') ?? '', asset.includes('.css') ? /text\/css/ : /javascript/, asset);
    assert.ok((await res.arrayBuffer()).byteLength > 0, asset);
  }

  // The console got the plugin's config: the DSH page may frame it (item 7), and so may the page
  // that started it; it runs on the plugin's data dir (its token file is the plugin's).
  const inner = await fetch(`${base}${BASE_PATH}/no-such-page`);
  const csp = inner.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors [^;]*http:\/\/dsh\.example:5173/, csp);
  assert.ok(csp.includes(base), `the starting page's origin in ${csp}`);
  // The base-path root is the page the sidebar opens: it carries the security headers as every page
  // does, and answers no foreign host name (apps/console/src/proxy.ts matches '/' on its own: under a
  // basePath the catch-all pattern missed the root, which went out with no CSP and no Host check).
  assert.match(page!.headers.get('content-security-policy') ?? '', /frame-ancestors [^;]*http:\/\/dsh\.example:5173/);
  assert.equal(await statusFor(port, BASE_PATH, 'attacker.example'), 421, 'the base-path root under a foreign Host');
  // With a trailing slash Next answers first, with a redirect to the root (no page), which answers 421 as above.
  assert.equal(await statusFor(port, `${BASE_PATH}/`, 'attacker.example'), 308, 'the base-path root with a slash under a foreign Host');
  // An image on another site pointing at the console's API through the host: the browser's
  // Sec-Fetch-Site reaches the console, which refuses it before any query runs (recall.run could call
  // a paid judge); the same read from the page itself passes.
  const hostPort = new URL(base).port;
  const api = `${BASE_PATH}/api/trpc/memories.list?input=${encodeURIComponent('{}')}`;
  assert.equal(await statusFor(Number(hostPort), api, `127.0.0.1:${hostPort}`, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' }), 403, 'a cross-site read through the host');
  assert.equal(await statusFor(Number(hostPort), api, `127.0.0.1:${hostPort}`, { 'sec-fetch-site': 'same-origin' }), 200, 'the page reading through the host');
  const direct = await fetch(`http://127.0.0.1:${port}${BASE_PATH}/`);
  assert.equal(direct.status, 200);
  assert.match(direct.headers.get('content-security-policy') ?? '', /frame-ancestors/);
  assert.ok(existsSync(join(corpus.dataDir, 'console-token')));
});
