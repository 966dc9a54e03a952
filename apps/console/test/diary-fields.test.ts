// The structured editor's fields over a diary file: read with the engine's rules, written back by
// splicing only the changed field's lines, byte for byte when nothing changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDiaryParts } from '@engram/engine';
import { diaryFields, withDiaryFields, type DiaryFields } from '../src/server/diary-fields.ts';

const textOf = (r: ReturnType<typeof withDiaryFields>): string => {
  if ('problem' in r) throw new Error(`unexpected problem: ${JSON.stringify(r.problem)}`);
  return r.text;
};

const ODD = [
  // CRLF throughout, with a BOM.
  '\ufeff[09:30] 端口规划\r\n\r\n> 东京节点用 8443。\r\n\r\n## 背景\r\n旧端口被占用。\r\n\r\nTag: 网络, 东京\r\n',
  // Full-width anchor, a `Tags：` key with 、 separators, trailing spaces, no final newline.
  '【21：14】 周末聚餐   \n\n上次去的川菜馆在地铁站旁边。\n\nTags：聚餐、川菜馆  ',
  // 标签 key with ； and a Meta line after it, mixed line endings.
  '[08:00] 晨跑\r\n\r\n五公里。\n\n标签: 跑步；健康\r\nMeta: pinned=true\r\n',
  // No anchor, no summary, no Tag line.
  '一条随手记\n\n只有正文。\n',
  // No title line: starts with the summary.
  '> 只有摘要\n\n正文。\n\nTag: x\n',
  // Lone CRs, blank lines everywhere.
  '\r\r[10:00] 旧 Mac 文件\r\r正文一\r正文二\r\rTag: mac\r\r',
  // A Tag line that is not last (text after it): tags are empty, the line is body.
  '[11:00] 标签写早了\n\nTag: a, b\n后来又补了一句。\n',
  // Empty file and a lone title.
  '',
  '[12:00] 只有标题\n',
];

test('unchanged fields give back the file byte for byte (CRLF, BOM, odd tag lines, Meta, lone CR)', () => {
  for (const raw of ODD) assert.equal(textOf(withDiaryFields(raw, diaryFields(raw))), raw, JSON.stringify(raw));
});

test('the fields are what the engine reads: title after the anchor, the tags of the last line, the body between', () => {
  const f = diaryFields(ODD[0]!);
  assert.deepEqual(f, { title: '端口规划', tags: ['网络', '东京'], body: '> 东京节点用 8443。\n\n## 背景\n旧端口被占用。' });
  assert.deepEqual(diaryFields(ODD[1]!), { title: '周末聚餐', tags: ['聚餐', '川菜馆'], body: '上次去的川菜馆在地铁站旁边。' });
  assert.deepEqual(diaryFields(ODD[2]!).tags, ['跑步', '健康']);
  assert.deepEqual(diaryFields(ODD[6]!), { title: '标签写早了', tags: [], body: 'Tag: a, b\n后来又补了一句。' });
  assert.equal(diaryFields(ODD[4]!).title, '');
});

test('a changed title touches only the title line: the anchor, CRLF and BOM stay', () => {
  const raw = ODD[0]!;
  const out = textOf(withDiaryFields(raw, { ...diaryFields(raw), title: '东京端口规划' }));
  assert.equal(out, raw.replace('端口规划', '东京端口规划'));
  const odd = textOf(withDiaryFields(ODD[1]!, { ...diaryFields(ODD[1]!), title: '周六聚餐' }));
  assert.equal(odd, ODD[1]!.replace('周末聚餐   ', '周六聚餐'), 'the full-width anchor is kept as written');
});

test('changed tags keep the key and the separator as written; the Meta line stays last', () => {
  const a = textOf(withDiaryFields(ODD[1]!, { ...diaryFields(ODD[1]!), tags: ['聚餐', '川菜', '订位'] }));
  assert.ok(a.endsWith('Tags：聚餐、川菜、订位'), a);
  const b = textOf(withDiaryFields(ODD[2]!, { ...diaryFields(ODD[2]!), tags: ['跑步'] }));
  assert.equal(b, '[08:00] 晨跑\r\n\r\n五公里。\n\n标签: 跑步\r\nMeta: pinned=true\r\n');
  const c = textOf(withDiaryFields(ODD[0]!, { ...diaryFields(ODD[0]!), tags: ['网络', '东京', '端口'] }));
  assert.equal(c, ODD[0]!.replace('Tag: 网络, 东京', 'Tag: 网络, 东京, 端口'));
});

test('tags added to a memory without a Tag line, and all tags removed', () => {
  const added = textOf(withDiaryFields(ODD[3]!, { ...diaryFields(ODD[3]!), tags: ['随手'] }));
  assert.equal(added, '一条随手记\n\n只有正文。\n\nTag: 随手\n');
  assert.deepEqual(parseDiaryParts(added).tags, ['随手']);
  const removed = textOf(withDiaryFields(ODD[0]!, { ...diaryFields(ODD[0]!), tags: [] }));
  assert.equal(removed, '\ufeff[09:30] 端口规划\r\n\r\n> 东京节点用 8443。\r\n\r\n## 背景\r\n旧端口被占用。\r\n');
  const toLone = textOf(withDiaryFields(ODD[8]!, { ...diaryFields(ODD[8]!), tags: ['a'] }));
  assert.deepEqual(parseDiaryParts(toLone).tags, ['a']);
});

