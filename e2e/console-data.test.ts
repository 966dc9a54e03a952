// The console's data and operations pages in real Chromium against the production build: the plugin's
// log on the Index page, installing the embedding model from Settings with a progress bar (from a
// local folder: the real model's test cache, never the network), the diary-root move confirmed by
// name (#13), and the #16 polish items (no "Test connection" without a provider, same-day order,
// an API error without the empty state, overview facets that filter, "1 chunk", "Built at" uncut).
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { DEFAULT_MODEL, manifestKey } from '../packages/engine/src/model/manifest.ts';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';

const modelCache = process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? join(process.env.ENGRAM_MODEL_CACHE ?? join(homedir(), '.cache/engram-models'), manifestKey());
const modelFolder = join(modelCache, 'models', ...DEFAULT_MODEL.id.split('/'));
const haveModel = existsSync(join(modelFolder, 'config.json'));

/** Three memories of one day, written out of time order, for the same-day order check. */
function seedSameDay(diaryDir: string): void {
  const dir = join(diaryDir, '生活');
  mkdirSync(dir, { recursive: true });
  for (const [time, title] of [
    ['08:05', '同日早晨散步'],
    ['21:40', '同日夜里读书'],
    ['12:00', '同日中午吃面'],
  ])
    writeFileSync(join(dir, `2026-11-20-${title}.txt`), `[${time}] ${title}\n\n同一天里的第几件事。\n\nTag: 同日\n`);
}

async function trpcGet(url: string, path: string): Promise<unknown> {
  const res = await fetch(`${url}/api/trpc/${path}`);
  const body = (await res.json()) as { result?: { data: unknown } };
  return body.result?.data;
}

