// The structured editor's fields over a .md memory: read with the engine's own parser (front matter
// title / tags / kind / goal keys, a `# heading` title, an old-style Tag line; a .md without front
// matter read like a .txt), written back by splicing only the changed field's lines — the key in the
// style it is written, the heading, the body — and byte for byte when nothing changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDiaryText } from '@engram/engine';
import { memoryFieldsOf, withMemoryFields } from '../src/server/md-fields.ts';
import type { DiaryFields, FieldProblem } from '../src/server/diary-fields.ts';

const PATH = '2026-10-24-memory.md';
const fieldsOf = (raw: string) => memoryFieldsOf(PATH, raw);
const save = (raw: string, next: DiaryFields) => withMemoryFields(PATH, raw, next);
const textOf = (r: ReturnType<typeof save>): string => {
  if ('problem' in r) throw new Error(`unexpected problem: ${JSON.stringify(r.problem)}`);
  return r.text;
};
const problemOf = (r: ReturnType<typeof save>): FieldProblem | null => ('problem' in r ? r.problem : null);
const engine = (raw: string) => parseDiaryText(raw, { root: 'diary', path: PATH, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });

const MD = {
  // Windows: BOM, CRLF; a quoted title with a colon, in the key and repeated as the heading; inline quoted tags.
  both: '\ufeff---\r\nid: "a1b2c3d4"\r\ntitle: "端口规划: 东京"\r\ndescription: "东京节点用 8443。"\r\ntags: ["网络", "东京"]\r\ncreated_at: "2026-10-24T09:30"\r\n---\r\n\r\n# 端口规划: 东京\r\n\r\n旧端口被占用。\r\n\r\n## 结论\r\n改用 8443。\r\n',
  // A plain title, a comment, a block list, our metadata keys, a summary key; the body right after ---.
  block: '---\ntitle: 周末聚餐\n# 一条注释\ntags:\n  - 聚餐\n  - 川菜馆\nworkspace: ws-a\nsummary: 上次的川菜馆\n---\n上次去的川菜馆在地铁站旁边。\n',
  // A single-quoted title with a colon and an escaped quote; tags as a string with 、; kind and goal keys.
  string: "---\ntitle: 'It''s: 晨跑'\ntags: 跑步、健康\nkind: task\ngoal: \"每周三次; 不间断\"\n---\n\n五公里。\n",
  // No title key: the title is the heading (closing hashes kept); the tags are an old-style Tag line.
  heading: '---\ndate: 2024-01-05\n---\n\n# 旧笔记 ##\n\n正文一。\n\nTag: old, notes\n',
  // Closed with `...`; a plain title folded over two lines; an inline list without spaces; no final newline.
  folded: '---\ntitle: 一个很长的\n  标题\ntags: [a,b]\n...\n正文',
  // An empty title key: the heading is the title.
  emptyKey: '---\ntitle: ""\ntags:\n---\n# 标题在这里\n正文\n',
  // A heading that differs from the key's title is body.
  otherHeading: '---\ntitle: 甲\n---\n# 乙\n正文\n',
  // No front matter: read like a .txt, the heading marker not part of the title.
  plain: '# 随手记\n\n只有正文。\n\nTag: a, b\n',
  // No front matter, BOM, CRLF, an anchored heading with closing hashes.
  anchored: '\ufeff[10:00] # 会议 #\r\n\r\n讨论了端口。\r\n',
} as const;

test('unchanged fields give back every .md layout byte for byte', () => {
  for (const [name, raw] of Object.entries(MD)) assert.equal(textOf(save(raw, fieldsOf(raw))), raw, name);
});

test('the fields are what the engine reads from each layout', () => {
  assert.deepEqual(fieldsOf(MD.both), { title: '端口规划: 东京', tags: ['网络', '东京'], body: '旧端口被占用。\n\n## 结论\n改用 8443。' });
  assert.deepEqual(fieldsOf(MD.block), { title: '周末聚餐', tags: ['聚餐', '川菜馆'], body: '上次去的川菜馆在地铁站旁边。' });
  assert.deepEqual(fieldsOf(MD.string), { title: "It's: 晨跑", tags: ['跑步', '健康'], body: '五公里。', kind: 'task', goal: '每周三次; 不间断' });
  assert.deepEqual(fieldsOf(MD.heading), { title: '旧笔记', tags: ['old', 'notes'], body: '正文一。' });
  assert.deepEqual(fieldsOf(MD.folded), { title: '一个很长的 标题', tags: ['a', 'b'], body: '正文' });
  assert.deepEqual(fieldsOf(MD.emptyKey), { title: '标题在这里', tags: [], body: '正文' });
  assert.deepEqual(fieldsOf(MD.otherHeading), { title: '甲', tags: [], body: '# 乙\n正文' });
  assert.deepEqual(fieldsOf(MD.plain), { title: '随手记', tags: ['a', 'b'], body: '只有正文。' });
  assert.deepEqual(fieldsOf(MD.anchored), { title: '会议', tags: [], body: '讨论了端口。' });
  for (const [name, raw] of Object.entries(MD)) {
    const e = engine(raw);
    const f = fieldsOf(raw);
    assert.deepEqual([f.title, f.tags, f.body.trimEnd()], [e.title, e.tags, e.body], name);
  }
});

