import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatAgainst, groupRemovals, measuredOf, reasonText } from '../src/components/recall/gates.ts';

test('a value below its threshold never prints equal to it', () => {
  assert.deepEqual(formatAgainst(6.46, 6.5, 'number'), { value: '6.46', threshold: '6.5' });
  assert.deepEqual(formatAgainst(1.0499, 1.05, 'number'), { value: '1.0499', threshold: '1.05' });
  assert.deepEqual(formatAgainst(0.23, 0.3, 'percent'), { value: '23%', threshold: '30%' });
  assert.deepEqual(formatAgainst(0.97, 1.05, 'number'), { value: '0.97', threshold: '1.05' });
});

test('gate details become value against threshold; the vague-query gate uses the unrounded measure', () => {
  assert.deepEqual(measuredOf('coverage', 'explains 23% of the query (< 30%)'), { value: 0.23, threshold: 0.3, unit: 'percent' });
  assert.deepEqual(measuredOf('specificity', 'specificity 0.97 < 1.05 (coverage 20%, rarest matched word 修复 (IDF 2.10))'), { value: 0.97, threshold: 1.05, unit: 'number' });
  assert.deepEqual(measuredOf('vague-query', 'the query carries too little information (6.5 < 6.5), so nothing is injected', 6.4612), { value: 6.4612, threshold: 6.5, unit: 'number' });
  assert.equal(measuredOf('distinctive-term', 'matched only 在群 (none distinctive)'), null);
});

test('removals are grouped by document; chunks failing the same gate make one line', () => {
  const r = (chunkId: string, docId: string, gate: string, detail: string) => ({ chunkId, docId, gate, detail, title: `t-${docId}` });
  const docs = groupRemovals(
    [
      r('a1', 'A', 'coverage', 'explains 10% of the query (< 30%)'),
      r('a2', 'A', 'coverage', 'explains 20% of the query (< 30%)'),
      r('a3', 'A', 'distinctive-term', 'matched only 修复 (none distinctive)'),
      r('b1', 'B', 'coverage', 'explains 5% of the query (< 30%)'),
    ],
    'zh',
  );
  assert.equal(docs.length, 2);
  const a = docs.find((d) => d.docId === 'A')!;
  assert.equal(a.findings.length, 2);
  const cov = a.findings.find((f) => f.gate === 'coverage')!;
  assert.equal(cov.chunks, 2);
  assert.equal(cov.measured?.value, 0.2, 'the best chunk is shown');
  assert.match(a.findings.find((f) => f.gate === 'distinctive-term')!.reason, /只对上了 修复/);
});

test('every reason the engine gives a removal reads in Chinese: the characters-only match too', () => {
  assert.equal(reasonText('matched characters of the query, no word of it', 'zh'), '只对上了问题里的几个字，没有一个词');
  assert.equal(reasonText('matched characters of the query, no word of it', 'en'), 'matched characters of the query, no word of it');
});

test('a question silenced in a small store although both channels agree says why agreement did not keep it, in Chinese too', () => {
  const detail = 'query gate: q 0.12 < 0.5 (maxP 0.30, agreePass 1.00); channels agree, which counts from 600 chunks (this store: 204)';
  assert.equal(reasonText(detail, 'zh'), '整个问题看起来不像记忆能回答的（关键词和语义合起来判断）；两路检索都把同一条排在第一，但记忆还少（204 块，满 600 块才算数）');
  assert.equal(reasonText('query gate: q 0.12 < 0.5 (maxP 0.30)', 'zh'), '整个问题看起来不像记忆能回答的（关键词和语义合起来判断）');
  // Lexical recall's own query gate says it judged from the words alone.
  assert.equal(reasonText('query gate (words only): q 0.05 < 0.3 (maxCoverage 0.60, maxPhrase 0.20)', 'zh'), '整个问题看起来不像记忆能回答的（只按关键词判断：语义模型没有参与）');
});

test('the vague-query reason says in Chinese how much the words carried against the bar, when one (English) word stood alone and which words spoke of the conversation (the rule\'s name above it already says "too little")', () => {
  const lone = 'the query carries too little information (8.8 < 10) for one English word alone (not counted, about the conversation: sec), so nothing is injected';
  assert.equal(reasonText(lone, 'zh'), '词的信息量 8.8，不到 10（像闲聊：英文只有一个日常词），所以一条都不注入（sec 说的是对话本身，不计入）');
  assert.deepEqual(measuredOf('vague-query', lone), { value: 8.8, threshold: 10, unit: 'number' });
  // A Chinese line's one everyday word (明天要开会) is not called English.
  assert.equal(reasonText('the query carries too little information (7.6 < 10) for one word alone, so nothing is injected', 'zh'), '词的信息量 7.6，不到 10（像闲聊：只有一个日常词），所以一条都不注入');
  assert.equal(reasonText('the query carries too little information (0.0 < 6.5) (not counted, about the conversation: 暂停), so nothing is injected', 'zh'), '词的信息量 0.0，不到 6.5（像闲聊），所以一条都不注入（暂停 说的是对话本身，不计入）');
  assert.equal(reasonText('the query carries too little information (6.1 < 6.5), so nothing is injected', 'zh'), '词的信息量 6.1，不到 6.5（像闲聊），所以一条都不注入');
  assert.equal(reasonText('the query carries too little information', 'zh'), '查询信息量太低（像闲聊），所以一条都不注入', 'a shorter detail still reads in Chinese');
});

test("a detail the engine wrote in both languages (the diary folder gone) is shown in the reader's half", () => {
  const detail = '日记文件夹不见了：/home/me/diaries（被删除、移走，或所在的磁盘没有挂载）。召回已暂停。 / The diary folder is missing: /home/me/diaries, so recall is paused.';
  assert.equal(reasonText(detail, 'zh'), '日记文件夹不见了：/home/me/diaries（被删除、移走，或所在的磁盘没有挂载）。召回已暂停。');
  assert.equal(reasonText(detail, 'en'), 'The diary folder is missing: /home/me/diaries, so recall is paused.');
});

test('an English statement the model does not stand behind says so in Chinese, with its cosine against the bar', () => {
  const below = 'an English statement: cosine 0.548 < 0.6';
  assert.equal(reasonText(below, 'zh'), '英文陈述：语义模型不认为这条记忆说的是这件事（相似度低于下限）');
  assert.deepEqual(measuredOf('semantic-min', below), { value: 0.548, threshold: 0.6, unit: 'number' });
  assert.equal(reasonText('an English statement: the model does not put this note among its nearest', 'zh'), '英文陈述：语义模型没有把这条记忆排进最接近的几条');
  assert.equal(reasonText(below, 'en'), below);
});
