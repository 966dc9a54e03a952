// The console's UI promises of issue #16, each checked in real Chromium against the production build:
// it runs inside a cross-site iframe (where the browser refuses localStorage), takes theme and
// language from the host, never drops an edited memory, shows a rebuild's progress as it happens
// (in Chinese), validates settings per field, traps focus in its dialogs, fits 300 px in both
// languages, and shows no stray English in the Chinese UI.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from './server.ts';
import { seedBulkDiary } from './bulk.ts';
import { englishWords, halfWidthPunctuation, ZH_ALLOWED } from './zh-text.ts';
import { openAdvancedSettings } from './settings.ts';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';

const ARTIFACTS = join(repoRoot, 'e2e/artifacts');

function hostServer(html: (consoleUrl: string) => string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(html(''));
    });
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : 0 });
    });
  });
}

describe('console UI (#16) in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 420_000 }, () => {
  let hostPort = 0;
  let host: Server | null = null;
  let frameSrc = '';

  const c = consoleInChromium('ui', async (_env, consoleEnv) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The host page: it frames whatever `frameSrc` says, at the DSH sidebar's 300 px.
    const h = await hostServer(() => '');
    host = h.server;
    hostPort = h.port;
    host.removeAllListeners('request');
    host.on('request', (_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>host</title><iframe id="f" style="width:300px;height:700px;border:0" src="${frameSrc}"></iframe>`);
    });
    // Both spellings of the host are allowed: 127.0.0.1 (same site) and localhost (another site).
    consoleEnv.ENGRAM_ALLOWED_ORIGINS = `http://localhost:${hostPort},http://127.0.0.1:${hostPort}`;
  });

  after(() => new Promise<void>((r) => (host ? host.close(() => r()) : r())));

  for (const [kind, hostName] of [
    ['cross-site', 'localhost'],
    ['same-site', '127.0.0.1'],
  ] as const) {
    test(`in a ${kind} iframe (host ${hostName}) the console runs, with the host's theme and language`, async () => {
      const context = await c.browser.newContext({ viewport: { width: 800, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        frameSrc = `${c.server.url}/?theme=dark&lang=en`;
        await page.goto(`http://${hostName}:${hostPort}/`);
        const frame = await consoleFrame(page);
        // Storage really is refused in the cross-site case (that is what broke the app).
        if (kind === 'cross-site') {
          const refused = await frame.evaluate(() => {
            try {
              void window.localStorage;
              return false;
            } catch {
              return true;
            }
          });
          assert.equal(refused, true, 'Chromium refuses storage to the third-party frame');
        }
        await frame.getByTestId('shell').waitFor({ timeout: 20_000 });
        await frame.getByTestId('memory-row').first().waitFor({ state: 'attached' });
        assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark', 'theme from ?theme=');
        assert.equal(await frame.evaluate(() => document.documentElement.lang), 'en', 'language from ?lang=');
        assert.equal(await frame.getByTestId('nav-settings').innerText(), 'Settings');
        // Switching pages and language works without storage.
        await frame.getByTestId('nav-settings').click();
        await frame.getByTestId('toggle-lang').click();
        assert.equal(await frame.getByTestId('nav-settings').innerText(), '设置');
        await assertFits(frame, 300, `${kind} frame`);
        await page.screenshot({ path: join(ARTIFACTS, `ui-iframe-${kind}.png`) });
        assert.deepEqual(errors, [], 'no uncaught errors in the frame');
      } finally {
        await context.close();
      }
    });
  }

  test('an edited memory is never dropped: read view first, draft kept on collapse, Escape asks before discarding', async () => {
    const context = await c.browser.newContext({ viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/#library`);
      const row = page.getByTestId('memory-row').filter({ hasText: '接口限流方案' });
      await row.waitFor();
      const toggle = row.locator('button').first();
      await toggle.click();
      // Read-first: the text is rendered, full height, no textarea yet.
      const reader = row.getByTestId('memory-reader');
      await reader.waitFor();
      assert.match(await reader.innerText(), /令牌桶/);
      assert.equal(await row.getByTestId('memory-editor').count(), 0, 'opens to read, not to edit');
      await row.getByTestId('memory-edit').click();
      const editor = row.getByTestId('memory-editor');
      assert.ok((await editor.getAttribute('aria-label'))?.includes('接口限流方案'), 'the editor has a label');
      const original = await editor.inputValue();
      await editor.fill(`${original}\n补充:限流阈值按租户区分。`);

      // Collapse the row: the edit survives, and the row says so.
      await toggle.click();
      await row.getByTestId('memory-draft-badge').waitFor();
      await toggle.click();
      assert.match(await row.getByTestId('memory-editor').inputValue(), /按租户区分/, 'the draft is back after reopening');

      // Escape asks first; the dialog takes focus, is named, keeps Tab inside, and Escape closes it.
      await row.getByTestId('memory-editor').press('Escape');
      const dialog = page.getByTestId('memory-discard-confirm');
      await dialog.waitFor();
      await assertDialogBehaves(page, 'memory-discard-confirm');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.match(await row.getByTestId('memory-editor').inputValue(), /按租户区分/, 'Escape on the dialog keeps the draft');

      // Discard, when confirmed, goes back to the saved text.
      await row.getByTestId('memory-cancel').click();
      await page.getByTestId('memory-discard-yes').click();
      await row.getByTestId('memory-reader').waitFor();
      assert.doesNotMatch(await row.getByTestId('memory-reader').innerText(), /按租户区分/);
      assert.equal(await row.getByTestId('memory-draft-badge').count(), 0);
    } finally {
      await context.close();
    }
  });

  for (const lang of ['zh', 'en'] as const) {
    test(`at 300 px in ${lang}: every page fits, the nav shows all pages and both toggles`, async () => {
      const context = await c.browser.newContext({ viewport: { width: 300, height: 800 } });
      const page = await context.newPage();
      try {
        await page.goto(`${c.server.url}/?lang=${lang}#library`);
        await page.getByTestId('memory-row').first().waitFor();
        for (const id of ['toggle-lang', 'toggle-theme', 'nav-settings', 'nav-library', 'nav-agent']) {
          const box = (await page.getByTestId(id).boundingBox())!;
          assert.ok(box.x >= 0 && box.x + box.width <= 300, `${id} on screen at 300 px (${JSON.stringify(box)})`);
        }
        // Icons only in the 300 px top bar: each page keeps its name for screen readers and as a tooltip.
        for (const id of ['nav-agent', 'nav-library', 'nav-recall', 'nav-index', 'nav-settings']) {
          const nav = await page.getByTestId(id).evaluate((el) => {
            const label = el.querySelector('.nav-label-short') as HTMLElement;
            const box = el.getBoundingClientRect();
            return { labelShown: label.getBoundingClientRect().width > 2, title: el.getAttribute('title') ?? '', name: (el.textContent ?? '').trim(), width: box.width, height: box.height };
          });
          assert.equal(nav.labelShown, false, `${id}: icon only at 300 px`);
          assert.ok(nav.title.length > 0 && nav.name.length > 0, `${id} keeps its name (${JSON.stringify(nav)})`);
          assert.ok(nav.width >= 24 && nav.height >= 24, `${id} is a target a finger can hit (${JSON.stringify(nav)})`);
        }
        await page.getByTestId('memory-row').first().locator('button').first().click();
        await assertFits(page, 300, `${lang} library`);
        await page.getByTestId('nav-recall').click();
        await page.getByTestId('recall-query').fill('令牌桶 限流');
        await page.getByTestId('recall-run').click();
        await page.getByTestId('recall-result').waitFor();
        await assertFits(page, 300, `${lang} recall`);
        // Results first: the hits come before the token and gate explanations.
        const hitsFirst = await page.evaluate(() => {
          const hit = document.querySelector('[data-testid="recall-hit"], [data-testid="recall-empty"]')!;
          const tokens = document.querySelector('[data-testid="recall-tokens"]')!;
          return Boolean(hit.compareDocumentPosition(tokens) & Node.DOCUMENT_POSITION_FOLLOWING);
        });
        assert.equal(hitsFirst, true, 'results are shown before the explanations');
        // Gates: one entry per document, every measured gate as value against threshold, never printed equal.
        const docIds = await page.getByTestId('recall-gate-doc').evaluateAll((els) => els.map((e) => e.getAttribute('data-doc-id')));
        assert.equal(new Set(docIds).size, docIds.length, `gates grouped by document: ${docIds.join(',')}`);
        for (const bullet of await page.getByTestId('gate-bullet').all()) {
          const text = await bullet.innerText();
          const nums = [...text.matchAll(/\d+(?:\.\d+)?%?/g)].map((m) => m[0]);
          assert.notEqual(nums[0], nums.at(-1), `value and threshold read differently: ${text}`);
        }
        await page.screenshot({ path: join(ARTIFACTS, `ui-w300-${lang}-recall.png`), fullPage: true });
        // The language the query was read in, and where each word's weight comes from.
        assert.match(await page.getByTestId('recall-language').innerText(), lang === 'zh' ? /语言：中文/ : /Language: Chinese/);
        await page.getByTestId('recall-terms').locator('summary').click();
        const sources = await page.getByTestId('recall-term').evaluateAll((els) => els.map((e) => e.getAttribute('data-source')));
        assert.ok(sources.length >= 2 && sources.every((s) => s === 'language' || s === 'unknown-word'), `each word names its table: ${sources.join(',')}`);
        await assertFits(page, 300, `${lang} recall terms`);
        await page.getByTestId('recall-terms').screenshot({ path: join(ARTIFACTS, `ui-w300-${lang}-recall-terms.png`) });
        // A line that says too little gets nothing, and the page names the rule in the reader's language.
        await page.getByTestId('recall-query').fill('休息一下');
        await page.getByTestId('recall-run').click();
        await page.getByTestId('recall-silenced').waitFor();
        assert.equal(await page.getByTestId('recall-silenced').getAttribute('data-rule'), 'vague-query');
        const silenced = await page.getByTestId('recall-silenced').innerText();
        assert.match(silenced, lang === 'zh' ? /被哪条规则拦下：查询信息量太低/ : /Silenced by: the query says too little/);
        // The detail gives the measure against its bar instead of repeating the rule's name.
        assert.match(silenced, lang === 'zh' ? /词的信息量 \d+(\.\d+)?，不到 \d+(\.\d+)?/ : /too little information \(\d+(\.\d+)? < \d+(\.\d+)?\)/);
        assert.equal(silenced.split('查询信息量太低').length - 1, lang === 'zh' ? 1 : 0, silenced);
        await assertFits(page, 300, `${lang} recall silenced`);
        await page.getByTestId('recall-empty').screenshot({ path: join(ARTIFACTS, `ui-w300-${lang}-recall-silenced.png`) });
        await page.getByTestId('nav-index').click();
        await assertFits(page, 300, `${lang} index`);
        await page.getByTestId('nav-settings').click();
        await assertFits(page, 300, `${lang} settings`);
        await page.screenshot({ path: join(ARTIFACTS, `ui-w300-${lang}-settings.png`) });
      } finally {
        await context.close();
      }
    });
  }

  test('the Chinese UI has no untranslated English outside the allow-list, and no half-width punctuation in Chinese text', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/?lang=zh#library`);
      await page.getByTestId('memory-row').first().locator('button').first().click();
      await page.getByTestId('memory-reader').waitFor();
      const found = new Map<string, string>();
      const collect = async (where: string) => {
        for (const w of await englishWords(page)) if (!ZH_ALLOWED.has(w.word.toLowerCase()) && !found.has(w.word)) found.set(w.word, `${where}: ${w.context}`);
        for (const p of await halfWidthPunctuation(page)) if (!found.has(p.context)) found.set(p.context, `${where}: half-width ${JSON.stringify(p.mark)}`);
      };
      await collect('library');
      // A write whose text lacks a summary and tags: the warnings it brings back are shown in Chinese.
      await page.getByTestId('library-new').click();
      await page.getByTestId('create-title').fill('潮汐发电站巡检');
      await page.getByTestId('create-content').fill('潮汐发电站的三号机组在涨潮时振动偏大，下次巡检先看轴承。');
      await page.getByTestId('create-submit').click();
      await page.getByTestId('create-warnings').waitFor();
      await collect('library/new memory');
      for (const tab of ['workspaces', 'import', 'wall'] as const) {
        await page.getByTestId(`tab-${tab}`).click();
        await page.getByTestId(`panel-${tab}`).waitFor();
        await page.waitForTimeout(200);
        await collect(`library/${tab}`);
      }
      await page.getByTestId('tab-memories').click();
      // The Library's engine search with its filters, and the archive filter.
      await page.getByTestId('library-search').fill('令牌桶');
      await page.getByTestId('memory-matched').first().waitFor();
      await collect('library/search');
      await page.getByTestId('library-search').fill('');
      await page.getByTestId('library-archived').selectOption('archived');
      await page.waitForTimeout(400);
      await collect('library/archived');
      await page.getByTestId('library-archived').selectOption('active');
      await page.getByTestId('nav-agent').click();
      await page.getByTestId('agent-query').fill('令牌桶限流的突发流量怎么处理');
      await page.getByTestId('agent-run').click();
      await page.getByTestId('agent-result').waitFor();
      await page.locator('[data-testid="agent-result"] details').evaluateAll((els) => els.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await collect('agent');
      await page.getByTestId('nav-recall').click();
      await page.getByTestId('recall-query').fill('令牌桶 限流');
      await page.getByTestId('recall-run').click();
      await page.getByTestId('recall-result').waitFor();
      await collect('recall');
      await page.getByTestId('nav-index').click();
      await page.getByTestId('index-rebuild').click();
      await page.getByTestId('rebuild-report').waitFor();
      await collect('index');
      // The new memory has no summary and no tags: the missing Tag line is a warning to fix, the
      // missing summary a note (the engine uses the body's beginning), counted by kind, in Chinese; a
      // few warnings to fix are listed one by one with their file.
      assert.match(await page.getByTestId('index-warnings').innerText(), /^警告 \(1\)\n.*潮汐发电站巡检.*\.txt:3：末尾缺少「Tag: …」行$/);
      assert.match(await page.getByTestId('index-notes').innerText(), /1 个文件：缺少「> 摘要」段.*（可选，无需处理）/);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('setting-recall.kMin').waitFor();
      await collect('settings');
      const list = [...found].map(([w, where]) => `${w} (${where})`);
      assert.deepEqual(list, [], `untranslated English in the zh UI:\n${list.join('\n')}`);
    } finally {
      await context.close();
    }
  });
});

describe('at 2,000 memories, with no host origin in the environment', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, () => {
  const c = consoleInChromium('bulk', (env) => seedBulkDiary(env.ENGRAM_DIARY_DIR, 2000), { seed: false });

  test('the bar moves through ≥ 5 values, moves while the files are read, and names its phases in Chinese', async () => {
    const context = await c.browser.newContext({ viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/#index`);
      await page.getByTestId('stat-documents').waitFor({ timeout: 120_000 });
      await page.evaluate(() => {
        const seen: { percent: number; phase: string; label: string }[] = [];
        (window as unknown as { __progress: typeof seen }).__progress = seen;
        new MutationObserver(() => {
          const bar = document.querySelector('[data-testid="rebuild-progress"]');
          const phase = document.querySelector('[data-testid="rebuild-phase"]');
          const v = bar ? Number(bar.getAttribute('aria-valuenow')) : NaN;
          const label = (phase?.textContent ?? '').trim();
          const last = seen.at(-1);
          if (Number.isFinite(v) && (last?.percent !== v || last?.label !== label)) seen.push({ percent: v, phase: phase?.getAttribute('data-phase') ?? '', label });
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await page.getByTestId('index-rebuild').click();
      await page.getByTestId('rebuild-report').waitFor({ timeout: 120_000 });
      const seen = await page.evaluate(() => (window as unknown as { __progress: { percent: number; phase: string; label: string }[] }).__progress);
      const percents = [...new Set(seen.map((s) => s.percent))];
      const summary = seen.map((s) => `${s.percent}:${s.label}`).join(' | ');
      assert.ok(percents.length >= 5, `at least 5 distinct percentages: ${summary}`);
      assert.equal(percents.at(-1), 100);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.percent >= seen[i - 1]!.percent, `never backwards: ${summary}`);
      // The pass streams the folder: it lists it (scan), then reads and stores 100 files at a time (store).
      const whileReading = new Set(seen.filter((s) => s.phase === 'store').map((s) => s.percent));
      assert.ok(whileReading.size >= 3, `the bar moves while files are read: ${summary}`);
      // Where reading starts on the bar, from the reading samples' own counts (n/total in the label):
      // the first ones may come and go between two renders on a loaded machine, so the line through
      // the first and last sample seen is followed back to n = 0.
      const reading = seen.filter((s) => s.phase === 'store').map((s) => ({ percent: s.percent, n: Number(/(\d+)\s*\/\s*\d+/.exec(s.label)?.[1]) })).filter((s) => Number.isFinite(s.n));
      const [first, last] = [reading[0]!, reading.at(-1)!];
      assert.ok(last.n > first.n, `reading samples with their counts: ${summary}`);
      const atStart = first.percent - ((last.percent - first.percent) / (last.n - first.n)) * first.n;
      assert.ok(atStart <= 10, `reading starts near the beginning of the bar (${atStart.toFixed(1)} %), not halfway: ${summary}`);
      const labels = [...new Set(seen.map((s) => s.label.replace(/[\d/\s]+/g, '')).filter(Boolean))];
      assert.ok(labels.length >= 2, `phases are named: ${labels.join(', ')}`);
      for (const l of labels) assert.doesNotMatch(l, /[A-Za-z]/, `phase label in Chinese: ${l}`);
    } finally {
      await context.close();
    }
  });

  test('the Library at 2,000 memories: only a window of rows in the page, search on the server, more rows on scroll', async () => {
    const context = await c.browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/#library`);
      await page.getByTestId('memory-row').first().waitFor();
      assert.match(await page.getByTestId('library-count').innerText(), /2000/);
      const rendered = await page.getByTestId('memory-row').count();
      assert.ok(rendered > 5 && rendered < 80, `a window of rows, not all 2,000: ${rendered}`);
      // Search is answered by the server: a memory far down the list is found at once.
      await page.getByTestId('library-search').fill('第1987条');
      await page.getByTestId('memory-row').filter({ hasText: '第1987条' }).waitFor();
      // The typed text shows at once; the engine's answer follows a short pause in the typing.
      await until(async () => /^1 \/ 2000/.test(await page.getByTestId('library-count').innerText()), 10_000, 'the search answered');
      await page.getByTestId('library-search').fill('');
      await page.getByTestId('memory-row').filter({ hasText: '第1986条' }).waitFor({ state: 'detached' }).catch(() => {});
      await until(async () => /^2000 \/ 2000/.test(await page.getByTestId('library-count').innerText()), 10_000, 'the filter cleared');
      // Scrolling to the end loads the later pages; the oldest memory (第0条) is the last row.
      const oldest = page.getByTestId('memory-row').filter({ hasText: '第0条 ' });
      for (let i = 0; i < 80 && (await oldest.count()) === 0; i++) {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.waitForTimeout(150);
      }
      assert.equal(await oldest.count(), 1, 'the last row is reachable by scrolling');
      const after = await page.getByTestId('memory-row').count();
      assert.ok(after < 80, `still a window after scrolling to the end: ${after}`);
      await page.screenshot({ path: join(ARTIFACTS, 'ui-library-2000.png') });
    } finally {
      await context.close();
    }
  });

  test('settings: errors show on the field (red, with the range), cross-field and origin checks, nothing saved', async () => {
    const context = await c.browser.newContext({ viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${c.server.url}/#settings`);
      const kMin = page.getByTestId('setting-recall.kMin');
      await kMin.waitFor();
      assert.equal(await page.locator('[data-invalid="true"]').count(), 0, 'a fresh settings page has no errors');
      await openAdvancedSettings(page);
      await kMin.fill('9');
      await page.getByTestId('setting-recall.kMax').fill('3');
      await page.getByTestId('setting-console.allowedOrigins').fill('127.0.0.1:7860');
      await page.getByTestId('settings-save').click();
      const kMinError = page.getByTestId('setting-recall.kMin-error');
      await kMinError.waitFor();
      assert.match(await kMinError.innerText(), /至少.*9.*至多.*3/);
      assert.match(await page.getByTestId('setting-console.allowedOrigins-error').innerText(), /协议/);
      assert.equal(await kMin.getAttribute('aria-invalid'), 'true');
      assert.ok((await kMin.getAttribute('aria-describedby'))?.includes('setting-recall.kMin-error'), 'the error is tied to the control');
      const colours = await kMin.evaluate((el) => ({ border: getComputedStyle(el).borderTopColor, danger: getComputedStyle(document.documentElement).getPropertyValue('--danger').trim() }));
      assert.equal(colours.border, hexToRgb(colours.danger), 'the border is the danger colour');
      assert.match(await page.locator('[data-field="recall.kMax"]').innerText(), /范围 1–50/, 'the range is shown');
      await page.getByTestId('settings-errors').waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'setting-recall.kMin', 'focus goes to the first wrong field');
      const saved = (await (await fetch(`${c.server.url}/api/trpc/settings.get`)).json()) as { result: { data: { effective: { recall: { kMin: number } } } } };
      assert.equal(saved.result.data.effective.recall.kMin, 3, 'nothing was saved');
      await page.screenshot({ path: join(ARTIFACTS, 'ui-settings-errors.png') });

      // The fingerprint confirmation is a real dialog, in Chinese.
      await page.getByTestId('settings-reset').click();
      await page.getByTestId('setting-embedding.provider').selectOption('openai');
      await page.getByTestId('setting-embedding.baseUrl').fill('http://127.0.0.1:9/v1');
      await page.getByTestId('setting-embedding.model').fill('probe-model');
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-confirm').waitFor();
      await assertDialogBehaves(page, 'settings-confirm');
      const reasons = await page.getByTestId('settings-confirm-reasons').innerText();
      assert.match(reasons, /probe-model/);
      assert.doesNotMatch(reasons, /changed|embedding model/, `reasons in Chinese: ${reasons}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-confirm').waitFor({ state: 'detached' });
      assert.match(await page.getByTestId('settings-dirty').innerText(), /3/, 'Escape cancels and keeps the draft');
    } finally {
      await context.close();
    }
  });

});

async function until(ok: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) assert.fail(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function consoleFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (frame) return frame;
    if (Date.now() > deadline) assert.fail('no frame');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** No horizontal scroll: the document is no wider than the viewport. */
async function assertFits(where: Page | Frame, width: number, label: string): Promise<void> {
  const scroll = await where.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= width + 1, `${label}: page ${scroll} px wide in ${width} px`);
}

/** Focus is inside, the dialog has a name, and Tab / Shift+Tab never leave it. */
async function assertDialogBehaves(page: Page, testId: string): Promise<void> {
  const info = await page.evaluate((id) => {
    const d = document.querySelector(`[data-testid="${id}"]`)!;
    const labelId = d.getAttribute('aria-labelledby');
    return {
      role: d.getAttribute('role'),
      name: labelId ? (document.getElementById(labelId)?.textContent ?? '') : (d.getAttribute('aria-label') ?? ''),
      focusInside: d.contains(document.activeElement),
    };
  }, testId);
  assert.equal(info.role, 'dialog');
  assert.ok(info.name.trim().length > 0, 'the dialog has an accessible name');
  assert.equal(info.focusInside, true, 'focus moved into the dialog');
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    const inside = await page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)!.contains(document.activeElement), testId);
    assert.equal(inside, true, `focus stays in the dialog after ${key}`);
  }
}

function hexToRgb(hex: string): string {
  const h = hex.replace('#', '');
  const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
  return `rgb(${n(0)}, ${n(2)}, ${n(4)})`;
}
