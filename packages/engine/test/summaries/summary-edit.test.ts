import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { withSummary, withSummaryParagraph } from '../../src/diary/summary-edit.ts';

const info = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });

test('.txt: the summary paragraph is inserted after the title line, nothing else moves', () => {
  const raw = '[09:00] 部署流程\n\n构建用 npm run build。\n\nTag: 部署\n';
  assert.equal(withSummaryParagraph(raw, '构建后再上传。', false), '[09:00] 部署流程\n\n> 构建后再上传。\n\n构建用 npm run build。\n\nTag: 部署\n');
  // No blank line after the title: one is added on both sides of the summary.
  assert.equal(withSummaryParagraph('[09:00] 标题\n正文。\n', '摘要。', false), '[09:00] 标题\n\n> 摘要。\n\n正文。\n');
  // Title only, no final newline.
  assert.equal(withSummaryParagraph('[09:00] 标题', '摘要。', false), '[09:00] 标题\n\n> 摘要。');
});

test('.txt: an existing summary paragraph is replaced in place (all its lines)', () => {
  const raw = '[09:00] 标题\n\n> 旧的第一行\n> 旧的第二行\n\n正文。\n\nTag: a\nMeta: ws=ws-a\n';
  assert.equal(withSummaryParagraph(raw, '新的摘要。', false), '[09:00] 标题\n\n> 新的摘要。\n\n正文。\n\nTag: a\nMeta: ws=ws-a\n');
  assert.equal(withSummaryParagraph(raw, '两行\n摘要', false), '[09:00] 标题\n\n> 两行\n> 摘要\n\n正文。\n\nTag: a\nMeta: ws=ws-a\n');
});

test('.txt: a file that starts with its Tag line gets the summary before it', () => {
  assert.equal(withSummaryParagraph('Tag: a\n', '摘要。', false), '> 摘要。\n\nTag: a\n');
});

test('BOM and CRLF survive, and so does every byte outside the summary', () => {
  const raw = '\ufeff[09:00] 标题\r\n\r\n正文 \t尾随空白  \r\n\r\nTag: a\r\n';
  assert.equal(withSummaryParagraph(raw, '摘要。', false), '\ufeff[09:00] 标题\r\n\r\n> 摘要。\r\n\r\n正文 \t尾随空白  \r\n\r\nTag: a\r\n');
  // withSummary adds the Meta line through the metadata writer and puts the CRLF back.
  const auto = withSummary(raw, 'x.txt', '摘要。', 'auto');
  assert.equal(auto, '\ufeff[09:00] 标题\r\n\r\n> 摘要。\r\n\r\n正文 \t尾随空白  \r\n\r\nTag: a\r\nMeta: summary=auto\r\n');
});

test('withSummary records the source: auto / rule in the Meta line, manual removes the mark', () => {
  const raw = '[09:00] 标题\n\n正文说了一件事。\n\nTag: a\nMeta: ws=ws-a; pinned\n';
  const auto = withSummary(raw, '2026-10-01-x.txt', '自动摘要。', 'auto');
  let p = parseDiaryText(auto, info('2026-10-01-x.txt'));
  assert.equal(p.summary, '自动摘要。');
  assert.equal(p.summarySource, 'auto');
  assert.equal(p.meta.workspace, 'ws-a');
  assert.equal(p.meta.pinned, true);
  assert.equal(p.body, '正文说了一件事。');
  const rule = withSummary(auto, '2026-10-01-x.txt', '规则摘要。', 'rule');
  p = parseDiaryText(rule, info('2026-10-01-x.txt'));
  assert.equal(p.summarySource, 'rule');
  assert.match(rule, /Meta: ws=ws-a; pinned; summary=rule\n$/);
  const manual = withSummary(rule, '2026-10-01-x.txt', '人写的摘要。', 'manual');
  p = parseDiaryText(manual, info('2026-10-01-x.txt'));
  assert.equal(p.summarySource, 'manual');
  assert.equal(p.summary, '人写的摘要。');
  assert.match(manual, /Meta: ws=ws-a; pinned\n$/);
  // Same source again: only the paragraph changes.
  assert.equal(withSummary(manual, '2026-10-01-x.txt', '改过的摘要。', 'manual'), manual.replace('人写的摘要。', '改过的摘要。'));
});

test('.md: the description key is replaced, or added after the title', () => {
  const withDesc = '---\nid: "abc"\ntitle: "部署"\ndescription: "旧的"\ntags: ["a"]\n---\n\n# 部署\n\n正文。\n';
  assert.equal(withSummaryParagraph(withDesc, '新的 "引号"', true), '---\nid: "abc"\ntitle: "部署"\ndescription: "新的 \\"引号\\""\ntags: ["a"]\n---\n\n# 部署\n\n正文。\n');
  const without = '---\ntitle: 部署\ntags: [a]\n---\n# 部署\n正文。\n';
  const out = withSummaryParagraph(without, '摘要。', true);
  assert.equal(out, '---\ntitle: 部署\ndescription: "摘要。"\ntags: [a]\n---\n# 部署\n正文。\n');
  assert.equal(parseDiaryText(out, info('y.md')).summary, '摘要。');
  // A block scalar summary under another key the parser reads: replaced with all its lines.
  const block = '---\ntitle: 部署\nsummary: |\n  第一行\n  第二行\ntags: [a]\n---\n正文。\n';
  const b = withSummaryParagraph(block, '新摘要。', true);
  assert.equal(b, '---\ntitle: 部署\nsummary: "新摘要。"\ntags: [a]\n---\n正文。\n');
  // Source recorded as a front-matter key.
  const auto = withSummary(without, 'y.md', '摘要。', 'auto');
  const p = parseDiaryText(auto, info('y.md'));
  assert.equal(p.summarySource, 'auto');
  assert.equal(p.summary, '摘要。');
  assert.equal(p.body, '正文。');
});

test('property: setting a summary changes only the summary (body, tags and meta parse the same)', () => {
  const line = fc.stringMatching(/^[a-z东京节点端口,。 ]{1,20}$/).filter((s) => s.trim() !== '');
  fc.assert(
    fc.property(line, fc.array(line, { maxLength: 4 }), fc.option(line), fc.option(line), line, fc.boolean(), (title, body, summary, tag, next, crlf) => {
      const parts = [`[09:00] ${title.trim()}`];
      if (summary) parts.push(`> ${summary}`);
      if (body.length) parts.push(body.join('\n'));
      if (tag) parts.push(`Tag: ${tag}`);
      let raw = `${parts.join('\n\n')}\n`;
      if (crlf) raw = raw.replace(/\n/g, '\r\n');
      const before = parseDiaryText(raw, info('2026-10-01-p.txt'));
      const out = withSummary(raw, '2026-10-01-p.txt', next, 'auto');
      const after = parseDiaryText(out, info('2026-10-01-p.txt'));
      assert.equal(after.summary, next.trim());
      assert.equal(after.summarySource, 'auto');
      assert.equal(after.body, before.body);
      assert.deepEqual(after.tags, before.tags);
      assert.equal(after.title, before.title);
      if (crlf) assert.ok(!/[^\r]\n/.test(out), 'CRLF kept');
    }),
    { numRuns: 300 },
  );
});
