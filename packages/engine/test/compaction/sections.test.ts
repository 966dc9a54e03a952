// L1 and L2 extraction details: summary sections by heading (whatever the line terminators), long
// text split into parts without losing any of it, tool targets from raw JSON arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitSummarySections, summaryText } from '../../src/compaction/sections.ts';
import { splitByLength } from '../../src/compaction/split.ts';
import { toolTarget } from '../../src/compaction/transcript.ts';
import { stripInjectedFragments } from '../../src/compaction/text.ts';

test('sections by heading; an empty parent lends its name; untitled text splits at blank lines', () => {
  const summary = ['开场白:这是摘要的导语部分,比较短。', '', '# 决策', '## 端口', '改用 8443。', '## 迁移', '先备份。', '', '# 杂项', '闲聊。'];
  for (const eol of ['\n', '\r\n', '\u2028']) {
    const sections = splitSummarySections(summary.join(eol), 1200);
    assert.deepEqual(
      sections.map((s) => [s.title, s.body]),
      [
        ['开场白:这是摘要的导语部分,比较短。', '开场白:这是摘要的导语部分,比较短。'],
        ['决策 › 端口', '改用 8443。'],
        ['决策 › 迁移', '先备份。'],
        ['杂项', '闲聊。'],
      ],
      JSON.stringify(eol),
    );
  }
  assert.equal(summaryText([{ type: 'text', text: 'a' }, { type: 'reasoning', text: 'x' }, { type: 'text', text: 'b' }]), 'a\n\nb');
});

test('a long section becomes numbered parts that keep all of the text', () => {
  const body = Array.from({ length: 40 }, (_, i) => `第 ${i} 句话的内容比较长一些,用来撑开长度。`).join('');
  const sections = splitSummarySections(`## 长节\n${body}`, 200);
  assert.ok(sections.length > 1);
  assert.ok(sections.every((s, i) => s.title === `长节 (${i + 1}/${sections.length})` && Array.from(s.body).length <= 200));
  assert.equal(sections.map((s) => s.body).join('').replace(/\n/g, ''), body);
  const unbroken = 'x'.repeat(450);
  assert.deepEqual(splitByLength(unbroken, 200).map((p) => p.length), [200, 200, 50]);
});

test('tool targets and injected fragments', () => {
  assert.equal(toolTarget('{"path":"src/a.ts"}'), 'src/a.ts');
  assert.equal(toolTarget({ pattern: 'TODO', path: '.' }), '.');
  assert.equal(toolTarget('{"url":"https://example.com/x"}'), 'https://example.com/x');
  assert.equal(toolTarget('not json'), 'not json');
  assert.equal(stripInjectedFragments('问:<system-reminder>提醒</system-reminder>端口?<engram-recall a="1">旧'), '问:端口?');
});
