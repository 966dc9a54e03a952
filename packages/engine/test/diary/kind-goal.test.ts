// A memory's kind (fact / pref / lesson / task / proj) and goal (seed 004) in the file: optional Meta-line
// fields (.txt) and front-matter keys (.md), round-trip safe in both directions, an unknown kind kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalKind, DEFAULT_META, formatMetaFields, parseMetaFields, withMarkdownMeta, withTxtMeta, writtenKindGoal, type MemoryMeta } from '../../src/diary/meta.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { withSummary } from '../../src/diary/summary-edit.ts';

const info = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });
const meta = (m: Partial<MemoryMeta>): MemoryMeta => ({ ...DEFAULT_META, supersedes: [], ...m });
const rewrite = (raw: string, path: string, change: Partial<MemoryMeta> = {}) => {
  const parsed = parseDiaryText(raw, info(path));
  const next = { ...parsed.meta, supersedes: [...parsed.meta.supersedes], ...change };
  return path.endsWith('.md') ? withMarkdownMeta(raw, next)! : withTxtMeta(raw, next);
};

test('a file without kind or goal is byte-identical after parse + rewrite of its metadata', () => {
  const files: [string, string][] = [
    ['a.txt', '[09:00] 部署流程\n\n> 先构建再上传。\n\n正文一段。\n\nTag: 部署, 构建\n'],
    ['b.txt', '[09:00] 部署流程\r\n\r\n> 先构建再上传。\r\n\r\n正文。\r\n\r\nTag: 部署\r\nMeta: ws=ws-aa; session=s1; pinned'],
    ['c.md', '---\ntitle: "部署流程"\ntags: ["部署"]\nworkspace: "ws-aa"\n---\n\n# 部署流程\n\n正文。\n'],
  ];
  for (const [path, raw] of files) {
    const parsed = parseDiaryText(raw, info(path));
    assert.equal(parsed.meta.kind, '');
    assert.equal(parsed.meta.goal, '');
    assert.equal(rewrite(raw, path), raw, path);
  }
});

test('kind and goal survive format → parse, a goal with ; and quotes included', () => {
  const cases: MemoryMeta[] = [
    meta({ kind: 'task', goal: '让检索在 50 ms 内返回' }),
    meta({ workspace: 'ws-1', pinned: true, kind: 'pref' }),
    meta({ goal: '先做 A; 再做 "B"，最后 C；收尾' }),
    meta({ kind: 'idea', goal: 'goal=x; kind=fact' }),
  ];
  for (const m of cases) assert.deepEqual(parseMetaFields(formatMetaFields(m)).meta, m, formatMetaFields(m));
  assert.equal(formatMetaFields(meta({ kind: 'task', goal: '上线前把回滚演练一遍' })), 'kind=task; goal=上线前把回滚演练一遍', 'plain goals are written plain');
});

test('a file with kind and goal keeps them through a metadata change and a summary rewrite', () => {
  const raw = '[09:00] 回滚演练\n\n> 每次发布前演练回滚。\n\n步骤见 runbook。\n\nTag: 发布\nMeta: ws=ws-aa; kind=task; goal="发布失败时 5 分钟内回到上一版; 不丢数据"\n';
  const d = parseDiaryText(raw, info('x.txt'));
  assert.equal(d.meta.kind, 'task');
  assert.equal(d.meta.goal, '发布失败时 5 分钟内回到上一版; 不丢数据');
  assert.deepEqual(d.warnings, []);
  assert.equal(d.body, '步骤见 runbook。', 'the Meta line is not body');
  const pinned = rewrite(raw, 'x.txt', { pinned: true });
  assert.match(pinned, /\nMeta: ws=ws-aa; pinned; kind=task; goal="发布失败时 5 分钟内回到上一版; 不丢数据"\n$/);
  assert.equal(rewrite(pinned, 'x.txt', { pinned: false }), raw, 'unpinning gives back the original bytes');
  const summarised = withSummary(raw, 'x.txt', '新的摘要。', 'auto');
  const again = parseDiaryText(summarised, info('x.txt'));
  assert.equal(again.meta.kind, 'task');
  assert.equal(again.meta.goal, '发布失败时 5 分钟内回到上一版; 不丢数据');
});

test('.md front matter: kind and goal keys are read, kept and written in place', () => {
  const raw = '---\ntitle: "回滚演练"\nkind: task\ngoal: "五分钟内回到上一版: 不丢数据"\ntags: ["发布"]\n---\n\n# 回滚演练\n\n正文。\n';
  const d = parseDiaryText(raw, info('y.md'));
  assert.equal(d.meta.kind, 'task');
  assert.equal(d.meta.goal, '五分钟内回到上一版: 不丢数据');
  const pinned = rewrite(raw, 'y.md', { pinned: true });
  assert.ok(pinned.includes('kind: "task"\ngoal: "五分钟内回到上一版: 不丢数据"\n'), pinned);
  assert.equal(parseDiaryText(pinned, info('y.md')).meta.goal, '五分钟内回到上一版: 不丢数据');
  const added = withMarkdownMeta('---\ntitle: "t"\n---\n\n# t\n', meta({ kind: 'lesson', goal: 'g' }))!;
  assert.equal(added, '---\ntitle: "t"\nkind: "lesson"\ngoal: "g"\n---\n\n# t\n');
});

test('an unknown kind is kept as written and reported, never dropped; aliases fold for the index', () => {
  const raw = '[09:00] 想法\n\n> 摘要。\n\n正文。\n\nTag: a\nMeta: kind=idea\n';
  const d = parseDiaryText(raw, info('z.txt'));
  assert.equal(d.meta.kind, 'idea');
  assert.equal(d.warnings.length, 1);
  assert.match(d.warnings[0]!, /^z\.txt:8: Meta line: unknown kind "idea" \(kept; known: fact, pref, lesson, task, proj\)/);
  assert.equal(rewrite(raw, 'z.txt', { locked: true }), raw.replace('Meta: kind=idea', 'Meta: locked; kind=idea'));
  const alias = parseDiaryText(raw.replace('kind=idea', 'kind=preference'), info('z.txt'));
  assert.equal(alias.meta.kind, 'preference', 'the file keeps its own word');
  assert.deepEqual(alias.warnings, []);
  assert.deepEqual(['preference', 'todo', 'decision', 'project', '任务', 'FACT', 'idea', ''].map(canonicalKind), ['pref', 'task', 'fact', 'proj', 'task', 'fact', 'idea', '']);
});

test('a writer\'s kind: an alias is written as the short name, an unknown word as given with a warning; goal as one line', () => {
  assert.deepEqual(writtenKindGoal({ kind: 'preference', goal: '  一行\n两行\t ' }), { meta: { kind: 'pref', goal: '一行 两行' }, warnings: [] });
  const unknown = writtenKindGoal({ kind: 'idea' });
  assert.deepEqual(unknown.meta, { kind: 'idea' });
  assert.match(unknown.warnings[0]!, /^未知的 kind「idea」.*unknown kind "idea" kept as written/);
  assert.deepEqual(writtenKindGoal({}), { meta: {}, warnings: [] });
});
