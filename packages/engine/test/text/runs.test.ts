// forEachRun (text/scripts.ts) splits text as this regular expression did — the reference, kept here
// only: compiling it cost ~7 ms on first use, a twentieth of a one-shot `engram write`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forEachRun, isSingleCjkChar } from '../../src/text/scripts.ts';

const CJK_CLASS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC`;
const WORD_START = String.raw`[[\p{L}\p{N}]--[${CJK_CLASS}]]`;
const WORD_REST = String.raw`[[\p{L}\p{N}\p{M}]--[${CJK_CLASS}]]*`;
const WORD_LETTERS = String.raw`[\p{L}--[${CJK_CLASS}]]+`;
const REFERENCE = new RegExp(
  String.raw`([${CJK_CLASS}]+)|(${WORD_START}${WORD_REST}(?:[\-_.]${WORD_START}${WORD_REST})*(?:['’]${WORD_LETTERS})?(?:\+\+|#(?![\p{L}\p{N}]))?)`,
  'gv',
);

const byReference = (text: string) => [...text.matchAll(REFERENCE)].map((m) => (m[1] !== undefined ? `C:${m[1]}` : `W:${m[0]}`));
const byScanner = (text: string) => {
  const out: string[] = [];
  forEachRun(text, (run) => out.push(`C:${run}`), (word) => out.push(`W:${word}`));
  return out;
};

test('runs and words as the reference expression finds them, on written examples', () => {
  for (const text of [
    '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管。',
    "Alice's cat didn't eat; c++ and c# and C#1 and x#中, v0.2.6, api_key.v2-beta_",
    'カタカナー한국어ひらがな和汉字 mixed中文words',
    'café naïve résumé e\u0301cole Ⅻ ½ ٣٤ ﬁ',
    '𠀀𠀁 extension B, 😀 emoji, lone \ud800 surrogate, \udc00 too',
    "trailing sep- a_ b. 'quote' ’curly’ it’s",
    '',
  ])
    assert.deepEqual(byScanner(text), byReference(text), text);
});

test('runs and words as the reference expression finds them, on random text mixing every kind of character', () => {
  const alphabet = [...'东京节点端口ーカナ한글ひら𠀀𠀁abcXYZéñ019٣Ⅻ\u0301\u0308-_.\'’+#  ,。!?😀'];
  alphabet.push('\ud800', '\udc00');
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
  for (let i = 0; i < 3000; i++) {
    let text = '';
    const length = Math.floor(random() * 24);
    for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
    assert.deepEqual(byScanner(text), byReference(text), JSON.stringify(text));
  }
});

test('one CJK character, read from the runs\' table, as the expression for one character of the class says', () => {
  const one = new RegExp(`^[${CJK_CLASS}]$`, 'v');
  const samples = [...'东京ーカナ한글ひら𠀀abcé019٣Ⅻ\u0301-_.\'+# ,。!?😀'];
  samples.push('\ud800', '\udc00', '', '东京', '𠀀𠀁', '东a', 'a东', '\ud840\ud840');
  for (const a of [...samples]) for (const b of samples.slice(0, 12)) samples.push(a + b);
  for (const token of samples) assert.equal(isSingleCjkChar(token), token.length <= 2 && one.test(token), JSON.stringify(token));
});
