// Recall debug words the engine's explanation of a query: its language, where each word's weight and
// rarity come from, and the rule that silenced it, in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en, format, zh, type MessageKey } from '../src/client/messages.ts';
import { languageText, rarityText, silencedRuleText, weightSourceText, type TermLike } from '../src/components/recall/explain-view.ts';

const tz = (key: MessageKey, vars?: Record<string, string | number>) => format(zh[key], vars);
const te = (key: MessageKey, vars?: Record<string, string | number>) => format(en[key], vars);

test('the language line says which language and which fusion rule the query met', () => {
  assert.equal(languageText({ query: 'zh', semanticWeight: 0.25, rule: 'calibrated' }, tz), '语言：中文 · 语义权重 0.25');
  assert.equal(languageText({ query: 'en', semanticWeight: 0.25, rule: 'reorder' }, te), 'Language: English · English: meaning only reorders what the words found (weight 0.25)');
  assert.equal(languageText({ query: 'en', semanticWeight: 0.25, rule: 'reorder' }, tz), '语言：英文 · 英文：语义只重排关键词找到的笔记（权重 0.25）');
  assert.equal(languageText({ query: 'mixed', semanticWeight: 0.25, rule: 'calibrated' }, te), 'Language: Chinese and English · meaning weight 0.25');
});

test("each word's weight names its table, a name the table lacks, the store, or nothing", () => {
  const term = (over: Partial<TermLike>): TermLike => ({ token: 'x', weight: 1, weightSource: 'language', rarity: null, ...over });
  assert.equal(weightSourceText(term({ languageTable: 'zh' }), tz), 'jieba 通用词表');
  assert.equal(weightSourceText(term({ languageTable: 'en' }), te), 'the English table (SUBTLEX-US)');
  assert.equal(weightSourceText(term({ weightSource: 'unknown-word' }), tz), '词表里没有，按专名算');
  assert.equal(weightSourceText(term({ weightSource: 'none' }), te), 'not counted');
  assert.equal(rarityText(term({}), tz), null);
  assert.equal(rarityText(term({ rarity: { idf: 5.075, source: 'blend', storeDf: 125, groupedDf: 4 } }), tz), '罕见度 5.08（本库与通用词表合算；本库 125 条，去重后 4 条）');
});

test('the silencing rule is named in the reader\'s language', () => {
  assert.equal(silencedRuleText('vague-query', tz), '被哪条规则拦下：查询信息量太低');
  assert.equal(silencedRuleText('query-gate', te), 'Silenced by: the question as a whole does not look answered by a memory');
});

test('a recall paused because the diary folder is gone is named so in both languages', () => {
  assert.equal(silencedRuleText('diary-missing', tz), '被哪条规则拦下：日记文件夹不见了，召回已暂停');
  assert.equal(silencedRuleText('diary-missing', te), 'Silenced by: the diary folder is missing, so recall is paused');
});