describe('console data and operations in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 600_000 }, () => {
  const c = consoleInChromium('data', (env) => seedSameDay(env.ENGRAM_DIARY_DIR));
  const env = c.env;
  const root = env.HOME;

  async function open(path = '/?lang=zh', width = 1360): Promise<Page> {
    const context = await c.browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    // tsx keeps function names with a `__name` helper that page.evaluate'd code would otherwise lack.
    await page.addInitScript('window.__name = (f) => f;');
    await page.goto(`${c.server.url}${path}`);
    await page.getByTestId('shell').waitFor({ timeout: 30_000 });
    return page;
  }

  test('Index page: plugin log panel, Chinese empty state, lines after refresh', async () => {
    const page = await open();
    try {
      await page.getByTestId('nav-index').click();
      const empty = page.getByTestId('plugin-log-empty');
      await empty.waitFor();
      assert.match(await empty.innerText(), /还没有插件日志/);
      mkdirSync(join(env.ENGRAM_DATA_DIR, 'logs'), { recursive: true });
      writeFileSync(
        join(env.ENGRAM_DATA_DIR, 'logs', 'engram-plugin.log'),
        '2026-12-01T10:00:01.000Z INFO engram recall: 2 hits for 「令牌桶」\n2026-12-01T10:00:02.000Z WARN engram: judge unavailable\n',
      );
      await page.getByTestId('plugin-log-refresh').click();
      const lines = page.getByTestId('plugin-log-lines').locator('li');
      await lines.nth(1).waitFor();
      assert.equal(await lines.count(), 2);
      assert.match(await lines.nth(0).innerText(), /信息.*2 hits for 「令牌桶」/);
      assert.equal(await lines.nth(1).getAttribute('data-level'), 'warn');
      assert.match(await lines.nth(1).innerText(), /警告/);
      assert.equal(await page.getByTestId('plugin-log-empty').count(), 0);
    } finally {
      await page.context().close();
    }
  });

  test('"Built at" is never cut, at 300, 760, 1040 and 1360 px', async () => {
    for (const width of [300, 760, 1040, 1360]) {
      const page = await open('/?lang=zh', width);
      try {
        await page.getByTestId('nav-index').click();
        const stat = page.getByTestId('stat-built-at');
        await stat.waitFor();
        await page.waitForFunction(() => /\d{2}:\d{2}/.test(document.querySelector('[data-testid="stat-built-at"]')?.textContent ?? ''));
        const fit = await stat.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, text: el.textContent }));
        assert.ok(fit.scroll <= fit.client, `${width} px: "${fit.text}" needs ${fit.scroll} px in ${fit.client} px`);
      } finally {
        await page.context().close();
      }
    }
  });

  test('Library: same-day memories newest first, overview facets filter, "1 chunk", an API error without the empty state', async () => {
    const page = await open('/?lang=en#library');
    let step = 'rows';
    try {
      await page.getByTestId('memory-row').first().waitFor();
      step = 'search';
      await page.getByTestId('library-search').fill('同日');
      await page.waitForFunction(() => /^3 \//.test(document.querySelector('[data-testid="library-count"]')?.textContent ?? ''));
      // A word search ranks as the engine does; the order by time is checked on the tag filter below.
      const titles = await page.getByTestId('memory-row').locator('button span.flex-1').allInnerTexts();
      assert.deepEqual([...titles].sort(), ['同日中午吃面', '同日夜里读书', '同日早晨散步'].sort());
      const rowText = await page.getByTestId('memory-row').first().innerText();
      assert.match(rowText, /\b1 chunk\b/);
      assert.doesNotMatch(rowText, /\b1 chunks\b/);
      await page.getByTestId('library-search').fill('');

      step = 'facets';
      // A tag in the overview becomes the list's filter, and so does a category.
      const overview = page.getByTestId('corpus-overview');
      await overview.getByRole('button', { name: /#同日/ }).click();
      await page.waitForFunction(() => (document.querySelector('[data-testid="library-tag"]') as HTMLSelectElement | null)?.value === '同日');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="memory-row"]').length === 3);
      // Same-day memories newest first (by their time of day).
      assert.deepEqual(await page.getByTestId('memory-row').locator('button span.flex-1').allInnerTexts(), ['同日夜里读书', '同日中午吃面', '同日早晨散步']);
      const work = overview.getByRole('button', { name: /^工作/ });
      const inWork = Number(await work.locator('span').last().innerText());
      await work.click();
      await page.waitForFunction(() => (document.querySelector('[data-testid="library-category"]') as HTMLSelectElement | null)?.value === '工作');
      await page.waitForFunction((n) => new RegExp(`^${n} /`).test(document.querySelector('[data-testid="library-count"]')?.textContent ?? ''), inWork);
      assert.ok(inWork > 0);
      const workRows = await page.getByTestId('memory-row').evaluateAll((rows) => rows.map((r) => r.textContent ?? ''));
      assert.ok(workRows.length > 0 && workRows.every((t) => t.includes('工作')), 'every row is in 工作');
    } catch (e) {
      throw new Error(`step ${step}: count "${await page.getByTestId('library-count').innerText().catch(() => '?')}", rows ${await page.getByTestId('memory-row').count()}: ${(e as Error).message}`);
    } finally {
      await page.context().close();
    }

    // The API fails: the error shows, the "no memories yet" empty state does not.
    const failing = await c.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const p2 = await failing.newPage();
    try {
      await p2.route(/\/api\/trpc\/[^?]*memories\.page/, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify([{ error: { message: 'boom', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } }]) }),
      );
      await p2.goto(`${c.server.url}/?lang=zh#library`);
      await p2.getByTestId('shell').waitFor();
      await p2.getByTestId('panel-memories').getByTestId('error-note').waitFor({ timeout: 20_000 });
      await p2.waitForTimeout(300);
      const text = await p2.getByTestId('panel-memories').innerText();
      assert.doesNotMatch(text, /还没有记忆/);
    } finally {
      await failing.close();
    }
  });

  test('Settings: no "Test connection" while the provider is none', async () => {
    const page = await open();
    try {
      await page.getByTestId('nav-settings').click();
      const provider = page.getByTestId('setting-embedding.provider');
      await provider.waitFor();
      await provider.selectOption('none');
      assert.equal(await page.getByTestId('settings-test-embedding').count(), 0);
      await provider.selectOption('openai');
      await page.getByTestId('settings-test-embedding').waitFor();
    } finally {
      await page.context().close();
    }
  });

  test('Settings: install the model with a progress bar; a failure is told in Chinese; then semantic recall is on', { skip: haveModel ? false : `no cached model at ${modelFolder}` }, async () => {
    const page = await open();
    try {
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('model-install').waitFor();
      assert.equal(await page.getByTestId('model-installed').getAttribute('data-installed'), 'false');

      // A folder without a model: the job fails with a Chinese reason.
      const empty = join(root, 'not-a-model');
      mkdirSync(empty, { recursive: true });
      await page.getByTestId('model-from').fill(empty);
      await page.getByTestId('model-install-start').click();
      await page.getByTestId('model-error').waitFor({ timeout: 30_000 });
      assert.equal(await page.getByTestId('model-error').getAttribute('data-code'), 'source');
      assert.match(await page.getByTestId('model-error').innerText(), /找不到模型来源/);

      // The real model from a local copy (the test cache): progress moves, phases in Chinese.
      const copy = join(root, 'model-copy');
      cpSync(modelFolder, copy, { recursive: true });
      await page.evaluate(() => {
        const w = window as unknown as { __seen: { percent: string; phase: string }[] };
        w.__seen = [];
        const grab = () => {
          const percent = document.querySelector('[data-testid="model-percent"]')?.textContent ?? '';
          const phase = document.querySelector('[data-testid="model-phase"]')?.textContent ?? '';
          const last = w.__seen.at(-1);
          if (!last || last.percent !== percent || last.phase !== phase) w.__seen.push({ percent, phase });
        };
        new MutationObserver(grab).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await page.getByTestId('model-from').fill(copy);
      await page.getByTestId('model-install-start').click();
      await page.getByTestId('model-done').waitFor({ timeout: 240_000 });
      const seen = await page.evaluate(() => (window as unknown as { __seen: { percent: string; phase: string }[] }).__seen);
      const percents = [...new Set(seen.map((s) => s.percent))];
      assert.ok(percents.length >= 3, `the bar moved: ${percents.join(', ')}`);
      const phases = new Set(seen.map((s) => s.phase));
      assert.ok([...phases].some((p) => /校验文件|写入模型文件夹|下载|为已有记忆生成向量/.test(p)), `Chinese phase labels: ${[...phases].join(', ')}`);
      assert.ok(![...phases].some((p) => /\b(download|verify|write|embed)\b/.test(p)), 'no raw phase ids');
      assert.equal(await page.getByTestId('model-percent').innerText(), '100%');
      assert.equal(await page.getByTestId('model-installed').getAttribute('data-installed'), 'true');
      const status = (await trpcGet(c.server.url, 'index.status')) as { semantic: { state: string }; vectors: number };
      assert.equal(status.semantic.state, 'ready', 'the provider uses the model');
      assert.ok(status.vectors > 0, 'existing memories embedded');
      await page.getByTestId('nav-index').click();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="stat-vectors"]')?.textContent ?? '0') > 0);
    } finally {
      await page.context().close();
    }
  });
});

