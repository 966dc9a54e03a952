// The console in real Chromium against its production build: at three widths, create a memory, find
// it in Recall debug with its explanation, rebuild with a live progress bar, change a setting, restart
// the server and see it kept; plus a cross-origin write that must be rejected.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { freePort, repoRoot } from './server.ts';
import { openAdvancedSettings } from './settings.ts';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';

const execFileP = promisify(execFile);
const ARTIFACTS = join(repoRoot, 'e2e/artifacts');
const WIDTHS = [300, 760, 1360] as const;

/** One setting per width; each later width also checks the earlier ones survived (save A → restart → save B keeps A). */
const SETTINGS: Record<(typeof WIDTHS)[number], { path: string; value: string }> = {
  300: { path: 'inject.header', value: 'E2E 首行说明 300' },
  760: { path: 'recall.kBase', value: '6' },
  1360: { path: 'inject.disclaimer', value: 'E2E 免责声明 1360' },
};

/** A memory per width, with words no seeded diary uses (so they are distinctive). */
const MEMORIES: Record<(typeof WIDTHS)[number], { title: string; body: string; tags: string; query: string }> = {
  300: { title: '量子纠缠实验记录', body: '用纠缠光子对做了贝尔不等式测试,违背度二点七。', tags: '量子纠缠, 贝尔不等式', query: '量子纠缠 贝尔不等式' },
  760: { title: '深海潜水装备清单', body: '干式潜水服、备用调节器和潜水电脑都检查过了。', tags: '潜水, 调节器', query: '深海潜水 干式潜水服 备用调节器' },
  1360: { title: '火山观测站值班', body: '凌晨地震仪记录到三次微震,二氧化硫浓度略有上升。', tags: '火山, 地震仪', query: '火山观测站 地震仪 二氧化硫浓度' },
};

