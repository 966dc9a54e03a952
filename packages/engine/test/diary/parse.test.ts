import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { localDateString } from '../../src/diary/dates.ts';
import { parseFrontMatter } from '../../src/diary/frontmatter.ts';
import { parseDiaryParts, parseDiaryText, parseFileName, splitTags, withoutClosingHashes, type DiaryParseInfo } from '../../src/diary/parse.ts';
import { diaryFileName } from '../../src/diary/format.ts';

const info = (path: string, over: Partial<DiaryParseInfo> = {}): DiaryParseInfo => ({
  root: 'diary',
  path,
  mtimeMs: Date.UTC(2026, 0, 15, 12, 0),
  size: 0,
  archiveFolder: '已整理',
  requireTag: true,
  timePrefix: true,
  ...over,
});

const SAMPLE = [
  '[21:14] 东京节点 443 端口处置与共管服务调整',
  '',
  '> 面板抢占了 443，代理改到 8443 后恢复。',
  '',
  '起因：用户反馈连不上。',
  '',
  '结果：改端口。',
  '',
  'Tag: 东京节点, 443 端口, sing-box, 时区调整',
].join('\n');

test('a well-formed .txt diary yields every field and no warnings', () => {
  const d = parseDiaryText(SAMPLE, info('运维/2026-11-01-东京节点-1a2b3c4d.txt'));
  assert.equal(d.title, '东京节点 443 端口处置与共管服务调整');
  assert.equal(d.time, '21:14');
  assert.equal(d.date, '2026-11-01');
  assert.equal(d.summary, '面板抢占了 443，代理改到 8443 后恢复。');
  assert.deepEqual(d.tags, ['东京节点', '443 端口', 'sing-box', '时区调整']);
  assert.equal(d.body, '起因：用户反馈连不上。\n\n结果：改端口。');
  assert.equal(d.category, '运维');
  assert.equal(d.archived, false);
  assert.equal(d.embeddedId, '1a2b3c4d');
  assert.equal(d.raw, SAMPLE);
  assert.deepEqual(d.warnings, []);
});

test('the title is never the summary line, and the body never holds the title, summary or Tag line', () => {
  const d = parseDiaryText(SAMPLE, info('a.txt'));
  assert.ok(!d.title.includes('>'));
  assert.ok(!d.body.includes(d.title));
  assert.ok(!d.body.includes('面板抢占'));
  assert.ok(!d.body.includes('Tag:'));
});

test('CRLF, BOM and a full-width Tag line with mixed separators', () => {
  const raw = '\uFEFF[09:05] 标题\r\n\r\n> 摘要一\r\n> 摘要二\r\n\r\n正文\r\n\r\n标签：甲、乙，丙; 丁；甲\r\n';
  const d = parseDiaryText(raw, info('x.txt'));
  assert.equal(d.title, '标题');
  assert.equal(d.time, '09:05');
  assert.equal(d.summary, '摘要一\n摘要二');
  assert.deepEqual(d.tags, ['甲', '乙', '丙', '丁']);
  assert.equal(d.body, '正文');
  assert.deepEqual(d.warnings, []);
});

test('Tags: and tag: keys are accepted as the Tag line', () => {
  for (const key of ['Tags:', 'tag:', 'TAG :', 'Tag：']) {
    const d = parseDiaryText(`[10:00] t\n\n> s\n\nbody\n\n${key} a, b`, info('x.txt'));
    assert.deepEqual(d.tags, ['a', 'b'], key);
  }
});

test('missing anchor warns with file:line only when timePrefix is on', () => {
  const raw = '\n\n标题没有时间\n\n> s\n\nbody\n\nTag: a';
  const on = parseDiaryText(raw, info('dir/x.txt'));
  assert.equal(on.title, '标题没有时间');
  assert.equal(on.time, null);
  assert.ok(on.warnings.some((w) => w === 'dir/x.txt:3: missing [HH:MM] anchor'), on.warnings.join('\n'));
  const off = parseDiaryText(raw, info('dir/x.txt', { timePrefix: false }));
  assert.equal(off.title, '标题没有时间');
  assert.ok(!off.warnings.some((w) => w.includes('anchor')));
});

test('an out-of-range anchor keeps the title but has no time', () => {
  const d = parseDiaryText('[25:61] 标题\n\n> s\n\nTag: a', info('x.txt'));
  assert.equal(d.title, '标题');
  assert.equal(d.time, null);
  assert.ok(d.warnings.some((w) => w.includes('invalid [HH:MM]')));
});

test('full-width brackets and H:MM anchors are zero-padded', () => {
  assert.equal(parseDiaryText('【9：05】 t', info('x.txt', { requireTag: false })).time, '09:05');
  assert.equal(parseDiaryText('[7:30] t', info('x.txt', { requireTag: false })).time, '07:30');
});

