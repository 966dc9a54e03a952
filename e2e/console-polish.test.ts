// The console's polish promises of issue #16, in real Chromium against the production build: score
// bars on a fixed scale with readable numbers, write warnings that are not noise, a layout that never
// squeezes or overflows, and no critical or serious axe-core finding on any page (300 and 1360 px,
// Chinese and English, light and dark), with a skip link, sane heading levels and announced results.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';
import { repoRoot } from './server.ts';
import { openAdvancedSettings } from './settings.ts';

const ARTIFACTS = join(repoRoot, 'e2e/artifacts');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const LIBRARY_TABS = ['memories', 'workspaces', 'import', 'wall'] as const;

describe('console polish (#16) in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 900_000 }, () => {
  const c = consoleInChromium('polish', () => mkdirSync(ARTIFACTS, { recursive: true }));

  const open = async (width: number, query = '') => {
    const context = await c.browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    // The Library is where these checks begin (people start on 「我的 agent 会看到什么」).
    await page.goto(`${c.server.url}/${query}#library`);
    await page.getByTestId('memory-row').first().waitFor();
    return { context, page };
  };

  const runRecall = async (page: Page, q: string) => {
    await page.getByTestId('nav-recall').click();
    await page.getByTestId('recall-query').fill(q);
    await page.getByTestId('recall-run').click();
    await page.getByTestId('recall-result').waitFor();
  };

  test('score bars: a fixed scale per channel (not the best hit), the number shown, HTML text ≥ 11 px at 300 px, no vector row without vectors', async () => {
    const { context, page } = await open(300, '?lang=zh');
    try {
      await runRecall(page, '令牌桶 限流 接口');
      await page.getByTestId('recall-hit').first().waitFor();
      const bars = await page.getByTestId('score-bar').evaluateAll((els) =>
        els.map((el) => {
          const track = el.querySelector('[data-testid="score-bar-track"]')!.getBoundingClientRect();
          const fill = el.querySelector('[data-testid="score-bar-fill"]')!.getBoundingClientRect();
          const text = el.querySelector('[data-testid="score-bar-text"]') as HTMLElement;
          return {
            bar: el.getAttribute('data-bar')!,
            value: Number(el.getAttribute('data-value')),
            scale: Number(el.getAttribute('data-scale')),
            drawn: fill.width / track.width,
            text: text.innerText,
            fontPx: Math.min(...[...el.querySelectorAll('*')].filter((n) => n.childElementCount === 0 && n.textContent?.trim()).map((n) => parseFloat(getComputedStyle(n).fontSize))),
          };
        }),
      );
      assert.ok(bars.length >= 2, `bars shown: ${JSON.stringify(bars)}`);
      for (const b of bars) {
        assert.ok(Math.abs(b.drawn - Math.min(1, b.value / b.scale)) < 0.03, `bar drawn at value/scale: ${JSON.stringify(b)}`);
        assert.ok(b.fontPx >= 11, `readable text (${b.fontPx} px): ${b.text}`);
      }
      // One scale per channel, the same for every hit: not the best hit's value.
      for (const key of new Set(bars.map((b) => b.bar))) {
        const scales = new Set(bars.filter((b) => b.bar === key).map((b) => b.scale));
        assert.equal(scales.size, 1, `${key}: one scale for all hits`);
      }
      const lexical = bars.filter((b) => b.bar === 'lexical');
      assert.ok(lexical.every((b) => b.scale === 1), 'the lexical bar is the share of the query explained (0–100 %)');
      assert.ok(lexical.every((b) => /\d+%/.test(b.text)), `the lexical share is printed: ${lexical.map((b) => b.text).join(' | ')}`);
      const fused = bars.filter((b) => b.bar === 'fused');
      assert.ok(fused.every((b) => b.text.includes(b.value.toFixed(4))), `the fused score is printed: ${fused.map((b) => b.text).join(' | ')}`);
      // No chart text is SVG text (which shrinks with the page).
      assert.equal(await page.locator('[data-testid="recall-hit"] svg text').count(), 0, 'no SVG text in the hits');
      // Embeddings are off in this server: no "向量 未进入" row.
      assert.match(await page.getByTestId('recall-semantic').innerText(), /跳过/);
      assert.equal(await page.locator('[data-testid="score-bar"][data-bar="semantic"]').count(), 0, 'no vector row when the channel did not run');
      assert.doesNotMatch(await page.getByTestId('recall-result').innerText(), /未进入/);
      await page.screenshot({ path: join(ARTIFACTS, 'polish-w300-scores.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  test('write warnings: generic shared words are no conflict; a real one is named once, with no supersede advice the console cannot follow', async () => {
    const { context, page } = await open(760, '?lang=zh');
    try {
      const write = async (title: string, content: string, tags: string) => {
        await page.getByTestId('nav-library').click();
        if ((await page.getByTestId('create-form').count()) === 0) await page.getByTestId('library-new').click();
        await page.getByTestId('create-title').fill(title);
        await page.getByTestId('create-content').fill(content);
        await page.getByTestId('create-tags').fill(tags);
        await page.getByTestId('create-submit').click();
        // Done when the form was emptied (warnings shown) or closed (nothing to say).
        await page.waitForFunction(() => {
          const content = document.querySelector('[data-testid="create-content"]') as HTMLTextAreaElement | null;
          return !content || content.value === '';
        });
        const warnings = page.getByTestId('create-warnings');
        return (await warnings.count()) ? (await warnings.locator('li').allInnerTexts()) : [];
      };
      // The fixtures hold three notes told with the same habits (修复, 在群里, 周四晚上) and numbers.
      const generic = await write('修复导出报表超时', '修复了导出报表超时：查询加了索引，从 45 秒降到 3 秒，在群里说了一声，周四晚上一起发布。', '报表, 索引');
      assert.deepEqual(generic.filter((w) => /冲突|旧记忆|conflict/i.test(w)), [], `no conflict from generic words: ${generic.join(' | ')}`);
      // The same subject with a changed value: one line, naming the older memory.
      const real = await write('订单服务连接池上限调整', '订单服务的数据库连接池上限改成 50，排队超时改成 2 秒。', '连接池, 订单服务');
      const conflictLines = real.filter((w) => w.includes('订单服务连接池上限'));
      assert.equal(conflictLines.length, 1, `the conflict is named once: ${real.join(' | ')}`);
      const body = await page.getByTestId('create-form').innerText();
      assert.equal(body.split('订单服务连接池上限」').length - 1, 1, `the older memory is named once in the form: ${body}`);
      assert.doesNotMatch(body, /supersede|取代/i, 'no advice the console cannot carry out');
      await page.screenshot({ path: join(ARTIFACTS, 'polish-w760-write-warnings.png') });
    } finally {
      await context.close();
    }
  });

  test('layout: the Library header belongs to the memories tab; the main column at 1040 px is not narrower than at 760 px', async () => {
    const widths: Record<number, number> = {};
    for (const width of [760, 1040, 1360]) {
      const { context, page } = await open(width, '?lang=zh');
      try {
        widths[width] = await page.evaluate(() => document.querySelector('[data-testid="page-library"] .page-grid > div')!.getBoundingClientRect().width);
        const title = await page.locator('[data-testid="page-library"] h1').innerText();
        for (const tab of ['workspaces', 'import', 'wall'] as const) {
          await page.getByTestId(`tab-${tab}`).click();
          const h1 = await page.locator('[data-testid="page-library"] h1').innerText();
          assert.notEqual(h1, title, `${width} px: the ${tab} tab has its own heading, not the Library's`);
          assert.equal(await page.getByTestId('library-new').isVisible(), false, `${width} px: no "new memory" on the ${tab} tab`);
        }
        await page.getByTestId('tab-memories').click();
        assert.equal(await page.locator('[data-testid="page-library"] h1').innerText(), title);
      } finally {
        await context.close();
      }
    }
    assert.ok(widths[1040]! >= widths[760]!, `main column at 1040 px (${widths[1040]}) ≥ at 760 px (${widths[760]})`);
  });

  for (const lang of ['zh', 'en'] as const) {
    test(`at 300 px in ${lang}: no page and no Library tab scrolls sideways`, async () => {
      const { context, page } = await open(300, `?lang=${lang}`);
      try {
        for (const view of await everyView(page)) {
          const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scroll <= 301, `${lang} ${view}: page ${scroll} px wide in 300 px`);
        }
      } finally {
        await context.close();
      }
    });
  }

  test('keyboard and screen readers: the skip link is first and lands on the main content; results and counts are live regions', async () => {
    const { context, page } = await open(1360, '?lang=zh');
    try {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid), 'skip-link', 'the first Tab reaches the skip link');
      assert.ok(await page.getByTestId('skip-link').isVisible(), 'the focused skip link is visible');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
      const live = (id: string) => page.getByTestId(id).evaluate((el) => el.closest('[aria-live], [role="status"], [role="alert"], output') !== null);
      assert.equal(await live('library-count'), true, 'the Library count is announced');
      await runRecall(page, '令牌桶 限流');
      assert.equal(await live('recall-announce'), true, 'the recall result is announced');
      assert.match(await page.getByTestId('recall-announce').innerText(), /命中 \d+ 条/);
    } finally {
      await context.close();
    }
  });

  for (const width of [300, 1360]) {
    for (const lang of ['zh', 'en'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        test(`axe at ${width} px, ${lang}, ${theme}: no critical or serious finding, headings never skip a level`, async () => {
          const { context, page } = await open(width, `?lang=${lang}&theme=${theme}`);
          try {
            assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
            const findings: string[] = [];
            await everyView(page, async (v) => {
              for (const f of await axeFindings(page)) findings.push(`${v}: ${f}`);
              for (const j of await headingJumps(page)) findings.push(`${v}: heading ${j}`);
            });
            assert.deepEqual(findings, [], `${width} px ${lang} ${theme}:\n${findings.join('\n')}`);
          } finally {
            await context.close();
          }
        });
      }
    }
  }
});

