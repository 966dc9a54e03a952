// Issue 28, the structured editor, in Chromium against the production build: a memory is edited as
// title, tags and body; the file stays the source of truth (a CRLF file with a BOM and a `Tags：a、b`
// line keeps every byte it had, and a change touches only its own lines); Ctrl+S saves; 预览 renders
// the `##` sections; a problem is told in Chinese under the field it concerns; kind and goal are saved
// into the Meta line. A .md memory opens in the same fields, and a tag change rewrites only its
// front-matter list.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CHROMIUM, consoleInChromium, haveChromium } from './console-in-chromium.ts';
import { repoRoot } from './server.ts';

const SHOTS = join(repoRoot, 'e2e/screenshots');

const TITLE = '机房巡检清单';
const FILE = `2026-11-02-${TITLE}.txt`;
/** Written on Windows: BOM, CRLF, a full-width anchor and a `Tags：` line with 、 between the tags. */
const RAW = `\ufeff【09：30】 ${TITLE}\r\n\r\n> 每周一上午巡检二号机房。\r\n\r\n## 步骤\r\n先看空调出风温度，再看 UPS 电池。\r\n\r\nTags：巡检、机房\r\n`;
const MD_TITLE = '备份轮换: 异地';
const MD_FILE = '2026-11-03-backup-rotation.md';
/** A .md with front matter: a quoted title with a colon repeated as the heading, a block list of tags. */
const MD_RAW = `---\nid: "5e6f7a8b"\ntitle: "${MD_TITLE}"\ndescription: "每月把备份盘带到异地。"\ntags:\n  - 备份\n  - 机房\n---\n\n# ${MD_TITLE}\n\n每月第一个周五换盘。\n`;