test('a title change rewrites the key in its quoting and the heading that repeats it; nothing else', () => {
  assert.equal(textOf(save(MD.both, { ...fieldsOf(MD.both), title: '端口规划: 大阪' })), MD.both.replaceAll('端口规划: 东京', '端口规划: 大阪'));
  assert.equal(textOf(save(MD.string, { ...fieldsOf(MD.string), title: "It's: 夜跑" })), MD.string.replace("'It''s: 晨跑'", "'It''s: 夜跑'"));
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), title: '周六聚餐' })), MD.block.replace('title: 周末聚餐', 'title: 周六聚餐'));
  // A plain title that a YAML reader would take for a mapping is written quoted.
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), title: '聚餐: 周六' })), MD.block.replace('title: 周末聚餐', 'title: "聚餐: 周六"'));
  assert.equal(textOf(save(MD.heading, { ...fieldsOf(MD.heading), title: '新笔记' })), MD.heading.replace('# 旧笔记 ##', '# 新笔记 ##'));
  assert.equal(textOf(save(MD.folded, { ...fieldsOf(MD.folded), title: '短标题' })), '---\ntitle: 短标题\ntags: [a,b]\n...\n正文');
  assert.equal(textOf(save(MD.emptyKey, { ...fieldsOf(MD.emptyKey), title: '新标题' })), MD.emptyKey.replace('# 标题在这里', '# 新标题'));
  assert.equal(textOf(save(MD.otherHeading, { ...fieldsOf(MD.otherHeading), title: '丙' })), MD.otherHeading.replace('title: 甲', 'title: 丙'));
  assert.equal(textOf(save(MD.plain, { ...fieldsOf(MD.plain), title: '不随手' })), MD.plain.replace('# 随手记', '# 不随手'));
  assert.equal(textOf(save(MD.anchored, { ...fieldsOf(MD.anchored), title: '周会' })), MD.anchored.replace('会议', '周会'));
});

test('a tag change rewrites the list in the style it is written: inline, block, string, Tag line', () => {
  assert.equal(textOf(save(MD.both, { ...fieldsOf(MD.both), tags: ['网络', '东京', '端口'] })), MD.both.replace('tags: ["网络", "东京"]', 'tags: ["网络", "东京", "端口"]'));
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), tags: ['聚餐', '川菜馆', '订位'] })), MD.block.replace('  - 川菜馆\n', '  - 川菜馆\n  - 订位\n'));
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), tags: [] })), MD.block.replace('  - 聚餐\n  - 川菜馆\n', ''));
  assert.equal(textOf(save(MD.string, { ...fieldsOf(MD.string), tags: ['跑步', '拉伸'] })), MD.string.replace('tags: 跑步、健康', 'tags: 跑步、拉伸'));
  assert.equal(textOf(save(MD.heading, { ...fieldsOf(MD.heading), tags: ['old'] })), MD.heading.replace('Tag: old, notes', 'Tag: old'));
  assert.equal(textOf(save(MD.heading, { ...fieldsOf(MD.heading), tags: [] })), '---\ndate: 2024-01-05\n---\n\n# 旧笔记 ##\n\n正文一。\n');
  assert.equal(textOf(save(MD.folded, { ...fieldsOf(MD.folded), tags: ['a', 'c'] })), MD.folded.replace('[a,b]', '[a,c]'));
  // An empty key gets the list; a front matter without one gets a key after the title.
  assert.equal(textOf(save(MD.emptyKey, { ...fieldsOf(MD.emptyKey), tags: ['x'] })), MD.emptyKey.replace('tags:\n', 'tags: ["x"]\n'));
  assert.equal(textOf(save(MD.otherHeading, { ...fieldsOf(MD.otherHeading), tags: ['x', 'y'] })), MD.otherHeading.replace('title: 甲\n', 'title: 甲\ntags: ["x", "y"]\n'));
  assert.equal(textOf(save(MD.plain, { ...fieldsOf(MD.plain), tags: ['a'] })), MD.plain.replace('Tag: a, b', 'Tag: a'));
});