describe('Engram console in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 240_000 }, () => {
  const c = consoleInChromium('console', () => mkdirSync(ARTIFACTS, { recursive: true }));
  const env = c.env;
  const timings = { buildMs: 0, cold: [] as number[], warm: [] as number[], coldTtfb: [] as number[], warmTtfb: [] as number[] };
  let coldPending = true;

  const restart = async () => {
    await c.restart();
    coldPending = true;
  };

  /** Loads the console and waits until the library shows rows; records the time as cold or warm. */
  const load = async (page: Page, how: 'goto' | 'reload' = 'goto') => {
    const started = Date.now();
    if (how === 'goto') await page.goto(`${c.server.url}/#library`);
    else await page.reload();
    await page.getByTestId('memory-row').first().waitFor({ state: 'attached' });
    const ms = Date.now() - started;
    const ttfb = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return nav ? Math.round(nav.responseStart - nav.requestStart) : -1;
    });
    (coldPending ? timings.cold : timings.warm).push(ms);
    (coldPending ? timings.coldTtfb : timings.warmTtfb).push(ttfb);
    coldPending = false;
  };

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });

  after(() => {
    timings.buildMs = c.buildMs;
    const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null);
    const summary = { ...timings, coldMedianMs: median(timings.cold), warmMedianMs: median(timings.warm), measuredAt: new Date().toISOString() };
    writeFileSync(join(ARTIFACTS, 'timings.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`# page load: cold ${timings.cold.join('/')} ms, warm ${timings.warm.join('/')} ms (build ${timings.buildMs} ms)`);
  });

  for (const width of WIDTHS) {
    test(`at ${width}px: create → recall explains it → rebuild to 100 % → a setting survives a restart`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await load(page);
        await assertLayout(page, width);
        await shot(page, `w${width}-library`);

        // Create a memory in the Library.
        const memory = MEMORIES[width];
        await page.getByTestId('library-new').click();
        await page.getByTestId('create-title').fill(memory.title);
        await page.getByTestId('create-content').fill(`[21:14] ${memory.title}\n\n> ${memory.title}的记录\n\n${memory.body}`);
        await page.getByTestId('create-tags').fill(memory.tags);
        await page.getByTestId('create-submit').click();
        const row = page.getByTestId('memory-row').filter({ hasText: memory.title });
        await row.waitFor();
        await row.locator('button').first().click();
        // It opens to be read; the editor is one click away and holds the same text.
        await assert.doesNotReject(row.getByTestId('memory-reader').waitFor());
        assert.match(await row.getByTestId('memory-reader').innerText(), new RegExp(memory.body.slice(0, 8)));
        await row.getByTestId('memory-edit').click();
        assert.match(await row.getByTestId('memory-editor').inputValue(), new RegExp(memory.body.slice(0, 8)));

        // Recall debug finds it and shows why.
        await page.getByTestId('nav-recall').click();
        await page.getByTestId('recall-query').fill(memory.query);
        await page.getByTestId('recall-run').click();
        const hit = page.getByTestId('recall-hit').filter({ hasText: memory.title });
        await hit.waitFor();
        // Fused and lexical bars; the semantic one only when that channel ran (embeddings are off here).
        const semanticRan = !/跳过|skipped/.test(await page.getByTestId('recall-semantic').innerText());
        assert.equal(await hit.getByTestId('recall-hit-chart').getByTestId('score-bar').count(), semanticRan ? 3 : 2, 'fused, lexical (and semantic) bars');
        const matched = await hit.getByTestId('recall-hit-matched').innerText();
        assert.match(matched, /idf \d/);
        // How much of the question's wording the memory repeats (recall/phrase.ts).
        assert.match(await hit.getByTestId('recall-hit-phrase').innerText(), /(原句重合|wording repeated) \d+%/);
        assert.match(await page.getByTestId('recall-semantic').innerText(), /\S/);
        await page.getByTestId('recall-gates').waitFor();
        assert.ok((await page.getByTestId('recall-stages').locator('li').count()) > 1);
        assert.match(await page.getByTestId('recall-injection').innerText(), new RegExp(memory.title));
        await shot(page, `w${width}-recall`);

        // Full rebuild: the bar moves and reaches 100 %.
        await page.getByTestId('nav-index').click();
        await page.evaluate(() => {
          const seen: number[] = [];
          (window as unknown as { __progress: number[] }).__progress = seen;
          new MutationObserver(() => {
            const bar = document.querySelector('[data-testid="rebuild-progress"]');
            const v = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
            if (Number.isFinite(v) && seen.at(-1) !== v) seen.push(v);
          }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
        });
        await page.getByTestId('index-rebuild').click();
        await page.getByTestId('rebuild-report').waitFor();
        const progress = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
        assert.equal(progress.at(-1), 100, `progress seen: ${progress.join(',')}`);
        assert.ok(new Set(progress).size >= 2, `the bar moved: ${progress.join(',')}`);
        for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! >= progress[i - 1]!, `never backwards: ${progress.join(',')}`);
        assert.equal(await page.getByTestId('rebuild-percent').innerText(), '100%');
        const docs = Number(await page.getByTestId('stat-documents').innerText());
        await page.getByTestId('nav-library').click();
        const listed = Number((await page.getByTestId('library-list').locator('> div').first().innerText()).match(/\/\s*(\d+)/)![1]);
        assert.equal(docs, listed, 'index status and library agree');
        await page.getByTestId('nav-index').click();
        await shot(page, `w${width}-index`);

        // Change a setting; the draft survives a page switch; save.
        const setting = SETTINGS[width];
        await page.getByTestId('nav-settings').click();
        await openAdvancedSettings(page);
        const control = page.getByTestId(`setting-${setting.path}`);
        await control.fill(setting.value);
        await page.getByTestId('nav-library').click();
        await page.getByTestId('nav-settings').click();
        assert.equal(await control.inputValue(), setting.value, 'the draft survived a page switch');
        assert.match(await page.getByTestId('settings-dirty').innerText(), /1/);
        await page.getByTestId('settings-save').click();
        await page.getByTestId('toast-ok').first().waitFor();
        await shot(page, `w${width}-settings`);

        // Restart the server: this setting and every earlier width's are kept.
        await restart();
        await load(page, 'reload');
        await page.getByTestId('nav-settings').click();
        await openAdvancedSettings(page);
        for (const w of WIDTHS.filter((x) => x <= width)) {
          const s = SETTINGS[w];
          assert.equal(await page.getByTestId(`setting-${s.path}`).inputValue(), s.value, `${s.path} kept after restart`);
        }
        await load(page, 'reload');
        assert.deepEqual(errors, [], 'no uncaught page errors');
      } finally {
        await context.close();
      }
    });
  }

  test('settings: bad input is a typed error in the UI; a fingerprint change asks first', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    try {
      await load(page);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('setting-recall.kMax').fill('999');
      await page.getByTestId('settings-save').click();
      // Out of range is caught on the field itself, in the reader's language, before anything is sent.
      const fieldError = page.getByTestId('setting-recall.kMax-error');
      await fieldError.waitFor();
      assert.match(await fieldError.innerText(), /不能大于 50/);
      assert.doesNotMatch(await fieldError.innerText(), /at \w+ \(/, 'no stack trace');
      await page.getByTestId('setting-recall.kMax').fill('10');

      // A change of embedding fingerprint asks first; cancel keeps the draft and saves nothing.
      await page.getByTestId('setting-embedding.provider').selectOption('openai');
      await page.getByTestId('setting-embedding.baseUrl').fill('http://127.0.0.1:9/v1');
      await page.getByTestId('setting-embedding.model').fill('probe-model');
      await page.getByTestId('settings-save').click();
      const dialog = page.getByTestId('settings-confirm');
      await dialog.waitFor();
      assert.match(await dialog.innerText(), /probe-model/);
      await page.getByTestId('settings-confirm-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      assert.match(await page.getByTestId('settings-dirty').innerText(), /3/);
      const saved = (await (await fetch(`${c.server.url}/api/trpc/settings.get`)).json()) as { result: { data: { effective: { embedding: { provider: string } } } } };
      assert.equal(saved.result.data.effective.embedding.provider, 'auto', 'nothing was saved');
    } finally {
      await context.close();
    }
  });

  test('a cross-origin write is rejected, in the browser and over HTTP', async () => {
    const token = (await import('node:fs')).readFileSync(join(env.ENGRAM_DATA_DIR, 'console-token'), 'utf8').trim();
    const createUrl = `${c.server.url}/api/trpc/memories.create`;
    const evilTitle = '跨站写入尝试';

    // A page on another origin tries to write (a "simple" request: no preflight stops it on the way).
    const evilPort = await freePort();
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>evil</title><iframe id="f" src="${c.server.url}/"></iframe><script>
        fetch(${JSON.stringify(createUrl)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ content: '[10:00] ${evilTitle}\\n\\n跨站写入 Tag: x' }) })
          .then(() => { document.title = 'sent' }, (e) => { document.title = 'failed ' + e });
      </script>`);
    });
    await new Promise<void>((r) => evil.listen(evilPort, '127.0.0.1', () => r()));
    const context = await c.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${evilPort}/`);
      await page.waitForFunction(() => document.title !== 'evil');
      // frame-ancestors keeps the console out of a frame on a foreign origin: Chromium shows its error page.
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await until(() => frame.url().startsWith('chrome-error:'), 10_000, () => `frame url ${frame.url()}`);
      assert.equal(await frame.locator('[data-testid="shell"]').count(), 0, 'the console must not render inside a foreign frame');
    } finally {
      await context.close();
      await new Promise<void>((r) => evil.close(() => r()));
    }
    const list = (await (await fetch(`${c.server.url}/api/trpc/memories.list`)).json()) as { result: { data: { title: string }[] } };
    assert.equal(list.result.data.some((m) => m.title === evilTitle), false, 'nothing was written');

    const post = (headers: Record<string, string>) =>
      fetch(createUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ content: `[10:00] ${evilTitle}` }) });
    assert.equal((await post({ origin: `http://127.0.0.1:${evilPort}` })).status, 403, 'foreign origin, no token');
    assert.equal((await post({ origin: `http://127.0.0.1:${evilPort}`, 'x-engram-token': token })).status, 403, 'foreign origin, even with the token');
    assert.equal((await post({})).status, 403, 'no token');
    const rebuild = await fetch(`${c.server.url}/api/index/rebuild`, { method: 'POST', headers: { origin: `http://127.0.0.1:${evilPort}` } });
    assert.equal(rebuild.status, 403, 'the rebuild stream is guarded too');
  });
  test('the page answers with the security headers the DSH iframe needs', async () => {
    const res = await fetch(c.server.url);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'self'(;|$)/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), null);
    const html = await res.text();
    assert.match(html, /lang="zh-CN"/);
  });

  test('the documented example script lists memories and runs a recall over HTTP', async () => {
    const script = join(repoRoot, 'docs/examples/list-and-recall.mjs');
    const { stdout } = await execFileP(process.execPath, [script, MEMORIES[1360].query, '--write'], {
      env: { ...process.env, ENGRAM_CONSOLE_URL: c.server.url, ENGRAM_DATA_DIR: env.ENGRAM_DATA_DIR },
      timeout: 30_000,
    });
    assert.match(stdout, /written: /);
    const count = Number(/^(\d+) memories$/m.exec(stdout)?.[1]);
    assert.ok(count > 18, `listed ${count}`);
    assert.match(stdout, new RegExp(`recall .*: [1-9]\\d* hits`));
    assert.match(stdout, new RegExp(MEMORIES[1360].title));
  });
  test('an allowed host origin (DSH) may frame the console', async () => {
    const hostPort = await freePort();
    await c.restart({ ENGRAM_ALLOWED_ORIGINS: `http://127.0.0.1:${hostPort}` });
    const host: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>host</title><iframe style="width:300px;height:600px" src="${c.server.url}/"></iframe>`);
    });
    await new Promise<void>((r) => host.listen(hostPort, '127.0.0.1', () => r()));
    const context = await c.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${hostPort}/`);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.getByTestId('memory-row').first().waitFor({ state: 'attached' });
      // In a 300 px sidebar the navigation is a top bar.
      const nav = (await frame.getByTestId('nav').boundingBox())!;
      assert.ok(nav.height < 80, `top bar inside a 300 px frame: ${JSON.stringify(nav)}`);
      await page.screenshot({ path: join(ARTIFACTS, 'framed-300.png') });
    } finally {
      await context.close();
      await new Promise<void>((r) => host.close(() => r()));
    }
  });
});

async function assertLayout(page: Page, width: number) {
  const nav = (await page.getByTestId('nav').boundingBox())!;
  const aside = page.getByTestId('corpus-overview');
  if (width < 620) {
    assert.ok(nav.width >= width - 2 && nav.height < 80, `top bar at ${width}: ${JSON.stringify(nav)}`);
    assert.equal(await aside.isVisible(), false);
  } else if (width < 900) {
    assert.ok(Math.abs(nav.width - 64) <= 1 && nav.height > 400, `icon rail at ${width}: ${JSON.stringify(nav)}`);
    assert.equal(await aside.isVisible(), false);
  } else {
    assert.ok(Math.abs(nav.width - 236) <= 1, `sidebar at ${width}: ${JSON.stringify(nav)}`);
    assert.equal(await aside.isVisible(), width >= 1320, 'info column from 1320 px');
  }
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width + 1, `no horizontal page scroll at ${width} (${scrollWidth})`);
}

async function until(ok: () => boolean, ms: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`timed out: ${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