test('missing summary falls back to the first 160 characters of the body, with a warning', () => {
  const body = '长'.repeat(300);
  const d = parseDiaryText(`[10:00] t\n\n${body}\n\nTag: a`, info('x.txt'));
  assert.equal(Array.from(d.summary.replace(/…$/, '')).length, 160);
  assert.ok(d.summary.startsWith('长长'));
  assert.ok(d.warnings.some((w) => w.startsWith('x.txt:3: missing "> summary"')), d.warnings.join('\n'));
});

test('missing Tag line warns only when requireTag is on', () => {
  const raw = '[10:00] t\n\n> s\n\nbody';
  assert.ok(parseDiaryText(raw, info('x.txt')).warnings.some((w) => w.includes('missing "Tag')));
  assert.deepEqual(parseDiaryText(raw, info('x.txt', { requireTag: false })).warnings, []);
  assert.deepEqual(parseDiaryText(raw, info('x.txt')).tags, []);
});

test('a file that starts with the summary has no title line: the title comes from the file name', () => {
  const d = parseDiaryText('> 只有摘要\n\n正文', info('2026-03-04-服务-重启-deadbeef.txt', { requireTag: false }));
  assert.equal(d.title, '服务 重启');
  assert.equal(d.summary, '只有摘要');
  assert.equal(d.body, '正文');
  assert.ok(d.warnings.some((w) => w.includes('missing title line')));
});

test('a summary block is only recognised at the top, not further down the body', () => {
  const d = parseDiaryText('[10:00] t\n\n正文开始\n\n> 引用\n\nTag: a', info('x.txt'));
  assert.ok(d.body.includes('> 引用'));
  assert.ok(d.warnings.some((w) => w.includes('missing "> summary"')));
});

test('date comes from the file name in all accepted shapes, else the local date of mtime', () => {
  const mtime = Date.UTC(2025, 5, 30, 23, 30);
  const cases: [string, string][] = [
    ['2026-11-01-标题.txt', '2026-11-01'],
    ['2026-11-01.txt', '2026-11-01'],
    ['20261101-标题.txt', '2026-11-01'],
    ['20261101.txt', '2026-11-01'],
    ['2026-02-30-非法日期.txt', localDateString(mtime)],
    ['无日期.txt', localDateString(mtime)],
  ];
  for (const [name, date] of cases) assert.equal(parseDiaryText('[10:00] t', info(name, { mtimeMs: mtime })).date, date, name);
});

test('archive folder: archived flag and category without the archive prefix', () => {
  const a = parseDiaryText('[10:00] t', info('已整理/工作/项目/2026-01-01-t.txt'));
  assert.equal(a.archived, true);
  assert.equal(a.category, '工作/项目');
  const root = parseDiaryText('[10:00] t', info('已整理/x.txt'));
  assert.equal(root.archived, true);
  assert.equal(root.category, '');
  const nested = parseDiaryText('[10:00] t', info('工作/已整理/x.txt'));
  assert.equal(nested.archived, false, 'only the first segment marks the archive');
  assert.equal(nested.category, '工作/已整理');
  const win = parseDiaryText('[10:00] t', info('工作\\子类\\x.txt'));
  assert.equal(win.path, '工作/子类/x.txt');
  assert.equal(win.category, '工作/子类');
});

test('legacy paths: documents/active and documents/archived', () => {
  const md = '---\ntitle: 旧\ndescription: d\ntags: [a]\n---\nbody';
  const act = parseDiaryText(md, info('documents/active/x.md', { root: 'legacy' }));
  assert.equal(act.root, 'legacy');
  assert.equal(act.archived, false);
  assert.equal(act.category, '');
  const arc = parseDiaryText(md, info('documents/archived/x.md', { root: 'legacy' }));
  assert.equal(arc.archived, true);
});

test('file names: date, embedded id, title hint', () => {
  assert.deepEqual(parseFileName('2026-11-01-东京节点-1a2b3c4d.txt'), { date: '2026-11-01', id: '1a2b3c4d', titleHint: '东京节点' });
  assert.deepEqual(parseFileName('2026-11-01-1A2B3C4D.txt'), { date: '2026-11-01', id: '1a2b3c4d', titleHint: '' });
  assert.equal(parseFileName('2026-11-01-x-0f3c0a4e-8b7d-4c1e-9a2b-3c4d5e6f7a8b.txt').id, '0f3c0a4e-8b7d-4c1e-9a2b-3c4d5e6f7a8b');
  assert.equal(parseFileName('东京节点-1a2b3c4d.txt').id, null, 'ids are only read after a date');
  assert.equal(parseFileName('2026-11-01-deploy.txt').id, null);
  assert.equal(parseFileName('2026-11-01-x-1a2b3c4.txt').id, null, '7 hex is not an id');
});

