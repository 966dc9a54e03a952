import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { withMergedParagraph } from '../../src/hygiene/merge.ts';

const WHEN = { date: '2026-11-01', time: '09:30' };
const info = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });

test('the paragraph goes after the body, before the Tag and Meta lines; the older text stays byte for byte', () => {
  const raw = '[09:00] 部署流程\n\n> 先构建再上传。\n\n构建用 npm run build。\n\nTag: 部署, 构建\nMeta: ws=ws-a; pinned\n';
  const out = withMergedParagraph(raw, 'a.txt', { summary: '', body: '上传用 rsync,带 --delete。', tags: ['部署', 'rsync'] }, WHEN);
  assert.equal(
    out,
    '[09:00] 部署流程\n\n> 先构建再上传。\n\n构建用 npm run build。\n\n补充(2026-11-01 09:30):\n上传用 rsync,带 --delete。\n\nTag: 部署, 构建, rsync\nMeta: ws=ws-a; pinned\n',
  );
  const parsed = parseDiaryText(out, info('2026-11-01-a.txt'));
  assert.match(parsed.body, /^构建用 npm run build。\n\n补充/);
  assert.deepEqual(parsed.tags, ['部署', '构建', 'rsync']);
  assert.equal(parsed.meta.workspace, 'ws-a');
  assert.equal(parsed.summary, '先构建再上传。');
});

test('CRLF, a BOM and a missing final newline are kept', () => {
  const raw = '\ufeff[09:00] 标题\r\n\r\n正文第一段。';
  const out = withMergedParagraph(raw, 'b.txt', { summary: '', body: '第二段\n两行。', tags: [] }, WHEN);
  assert.equal(out, '\ufeff[09:00] 标题\r\n\r\n正文第一段。\r\n\r\n补充(2026-11-01 09:30):\r\n第二段\r\n两行。');
});

test('a new summary joins the paragraph unless the older memory already says it', () => {
  const raw = '[09:00] 标题\n\n> 旧摘要。\n\n正文。\n';
  assert.match(withMergedParagraph(raw, 'c.txt', { summary: '新的结论是换端口。', body: '正文之外的补充说明。', tags: [] }, WHEN), /补充\(2026-11-01 09:30\):\n新的结论是换端口。\n正文之外的补充说明。\n$/);
  assert.doesNotMatch(withMergedParagraph(raw, 'c.txt', { summary: '旧摘要。', body: '正文之外的补充说明。', tags: [] }, WHEN), /补充\(2026-11-01 09:30\):\n旧摘要/);
});

test('a .md with front matter: appended at the end of the body, new tags noted in the paragraph', () => {
  const raw = '---\ntitle: "部署"\ntags: ["部署"]\n---\n\n# 部署\n\n正文。\n';
  const out = withMergedParagraph(raw, 'd.md', { summary: '', body: '补充的正文。', tags: ['部署', '回滚'] }, WHEN);
  assert.equal(out, '---\ntitle: "部署"\ntags: ["部署"]\n---\n\n# 部署\n\n正文。\n\n补充(2026-11-01 09:30):\n补充的正文。\n(标签:回滚)\n');
});
