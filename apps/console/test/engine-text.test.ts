import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineText } from '../src/client/engine-text.ts';

test('write and parse warnings read in Chinese, with full-width punctuation; places stay as they are', () => {
  assert.equal(engineText('no "> summary" paragraph; recall will use the first 160 characters of the body', 'zh'), '没有「> 摘要」段：召回会用正文的前 160 个字');
  assert.match(engineText('no tags: add a "Tag: a, b" line (specific names first) so the entry can be found by them', 'zh'), /^没有标签：/);
  assert.equal(engineText('工作/a.txt:3: missing "Tag: …" line at the end', 'zh'), '工作/a.txt:3：末尾缺少「Tag: …」行');
  assert.equal(engineText('工作/a.txt:3: something new', 'zh'), '工作/a.txt:3: something new', 'unknown shapes are shown as they came');
  assert.equal(engineText('no "> summary" paragraph; recall will use the first 160 characters of the body', 'en'), 'no "> summary" paragraph; recall will use the first 160 characters of the body');
});

test("the collapse stage's note reads in Chinese whichever of its parts a recall had", () => {
  assert.equal(engineText('one hit per document', 'zh'), '每篇文档只留一条');
  assert.equal(engineText('one hit per document; 2 near-duplicate groups shown once', 'zh'), '每篇文档只留一条；2 组近似重复只显示一次');
  assert.equal(engineText('one hit per document; 3 moved down: a better hit holds their matching sentences', 'zh'), '每篇文档只留一条；3 条后移：排在前面的记忆已经包含它们命中的句子');
  assert.equal(engineText('one hit per document; 1 near-duplicate groups shown once; 4 moved down: a better hit holds their matching sentences', 'zh'), '每篇文档只留一条；1 组近似重复只显示一次；4 条后移：排在前面的记忆已经包含它们命中的句子');
  assert.equal(engineText('2 kept below the hybrid bar: the question names their title (子不语, 子不语 (续))', 'zh'), '2 条低于门槛仍留下：问题点了它们的标题（子不语, 子不语 (续)）');
});

test("an index run's reason for making no vectors reads in Chinese", () => {
  assert.equal(engineText('semantic channel not configured', 'zh'), '未配置语义模型，只用关键词召回');
  assert.equal(engineText('semantic channel not configured', 'en'), 'semantic channel not configured');
});
