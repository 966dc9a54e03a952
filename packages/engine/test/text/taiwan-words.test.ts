// Taiwan's words read as the mainland's (text/taiwan-words.ts): what scripts/build-taiwan-words.ts
// builds now, the tokenizer reading both sides' words alike, and a note and a question from either
// side meeting in recall.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it, test } from 'node:test';
import { buildTaiwanWordPairs, renderTaiwanWordTable } from '../../scripts/build-taiwan-words.ts';
import type { Engine } from '../../src/engine.ts';
import { comparedWording, mainlandWord } from '../../src/text/taiwan-words.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { engineOverNotes } from '../engine/helpers.ts';

test('the committed table is the one the build script makes from the pinned OpenCC dictionaries and jieba\'s', () => {
  const committed = readFileSync(new URL('../../src/text/taiwan-words-table.ts', import.meta.url), 'utf8');
  assert.equal(committed, renderTaiwanWordTable(buildTaiwanWordPairs()));
});

test('a Taiwan word is read as the mainland\'s; a word the mainland writes too stays itself', () => {
  for (const [taiwan, mainland] of [['伺服器', '服务器'], ['软体', '软件'], ['记忆体', '内存'], ['程式', '程序'], ['网路', '网络'], ['硬碟', '硬盘']]) assert.equal(mainlandWord(taiwan!), mainland, taiwan);
  // Words of their own on the mainland (jieba's dictionary uses them): 互动 (interaction), 影片 (a film), 档案 (archives).
  for (const word of ['互动', '影片', '档案', '服务器', '软件']) assert.equal(mainlandWord(word), word);
});

test('the tokenizer reads a note written in Taiwan and a question asked on the mainland with the same words', () => {
  const tokenizer = createTokenizer({ kind: 'auto' });
  assert.deepEqual(tokenizer.tokenize('軟體更新後網路斷了'), tokenizer.tokenize('软件更新后网络断了'));
  assert.deepEqual(tokenizer.tokenize('這個程式的原始碼在硬碟裡').filter((w) => w.length > 1), ['程序', '源代码', '硬盘']);
  // A word jieba's dictionary lacks is cut whole (伺服器, not 伺服 / 器), then read as the mainland's.
  assert.ok(tokenizer.tokenize('我們的伺服器').includes('服务器'));
  // A longer dictionary word holding a Taiwan word stays whole: 软体动物 is a mollusc, not software.
  assert.deepEqual(tokenizer.tokenize('软体动物的外壳'), ['软体动物', '外壳']);
});

describe('a note written in Taiwan and a question asked on the mainland meet, and the other way round', () => {
  let engine: Engine;
  before(async () => {
    engine = await engineOverNotes([
      ['server', '機房伺服器', '機房那台伺服器的記憶體不足，重開機之後恢復了，下週加裝兩條記憶體。'],
      ['printer', '打印机卡纸', '三楼的打印机又卡纸了，行政说换了硒鼓就好，先用二楼那台。'],
      ['firmware', '路由器固件', '路由器的固件升级到 2.4 之后，访客网络的密码被重置了。'],
    ]);
  });
  after(() => engine?.close());

  for (const [question, path, written] of [
    ['机房那台服务器下周要加装几条内存？', '2026-10-01-server.txt', null],
    ['印表機卡紙了怎麼辦？', '2026-10-02-printer.txt', ['打印机', '印表機']],
    ['路由器的韌體升級之後出了什麼事？', '2026-10-03-firmware.txt', ['固件', '韌體']],
  ] as const) {
    it(`${question} finds the note written on the other side`, async () => {
      const r = await engine.recall(question, { k: 5 });
      assert.equal(r.hits[0]?.path, path, JSON.stringify(r.explain.gate.silencedBy));
      // The explanation shows the question's word as it writes it, beside the term the index holds.
      if (written) assert.ok(r.tokens.some((t) => t.token === written[0] && t.written === written[1]), JSON.stringify(r.tokens));
    });
  }
});

test('in running text only the words no longer word holds are read as the mainland\'s', () => {
  assert.equal(comparedWording('機房那台伺服器的作業系統'), '机房那台服务器的操作系统');
  // 软体 stands inside 软体动物 (a mollusc) and 程式 inside 方程式 (an equation): as text they stay.
  assert.equal(comparedWording('软体动物和方程式'), '软体动物和方程式');
  assert.equal(comparedWording('没有台湾用语的句子'), '没有台湾用语的句子');
});
