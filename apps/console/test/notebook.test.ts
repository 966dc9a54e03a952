// The pure parts of the preview and the Library search: the near-miss sentence from a gate removal,
// the highlight spans, the filters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearMissReason } from '../src/components/notebook/near-miss.ts';
import { highlightSpans } from '../src/components/notebook/highlight.ts';
import { passesFilters, memoryFilters } from '../src/server/routers/search-filter.ts';

const miss = (gate: string, detail: string, missing: string[] = [], probability: number | null = null) => ({ gate, detail, missing, probability });

test('a missing query word is named first, whatever gate removed the memory', () => {
  for (const gate of ['coverage', 'specificity', 'hybrid', 'distinctive-term']) {
    const r = nearMissReason(miss(gate, gate === 'hybrid' ? 'p 0.10 < 0.5 (x)' : 'explains 21% of the query (< 30%)', ['停车场']), 'zh');
    assert.equal(r.sentence, '问题里的“停车场”在这条记忆里没有出现', gate);
  }
  const many = nearMissReason(miss('coverage', 'explains 10% of the query (< 30%)', ['甲', '乙', '丙', '丁']), 'zh').sentence;
  assert.match(many, /“甲”“乙”“丙”等词/);
  assert.doesNotMatch(many, /丁/);
  assert.match(nearMissReason(miss('coverage', '', ['parking']), 'en').sentence, /"parking" from the question does not appear/);
});

test('without missing words the gate speaks: common words, a small share, the query as a whole', () => {
  assert.equal(nearMissReason(miss('distinctive-term', 'matched only 的 是 (none distinctive)'), 'zh').sentence, '对上的只有“的”“是”，太常见，不足以说明相关');
  // A note found through the question's characters only (the lexical index's second spelling).
  assert.equal(nearMissReason(miss('distinctive-term', 'matched characters of the query, no word of it'), 'zh').sentence, '只对上了问题里的几个字，没有一个词');
  assert.equal(nearMissReason(miss('distinctive-term', 'matched characters of the query, no word of it'), 'en').sentence, 'It shares a few characters with the question, not one word');
  assert.match(nearMissReason(miss('specificity', 'specificity 0.80 < 1.05 (coverage 40%, rarest matched word 公司 (IDF 1.20))'), 'zh').sentence, /太常见，不足以说明相关/);
  assert.equal(nearMissReason(miss('coverage', 'explains 21% of the query (< 30%)'), 'zh').sentence, '只对上了问题的一小部分');
  // A query-level gate explains every candidate at once; the words a memory lacks are still named,
  // since they are what a person can fix.
  assert.match(nearMissReason(miss('hybrid', 'query gate: q 0.05 < 0.12 (maxP 0.2)', ['x']), 'zh').sentence, /^问题里的“x”在这条记忆里没有出现，整个问题/);
  assert.match(nearMissReason(miss('hybrid', 'query gate: q 0.05 < 0.12 (maxP 0.2)'), 'zh').sentence, /^整个问题/);
  assert.match(nearMissReason(miss('vague-query', 'the query carries too little information (0.5 < 2)', ['x']), 'zh').sentence, /太笼统/);
  assert.match(nearMissReason(miss('something-new', 'whatever'), 'zh').sentence, /相关性检查/);
});

test('no sentence in Chinese carries English words or half-width punctuation of its own', () => {
  const details: [string, string][] = [
    ['distinctive-term', 'matched only a b (none distinctive)'],
    ['distinctive-term', 'matched characters of the query, no word of it'],
    ['coverage', 'explains 21% of the query (< 30%)'],
    ['specificity', 'specificity 0.80 < 1.05 (coverage 40%, rarest matched word x (IDF 1.20))'],
    ['semantic-min', 'cosine 0.200 < 0.3'],
    ['semantic-required', "not among the semantic channel's candidates"],
    ['hybrid', 'p 0.10 < 0.5 (x)'],
    ['judge', 'judge probability 0.1'],
  ];
  for (const [gate, detail] of details) {
    const s = nearMissReason(miss(gate, detail), 'zh').sentence.replace(/“[^”]*”/g, '');
    assert.doesNotMatch(s, /[A-Za-z]|[,:;?!()]/, `${gate}: ${s}`);
  }
});

test('the bar reads the measured value against the threshold, below it for a removal', () => {
  const coverage = nearMissReason(miss('coverage', 'explains 21% of the query (< 30%)'), 'zh').measured!;
  assert.equal(coverage.kind, 'coverage');
  assert.ok(coverage.value < coverage.threshold);
  assert.equal(coverage.threshold, 0.3);
  const hybrid = nearMissReason(miss('hybrid', 'p 0.10 < veto 0.25 (coverage 40%)', [], 0.1049), 'zh').measured!;
  assert.deepEqual([hybrid.kind, hybrid.value, hybrid.threshold], ['confidence', 0.1049, 0.25], 'the unrounded probability when the engine gives it');
  assert.equal(nearMissReason(miss('hybrid', 'query gate: q 0.05 < 0.12'), 'zh').measured, null);
  assert.equal(nearMissReason(miss('judge', 'judge probability 0.1'), 'zh').measured, null);
});

test('highlight spans cover the text in order; the longest word wins an overlap; case does not matter', () => {
  const text = '东京节点的 443 端口，Nginx 占用了东京';
  const spans = highlightSpans(text, ['东京', '东京节点', 'nginx', '']);
  assert.equal(spans.map((s) => s.text).join(''), text);
  assert.deepEqual(spans.filter((s) => s.hit).map((s) => s.text), ['东京节点', 'Nginx', '东京']);
  for (let i = 1; i < spans.length; i++) assert.notEqual(spans[i]!.hit, spans[i - 1]!.hit, 'neighbouring spans alternate');
  assert.deepEqual(highlightSpans('abc', []), [{ text: 'abc', hit: false }]);
  assert.deepEqual(highlightSpans('', ['a']), []);
});

