// The English rarity table: what scripts/build-english-rarity.ts builds now (so a change to the
// tokenizer's words cannot leave it keyed by stale stems), on jieba's scale, and used for English
// terms only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildEnglishRarity, englishRarityModule, subtlexList } from '../../scripts/build-english-rarity.ts';
import { backgroundIdfTable, languageIdfTable, languageTableOf } from '../../src/recall/background-idf.ts';
import { englishRarity, englishRarityTable } from '../../src/text/english-rarity.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const term = (word: string) => tokenizer.tokenize(word)[0]!;

test('the committed table is the one the build script makes from the pinned word list', () => {
  const committed = readFileSync(new URL('../../src/text/english-rarity-table.ts', import.meta.url), 'utf8');
  assert.equal(committed, englishRarityModule(buildEnglishRarity(subtlexList())));
});

test('a common word, as the tokenizer makes it into a term, finds its weight (keys are the tokenizer stems)', () => {
  const table = englishRarityTable();
  let missing = 0;
  let asked = 0;
  for (const { word } of subtlexList().slice(0, 3000)) {
    const terms = tokenizer.tokenize(word);
    if (terms.length !== 1) continue;
    asked++;
    if (!table.has(terms[0]!)) missing++;
  }
  assert.ok(asked > 2000, `${asked} words`);
  assert.equal(missing, 0);
});

test('common words weigh little and content words much, on the scale of their Chinese translations', () => {
  const en = englishRarityTable();
  const zh = backgroundIdfTable()!;
  const weight = (w: string) => en.get(term(w))!;
  assert.ok(weight('time') < weight('meeting') && weight('meeting') < weight('coffee') && weight('coffee') < weight('database'));
  for (const [english, chinese] of [['time', '时间'], ['meeting', '会议'], ['database', '数据库'], ['birthday', '生日']] as const)
    assert.ok(Math.abs(weight(english) - zh.get(chinese)!) < 2, `${english} ${weight(english)} vs ${chinese} ${zh.get(chinese)}`);
});

test('the language table answers English terms from the English table and every other from jieba', () => {
  const table = languageIdfTable()!;
  assert.equal(table.get(term('coffee')), englishRarityTable().get(term('coffee')));
  assert.equal(table.get('咖啡'), backgroundIdfTable()!.get('咖啡'));
  assert.equal(table.get('spamassassin'), undefined, 'a name neither table knows stays unknown (weighed as rare)');
  assert.equal(languageTableOf('coffee'), 'en');
  assert.equal(languageTableOf('咖啡'), 'zh');
  assert.equal(languageTableOf('443'), 'zh', 'digits stay with jieba, as before');
});

test('a lookup finds every entry of the table, and nothing between or beyond them', () => {
  const table = englishRarityTable();
  for (const [key, value] of table) assert.equal(englishRarity(key), value, key);
  for (const probe of ['', 'a', 'aaa', 'zzzzzz', 'meetx', '会议', 'spamassassin']) if (!table.has(probe)) assert.equal(englishRarity(probe), undefined, probe);
});