test('.md with front matter: fields, H1 stripped, Tag line folded into tags', () => {
  const raw = [
    '---',
    'id: 0F3C0A4E-8B7D-4C1E-9A2B-3C4D5E6F7A8B',
    'title: "旧记忆: 标题"',
    'description: >',
    '  第一行',
    '  第二行',
    'tags:',
    '  - 甲',
    "  - '乙'",
    'created_at: 2024-05-06T07:08:09',
    'source_paths: [a.md, "b, c.md"]',
    '---',
    '',
    '# 旧记忆: 标题',
    '',
    '正文内容',
    '',
    'Tag: 丙, 甲',
  ].join('\n');
  const d = parseDiaryText(raw, info('documents/active/m.md', { root: 'legacy' }));
  assert.equal(d.title, '旧记忆: 标题');
  assert.equal(d.summary, '第一行 第二行');
  assert.deepEqual(d.tags, ['甲', '乙', '丙']);
  assert.equal(d.date, '2024-05-06');
  assert.equal(d.time, '07:08');
  assert.equal(d.body, '正文内容');
  assert.equal(d.embeddedId, '0f3c0a4e-8b7d-4c1e-9a2b-3c4d5e6f7a8b');
  assert.deepEqual(d.warnings, []);
});

test('.md: a comma-string tag list, an H1 standing in for a missing title, a different H1 kept', () => {
  const a = parseDiaryText('---\ntags: a, b，c\ndescription: s\n---\n# 来自标题\n\nbody', info('x.md'));
  assert.equal(a.title, '来自标题');
  assert.deepEqual(a.tags, ['a', 'b', 'c']);
  assert.equal(a.body, 'body');
  const b = parseDiaryText('---\ntitle: T\ndescription: s\ntags: [x]\n---\n# Other\nbody', info('x.md'));
  assert.equal(b.title, 'T');
  assert.equal(b.body, '# Other\nbody');
});

test('.md: zone-carrying created_at is converted to local time; unreadable dates warn', () => {
  const iso = '2024-05-06T07:08:00Z';
  const d = parseDiaryText(`---\ntitle: t\ndescription: s\ntags: [a]\ncreated_at: ${iso}\n---\nb`, info('x.md'));
  assert.equal(d.date, localDateString(Date.parse(iso)));
  const bad = parseDiaryText('---\ntitle: t\ndescription: s\ntags: [a]\ndate: someday\n---\nb', info('x.md'));
  assert.ok(bad.warnings.some((w) => w.includes('unreadable date')));
});

test('.md without front matter is read like a diary with a markdown heading', () => {
  const d = parseDiaryText('# 标题\n\n> 摘要\n\n正文\n\nTag: a', info('x.md'));
  assert.equal(d.title, '标题');
  assert.equal(d.summary, '摘要');
  assert.deepEqual(d.warnings, []);
});

test('front matter: quoting, escapes, comments, block literal, empty list', () => {
  const fm = parseFrontMatter(
    [
      '---',
      '# a comment',
      'a: "x\\ny \\"q\\" \\u4e2d"',
      "b: 'it''s'",
      'c: plain # trailing comment',
      'd: |',
      '  line1',
      '    indented',
      'e:',
      'f: []',
      'g: ~',
      'h: [ "a,b", c ]',
      '---',
      'rest',
    ].join('\n').split('\n'),
  );
  assert.ok(fm);
  assert.equal(fm.data.a, 'x\ny "q" 中');
  assert.equal(fm.data.b, "it's");
  assert.equal(fm.data.c, 'plain');
  assert.equal(fm.data.d, 'line1\n  indented');
  assert.equal(fm.data.e, '');
  assert.deepEqual(fm.data.f, []);
  assert.equal(fm.data.g, '');
  assert.deepEqual(fm.data.h, ['a,b', 'c']);
  assert.equal(fm.bodyStartLine, 13); // the line after the closing ---
  assert.equal(parseFrontMatter(['---', 'a: 1']), null, 'an unclosed block is not front matter');
});

test('splitTags trims, dedupes and drops empties', () => {
  assert.deepEqual(splitTags(' a ,, b、a ; ；c '), ['a', 'b', 'c']);
  assert.deepEqual(splitTags(''), []);
});

