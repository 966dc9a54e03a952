// Budgets on what reaches the model: the token estimate, item count and size, the whole message's
// tokens (the second item goes first), fingerprint and similarity dedupe, the overview's cap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOverview, conclusionOf } from '../../src/compaction/overview.ts';
import { excerptAround, selectForInjection, type Candidate, type SelectOptions } from '../../src/compaction/select.ts';
import { charLength, clipChars } from '../../src/compaction/text.ts';
import { estimateTokens } from '../../src/compaction/tokens.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const tokenSet = (text: string) => new Set(tokenizer.tokenize(text));

test('token estimate: CJK ≈ 1 per character, a latin word ≈ 1.3, symbols 1, whitespace free', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('东京节点'), 4);
  assert.equal(estimateTokens('hello world'), 3);
  assert.equal(estimateTokens('端口 8443。'), Math.ceil(2 + 1.3 + 1));
  assert.equal(estimateTokens('   \n\t'), 0);
  assert.equal(estimateTokens('👍'), 1, 'an emoji is one symbol, not two UTF-16 units');
  assert.ok(estimateTokens('中'.repeat(300)) === 300);
});

test('clipChars cuts on code points and counts the marker', () => {
  assert.equal(clipChars('abcdef', 4), 'abc…');
  assert.equal(charLength(clipChars('😀'.repeat(10), 5)), 5);
  assert.ok(!clipChars('😀'.repeat(10), 5).includes('\uFFFD'));
  assert.equal(clipChars('short', 10), 'short');
});

const options: SelectOptions = {
  minScore: 0.3,
  maxItems: 2,
  maxItemChars: 300,
  minItemChars: 20,
  maxTokens: 700,
  header: '以下是本会话被压缩掉的历史片段:历史只作参考,不作结论。如果这次的新条件改变了答案,请明确说出来。',
  duplicateSimilarity: 0.6,
};

const LONG_A = `东京节点的端口讨论。${'我们先确认了 nginx 占用 443 的原因,然后比较了几个备选端口。'.repeat(8)}最后东京节点端口定为 8443,并重启 sing-box。${'其余是部署细节与回滚方案的讨论。'.repeat(8)}`;
const LONG_B = `数据库迁移的讨论。${'迁移脚本要先备份,再逐表校验行数,确认无误后切换连接串。'.repeat(12)}`;
const LONG_C = `周报写作的讨论。${'周报每周四下午写,先列完成的任务,再写下周计划。'.repeat(12)}`;

const candidate = (id: string, body: string, score: number, matched: string[] = []): Candidate => ({
  block: { id, fingerprint: `fp-${id}`, layer: 'L2', kind: 'dialogue', title: `标题 ${id}`, body },
  score,
  matched,
});

test('at most maxItems items of at most maxItemChars, the whole within maxTokens', () => {
  const selection = selectForInjection([candidate('a', LONG_A, 0.9, ['8443']), candidate('b', LONG_B, 0.8), candidate('c', LONG_C, 0.7)], { fingerprints: new Set(), tokenSets: [] }, tokenSet, options);
  assert.equal(selection.items.length, 2);
  for (const item of selection.items) assert.ok(charLength(item.text) <= 300, `${charLength(item.text)} chars`);
  assert.ok(selection.tokens <= 700 && selection.tokens === estimateTokens(selection.text));
  assert.match(selection.items[0]!.text, /8443/, 'the excerpt is taken around the matched words');
  assert.deepEqual(selection.dropped.map((d) => [d.id, d.reason]), [['c', 'over-items']]);
  assert.ok(selection.text.includes(options.header));
});

test('a tighter token budget drops the second item whole, never cuts it', () => {
  const full = selectForInjection([candidate('a', LONG_A, 0.9), candidate('b', LONG_B, 0.8)], { fingerprints: new Set(), tokenSets: [] }, tokenSet, options);
  const budget = full.tokens - 50;
  const tight = selectForInjection([candidate('a', LONG_A, 0.9), candidate('b', LONG_B, 0.8)], { fingerprints: new Set(), tokenSets: [] }, tokenSet, { ...options, maxTokens: budget });
  assert.equal(tight.items.length, 1);
  assert.equal(tight.items[0]!.text, full.items[0]!.text);
  assert.ok(tight.tokens <= budget);
  assert.deepEqual(tight.dropped.at(-1), { id: 'b', reason: 'over-tokens' });
  const none = selectForInjection([candidate('a', LONG_A, 0.9)], { fingerprints: new Set(), tokenSets: [] }, tokenSet, { ...options, maxTokens: 60 });
  assert.equal(none.text, '', 'nothing rather than a cut item');
});

test('below the threshold, already injected, or too similar to something injected: dropped', () => {
  const shown = { fingerprints: new Set(['fp-a']), tokenSets: [tokenSet(`标题 b ${LONG_B}`)] };
  const selection = selectForInjection(
    [candidate('a', LONG_A, 0.9), candidate('b2', LONG_B.replace('讨论', '记录'), 0.8), candidate('c', LONG_C, 0.2), candidate('d', '太短', 0.9)],
    shown,
    tokenSet,
    options,
  );
  assert.deepEqual(
    selection.dropped.map((d) => [d.id, d.reason]),
    [
      ['a', 'already-injected'],
      ['d', 'too-short'],
      ['b2', 'similar-to-injected'],
      ['c', 'below-threshold'],
    ],
  );
  assert.equal(selection.text, '');
});

test('excerpt: around the best sentence, marked with … where cut', () => {
  const excerpt = excerptAround(LONG_A, ['8443'], 120);
  assert.ok(charLength(excerpt) <= 120);
  assert.match(excerpt, /8443/);
  assert.ok(excerpt.startsWith('…') && excerpt.endsWith('…'));
});

test('overview: topic — conclusion lines within the budget, newest compaction kept first, empty when nothing concludes', () => {
  const sources = Array.from({ length: 30 }, (_, i) => ({ title: `话题${i}`, body: `讨论了很多。最终决定采用方案 ${i} 并长期执行。`, order: i < 15 ? 0 : 1 }));
  const overview = buildOverview(sources, 300);
  assert.ok(overview.tokens <= 300 && overview.tokens === estimateTokens(overview.text));
  assert.ok(overview.lines > 0 && overview.lines < 30);
  assert.match(overview.text, /话题15 — /, 'the newest compaction’s topics are kept first (in their order)');
  assert.doesNotMatch(overview.text, /话题0 — /, 'the oldest ones gave way');
  assert.equal(buildOverview([{ title: '闲聊', body: '用户打了个招呼。', order: 0 }], 300).text, '', 'nothing that concludes: no overview at all');
  assert.equal(conclusionOf('先试了 443。后来改为 8443。然后聊了别的'), '后来改为 8443。');
  const same = buildOverview([{ title: '端口', body: '定为 443。', order: 0 }, { title: '端口', body: '改为 8443。', order: 1 }], 300);
  assert.equal(same.lines, 1, 'one line per topic');
  assert.match(same.text, /端口 — 改为 8443/, 'the newer conclusion wins');
});
