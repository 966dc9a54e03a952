import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isBoundaryPair, queryWeights } from '../../src/recall/scoring.ts';
import type { QueryToken } from '../../src/recall/types.ts';

const fn = (c: string) => '是的有呀'.includes(c);
const tok = (token: string, idf = 5): QueryToken => ({ token, idf, weight: 1, distinctive: true, fromAlias: false });
// 司马晏是谁的儿子: jieba leaves 晏 是 谁 的 single; the tokenizer drops 是 and 的 and adds the pairs.
const query = ['司马', '晏', '晏是', '谁', '是谁', '谁的', '儿子'].map((t) => tok(t));
const table = new Map([['司马', 8.3], ['谁', 4.6], ['儿子', 5.6]]);

test('a pair is a boundary pair when both its characters stand alone in the query (or are function words)', () => {
  const singles = new Set(['晏', '谁']);
  assert.equal(isBoundaryPair('晏是', singles, fn), true);
  assert.equal(isBoundaryPair('谁的', singles, fn), true);
  assert.equal(isBoundaryPair('儿子', singles, fn), false);
  assert.equal(isBoundaryPair('司马晏', singles, fn), false);
});

test("'keep' weighs boundary pairs as unknown words; 'function' drops those with a function word; 'all' drops every one", () => {
  // 晏 (rare in the general table: a one-character name) counts in every rule since issue 26, and
  // 是谁 / 谁的 are words that ask (isAskingWord): the answering note never holds them.
  const keep = queryWeights(query, table, 12, 10, 'keep', fn);
  assert.deepEqual([...keep.keys()], ['司马', '晏', '晏是', '儿子']);
  assert.equal(keep.get('晏是'), 12);
  const func = queryWeights(query, table, 12, 10, 'function', fn);
  assert.deepEqual([...func.keys()], ['司马', '晏', '儿子']);
  // 尚恩 (a name jieba does not know, both characters single): only 'all' drops it.
  const name = ['尚', '恩', '尚恩', '恩有', '孩子'].map((t) => tok(t));
  const common = new Map([...table, ['尚', 6.6], ['恩', 6.9]]);
  assert.deepEqual([...queryWeights(name, common, 12, 10, 'function', fn).keys()], ['尚恩', '孩子']);
  assert.deepEqual([...queryWeights(name, common, 12, 10, 'all', fn).keys()], ['孩子']);
});

test('without the general table nothing is dropped (corpus IDF decides) and single characters do not count', () => {
  assert.equal(queryWeights(query, null, 12, 10, 'all', fn).size, 5);
});
