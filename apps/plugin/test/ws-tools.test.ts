// engram_locate / engram_detail and the time channel through the host's tool service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CORPUS, loadPlugin, makeCorpus } from './helpers.ts';

const section = (name: string, topic: string, n: number, extra = '') =>
  `## ${name}\n${Array.from({ length: n }, (_, i) => `关于${topic}的第${i + 1}条记录,当时讨论了很多细节。`).join('')}${extra}\n`;

/** A session-import-sized memory: the answer is one sentence in the fourth of five sections. */
const LONG_BODY = [
  section('背景', '背景', 30),
  section('安装步骤', '安装', 40),
  section('配置反向代理', '反向代理', 36),
  section('故障排查', '排查', 18, '最后发现会话日志是多帧的 zstd 文件,解压器只吃单帧,所以按 magic 切帧再逐帧解压。'),
  section('复盘', '复盘', 30),
].join('\n');

const corpus = () => makeCorpus([...CORPUS, ['2026-03-20', '部署事故全过程', LONG_BODY]]);

test('the search description teaches search → locate → detail; both new tools have object schemas', async (t) => {
  const c = corpus();
  t.after(() => c.cleanup());
  const { host } = await loadPlugin(t, { corpus: c });
  const schemas = host.tools!.schemas();
  const search = schemas.find((s) => s.name === 'engram_search')!;
  const order = ['engram_search', 'engram_locate', 'engram_detail'].map((n) => search.description.lastIndexOf(n));
  assert.ok(order.every((i) => i >= 0) && order[0]! < order[1]! && order[1]! < order[2]!, search.description);
  assert.match(search.description, /够用就停/);
  for (const name of ['engram_locate', 'engram_detail']) {
    const s = schemas.find((x) => x.name === name)!;
    assert.equal((s.parameters as { type: string }).type, 'object', name);
    assert.deepEqual((s.parameters as { required: string[] }).required.includes('id'), true, name);
  }
});

test('search → locate → detail on a long memory: one segment comes back, not the whole text', async (t) => {
  const c = corpus();
  t.after(() => c.cleanup());
  const { host } = await loadPlugin(t, { corpus: c });
  const tools = host.tools!;

  const search = await tools.call('engram_search', JSON.stringify({ query: 'zstd 多帧解压' }));
  assert.equal(search.error, undefined, search.text);
  const hit = (search.value as { hits: { docId: string; title: string }[] }).hits[0]!;
  assert.equal(hit.title, '部署事故全过程');
  assert.match(search.text, /engram_locate/, 'the result ends with the next step');

  const located = await tools.call('engram_locate', JSON.stringify({ id: hit.docId, query: 'zstd' }));
  assert.equal(located.error, undefined, located.text);
  const value = located.value as { segmentCount: number; chars: number; hits: { index: number; heading: string }[] };
  assert.ok(value.segmentCount >= 6);
  assert.match(value.hits[0]!.heading, /^故障排查/);
  assert.match(located.text, new RegExp(`\\[段 ${value.hits[0]!.index}\\] 故障排查`));
  assert.match(located.text, /zstd/, 'the preview shows the hit');
  assert.doesNotMatch(located.text, /关于复盘的第1条/, 'locate returns previews, not the text');
  assert.match(located.text, new RegExp(`engram_detail\\(\\{ id: "${hit.docId}", segments: \\[${value.hits[0]!.index}`));

  const part = await tools.call('engram_detail', JSON.stringify({ id: hit.docId, segments: [value.hits[0]!.index] }));
  assert.equal(part.error, undefined, part.text);
  assert.match(part.text, /zstd/);
  assert.ok(part.text.length < value.chars / 3, `${part.text.length} characters rendered of ${value.chars}`);
  assert.doesNotMatch(part.text, /关于复盘的第1条/);

  const whole = await tools.call('engram_detail', JSON.stringify({ id: hit.docId }));
  assert.match(whole.text, /全文/);
  assert.match(whole.text, /关于复盘的第1条/);
  assert.match(whole.text, /zstd/);
});

