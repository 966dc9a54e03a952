// The Index page's two index runs in Chromium against the production build: 同步改动 (an incremental
// pass, the primary action: only what changed on disk is indexed again) and 全量重建 (every file read
// and indexed again), both with the same live progress card, and a report told in words in the
// reader's language — a full rebuild of unchanged files must not read as if every memory was modified.
// At 300 px (the sidebar) in Chinese and English, and at 1360 px.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';
import { repoRoot } from './server.ts';
import { ZH_ALLOWED } from './zh-text.ts';

const ARTIFACTS = join(repoRoot, 'e2e/artifacts');

const VIEWS = [
  [300, 'zh'],
  [300, 'en'],
  [1360, 'zh'],
] as const;

type Lang = (typeof VIEWS)[number][1];

/** The words each report must use, per language. */
const WORDS: Record<Lang, { added: RegExp; reindexed: RegExp; removed: RegExp; unchanged: RegExp; vectors: RegExp; fullNote: RegExp }> = {
  zh: { added: /新增/, reindexed: /重新索引/, removed: /移除/, unchanged: /未变/, vectors: /向量/, fullNote: /全量重建.*每个文件/ },
  en: { added: /added/, reindexed: /re-indexed/, removed: /removed/, unchanged: /unchanged/, vectors: /[Vv]ectors/, fullNote: /full rebuild.*every file/i },
};

/** A count in the report, read from its item (digits only: 20,000 is shown with a separator). */
async function count(page: Page, id: string): Promise<number> {
  const text = await page.getByTestId('rebuild-report').getByTestId(id).innerText();
  return Number(text.replace(/[^\d]/g, ''));
}

async function openIndexPage(page: Page, url: string, lang: Lang): Promise<number> {
  await page.goto(`${url}/?lang=${lang}#index`);
  await page.getByTestId('stat-documents').waitFor({ timeout: 60_000 });
  return Number((await page.getByTestId('stat-documents').innerText()).replace(/[^\d]/g, ''));
}

/** The run's card reached the end (the page opened with none): the bar at 100 %, not failed, the report shown. */
async function waitForReport(page: Page): Promise<string> {
  const report = page.getByTestId('rebuild-report');
  await report.waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('rebuild-progress').getAttribute('data-state'), 'done');
  assert.equal(await page.getByTestId('rebuild-percent').innerText(), '100%');
  return report.innerText();
}

/** No bare sign-and-number badge (+3 ~20000 −0 =5): each count has its word. */
function assertNoBareCounts(text: string): void {
  assert.doesNotMatch(text, /(^|\s)[+~−=]\s?\d/, `counts without words: ${text}`);
}

/** The card wraps instead of overflowing: nothing in it sticks out, and the page does not scroll sideways. */
async function assertReportFits(page: Page, width: number): Promise<void> {
  const overflow = await page.getByTestId('rebuild-card').evaluate((card) => {
    const edge = card.getBoundingClientRect().right + 0.5;
    const out = [...card.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > edge).map((el) => (el.textContent ?? '').slice(0, 40));
    return { out, scroll: card.scrollWidth - card.clientWidth };
  });
  assert.deepEqual(overflow.out, [], 'nothing in the card sticks out of it');
  assert.ok(overflow.scroll <= 1, `the card does not scroll sideways (${overflow.scroll} px)`);
  const page_ = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(page_ <= width + 1, `page ${page_} px wide in ${width} px`);
}

/** Latin words in the Chinese report outside the UI's allow-list (product names, units). */
async function assertChineseReport(page: Page): Promise<void> {
  const text = await page.getByTestId('rebuild-card').innerText();
  const english = [...text.matchAll(/[A-Za-z][A-Za-z'-]+/g)].map((m) => m[0]).filter((w) => !ZH_ALLOWED.has(w.toLowerCase()));
  assert.deepEqual(english, [], `English in the Chinese report: ${text}`);
}

describe('Index page: sync changes and full rebuild, the report in words, in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 420_000 }, () => {
  const c = consoleInChromium('index-page', () => mkdirSync(ARTIFACTS, { recursive: true }));

  for (const [width, lang] of VIEWS) {
    const words = WORDS[lang];

    test(`at ${width} px (${lang}): the full rebuild's report says every file was re-indexed, in words, and fits`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        const documents = await openIndexPage(page, c.server.url, lang);
        assert.ok(documents > 10, `the seeded diary is indexed: ${documents}`);
        await page.getByTestId('index-rebuild').click();
        const text = await waitForReport(page);
        assertNoBareCounts(text);
        assert.equal(await page.getByTestId('rebuild-report').getAttribute('data-mode'), 'full');
        // Nothing changed on disk, yet a full rebuild indexes every file again: the report says so
        // and does not present them as modified memories.
        assert.equal(await count(page, 'report-reindexed'), documents, text);
        assert.equal(await count(page, 'report-added'), 0, text);
        assert.equal(await count(page, 'report-removed'), 0, text);
        for (const w of [words.added, words.reindexed, words.removed, words.vectors]) assert.match(text, w);
        assert.match(await page.getByTestId('report-full-note').innerText(), words.fullNote);
        if (lang === 'zh') await assertChineseReport(page);
        await assertReportFits(page, width);
        await page.getByTestId('rebuild-card').screenshot({ path: join(ARTIFACTS, `index-w${width}-${lang}-full.png`) });
      } finally {
        await context.close();
      }
    });

    test(`at ${width} px (${lang}): 同步改动 is the primary action, moves the same card to 100 % and reports in words`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        const documents = await openIndexPage(page, c.server.url, lang);
        const sync = page.getByTestId('index-sync');
        await sync.waitFor({ timeout: 5_000 });
        // The quick pass comes first among the page's actions; the full rebuild stays, after it.
        const order = await page.evaluate(() => {
          const buttons = [...document.querySelectorAll('button')];
          return [buttons.indexOf(document.querySelector('[data-testid="index-sync"]')!), buttons.indexOf(document.querySelector('[data-testid="index-rebuild"]')!)];
        });
        assert.ok(order[0]! >= 0 && order[0]! < order[1]!, `sync before the full rebuild: ${order.join(',')}`);
        assert.equal(await sync.getAttribute('data-variant'), 'primary');
        assert.equal(await page.getByTestId('index-rebuild').getAttribute('data-variant'), 'secondary');
        await sync.click();
        const text = await waitForReport(page);
        assertNoBareCounts(text);
        assert.equal(await page.getByTestId('rebuild-report').getAttribute('data-mode'), 'incremental');
        // Nothing changed on disk since the console indexed the diary: every file is unchanged.
        assert.equal(await count(page, 'report-unchanged'), documents, text);
        assert.equal(await count(page, 'report-added'), 0, text);
        assert.equal(await count(page, 'report-reindexed'), 0, text);
        assert.equal(await count(page, 'report-removed'), 0, text);
        for (const w of [words.added, words.reindexed, words.removed, words.unchanged, words.vectors]) assert.match(text, w);
        assert.equal(await page.getByTestId('report-full-note').count(), 0, 'the full-rebuild note belongs to full rebuilds only');
        if (lang === 'zh') await assertChineseReport(page);
        await assertReportFits(page, width);
        await page.getByTestId('rebuild-card').screenshot({ path: join(ARTIFACTS, `index-w${width}-${lang}-sync.png`) });
        await page.screenshot({ path: join(ARTIFACTS, `index-w${width}-${lang}-page.png`) });
      } finally {
        await context.close();
      }
    });
  }
});