test('a body change replaces only the body lines, with the file\'s line endings', () => {
  assert.equal(
    textOf(save(MD.both, { ...fieldsOf(MD.both), body: '旧端口被占用。\n\n## 结论\n改用 9443。' })),
    MD.both.replace('改用 8443。', '改用 9443。'),
  );
  assert.equal(textOf(save(MD.heading, { ...fieldsOf(MD.heading), body: '正文一。\n正文二。' })), MD.heading.replace('正文一。\n', '正文一。\n正文二。\n'));
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), body: '' })), MD.block.replace('上次去的川菜馆在地铁站旁边。\n', ''));
  const filled = textOf(save(MD.emptyKey, { ...fieldsOf(MD.emptyKey), body: '' }));
  assert.equal(textOf(save(filled, { ...fieldsOf(filled), body: '又写了一段。' })), '---\ntitle: ""\ntags:\n---\n# 标题在这里\n\n又写了一段。\n');
});

test('kind and goal are front-matter keys: changed in their style, removed when cleared, added before the closing line', () => {
  assert.equal(textOf(save(MD.string, { ...fieldsOf(MD.string), kind: 'lesson' })), MD.string.replace('kind: task', 'kind: lesson'));
  assert.equal(textOf(save(MD.string, { ...fieldsOf(MD.string), goal: '' })), MD.string.replace('goal: "每周三次; 不间断"\n', ''));
  assert.equal(textOf(save(MD.block, { ...fieldsOf(MD.block), kind: 'task', goal: '周六订位' })), MD.block.replace('summary: 上次的川菜馆\n', 'summary: 上次的川菜馆\nkind: "task"\ngoal: "周六订位"\n'));
  assert.deepEqual(problemOf(save(MD.block, { ...fieldsOf(MD.block), kind: 'two words' })), { field: 'kind', code: 'kind-invalid' });
  const e = engine(textOf(save(MD.block, { ...fieldsOf(MD.block), kind: 'task', goal: '周六订位' })));
  assert.deepEqual([e.meta.kind, e.meta.goal, e.meta.workspace], ['task', '周六订位', 'ws-a']);
});

test('what the engine would read back differently is refused, on the field it concerns', () => {
  assert.deepEqual(problemOf(save(MD.both, { ...fieldsOf(MD.both), title: ' ' })), { field: 'title', code: 'title-empty' });
  // Without front matter, a heading title ending in " #" loses it (closing hashes).
  assert.deepEqual(problemOf(save(MD.plain, { ...fieldsOf(MD.plain), title: 'C #' })), { field: 'title', code: 'title-reads-as-other' });
  // With one, the title key holds it and the heading repeats it.
  assert.equal(textOf(save(MD.emptyKey, { ...fieldsOf(MD.emptyKey), title: 'C #' })), '---\ntitle: "C #"\ntags:\n---\n# C #\n正文\n');
  // A title that makes the body's first heading read as the title would lose that heading from the body.
  assert.deepEqual(problemOf(save(MD.otherHeading, { ...fieldsOf(MD.otherHeading), title: '乙' })), { field: 'body', code: 'not-kept' });
  assert.equal(textOf(save(MD.heading, { ...fieldsOf(MD.heading), title: 'C #' })), MD.heading.replace('旧笔记', 'C #'), 'kept by the closing hashes after it');
});

test('a heading-only title the engine would fold (full-width ：，) is kept exactly by a title key beside the heading', () => {
  const raw = '---\ndate: 2024-01-05\n---\n\n# 端口规划:东京\n\n正文。\n';
  const out = textOf(save(raw, { ...fieldsOf(raw), title: '端口规划：大阪，二期' }));
  assert.equal(out, '---\ntitle: "端口规划：大阪，二期"\ndate: 2024-01-05\n---\n\n# 端口规划：大阪，二期\n\n正文。\n');
  assert.equal(engine(out).title, '端口规划：大阪，二期');
  assert.equal(engine(out).body, '正文。');
  // Titles the heading holds as typed stay in the heading alone.
  assert.equal(textOf(save(raw, { ...fieldsOf(raw), title: '端口规划' })), raw.replace('# 端口规划:东京', '# 端口规划'));
  // With the tags in the front matter, a last body line written like a Tag line would add tags.
  // Its own message: the .txt one ("没有标签时…") is wrong where the tags live in the front matter.
  assert.deepEqual(problemOf(save(MD.block, { ...fieldsOf(MD.block), body: '正文。\n\nTag: 其实是正文' })), { field: 'body', code: 'body-reads-as-tags-md' });
  // A body opening with the title as a heading would be read as the title, not as body.
  assert.deepEqual(problemOf(save(MD.block, { ...fieldsOf(MD.block), body: '# 周末聚餐\n正文。' })), { field: 'body', code: 'not-kept' });
});