test('locate and detail: bad arguments and missing things are clear errors', async (t) => {
  const c = corpus();
  t.after(() => c.cleanup());
  const { host } = await loadPlugin(t, { corpus: c });
  const tools = host.tools!;
  const docId = ((await tools.call('engram_list', JSON.stringify({ filter: '部署事故' }))).value as { items: { docId: string }[] }).items[0]!.docId;
  const cases: [string, unknown, RegExp][] = [
    ['engram_locate', { id: docId }, /missing required argument "query"/],
    ['engram_locate', { query: 'zstd' }, /missing required argument "id"/],
    ['engram_locate', { id: 'nope', query: 'zstd' }, /\[not-found\]/],
    ['engram_locate', { id: docId, query: '  ' }, /\[invalid-arguments\]/],
    ['engram_detail', { id: docId, segments: 3 }, /"segments" should be array/],
    ['engram_detail', { id: docId, segments: ['a'] }, /\[invalid-arguments\] "segments" must be a list/],
    ['engram_detail', { id: docId, segments: [999] }, /\[bad-segment\] no segment 999 .*\(0–\d+\)/],
    ['engram_detail', { id: 'nope' }, /\[not-found\]/],
  ];
  for (const [name, args, pattern] of cases) {
    const outcome = await tools.call(name, JSON.stringify(args));
    assert.ok(outcome.error, `${name} ${JSON.stringify(args)} should fail`);
    assert.match(outcome.text, pattern, `${name} ${JSON.stringify(args)}`);
  }
  const none = await tools.call('engram_locate', JSON.stringify({ id: docId, query: 'kubernetes' }));
  assert.equal(none.error, undefined);
  assert.match(none.text, /没有段落提到「kubernetes」/);
});

test('a question about a day: search lists that day\'s memories and says so', async (t) => {
  const { host } = await loadPlugin(t);
  const tools = host.tools!;
  const day = await tools.call('engram_search', JSON.stringify({ query: '2026年3月2日做了什么' }));
  assert.equal(day.error, undefined, day.text);
  assert.deepEqual((day.value as { hits: { title: string }[] }).hits.map((h) => h.title), ['东京节点端口处置']);
  assert.match(day.text, /「2026年3月2日」= 2026-03-02:当天的记忆共 1 条/);
  assert.deepEqual((day.value as { time: { applied: boolean; days: string[] } }).time.days, ['2026-03-02']);

  const empty = await tools.call('engram_search', JSON.stringify({ query: '2026-01-01 做了什么' }));
  assert.match(empty.text, /那几天没有记忆/);

  const plain = await tools.call('engram_search', JSON.stringify({ query: '东京节点的端口' }));
  assert.equal((plain.value as { time: unknown }).time, null);
  assert.doesNotMatch(plain.text, /「/);
});

test('locate and detail called with arguments that are not an object: [invalid-arguments]', async (t) => {
  const { host } = await loadPlugin(t);
  const defs = (host as unknown as { tools: { call(name: string, raw: string): Promise<{ error?: unknown; text: string }> } }).tools;
  for (const name of ['engram_locate', 'engram_detail']) {
    const outcome = await defs.call(name, '[1, 2]');
    assert.ok(outcome.error, name);
  }
  const { createTools } = await import('../src/host/tools/memory-tools.ts');
  const tools = createTools({ engine: () => null });
  for (const name of ['engram_locate', 'engram_detail']) {
    const tool = tools.find((x) => x.name === name)!;
    for (const bad of [null, 42, 'text', [1, 2]])
      await assert.rejects(Promise.resolve().then(() => tool.execute(bad as never, { callId: 'c', name, arguments: '' } as never)), /\[invalid-arguments\]/, `${name}(${JSON.stringify(bad)})`);
  }
});
