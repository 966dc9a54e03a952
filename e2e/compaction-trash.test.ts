// Compaction trash in Chromium against the production build: each stored block has its own remove
// button (into the trash, no question asked while the trash is on), each trashed block its restore
// and delete-for-good buttons (the latter asks first), and every action adds one audit line that
// names the action and the block in words. The memory is stored through an engine of the test's
// own before the console starts, as the plugin would store it at a compaction; so are a day's
// tokens of model-assisted work, which the usage card beside it shows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CompactionMemory, openEngine, recordModelUsage } from '@engram/engine';
import type { Page } from 'playwright-core';
import { CHROMIUM, consoleInChromium, haveChromium, type ConsoleEnv } from './console-in-chromium.ts';

const SCOPE = { workspace: '/work/project', sessionId: 'session-trash-e2e' };

async function storeCompaction(env: ConsoleEnv): Promise<void> {
  const engine = await openEngine({ env: { ...env }, createDiaryDir: true });
  try {
    const memory = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
    const events = [
      { type: 'user/message', seq: 0, data: { content: [{ type: 'text', text: '东京节点端口被占用怎么办?' }], source: { kind: 'user' } } },
      { type: 'assistant/message', seq: 1, data: { message: { content: [{ type: 'text', text: '改用 8443 端口。结论:端口定为 8443。' }] } } },
      { type: 'user/message', seq: 2, data: { content: [{ type: 'text', text: '备份脚本放在哪里?' }], source: { kind: 'user' } } },
      { type: 'assistant/message', seq: 3, data: { message: { content: [{ type: 'text', text: '放在 scripts/backup.sh,每天凌晨三点跑。' }] } } },
    ];
    await memory.ingest({ scope: SCOPE, compactionId: 'c1', summary: '## 端口\n决定改用 8443。\n## 备份\n脚本在 scripts/backup.sh。', shadowedSeqs: [0, 1, 2, 3], events });
    await recordModelUsage(engine.database.db, 'summary', 1, 1234);
    await recordModelUsage(engine.database.db, 'judge', 2, 122);
    await recordModelUsage(engine.database.db, 'compaction', 1, 300, new Date(Date.now() - 2 * 86_400_000));
  } finally {
    engine.close();
  }
}

const count = (page: Page, id: string) => page.getByTestId(id).count();

/** Waits until the list has `n` rows (the section reads again after each action). */
async function rows(page: Page, id: string, n: number): Promise<void> {
  await page.waitForFunction(([testId, want]) => document.querySelectorAll(`[data-testid="${testId}"]`).length === want, [id, n] as const);
}

describe('compaction trash (per-block buttons, audit) and the model usage card, in Chromium', { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, () => {
  const c = consoleInChromium('compaction-trash', storeCompaction);

  for (const [width, lang] of [
    [1360, 'zh'],
    [300, 'en'],
  ] as const) {
    test(`at ${width} px (${lang}): remove one block, restore it, remove and delete it for good; one audit line each`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      try {
        await page.goto(`${c.server.url}/?lang=${lang}#index`);
        await page.getByTestId('compaction-block').first().waitFor();
        const stored = await count(page, 'compaction-block');
        assert.ok(stored >= 2, `blocks stored: ${stored}`);
        const auditBefore = await count(page, 'compaction-audit-line');
        const first = page.getByTestId('compaction-block').first();
        const id = (await first.getAttribute('data-id'))!;

        // Remove: into the trash, no question (it can be restored).
        await first.getByTestId('compaction-block-remove').click();
        await rows(page, 'compaction-trashed', 1);
        await rows(page, 'compaction-block', stored - 1);
        assert.equal(await page.locator(`[data-testid="compaction-trashed"][data-id="${id}"]`).count(), 1);
        assert.deepEqual(dialogs, [], 'a removal into the trash asks nothing');
        await rows(page, 'compaction-audit-line', auditBefore + 1);
        const trashLine = page.getByTestId('compaction-audit-line').first();
        assert.equal(await trashLine.getAttribute('data-action'), 'trash');
        assert.match(await trashLine.innerText(), lang === 'zh' ? /移入回收站 · .+ · 1 块/ : /moved to the trash · .+ · 1 blocks/);
        assert.ok(!(await trashLine.innerText()).includes(id), 'the line names the block by title, not by id');

        // Restore: back among the stored blocks.
        await page.locator(`[data-testid="compaction-trashed"][data-id="${id}"]`).getByTestId('compaction-block-restore').click();
        await rows(page, 'compaction-trashed', 0);
        await rows(page, 'compaction-block', stored);
        await rows(page, 'compaction-audit-line', auditBefore + 2);
        assert.equal(await page.getByTestId('compaction-audit-line').first().getAttribute('data-action'), 'restore');

        // Remove again, then delete for good: asked first, and it does not come back.
        await page.locator(`[data-testid="compaction-block"][data-id="${id}"]`).getByTestId('compaction-block-remove').click();
        await rows(page, 'compaction-trashed', 1);
        await page.locator(`[data-testid="compaction-trashed"][data-id="${id}"]`).getByTestId('compaction-block-purge').click();
        await rows(page, 'compaction-trashed', 0);
        await rows(page, 'compaction-block', stored - 1);
        assert.equal(dialogs.length, 1, 'delete for good asks first');
        assert.match(dialogs[0]!, lang === 'zh' ? /无法还原/ : /cannot be restored/);
        await rows(page, 'compaction-audit-line', auditBefore + 4);
        const actions = await page.getByTestId('compaction-audit-line').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
        assert.deepEqual(actions.slice(0, 4), ['purge', 'trash', 'restore', 'trash'], 'newest first');
        assert.equal(await page.locator(`[data-testid="compaction-block"][data-id="${id}"]`).count(), 0);
        // Nothing is wider than the page at 300 px.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      } finally {
        await context.close();
      }
    });
  }

  for (const [width, lang] of [
    [300, 'zh'],
    [1360, 'en'],
  ] as const) {
    test(`at ${width} px (${lang}): the usage card shows today's tokens per kind of work and the earlier day with calls`, async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${c.server.url}/?lang=${lang}#index`);
        const card = page.getByTestId('model-usage');
        await card.getByTestId('usage-day').first().waitFor();
        const days = card.getByTestId('usage-day');
        assert.equal(await days.count(), 2, 'today and the day two days ago (the quiet day between is left out)');
        const today = days.first();
        const cells = Object.fromEntries(
          await Promise.all(['summary', 'judge', 'compaction', 'total'].map(async (w) => [w, await today.getByTestId(`usage-${w}`).innerText()] as const)),
        );
        if (lang === 'zh') {
          assert.match(cells.summary!, /摘要 1,234 token · 1 次/);
          assert.match(cells.judge!, /相关性裁判 122 token · 2 次/);
          assert.match(cells.compaction!, /压缩辅助 0 token · 0 次/);
          assert.match(cells.total!, /合计 1,356 token · 3 次/);
        } else {
          assert.match(cells.summary!, /Summaries 1,234 tokens · 1 calls/);
          assert.match(cells.total!, /Total 1,356 tokens · 3 calls/);
        }
        assert.match(await days.nth(1).getByTestId('usage-compaction').innerText(), /300/);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      } finally {
        await context.close();
      }
    });
  }
});