test('parseDiaryParts reports what is present without fallbacks', () => {
  const p = parseDiaryParts('[10:00] 标题\n\n正文');
  assert.equal(p.anchored, true);
  assert.equal(p.lineTitle, '标题');
  assert.equal(p.summary, null);
  assert.equal(p.tags, null);
  const q = parseDiaryParts('> 摘要\n\n正文\nTag: a');
  assert.equal(q.lineTitle, null);
  assert.equal(q.summary, '摘要');
  assert.deepEqual(q.tags, ['a']);
});

test('empty and whitespace-only files parse to an empty body with a warning', () => {
  for (const raw of ['', '   \n\n\t', '\uFEFF']) {
    const d = parseDiaryText(raw, info('2026-01-02-空.txt'));
    assert.equal(d.body, '');
    assert.equal(d.title, '空');
    assert.ok(d.warnings.some((w) => w.includes('empty file')));
  }
});

test('fuzz: never throws and always returns a well-typed document', () => {
  const weird = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 400 }),
    fc
      .array(fc.oneof(fc.constantFrom('\r\n', '\n', '\r', '\uFEFF', '\0', '---', '> ', 'Tag:', '[12:34] ', '# ', '标签：', ': ', '"', "'", '[', ']', '- '), fc.string({ maxLength: 20 })), { maxLength: 60 })
      .map((xs) => xs.join('')),
    fc.nat({ max: 200_000 }).map((n) => 'x'.repeat(n)),
  );
  const names = fc.constantFrom('a.txt', 'b.md', '已整理/c.txt', 'documents/archived/d.md', '2026-13-40-e.txt', '20260101-f-1a2b3c4d.md', '', '.txt');
  fc.assert(
    fc.property(weird, names, fc.boolean(), fc.double({ noNaN: false }), (raw, path, flag, mtime) => {
      const d = parseDiaryText(raw, info(path, { requireTag: flag, timePrefix: !flag, mtimeMs: mtime, root: flag ? 'diary' : 'legacy' }));
      assert.equal(typeof d.title, 'string');
      assert.match(d.date, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(d.time === null || /^\d{2}:\d{2}$/.test(d.time));
      assert.ok(Array.isArray(d.tags) && d.tags.every((t) => typeof t === 'string' && t.trim() === t && t !== ''));
      assert.equal(typeof d.body, 'string');
      assert.equal(d.raw, raw);
      assert.ok(d.warnings.every((w) => typeof w === 'string'));
    }),
    { numRuns: 400 },
  );
});

test('withoutClosingHashes strips only a whitespace-separated closing sequence', () => {
  assert.equal(withoutClosingHashes('Title ##'), 'Title');
  assert.equal(withoutClosingHashes('C#'), 'C#');
  assert.equal(withoutClosingHashes('###'), '###');
  assert.equal(withoutClosingHashes('a #  '), 'a');
});

test('pathological inputs (long blank and hash runs) are handled in linear time', () => {
  // Each of these made an earlier regex backtrack quadratically; at this size that would hang the suite.
  const blanks = ' '.repeat(200_000);
  const inputs: [string, string][] = [
    [`# a${blanks}b`, 'x.md'],
    [`---\ntitle: a${blanks}b\ndescription: x${blanks}y\n---\n# a${blanks}b\nbody`, 'x.md'],
    [`# t${blanks}#${'#'.repeat(100_000)}x`, 'x.md'],
    [`[10:00] ${'-'.repeat(200_000)}x\n\nTag:${blanks}a`, 'x.txt'],
  ];
  for (const [raw, path] of inputs) {
    const d = parseDiaryText(raw, info(path));
    assert.equal(typeof d.title, 'string');
  }
  assert.match(diaryFileName('2026-01-01', `a${'-'.repeat(200_000)}b`, 'abcdef12'), /^2026-01-01-a-?[-.\w]*-abcdef12\.txt$/);
});

test('front matter tells the lines each key was read from (the last of a repeated key), for writers that splice one key', () => {
  const lines = ['---', 'title: 旧', 'tags:', '  - a', '  - b', 'summary: 一行', '  接着一行', 'title: "新"', 'note: |', '  x', '---', '正文'];
  const fm = parseFrontMatter(lines)!;
  assert.deepEqual(fm.spans, { title: { line: 7, end: 8 }, tags: { line: 2, end: 5 }, summary: { line: 5, end: 7 }, note: { line: 8, end: 10 } });
  assert.equal(fm.data.title, '新');
});

test('parseDiaryParts reads a .md without front matter as the scanner does: no heading marker or closing hashes in the title', () => {
  const text = '[09:30] # 会议 ##\n\n正文。\n\nTag: a\n';
  assert.equal(parseDiaryParts(text).lineTitle, '# 会议 ##');
  assert.equal(parseDiaryParts(text, { markdown: true }).lineTitle, '会议');
  assert.equal(parseDiaryText(text, info('x.md')).title, '会议');
});
