import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embeddedText, embeddingContext } from '../../src/semantic/context.ts';

test('a summary the writer or the model wrote is embedded with the title and tags', () => {
  assert.equal(embeddingContext({ title: '搬家', summary: '决定下个月搬到杭州', summarySource: 'manual', tags: ['生活', ' 计划 '] }), '搬家\n决定下个月搬到杭州\n生活, 计划');
  assert.equal(embeddingContext({ title: '搬家', summary: '决定下个月搬到杭州', summarySource: 'auto', tags: [] }), '搬家\n决定下个月搬到杭州');
});

test('a summary cut from the body itself is not embedded again in front of the body', () => {
  // 'none': the parser's fallback (the body's first 160 characters); 'rule': the body's leading sentences.
  const body = '今天和房东谈了续租的事。房租涨了两百,决定下个月搬到杭州。';
  assert.equal(embeddingContext({ title: '搬家', summary: body.slice(0, 12), summarySource: 'none', tags: ['生活'] }), '搬家\n生活');
  assert.equal(embeddingContext({ title: '搬家', summary: '今天和房东谈了续租的事。', summarySource: 'rule', tags: [] }), '搬家');
  assert.equal(embeddedText(embeddingContext({ title: '搬家', summary: body, summarySource: 'none', tags: [] }), body), `搬家\n\n${body}`);
});

test('without a source (older callers) the summary counts as written', () => {
  assert.equal(embeddingContext({ title: 't', summary: 's', tags: [] }), 't\ns');
});

test('the context is not repeated when the body already starts with it', () => {
  assert.equal(embeddedText('搬家', '搬家\n\n正文'), '搬家\n\n正文');
  assert.equal(embeddedText('', '正文'), '正文');
});