test('a changed body replaces only the body lines; the new lines take the file\'s line ending', () => {
  const raw = ODD[0]!;
  const out = textOf(withDiaryFields(raw, { ...diaryFields(raw), body: '> 东京节点用 8443。\n\n## 背景\n旧端口被占用。\n\n## 结论\n改用 8443。' }));
  assert.equal(out, '\ufeff[09:30] 端口规划\r\n\r\n> 东京节点用 8443。\r\n\r\n## 背景\r\n旧端口被占用。\r\n\r\n## 结论\r\n改用 8443。\r\n\r\nTag: 网络, 东京\r\n');
  const into = textOf(withDiaryFields(ODD[8]!, { ...diaryFields(ODD[8]!), body: '补上正文。' }));
  assert.equal(into, '[12:00] 只有标题\n\n补上正文。\n');
  const emptied = textOf(withDiaryFields(ODD[3]!, { ...diaryFields(ODD[3]!), body: '' }));
  assert.equal(emptied, '一条随手记\n');
});

test('what the engine would read differently is refused, on the field it concerns', () => {
  const raw = ODD[3]!;
  const f = diaryFields(raw);
  const problem = (next: DiaryFields) => {
    const r = withDiaryFields(raw, next);
    return 'problem' in r ? r.problem : null;
  };
  assert.deepEqual(problem({ ...f, title: '  ' }), { field: 'title', code: 'title-empty' });
  assert.deepEqual(problem({ ...f, title: '> 像摘要' }), { field: 'title', code: 'title-reads-as-other' });
  // Without tags, a last body line written like a Tag line would become the tags.
  assert.deepEqual(problem({ ...f, body: '正文。\n\nTag: 其实是正文' }), { field: 'body', code: 'body-reads-as-tags' });
  // With tags, the same line stays body: the real Tag line is after it.
  assert.ok('text' in withDiaryFields(raw, { ...f, tags: ['x'], body: '正文。\n\nTag: 其实是正文' }));
});

test('property: any text round-trips byte for byte through its own fields', () => {
  const piece = fc.constantFrom('[09:30] 标题', '【21：14】 标题', '> 摘要', '## 小节', '正文一行', 'Tag: a, b', 'Tags：甲、乙', '标签: x；y', 'Meta: pinned=true', '', '  ', '\ufeff', 'tag:', '# 标题 #');
  const eol = fc.constantFrom('\n', '\r\n', '\r', '');
  const text = fc.array(fc.tuple(piece, eol), { maxLength: 12 }).map((xs) => xs.map(([p, e]) => p + e).join(''));
  fc.assert(
    fc.property(text, (raw) => {
      const r = withDiaryFields(raw, diaryFields(raw));
      return 'text' in r && r.text === raw;
    }),
    { numRuns: 2000 },
  );
});

test('property: a changed field is read back as typed, and the other fields stay', () => {
  const piece = fc.constantFrom('[09:30] 标题', '> 摘要', '## 小节', '正文一行', 'Tag: a, b', 'Tags：甲、乙', 'Meta: pinned=true', '');
  const eol = fc.constantFrom('\n', '\r\n');
  const text = fc.array(fc.tuple(piece, eol), { minLength: 1, maxLength: 10 }).map((xs) => xs.map(([p, e]) => p + e).join(''));
  const words = fc.constantFrom('新标题', '端口', '东京', '川菜馆');
  fc.assert(
    fc.property(text, words, fc.array(words, { maxLength: 3 }), fc.constantFrom('新的正文。', '## 一节\n内容', ''), (raw, title, tags, body) => {
      const next = { title, tags, body };
      const r = withDiaryFields(raw, next);
      if ('problem' in r) return true; // refused, nothing written: the person is told on the field
      const after = diaryFields(r.text);
      return after.title === title && after.body === body && after.tags.join() === [...new Set(tags)].join()
    }),
    { numRuns: 1000 },
  );
});

test('kind and goal are fields of the Meta line: read, changed in that line only, left alone when absent from a save', () => {
  const raw = '[08:00] 晨跑\r\n\r\n五公里。\r\n\r\nTag: 跑步\r\nMeta: ws=ws-a; kind=偏好; goal="每周三次; 不间断"\r\n';
  const f = diaryFields(raw);
  assert.equal(f.kind, '偏好', 'an alias is shown as written');
  assert.equal(f.goal, '每周三次; 不间断');
  assert.equal(textOf(withDiaryFields(raw, f)), raw);
  assert.equal(textOf(withDiaryFields(raw, { title: f.title, tags: f.tags, body: f.body })), raw, 'absent = unchanged');
  const task = textOf(withDiaryFields(raw, { ...f, kind: 'task', goal: '五月前跑完半马' }));
  assert.equal(task, '[08:00] 晨跑\r\n\r\n五公里。\r\n\r\nTag: 跑步\r\nMeta: ws=ws-a; kind=task; goal=五月前跑完半马\r\n');
  const cleared = textOf(withDiaryFields(raw, { ...f, kind: '', goal: '' }));
  assert.equal(cleared, '[08:00] 晨跑\r\n\r\n五公里。\r\n\r\nTag: 跑步\r\nMeta: ws=ws-a\r\n');
  const plain = '[08:00] 晨跑\n\n五公里。\n\nTag: 跑步\n';
  assert.deepEqual(Object.keys(diaryFields(plain)).sort(), ['body', 'tags', 'title'], 'no Meta line: no kind or goal field');
  assert.equal(textOf(withDiaryFields(plain, { ...diaryFields(plain), kind: 'lesson' })), `${plain}Meta: kind=lesson\n`);
  assert.deepEqual(withDiaryFields(plain, { ...diaryFields(plain), kind: 'two words' }), { problem: { field: 'kind', code: 'kind-invalid' } });
});
