import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_META, formatMetaFields, parseMetaFields, withMarkdownMeta, withTxtMeta, type MemoryMeta } from '../../src/diary/meta.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';

const info = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });
const meta = (m: Partial<MemoryMeta>): MemoryMeta => ({ ...DEFAULT_META, supersedes: [], ...m });

test('every meta field survives format → parse', () => {
  const cases: MemoryMeta[] = [
    meta({}),
    meta({ workspace: 'ws-1a2b3c4d' }),
    meta({ workspace: 'ws-1', sessionId: 's-9f', origin: 'agent', pinned: true, locked: true, supersedes: ['abc', 'def'], summary: 'auto' }),
    meta({ origin: 'import', summary: 'rule' }),
  ];
  for (const m of cases) assert.deepEqual(parseMetaFields(formatMetaFields(m)).meta, m);
});

test('a Meta line after the Tag line is metadata, not body; tags and warnings stay right', () => {
  const raw = '[09:00] 部署流程\n\n> 先构建再上传。\n\n正文一段。\n\nTag: 部署, 构建\nMeta: ws=ws-aa; session=s1; pinned\n';
  const d = parseDiaryText(raw, info('2026-10-01-x.txt'));
  assert.equal(d.body, '正文一段。');
  assert.deepEqual(d.tags, ['部署', '构建']);
  assert.equal(d.meta.workspace, 'ws-aa');
  assert.equal(d.meta.sessionId, 's1');
  assert.equal(d.meta.pinned, true);
  assert.equal(d.summarySource, 'manual');
  assert.deepEqual(d.warnings, []);
});

test('unknown meta keys are warnings with the line number, never failures', () => {
  const raw = '[09:00] 标题\n\n> 摘要。\n\n正文。\n\nTag: a\nMeta: colour=blue; ws=ws-b\n';
  const d = parseDiaryText(raw, info('x.txt'));
  assert.equal(d.meta.workspace, 'ws-b');
  assert.equal(d.warnings.length, 1);
  assert.match(d.warnings[0]!, /^x\.txt:8: Meta line: unknown key "colour"/);
});

test('without a Meta line a memory is global, and summary source follows the summary paragraph', () => {
  const withSummary = parseDiaryText('[09:00] 标题\n\n> 摘要。\n\n正文。\n\nTag: a\n', info('a.txt'));
  const without = parseDiaryText('[09:00] 标题\n\n正文。\n\nTag: a\n', info('b.txt'));
  assert.equal(withSummary.meta.workspace, 'global');
  assert.equal(withSummary.summarySource, 'manual');
  assert.equal(without.summarySource, 'none');
  const auto = parseDiaryText('[09:00] 标题\n\n> 模型写的。\n\n正文。\n\nTag: a\nMeta: summary=auto\n', info('c.txt'));
  assert.equal(auto.summarySource, 'auto');
});

test('withTxtMeta changes only the Meta line: every other byte is kept', () => {
  const body = '[09:00] 标题\n\n> 摘要。\n\n正文  有两个空格。\r\n第二行\n\nTag: a\n';
  const once = withTxtMeta(body, meta({ workspace: 'ws-x', pinned: true }));
  assert.ok(once.startsWith(body), 'every byte before the Meta line, the CRLF included, is kept');
  assert.match(once, /\nMeta: ws=ws-x; pinned\n$/);
  const twice = withTxtMeta(once, meta({ workspace: 'ws-x', locked: true }));
  assert.match(twice, /\nMeta: ws=ws-x; locked\n$/);
  assert.equal(twice.match(/Meta:/g)!.length, 1);
  const cleared = withTxtMeta(twice, meta({}));
  assert.equal(cleared, body, 'adding and removing the Meta line gives back the original bytes');
});

test('front-matter files carry the same fields', () => {
  const raw = '---\ntitle: "部署"\ndescription: "摘要"\ntags: ["a"]\n---\n\n# 部署\n\n正文。\n';
  const next = withMarkdownMeta(raw, meta({ workspace: 'ws-m', locked: true, supersedes: ['d1'] }))!;
  const d = parseDiaryText(next, info('2026-10-01-m.md'));
  assert.equal(d.meta.workspace, 'ws-m');
  assert.equal(d.meta.locked, true);
  assert.deepEqual(d.meta.supersedes, ['d1']);
  assert.equal(d.body, '正文。');
  assert.equal(withMarkdownMeta(next, meta({})), raw.replace(/\n$/, '\n'));
});
