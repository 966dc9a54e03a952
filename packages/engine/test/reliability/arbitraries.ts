// fast-check generators for diary-shaped text: random fragments that the parsers treat specially
// (anchors, summaries, Tag lines, front matter, block markers, fences), mixed with arbitrary Unicode,
// lone surrogates, NUL, CR and BOM.
import fc from 'fast-check';

const DIARY_FRAGMENTS = [
  '[21:14] ', '［09：30］', '【2026-10-01 08:00】', '[99:99]', '[', ']', '> ', '>', '\n> 摘要', 'Tag: ', 'Tags：', '标签: a、b；c',
  '---\n', 'title: 标题\n', 'tags: [a, b]\n', 'date: 2026-13-45\n', 'id: 1a2b3c4d\n', '# 标题 ##', '\n', '\r\n', '\r', '\n\n',
  '\uFEFF', '\u0000', '\u3000', '\u00A0', '\u2028', '\uD800', '\uDC00', '\t', '  ', ',', '，', '东京节点', 'sing-box', '443 端口',
  '<<<DailyNoteStart>>>', '<<<DailyNoteEnd>>>', '<<< DailyNoteStart >>>', '```', '~~~', 'command: create', 'command: update',
  'command: delete', 'title: ', 'target: ', 'replace: ', 'replacement：', 'folder: ../../etc', 'folder: /abs', 'tags: x, y',
  'date: 2026-02-30', 'time: 25:61', 'category: 运维',
];

export const fragmentText = (max = 40): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...DIARY_FRAGMENTS) }, { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) }, fc.string({ maxLength: 20 })), { maxLength: max })
    .map((parts) => parts.join(''));

/** A relative path that may try to escape: `..`, absolute, drive letters, backslashes, NUL, odd Unicode. */
export const hostilePath = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom('..', '.', '', '/', '\\', '../', '..\\', 'C:', 'C:\\', '//server/share', '\u0000', '%2e%2e', '．．', 'link', 'link/..', '~', '$HOME', '已整理', 'a.txt'),
        fc.string({ maxLength: 8 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(fc.sample(fc.constantFrom('/', '\\', ''), 1)[0] ?? '/'));
