// Issue 28, in Chromium against the production build at 300 and 1360 px: people start on
// 「我的 agent 会看到什么」; Settings is grouped by what a person wants (记忆来源, 召回, 模型, 高级),
// each group explained in one line, the model's card with its size on top, raw config paths only
// under 高级 (folded until asked for, or until a search finds something there).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';
import { repoRoot } from './server.ts';

const SHOTS = join(repoRoot, 'e2e/screenshots');

describe('where people start, and Settings by what they want', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, () => {
  const c = consoleInChromium('settings', () => mkdirSync(SHOTS, { recursive: true }));

  for (const width of [300, 1360]) {
    test(`at ${width} px: the console opens on 「我的 agent 会看到什么」; every other page is one click away`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      try {
        await page.goto(`${c.server.url}/?lang=zh`);
        await page.getByTestId('agent-query').waitFor();
        assert.equal(await page.getByTestId('page-agent').getAttribute('data-active'), 'true');
        assert.equal(await page.getByTestId('nav-agent').getAttribute('aria-current'), 'page');
        const navOrder = await page.locator('[data-testid^="nav-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
        assert.equal(navOrder[0], 'nav-agent', `the first page in the navigation: ${navOrder.join(', ')}`);
        for (const [nav, visible] of [
          ['library', 'library-search'],
          ['recall', 'recall-query'],
          ['index', 'stat-documents'],
          ['settings', 'settings-search'],
          ['agent', 'agent-query'],
        ] as const) {
          await page.getByTestId(`nav-${nav}`).click();
          await page.getByTestId(visible).waitFor();
        }
        // A page named in the address still opens there.
        await page.goto(`${c.server.url}/?lang=zh#library`);
        await page.getByTestId('memory-row').first().waitFor();
        assert.equal(await page.getByTestId('page-agent').getAttribute('data-active'), 'false');
      } finally {
        await context.close();
      }
    });

    test(`at ${width} px: Settings shows the model card first, then 记忆来源 · 召回 · 模型 explained, raw keys only under 高级`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      try {
        await page.goto(`${c.server.url}/?lang=zh#settings`);
        await page.getByTestId('settings-group-sources').waitFor();
        // The model card: its state, its size, the install button, before any group.
        const card = page.getByTestId('model-install');
        assert.match(await page.getByTestId('model-size').innerText(), /下载约 \d+(\.\d)? MB，装好后占用约 \d+(\.\d)? MB/);
        assert.match(await page.getByTestId('model-state').innerText(), /还没装/);
        await page.getByTestId('model-install-start').waitFor();
        const top = async (id: string) => (await page.getByTestId(id).boundingBox())!.y;
        assert.ok((await card.boundingBox())!.y < (await top('settings-group-sources')), 'the model card is above the groups');
        assert.ok((await top('settings-group-sources')) < (await top('settings-group-recall')) && (await top('settings-group-recall')) < (await top('settings-group-model')) && (await top('settings-group-model')) < (await top('settings-group-advanced')), 'groups in order');

        const groups = await page.locator('[data-testid^="settings-group-"]:not([data-testid="settings-group-explain"])').evaluateAll((els) =>
          els.map((e) => ({ id: e.getAttribute('data-testid'), title: e.querySelector('h2')?.textContent?.trim() ?? '', explain: e.querySelector('[data-testid="settings-group-explain"]')?.textContent?.trim() ?? '' })),
        );
        assert.deepEqual(groups.map((g) => g.title), ['记忆来源', '召回', '模型', '高级']);
        for (const g of groups) assert.ok(/[\u4e00-\u9fff]/.test(g.explain) && g.explain.length >= 10, `${g.id} explains itself: "${g.explain}"`);

        // Folded 高级: no raw config path anywhere on the page.
        assert.equal(await page.getByTestId('settings-group-advanced').getAttribute('data-open'), 'false');
        assert.equal(await page.getByTestId('setting-path').count(), 0, 'no raw keys before 高级 is opened');
        await page.getByTestId('setting-recall.kMax').waitFor();
        await page.getByTestId('setting-embedding.provider').waitFor();
        await page.getByTestId('setting-diaryDir').waitFor();
        await page.screenshot({ path: join(SHOTS, `settings-groups-${width}.png`), fullPage: width > 300 });

        await page.getByTestId('settings-advanced-toggle').click();
        await page.getByTestId('settings-section-recall').waitFor();
        const paths = await page.getByTestId('setting-path').evaluateAll((els) => els.map((e) => ({ text: e.textContent, inAdvanced: e.closest('[data-testid="settings-group-advanced"]') !== null })));
        assert.ok(paths.length > 40, `raw keys under 高级 (${paths.length})`);
        assert.deepEqual(paths.filter((p) => !p.inAdvanced), [], 'raw keys only under 高级');
        assert.ok(paths.some((p) => p.text === 'recall.bm25K1'));
        await page.getByTestId('settings-advanced-toggle').click();
        assert.equal(await page.getByTestId('setting-path').count(), 0);

        // A search that matches something under 高级 shows it without a click; clearing folds it again.
        await page.getByTestId('settings-search').fill('bm25');
        await page.getByTestId('setting-recall.bm25K1').waitFor();
        assert.equal(await page.getByTestId('settings-group-advanced').getAttribute('data-open'), 'true');
        await page.getByTestId('settings-search').fill('');
        await page.getByTestId('setting-recall.bm25K1').waitFor({ state: 'detached' });

        // A wrong value under 高级 opens it and puts the cursor there when saving.
        await page.getByTestId('settings-advanced-toggle').click();
        await page.getByTestId('setting-recall.bm25B').fill('7');
        await page.getByTestId('settings-advanced-toggle').click();
        await page.getByTestId('settings-save').click();
        await page.getByTestId('setting-recall.bm25B-error').waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'setting-recall.bm25B');
        await page.getByTestId('settings-reset').click();

        // The same groups in English, through the one translation table.
        await page.getByTestId('toggle-lang').click();
        const en = await page.locator('[data-testid^="settings-group-"] h2').allInnerTexts();
        assert.deepEqual(en.slice(0, 4), ['Memory sources', 'Recall', 'Model', 'Advanced']);
        assert.match(await page.getByTestId('model-size').innerText(), /About \d+(\.\d)? MB to download/);
      } finally {
        await context.close();
      }
    });
  }
});
