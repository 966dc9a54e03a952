// Characters (text/grams.ts): the second spelling the lexical index ranks with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cjkGrams, GRAM_MARK, isGram } from '../../src/text/grams.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const plain = (grams: string[]) => grams.map((g) => g.slice(GRAM_MARK.length));

describe('characters of the words', () => {
  it('each Chinese word yields its characters, in order', () => {
    assert.deepEqual(plain(cjkGrams(['东京', '机房'])), ['东', '京', '机', '房']);
  });

  it('Latin words and numbers yield none (用 is a stop character)', () => {
    assert.deepEqual(cjkGrams(['nginx', '443', 'sing-box']), []);
    assert.deepEqual(plain(cjkGrams(['端口', '443', '占用'])), ['端', '口', '占']);
  });

  it('stop characters yield no gram', () => {
    const grams = plain(cjkGrams(['我', '的', '猫']));
    assert.deepEqual(grams, ['猫']);
  });

  it('a character outside the basic plane (two code units) is one gram, asked again and again; mixed words yield their Chinese characters', () => {
    // 𠀀 (U+20000, CJK extension B), ヶ (katakana), 한 (hangul): one gram each, every time.
    for (let i = 0; i < 3; i++) assert.deepEqual(plain(cjkGrams(['𠀀京', 'ヶ', '한'])), ['𠀀', '京', 'ヶ', '한']);
    assert.deepEqual(plain(cjkGrams(['api接口v2'])), ['接', '口']);
    // A lone high surrogate at the end of a token is not a character: no gram.
    assert.deepEqual(cjkGrams(['\ud840']), []);
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
