// The plugin's light view in real Chromium at the sidebar's width: a bundle user with no console sees
// their memories, searches them through the engine's recall, opens one and goes back — with the
// page's strict CSP in force (no violation, no page error).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../apps/plugin/src/host/apply.ts';
import { CORPUS, makeCorpus } from '../apps/plugin/test/helpers.ts';
import { repoRoot } from './server.ts';
import { CHROMIUM, CHROMIUM_ARGS, haveChromium } from './console-in-chromium.ts';

test('the light view in Chromium at 300 px: list, search, open, back, under its CSP', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 120_000 }, async (t) => {
  const corpus = makeCorpus();
  t.after(() => corpus.cleanup());
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const host = createHost({});
  t.after(() => host.close());
  await host.load(createHostPlugin({ env: { ...process.env, ENGRAM_MODEL_AUTO_INSTALL: '0' } }), {
    diaryDir: corpus.diaryDir,
    dataDir: corpus.dataDir,
    model: { autoInstall: false },
    console: { url: `http://127.0.0.1:${port}` },
  });
  const base = await host.listen();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 300, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console ${m.text()}`));

  await page.goto(`${base}/engram/console/`, { waitUntil: 'load' });
  assert.match(page.url(), /\/engram\/view/, 'the dead console sent the frame to the light view');
  await page.getByRole('status').filter({ hasText: `共 ${CORPUS.length} 条记忆` }).waitFor();
  const rows = page.locator('#list li');
  assert.equal(await rows.count(), CORPUS.length);
  const visible = await rows.evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().bottom <= innerHeight).length);
  assert.ok(visible >= 10, `at least ten rows visible in an 800 px sidebar (${visible})`);
  const widest = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(widest <= 300, `no horizontal scrolling at 300 px (${widest})`);

  const shots = join(repoRoot, 'e2e/screenshots');
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'light-view-300-list.png') });
  await page.keyboard.press('/');
  await page.keyboard.type('跑步计划怎么安排');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: /召回 \d+ 条/ }).waitFor();
  assert.match(await rows.first().innerText(), /跑步计划/);
  await rows.first().getByRole('button').click();
  await page.locator('#text').filter({ hasText: '周日长跑十公里' }).waitFor();
  await page.screenshot({ path: join(shots, 'light-view-300-memory.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#list').isVisible(), true, 'Esc goes back to the list');

  // The host's theme goes with the frame (?theme=, kept through the dead console's redirect) and a
  // later switch comes as the console's appearance message from the parent page.
  const background = (frame: { evaluate: typeof page.evaluate }) => frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.goto(`${base}/engram/console/?lang=zh&theme=dark`, { waitUntil: 'load' });
  assert.match(page.url(), /\/engram\/view\?from=console&lang=zh&theme=dark$/);
  assert.equal(await background(page), 'rgb(13, 17, 23)', 'dark as the host asked');
  await page.goto(`${base}/engram/view?theme=light`, { waitUntil: 'load' });
  assert.equal(await background(page), 'rgb(255, 255, 255)');
  // A parent page on the host's origin (frame-ancestors 'self'), as the DSH page is.
  await page.route(`${base}/host-page`, (route) => route.fulfill({ contentType: 'text/html', body: `<iframe src="${base}/engram/view?theme=light" style="width:300px;height:600px;border:0"></iframe>` }));
  await page.goto(`${base}/host-page`, { waitUntil: 'load' });
  const framed = (await (await page.locator('iframe').elementHandle())!.contentFrame())!;
  await framed.waitForURL(/\/engram\/view/);
  await framed.waitForLoadState('load');
  await page.evaluate(() => document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'engram:appearance', lang: 'zh', theme: 'dark' }, '*'));
  await framed.waitForFunction(() => document.documentElement.getAttribute('data-theme') === 'dark');
  assert.equal(await background(framed), 'rgb(13, 17, 23)', 'follows the host to dark without a reload');
  assert.deepEqual(problems, [], 'no CSP violation or page error');
});