describe('diary-root move from Settings (#13)', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, () => {
  // No ENGRAM_DIARY_DIR: the diary root is a setting (`<dataDir>/diaries` by default), so it can move.
  const c = consoleInChromium('diary', () => mkdirSync(next, { recursive: true }), { diaryEnv: false });
  const next = join(c.env.HOME, 'elsewhere', 'diaries');

  test('saving a new diary root asks in a dialog naming the path; cancel keeps the root, confirm moves it', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/?lang=zh`);
      await page.getByTestId('nav-settings').click();
      const field = page.getByTestId('setting-diaryDir');
      await field.waitFor();
      const before = ((await trpcGet(c.server.url, 'settings.get')) as { effective: { diaryDir: string } }).effective.diaryDir;
      await field.fill(next);
      await page.getByTestId('settings-save').click();
      const dialog = page.getByTestId('settings-diary-confirm');
      await dialog.waitFor();
      assert.equal(await page.getByTestId('settings-diary-path').innerText(), next, 'the dialog names the new path');
      assert.match(await dialog.innerText(), /移动日记根目录/);

      await page.getByTestId('settings-diary-cancel').click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal(((await trpcGet(c.server.url, 'settings.get')) as { effective: { diaryDir: string } }).effective.diaryDir, before, 'cancel saves nothing');

      await page.getByTestId('settings-save').click();
      await dialog.waitFor();
      await page.getByTestId('settings-diary-move').click();
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.querySelector('[data-testid="settings-dirty"]')?.textContent?.includes('没有') ?? false, undefined, { timeout: 20_000 }).catch(() => undefined);
      const after = ((await trpcGet(c.server.url, 'settings.get')) as { effective: { diaryDir: string } }).effective.diaryDir;
      assert.equal(after, next, 'confirmed: the root moved');
    } finally {
      await context.close();
    }
  });
});
