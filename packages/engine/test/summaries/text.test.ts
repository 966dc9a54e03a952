import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanModelSummary, leadingSentences, ruleSummary, sentencesOf, summaryPrompt } from '../../src/summaries/text.ts';

const len = (s: string) => Array.from(s).length;

test('sentences: CJK and latin ends, line ends, markup dropped', () => {
  assert.deepEqual(sentencesOf('# 标题\n第一句。第二句!\n- 清单项\nFirst one. Second one?'), ['标题', '第一句。', '第二句!', '清单项', 'First one.', 'Second one?']);
  assert.deepEqual(sentencesOf('等等……然后呢?'), ['等等……', '然后呢?']);
});

test('rule summary: whole sentences up to maxChars, never more', () => {
  const body = '东京节点的 443 端口被 nginx 占用。停掉 nginx 之后由 sing-box 监听 443。时区也调成了 UTC+9。';
  assert.equal(ruleSummary(body, 60), '东京节点的 443 端口被 nginx 占用。停掉 nginx 之后由 sing-box 监听 443。');
  assert.equal(ruleSummary(body, 25), '东京节点的 443 端口被 nginx 占用。');
  for (const max of [20, 30, 60, 120]) assert.ok(len(ruleSummary(body, max)) <= max, `≤ ${max}`);
});

test('rule summary: a first sentence longer than maxChars is cut on a clause, marked with …', () => {
  const long = '这次迁移把数据库从单机换成了主从结构,读请求全部走从库,写请求仍然走主库,切换过程中停机了五分钟';
  const s = ruleSummary(long, 30);
  assert.ok(len(s) <= 30);
  assert.ok(s.endsWith('…'));
  assert.ok(s.startsWith('这次迁移把数据库从单机换成了主从结构'));
  assert.doesNotMatch(s, /,…$/);
});

test('rule summary: a heading line joins with 。, an empty body falls back to the title', () => {
  assert.equal(leadingSentences('## 结论\n换成 sing-box。', 50), '结论。换成 sing-box。');
  assert.equal(ruleSummary('', 50, '东京节点端口'), '东京节点端口。');
  assert.equal(ruleSummary('', 50, ''), '');
});

test('model reply cleaning: prefixes, quotes, fences, thinking and over-long answers', () => {
  assert.equal(cleanModelSummary('摘要:东京节点改由 sing-box 接管 443 端口。', 120), '东京节点改由 sing-box 接管 443 端口。');
  assert.equal(cleanModelSummary('「东京节点改由 sing-box 接管。」', 120), '东京节点改由 sing-box 接管。');
  assert.equal(cleanModelSummary('<think>先想想</think>\n```\n结论是换端口。\n```', 120), '结论是换端口。');
  assert.equal(cleanModelSummary('  \n ', 120), '');
  const long = cleanModelSummary('第一句说明了事情的起因。第二句说明了最后的结论和理由。', 14);
  assert.equal(long, '第一句说明了事情的起因。');
});

test('the prompt is short Chinese, carries the limit, the title and the body', () => {
  const p = summaryPrompt('东京节点', '正文'.repeat(2000), 80);
  assert.match(p.prompt, /一句话/);
  assert.match(p.prompt, /不超过 80 个字/);
  assert.match(p.prompt, /标题:东京节点/);
  assert.match(p.prompt, /后文略/);
  assert.ok(p.maxTokens >= 320);
});