test('a note in 繁體 has the words the search matched (read as 简体) marked as written', () => {
  assert.deepEqual(highlightSpans('工作簽證續期要帶護照', ['签证', '护照']), [
    { text: '工作', hit: false },
    { text: '簽證', hit: true },
    { text: '續期要帶', hit: false },
    { text: '護照', hit: true },
  ]);
  assert.deepEqual(highlightSpans('签证续期', ['簽證']).filter((s) => s.hit).map((s) => s.text), ['签证'], 'and the other way round');
});

test('filters: archived state, category (top folder as /), tag, and an inclusive date range', () => {
  const f = (over: Partial<ReturnType<typeof memoryFilters.parse>>) => memoryFilters.parse(over);
  const m = { category: '', tags: ['聚餐'], date: '2026-10-24', archived: false };
  const archived = { ...m, archived: true };
  assert.ok(passesFilters(m, f({})));
  assert.ok(!passesFilters(archived, f({})), 'archived ones are hidden by default');
  assert.ok(passesFilters(archived, f({ archived: 'archived' })) && !passesFilters(m, f({ archived: 'archived' })));
  assert.ok(passesFilters(archived, f({ archived: 'all' })) && passesFilters(m, f({ archived: 'all' })));
  assert.ok(passesFilters(m, f({ category: '/' })) && !passesFilters(m, f({ category: 'work' })));
  assert.ok(passesFilters(m, f({ tag: '聚餐' })) && !passesFilters(m, f({ tag: '备份' })));
  assert.ok(passesFilters(m, f({ from: '2026-10-24', to: '2026-10-24' })), 'both ends included');
  assert.ok(!passesFilters(m, f({ from: '2026-10-25' })) && !passesFilters(m, f({ to: '2026-10-23' })));
  assert.throws(() => memoryFilters.parse({ from: '24/10/2026' }));
});

test('search keeps the memories holding every word when there are any, else every memory holding one', async () => {
  const { everyWordFirst } = await import('../src/server/routers/search.ts');
  const hit = (id: string, ...tokens: string[]) => ({ id, matched: tokens.map((token) => ({ token })) });
  const hits = [hit('a', '第', '条'), hit('b', '第', '1987', '条'), hit('c', '1987')];
  assert.deepEqual(everyWordFirst(['第', '1987', '条'], hits).map((h) => h.id), ['b']);
  assert.deepEqual(everyWordFirst(['停车场', '1987'], hits).map((h) => h.id), ['a', 'b', 'c'], 'nobody holds both: the engine order of any');
  assert.deepEqual(everyWordFirst([], hits).map((h) => h.id), ['a', 'b', 'c']);
});

test('engine errors the memory actions raise read in Chinese; a bilingual message shows the reader its half', async () => {
  const { engineText } = await import('../src/client/engine-text.ts');
  assert.equal(engineText('"周末聚餐地点" is not archived', 'zh'), '「周末聚餐地点」没有归档，不用恢复');
  assert.equal(engineText('"周末聚餐地点" is locked: unlock it before forgetting it', 'zh'), '「周末聚餐地点」已锁定：先解锁才能归档');
  const both = '已有同名记忆「周末」 (abc),没有写第二篇:请修改原来那篇,或换一个标题。 / a memory titled "周末" already exists (abc): change that one instead, or choose another title';
  assert.equal(engineText(both, 'zh'), '已有同名记忆「周末」 (abc),没有写第二篇:请修改原来那篇,或换一个标题。');
  assert.match(engineText(both, 'en'), /^a memory titled "周末" already exists/);
  assert.doesNotMatch(engineText('a diary titled "x" already exists; change it with an update (command: update, or the edit tool) instead of writing a second entry', 'zh'), /update/);
});

test('a host appearance message: only its own type, only known languages and themes', async () => {
  const { appearanceOf } = await import('../src/client/host-appearance.ts');
  assert.deepEqual(appearanceOf({ type: 'engram:appearance', lang: 'en', theme: 'dark' }), { lang: 'en', theme: 'dark' });
  assert.deepEqual(appearanceOf({ type: 'engram:appearance', theme: 'light', lang: 'fr' }), { theme: 'light' });
  assert.equal(appearanceOf({ type: 'engram:appearance', lang: 'fr' }), null);
  assert.equal(appearanceOf({ lang: 'en' }), null);
  assert.equal(appearanceOf('engram:appearance'), null);
  assert.equal(appearanceOf(null), null);
});

test('text typed after the Tag line is caught before it costs the memory its tags', async () => {
  const { diaryProblem } = await import('../src/components/notebook/diary-check.ts');
  const ok = '[10:00] 标题\n\n> 摘要\n\n正文。\n\nTag: 甲, 乙\n';
  assert.equal(diaryProblem(ok), null);
  assert.equal(diaryProblem(`${ok}Meta: pinned=1\n`), null, 'a Meta line may follow the tags');
  assert.equal(diaryProblem('只有正文\n'), null, 'no Tag line at all is another matter (a parse warning)');
  assert.deepEqual(diaryProblem(`${ok}\n补一句新发现。\n`), { kind: 'text-after-tags', line: 9 });
  assert.deepEqual(diaryProblem('正文\r\n标签：甲\r\n后记\r\n'), { kind: 'text-after-tags', line: 3 }, 'CRLF and 标签 too');
});