/**
 * Visits every page and every Library tab (a memory opened to read, a recall run), calling `each`
 * on each view; returns the views' names.
 */
async function everyView(page: Page, each: (view: string) => Promise<void> = async () => {}): Promise<string[]> {
  const seen: string[] = [];
  const visit = async (name: string) => {
    seen.push(name);
    await each(name);
  };
  await page.getByTestId('nav-library').click();
  await page.getByTestId('memory-row').first().locator('button').first().click();
  await page.getByTestId('memory-reader').first().waitFor();
  await visit('library');
  for (const tab of LIBRARY_TABS.slice(1)) {
    await page.getByTestId(`tab-${tab}`).click();
    await page.getByTestId(`panel-${tab}`).waitFor();
    await page.waitForTimeout(200);
    await visit(`library/${tab}`);
  }
  await page.getByTestId('tab-memories').click();
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-query').fill('令牌桶限流的突发流量怎么处理');
  await page.getByTestId('agent-run').click();
  await page.getByTestId('agent-result').waitFor();
  await visit('agent');
  await page.getByTestId('nav-recall').click();
  await page.getByTestId('recall-query').fill('令牌桶 限流');
  await page.getByTestId('recall-run').click();
  await page.getByTestId('recall-result').waitFor();
  await visit('recall');
  await page.getByTestId('nav-index').click();
  await page.getByTestId('stat-documents').waitFor();
  await visit('index');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('setting-recall.kMin').waitFor();
  await visit('settings');
  await openAdvancedSettings(page);
  await visit('settings/advanced');
  return seen;
}

/** axe-core's critical and serious violations on the current view (hidden pages are not rendered, so not checked). */
async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  // Contrast is judged on settled colours: a button fading in from disabled (opacity 0.5 → 1 over
  // 150 ms) read 2.71:1 mid-transition in one run.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.impact} ${v.id} ${JSON.stringify(n.target)} ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`));
  });
}

/** Visible headings whose level is more than one below the previous one (h1 → h3). */
async function headingJumps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    let last = 0;
    for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
      if (!(h as HTMLElement).checkVisibility()) continue;
      const level = Number(h.tagName[1]);
      if (last && level > last + 1) out.push(`h${last} → h${level} "${(h.textContent ?? '').trim().slice(0, 40)}"`);
      last = level;
    }
    return out;
  });
}