// ---- properties ---------------------------------------------------------------------------------

const KEYS = {
  title: ['title: 标题', 'title: "标题: 副"', "title: '它''s 标题'", 'title: ""', 'title: 标题 # 注释', 'title: >\n  折叠的\n  标题', 'title: 续行的\n  标题', 'title:', 'title: "转义\\u0041"'],
  tags: ['tags: [a, b]', 'tags: ["甲", "乙"]', "tags: ['x']", 'tags:\n  - a\n  - b', 'tags:\n- 甲', 'tags: a, b', 'tag: 甲、乙', 'tags: []', 'tags:', '标签: 甲；乙', 'tags: [a, b] # 注释', 'tags: "a, b"'],
  other: ['id: "abc12345"', 'title: 第二个标题', 'description: "摘要"', 'workspace: ws-a', '# 注释', 'kind: task', 'goal: "做完; 再说"', 'created_at: 2026-01-02', 'pinned: true'],
};
const withFrontMatter = fc
  .record({
    bom: fc.boolean(),
    // Line endings as found: one kind, or mixed line by line.
    eols: fc.array(fc.constantFrom('\n', '\r\n'), { minLength: 1, maxLength: 3 }),
    keys: fc.tuple(fc.option(fc.constantFrom(...KEYS.title)), fc.option(fc.constantFrom(...KEYS.tags)), fc.subarray(KEYS.other)).chain(([t, g, o]) =>
      fc.shuffledSubarray([...(t ? [t] : []), ...(g ? [g] : []), ...o], { minLength: [t, g, ...o].filter(Boolean).length }),
    ),
    close: fc.constantFrom('---', '...'),
    heading: fc.constantFrom(null, '# 标题', '# 标题 ##', '# 别的', ''),
    body: fc.array(fc.constantFrom('正文一行', '## 小节', '> 引用', '', '- 列表', 'Tag: c, d', 'Meta: pinned', '---', '# 标题', 'title: 不是键'), { maxLength: 5 }),
    tagLine: fc.constantFrom(null, 'Tag: c, d', '标签：丙'),
    final: fc.boolean(),
  })
  .map((f) => {
    const lines = ['---', ...f.keys, f.close, ...(f.heading === null ? [] : [f.heading]), ...f.body, ...(f.tagLine ? ['', f.tagLine] : [])].join('\n').split('\n');
    const eol = (i: number) => f.eols[i % f.eols.length]!;
    return (f.bom ? '\ufeff' : '') + lines.map((l, i) => l + (i < lines.length - 1 || f.final ? eol(i) : '')).join('');
  });
const withoutFrontMatter = fc
  .array(fc.tuple(fc.constantFrom('# 标题', '[09:30] # 标题 #', '## 小节', '> 摘要', '正文一行', 'Tag: a, b', 'Meta: pinned=true', '', '---', '\ufeff'), fc.constantFrom('\n', '\r\n', '\r', '')), { maxLength: 10 })
  .map((xs) => xs.map(([p, e]) => p + e).join(''));
const anyMd = fc.oneof(withFrontMatter, withoutFrontMatter);

test('property: any .md text round-trips byte for byte through its own fields', () => {
  fc.assert(
    fc.property(anyMd, (raw) => {
      const r = save(raw, fieldsOf(raw));
      return 'text' in r && r.text === raw;
    }),
    { numRuns: 3000 },
  );
});

/** Lines (with their terminators) removed from `a` and added in `b`, by a longest common subsequence. */
function lineDiff(a: string, b: string): { removed: string[]; added: string[] } {
  const split = (s: string) => s.replace(/^\ufeff/, '').match(/[^\r\n]*(?:\r\n|\n|\r|$)/g)!.filter((x, i, all) => x !== '' || i < all.length - 1);
  const x = split(a);
  const y = split(b);
  const n = x.length;
  const m = y.length;
  const t: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i]![j] = x[i] === y[j] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) (i++, j++);
    else if (j < m && (i >= n || t[i]![j + 1]! >= t[i + 1]![j]!)) added.push(y[j++]!);
    else removed.push(x[i++]!);
  }
  // A last line without a terminator gains one when lines are added after it: the same line.
  const open = x.length > 0 && !/[\r\n]$/.test(x[n - 1]!) ? x[n - 1]! : null;
  const gained = open !== null && removed.includes(open) && added.some((l) => l.replace(/[\r\n]+$/, '') === open);
  const strip = (xs: string[]) => xs.filter((l) => !(gained && l.replace(/[\r\n]+$/, '') === open)).map((l) => l.replace(/[\r\n]+$/, ''));
  return { removed: strip(removed), added: strip(added) };
}

