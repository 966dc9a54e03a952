import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { splitSegments, type Segment } from '../../src/segments/split.ts';

const MAX = 600;
const MIN = 80;

function assertPartition(text: string, segments: Segment[], bound = MAX + MIN) {
  if (text === '') return assert.deepEqual(segments, []);
  assert.equal(segments[0]!.start, 0);
  assert.equal(segments[segments.length - 1]!.end, text.length);
  segments.forEach((s, i) => {
    assert.equal(s.index, i);
    assert.ok(s.end > s.start, 'no empty segment');
    assert.equal(s.text, text.slice(s.start, s.end));
    if (i > 0) assert.equal(s.start, segments[i - 1]!.end, 'in order, no gap, no overlap');
    assert.ok(s.end - s.start <= bound, `segment ${i} is ${s.end - s.start} chars (> ${bound})`);
    const first = s.text.charCodeAt(0);
    assert.ok(!(first >= 0xdc00 && first <= 0xdfff), 'never starts inside a surrogate pair');
  });
  assert.equal(segments.map((s) => s.text).join(''), text);
}

// Building blocks of memory-like text: Chinese and English sentences, paths, emoji, blank lines,
// headings, code fences (with heading-like lines inside).
const sentence = fc.oneof(
  fc.constantFrom('东京节点的 443 端口被占用,改用 8443。', '部署脚本在 /srv/app/deploy 下。', 'zstd 解压失败,原因是多帧文件。', 'We rolled back at 21:14. ', '记录一下 😀 表情也要能切。', '这一句没有标点但是很长很长很长很长'),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.stringMatching(/^[\u4e00-\u4e2f]{1,60}$/),
);
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 30, size: 'large' }).map((s) => s.join(''));
const block = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 2, arbitrary: fc.constantFrom('## 小节', '# 标题', '## 故障排查', '### 三级标题', '##没有空格') },
  { weight: 1, arbitrary: paragraph.map((p) => `\`\`\`\n## 代码里的井号\n${p}\n\`\`\``) },
  { weight: 1, arbitrary: fc.constant('') },
);
const memory = fc.array(block, { maxLength: 40, size: 'large' }).chain((blocks) => fc.constantFrom('\n', '\n\n', '\r\n').map((sep) => blocks.join(sep)));

test('property: segments cover the text in order, without overlap, within the size bound', () => {
  fc.assert(
    fc.property(memory, (text) => assertPartition(text, splitSegments(text))),
    { numRuns: 400 },
  );
});

test('property: other bounds hold too', () => {
  fc.assert(
    fc.property(memory, fc.integer({ min: 50, max: 2000 }), fc.integer({ min: 0, max: 300 }), (text, maxChars, minChars) =>
      assertPartition(text, splitSegments(text, { maxChars, minChars }), maxChars + minChars),
    ),
    { numRuns: 200 },
  );
});

test('property: sections of a fitting size are exactly the segments, one per heading', () => {
  const section = fc.tuple(fc.stringMatching(/^[\u4e00-\u4e2f]{2,8}$/), fc.integer({ min: MIN + 20, max: MAX - 40 })).map(([name, n]) => `## ${name}\n${'记'.repeat(n)}\n`);
  fc.assert(
    fc.property(fc.array(section, { minLength: 1, maxLength: 12 }), (sections) => {
      const text = sections.join('');
      const segments = splitSegments(text);
      assert.equal(segments.length, sections.length);
      segments.forEach((s, i) => {
        assert.equal(s.text, sections[i]);
        assert.equal(s.heading, /^## (.+)\n/.exec(sections[i]!)![1]);
      });
    }),
  );
});

test('a long section is cut at sentence ends and its pieces are numbered', () => {
  const body = Array.from({ length: 40 }, (_, i) => `第${i}句话讲的是部署步骤里的一个细节。`).join('');
  const text = `## 部署\n${body}\n## 复盘\n${'复盘内容很充分。'.repeat(20)}\n`;
  const segments = splitSegments(text);
  const deploy = segments.filter((s) => s.heading.startsWith('部署'));
  assert.ok(deploy.length >= 2, 'the long section is cut');
  deploy.forEach((s, i) => {
    assert.equal(s.heading, `部署 (${i + 1}/${deploy.length})`);
    if (i < deploy.length - 1) assert.match(s.text, /。$/, 'cut right after a sentence end');
  });
  assert.equal(segments[segments.length - 1]!.heading, '复盘');
  assertPartition(text, segments);
});

test('headings inside code fences do not start a section; scraps join a neighbour', () => {
  const text = `## 配置\n${'配置说明写得很长。'.repeat(12)}\n\`\`\`sh\n## 这是注释不是标题\nexport A=1\n\`\`\`\n## 尾注\n短\n`;
  const segments = splitSegments(text);
  assert.equal(segments.length, 1, 'the code comment is no heading and the two-character 尾注 section joins 配置');
  assert.equal(segments[0]!.heading, '配置');
  assert.ok(segments[0]!.text.includes('## 尾注'), 'the merged heading stays in the text');
});

test('text without any break is hard-cut without splitting an emoji', () => {
  const text = '😀'.repeat(700);
  const segments = splitSegments(text);
  assertPartition(text, segments);
  assert.ok(segments.length >= 3);
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  for (const s of segments) assert.doesNotMatch(s.text, lone, 'whole code points only');
});

test('empty and tiny texts', () => {
  assert.deepEqual(splitSegments(''), []);
  assert.deepEqual(splitSegments('短'), [{ index: 0, heading: '', start: 0, end: 1, text: '短' }]);
});

test('a cut section whose tail was merged back is not numbered; numbered pieces count 1..n', () => {
  const section = `## 安装\n${'安装依赖之后再启动服务。'.repeat(50)}\n`; // ~600 + a short tail
  const segments = splitSegments(section);
  const numbered = segments.filter((s) => /\(\d+\/\d+\)$/.test(s.heading));
  if (segments.length === 1) assert.equal(segments[0]!.heading, '安装');
  else numbered.forEach((s, i) => assert.equal(s.heading, `安装 (${i + 1}/${segments.length})`));
  const long = splitSegments(`## 安装\n${'安装依赖之后再启动服务。'.repeat(200)}\n`);
  assert.ok(long.length > 2);
  long.forEach((s, i) => assert.equal(s.heading, `安装 (${i + 1}/${long.length})`));
});
