// Character grams (text/grams.ts): the second spelling the lexical index ranks with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cjkGrams, GRAM_MARK, isGram } from '../../src/text/grams.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const plain = (grams: string[]) => grams.map((g) => g.slice(GRAM_MARK.length));

describe('character grams', () => {
  it('a run of Chinese words yields its characters and adjacent pairs, across word ends', () => {
    assert.deepEqual(plain(cjkGrams(['东京', '机房'])), ['东', '京', '东京', '机', '京机', '房', '机房']);
  });

  it('a Latin word or a number ends the run: no pair spans it', () => {
    const grams = plain(cjkGrams(['端口', '443', '占用']));
    assert.ok(!grams.includes('口占'), grams.join(' '));
    assert.ok(grams.includes('端口') && grams.includes('占用'));
    assert.deepEqual(cjkGrams(['nginx', '443']), []);
  });

  it('stop characters and pairs of two stop characters yield no gram', () => {
    const grams = plain(cjkGrams(['我', '的']));
    assert.ok(!grams.includes('我的') && !grams.includes('的'), grams.join(' '));
  });

  it('a gram never equals a word the tokenizer yields, and is recognised as a gram', () => {
    const tokenizer = createTokenizer({ kind: 'jieba' });
    const words = tokenizer.tokenize('服务器部署在东京机房，端口 443 由 sing-box 接管');
    const grams = cjkGrams(words);
    assert.ok(grams.length > 0);
    for (const g of grams) assert.ok(isGram(g) && !words.includes(g), g);
    for (const w of words) assert.ok(!isGram(w), w);
  });
});