const blank = (s: string) => s.trim() === '';
const TAGGISH = /^\s*(?:tags?|标签)\s*[:：]|^\s*-(?:\s|$)/i;

test('property: one changed field is read back by the engine exactly as typed, the others stay, and only its lines change', () => {
  const words = fc.constantFrom('新标题', '端口', '东京', '川菜馆');
  const change = fc.oneof(
    fc.record({ field: fc.constant('title' as const), title: fc.constantFrom('新标题', '东京 大阪', '端口: 8443', "It's") }),
    fc.record({ field: fc.constant('tags' as const), tags: fc.array(words, { maxLength: 3 }) }),
    fc.record({ field: fc.constant('body' as const), body: fc.constantFrom('新的正文。', '## 一节\n内容', '', '第一行\n\n第二行') }),
    fc.record({ field: fc.constant('meta' as const), kind: fc.constantFrom('', 'lesson', '偏好'), goal: fc.constantFrom('', '月底前完成', 'a; "b"') }),
  );
  let written = 0;
  fc.assert(
    fc.property(withFrontMatter, change, (raw, c) => {
      const before = fieldsOf(raw);
      const next = { ...before, ...(c.field === 'title' ? { title: c.title } : c.field === 'tags' ? { tags: c.tags } : c.field === 'body' ? { body: c.body } : { kind: c.kind, goal: c.goal }) };
      const r = save(raw, next);
      if ('problem' in r) return true; // refused, nothing written: the person is told on the field
      written++;
      const a = engine(raw);
      const b = engine(r.text);
      // The engine reads exactly the new fields, and nothing else of the memory moved.
      assert.equal(b.title, c.field === 'title' ? c.title : a.title);
      assert.deepEqual(b.tags, c.field === 'tags' ? [...new Set(c.tags)] : a.tags);
      assert.equal(b.body, c.field === 'body' ? c.body : a.body);
      assert.deepEqual(b.meta, c.field === 'meta' ? { ...a.meta, kind: c.kind, goal: c.goal } : a.meta);
      if (c.field !== 'body') assert.equal(b.summary, a.summary);
      assert.equal(r.text.startsWith('\ufeff'), raw.startsWith('\ufeff'), 'the BOM stays');
      // Only the field's lines are removed or added.
      const d = lineDiff(raw, r.text);
      if (c.field === 'title') {
        for (const l of d.removed) assert.ok(blank(l) || /^title\s*:|^\s*#\s|^\s/.test(l), `removed ${JSON.stringify(l)}`);
        for (const l of d.added) assert.ok(l.includes(c.title.replace("'", "''")) || l.includes(JSON.stringify(c.title)) || l.includes(c.title), `added ${JSON.stringify(l)}`);
      } else if (c.field === 'tags') {
        for (const l of [...d.removed, ...d.added]) assert.ok(blank(l) || TAGGISH.test(l), `tags changed ${JSON.stringify(l)}`);
      } else if (c.field === 'meta') {
        for (const l of [...d.removed, ...d.added]) assert.ok(/^(kind|goal)\s*:/.test(l), `meta changed ${JSON.stringify(l)}`);
      } else {
        const old = new Set(before.body.split('\n'));
        const now = new Set(c.body.split('\n'));
        for (const l of d.removed) assert.ok(blank(l) || old.has(l), `removed ${JSON.stringify(l)}`);
        for (const l of d.added) assert.ok(blank(l) || now.has(l), `added ${JSON.stringify(l)}`);
      }
      return true;
    }),
    { numRuns: 1500 },
  );
  assert.ok(written > 1000, `most changes are written (${written} of 1500)`);
});

test('property: a .md without front matter takes field changes like a .txt, read back as typed', () => {
  fc.assert(
    fc.property(withoutFrontMatter, fc.constantFrom('新标题', '端口'), fc.array(fc.constantFrom('端口', '东京'), { maxLength: 2 }), fc.constantFrom('新的正文。', ''), (raw, title, tags, body) => {
      const r = save(raw, { title, tags, body });
      if ('problem' in r) return true;
      const after = fieldsOf(r.text);
      const e = engine(r.text);
      return after.title === title && e.title === title && after.body === body && e.tags.join() === [...new Set(tags)].join();
    }),
    { numRuns: 1000 },
  );
});