for (const width of [300, 1360]) {
  describe(`the structured editor at ${width} px`, { skip: haveChromium ? false : `no Chromium at ${CHROMIUM}`, timeout: 300_000 }, () => {
    const c = consoleInChromium('editor', (env) => {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(join(env.ENGRAM_DIARY_DIR, FILE), RAW);
      writeFileSync(join(env.ENGRAM_DIARY_DIR, MD_FILE), MD_RAW);
    });
    const file = join(c.env.ENGRAM_DIARY_DIR, FILE);

    test('fields from the file; nothing changed writes nothing; a new section is previewed, saved with Ctrl+S, and only its lines change', async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`${c.server.url}/?lang=zh#library`);
        await page.getByTestId('library-search').fill(TITLE);
        const row = page.getByTestId('memory-row').filter({ hasText: TITLE });
        await row.waitFor();
        // The row can show in the unfiltered list before the search answers; opening it then loses the
        // editor when the filtered list replaces the rows. Wait until every row is a match.
        await page.waitForFunction((title) => {
          const rows = [...document.querySelectorAll('[data-testid="memory-row"]')];
          return rows.length > 0 && rows.every((r) => r.textContent?.includes(title));
        }, TITLE);
        await row.locator('button').first().click();
        await row.getByTestId('memory-edit').click();
        const title = row.getByTestId('edit-title');
        await title.waitFor();
        assert.equal(await title.inputValue(), TITLE, 'the title without its anchor');
        assert.equal(await row.getByTestId('edit-tags').inputValue(), '巡检，机房');
        const body = row.getByTestId('memory-editor');
        assert.equal(await body.inputValue(), '> 每周一上午巡检二号机房。\n\n## 步骤\n先看空调出风温度，再看 UPS 电池。');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'memory-editor', 'the cursor is in the body');

        // Nothing changed: saving is not offered, and Ctrl+S writes nothing.
        assert.equal(await row.getByTestId('memory-save').isDisabled(), true);
        await body.press('Control+s');
        await page.waitForTimeout(300);
        assert.equal(readFileSync(file, 'utf8'), RAW, 'the file is untouched');

        // A problem is told under its field, in Chinese, and blocks the save.
        await row.getByTestId('edit-tags').fill('');
        await body.fill(`${await body.inputValue()}\n\nTag: 其实是正文`);
        const problem = row.getByTestId('edit-problem-body');
        assert.match(await problem.innerText(), /没有标签时，正文最后一行不能以“Tag:”或“标签：”开头/);
        assert.ok((await body.getAttribute('aria-describedby'))?.includes((await problem.getAttribute('id'))!), 'tied to the body field');
        assert.equal(await body.getAttribute('aria-invalid'), 'true');
        assert.equal(await row.getByTestId('memory-save').isDisabled(), true);
        await row.getByTestId('edit-tags').fill('巡检、机房');
        await problem.waitFor({ state: 'detached' });

        // A new section and a new tag; the preview renders the sections as headings.
        await body.fill('> 每周一上午巡检二号机房。\n\n## 步骤\n先看空调出风温度，再看 UPS 电池。\n\n## 异常\n- 温度高于 27 度时打电话给值班。');
        await row.getByTestId('edit-tags').fill('巡检、机房、值班');
        await row.getByTestId('edit-tab-preview').click();
        const preview = row.getByTestId('edit-preview');
        assert.deepEqual(await preview.locator('h3').allInnerTexts(), ['步骤', '异常']);
        assert.match(await preview.locator('blockquote').innerText(), /每周一上午/);
        assert.deepEqual(await preview.getByTestId('edit-preview-tags').locator('span').allInnerTexts(), ['#巡检', '#机房', '#值班']);
        if (width === 1360) await page.screenshot({ path: join(SHOTS, `editor-preview-${width}.png`) });
        await row.getByTestId('edit-tab-write').click();
        await page.screenshot({ path: join(SHOTS, `editor-fields-${width}.png`) });
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(sideways <= width + 1, `no sideways scroll at ${width} px (${sideways})`);
        // From here the server is slow to send a memory's fields: editing again right after the save must
        // still open the fields as saved (fields kept from before it would show the old body, and their
        // version would make the next save a conflict).
        await page.route(/memories\.fields/, async (route) => {
          await new Promise((r) => setTimeout(r, 1500));
          await route.continue();
        });
        await row.getByTestId('edit-title').press('Control+s');
        await row.getByTestId('memory-reader').waitFor();

        // On disk: the BOM, CRLF on every line, the anchor and the Tags key as written; only the new lines are new.
        const after = readFileSync(file, 'utf8');
        assert.equal(after, `\ufeff【09：30】 ${TITLE}\r\n\r\n> 每周一上午巡检二号机房。\r\n\r\n## 步骤\r\n先看空调出风温度，再看 UPS 电池。\r\n\r\n## 异常\r\n- 温度高于 27 度时打电话给值班。\r\n\r\nTags：巡检、机房、值班\r\n`);
        await row.getByTestId('memory-reader').filter({ hasText: '27 度' }).waitFor();

        // Kind and goal (seed 004): a select and a line, saved as the Meta line's keys; nothing else changes.
        await row.getByTestId('memory-edit').click();
        const kind = row.getByTestId('edit-kind');
        await kind.waitFor();
        assert.match(await body.inputValue(), /## 异常/, 'the body as saved, not as it was before the save');
        assert.equal(await kind.inputValue(), '', 'no kind yet');
        await kind.selectOption('task');
        await row.getByTestId('edit-goal').fill('每周一十点前巡检完');
        await row.getByTestId('edit-goal').press('Control+s');
        await row.getByTestId('memory-reader').waitFor();
        assert.equal(readFileSync(file, 'utf8'), `${after}Meta: kind=task; goal=每周一十点前巡检完\r\n`);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    test('a .md memory opens in the same fields; a tag change rewrites only its front-matter list', async () => {
      const context = await c.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${c.server.url}/?lang=zh#library`);
        await page.getByTestId('library-search').fill('备份轮换');
        const row = page.getByTestId('memory-row').filter({ hasText: MD_TITLE });
        await row.waitFor();
        await page.waitForFunction((title) => {
          const rows = [...document.querySelectorAll('[data-testid="memory-row"]')];
          return rows.length > 0 && rows.every((r) => r.textContent?.includes(title));
        }, MD_TITLE);
        await row.locator('button').first().click();
        await row.getByTestId('memory-edit').click();
        const title = row.getByTestId('edit-title');
        await title.waitFor();
        assert.equal(await title.inputValue(), MD_TITLE, 'the title from the front matter, not the raw text');
        assert.equal(await row.getByTestId('edit-tags').inputValue(), '备份，机房');
        assert.equal(await row.getByTestId('memory-editor').inputValue(), '每月第一个周五换盘。', 'the body without front matter or heading');
        await row.getByText('这条记忆的摘要写在文件开头的元信息里').waitFor();
        await row.getByTestId('edit-tags').fill('备份，机房，异地');
        await row.getByTestId('edit-tags').press('Control+s');
        await row.getByTestId('memory-reader').waitFor();
        const mdFile = join(c.env.ENGRAM_DIARY_DIR, MD_FILE);
        assert.equal(readFileSync(mdFile, 'utf8'), MD_RAW.replace('  - 机房\n', '  - 机房\n  - 异地\n'));
      } finally {
        await context.close();
      }
    });
  });
}
