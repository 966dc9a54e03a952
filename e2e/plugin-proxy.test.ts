// The console through the DSH plugin's proxy, in real Chromium: a production console built for the
// plugin's base path (/engram/console), started BY THE PLUGIN (console.command) on the plugin's data
// dir, reached only through the plugin's /engram/console route on the simulated host's real HTTP
// server. The page's CSS and JS load through the host, the Library lists a memory that is in the
// data dir (a tRPC query that went through the proxy), and creating a memory in the page works
// through the proxy with the install token (a tRPC mutation; the diary file appears on disk).
//
// Red before 2f6af32: the console fetched '/api/trpc' from the site root, i.e. the host's own
// /api/trpc, which no route serves, so the Library never listed anything and no write could go out.
//
// Build folder: ENGRAM_PROXY_CONSOLE_DIST, default '.next-plugin' — the same base-path build that
// apps/plugin/test/console-proxy.test.ts makes, so `npm test` builds it once.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Request, type Response } from 'playwright-core';
import { createHost, type SimHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../apps/plugin/src/host/apply.ts';
import { CLIENT_CONFIG_PATH, CONSOLE_START_PATH, STATUS_PATH, TOKEN_HEADER } from '../apps/plugin/src/host/routes/index.ts';
import { consoleDir, ensureBuild, freePort, repoRoot } from './server.ts';
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from './console-in-chromium.ts';

const BASE_PATH = '/engram/console';
const DIST = process.env.ENGRAM_PROXY_CONSOLE_DIST || '.next-plugin';
const nextBin = createRequire(join(consoleDir, 'package.json')).resolve('next/dist/bin/next');

const SEEDED = { title: '灯塔维修日志', body: '灯塔的旋转透镜轴承换成了黄铜件，下次检修在十一月的大潮之后。' };
const CREATED = { title: '海底电缆巡检', body: '海底电缆二号段的绝缘电阻偏低，潜水员下周复测接头。' };

let root = '';
let host: SimHost | null = null;
let browser: Browser | null = null;

before(() => {
  if (!haveChromium) return;
  // A build on a loaded two-core machine has taken over four minutes.
  ensureBuild(() => undefined, { dist: DIST, basePath: BASE_PATH, timeoutMs: 20 * 60_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  // Unloading the plugin stops the console it started.
  await host?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('the console through the plugin proxy in Chromium: assets, a query and a mutation go through the host', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, async () => {
  root = mkdtempSync(join(tmpdir(), 'engram-plugin-proxy-'));
  const diaryDir = join(root, 'diaries');
  const dataDir = join(root, 'data');
  mkdirSync(diaryDir);
  writeFileSync(join(diaryDir, `2026-10-30-${SEEDED.title}.txt`), `[09:00] ${SEEDED.title}\n\n> 透镜轴承换成黄铜件\n\n${SEEDED.body}\n\nTag: 灯塔, 轴承\n`);

  const consolePort = await freePort();
  host = createHost({});
  await host.load(createHostPlugin({ env: { ...process.env, ENGRAM_CONSOLE_DIST: DIST, NEXT_TELEMETRY_DISABLED: '1', ENGRAM_MODEL_AUTO_INSTALL: '0' } }), {
    diaryDir,
    dataDir,
    model: { autoInstall: false },
    console: {
      url: `http://127.0.0.1:${consolePort}`,
      basePath: BASE_PATH,
      command: [process.execPath, nextBin, 'start', consoleDir, '-H', '127.0.0.1'],
    },
  });
  const base = await host.listen();

  // The client half's way in: the token from client-config, then console-start (same site + token).
  const { token } = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string };
  const started = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: token, origin: base } });
  assert.equal(started.status, 200, await started.text());
  let reachable = false;
  for (let i = 0; i < 480 && !reachable; i++) {
    reachable = ((await (await fetch(`${base}${STATUS_PATH}`)).json()) as { console: { reachable: boolean } }).console.reachable;
    if (!reachable) await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(reachable, 'the console the plugin started answers');

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
  const errors: string[] = [];
  const requests: Request[] = [];
  const responses: Response[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r));
  page.on('response', (r) => responses.push(r));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));

  await page.goto(`${base}${BASE_PATH}#library`);
  // The Library lists the seeded memory: its rows come from a tRPC query, after hydration.
  const seededRow = page.getByTestId('memory-row').filter({ hasText: SEEDED.title });
  await seededRow.waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(repoRoot, 'e2e/artifacts/plugin-proxy-library.png') }).catch(() => undefined);

  // Everything the page asked for stayed on the host and under the base path, and loaded.
  const own = requests.filter((r) => r.url().startsWith(base));
  assert.ok(own.length === requests.length, `requests off the host: ${requests.filter((r) => !r.url().startsWith(base)).map((r) => r.url()).join(', ')}`);
  const outside = own.map((r) => new URL(r.url()).pathname).filter((p) => !p.startsWith(BASE_PATH));
  assert.deepEqual(outside, [], 'every request is under the proxy path');
  const assets = responses.filter((r) => /\/_next\/static\//.test(r.url()));
  const css = assets.filter((r) => /\.css(\?|$)/.test(r.url()));
  const js = assets.filter((r) => /\.js(\?|$)/.test(r.url()));
  assert.ok(css.length > 0 && js.length > 0, `assets loaded: ${assets.map((r) => r.url()).join(', ')}`);
  for (const r of assets) assert.equal(r.status(), 200, r.url());
  // The stylesheet applies (Tailwind's preflight zeroes the body margin; a browser default is 8px).
  const styled = await page.evaluate(() => ({ sheets: document.styleSheets.length, margin: getComputedStyle(document.body).margin }));
  assert.ok(styled.sheets > 0, 'a stylesheet is attached');
  assert.equal(styled.margin, '0px', 'the console CSS applies');
  const trpcQueries = responses.filter((r) => new URL(r.url()).pathname.startsWith(`${BASE_PATH}/api/trpc/`));
  assert.ok(trpcQueries.length > 0 && trpcQueries.every((r) => r.status() === 200), `tRPC through the proxy: ${trpcQueries.map((r) => `${r.status()} ${r.url()}`).join(', ')}`);

  // A mutation through the proxy: create a memory in the page.
  await page.getByTestId('library-new').click();
  await page.getByTestId('create-title').fill(CREATED.title);
  await page.getByTestId('create-content').fill(`[10:20] ${CREATED.title}\n\n> 二号段绝缘电阻偏低\n\n${CREATED.body}`);
  await page.getByTestId('create-tags').fill('海底电缆, 绝缘电阻');
  const mutation = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname.startsWith(`${BASE_PATH}/api/trpc/`));
  await page.getByTestId('create-submit').click();
  const sent = await mutation;
  assert.equal((await sent.allHeaders())[TOKEN_HEADER], undefined, 'the page holds no install token: the proxy vouches for its write');
  assert.equal((await sent.response())?.status(), 200);
  await page.getByTestId('memory-row').filter({ hasText: CREATED.title }).waitFor({ timeout: 30_000 });

  // It reached the engine: the diary file is on disk, in the plugin's diary folder.
  const files = readdirSync(diaryDir, { recursive: true }).map(String).filter((f) => f.includes(CREATED.title));
  assert.equal(files.length, 1, `diary files: ${readdirSync(diaryDir, { recursive: true }).join(', ')}`);
  assert.match(readFileSync(join(diaryDir, files[0]!), 'utf8'), /绝缘电阻偏低/);
  assert.deepEqual(errors, [], 'no page errors and no failed requests');
});
