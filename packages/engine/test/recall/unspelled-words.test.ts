// A Chinese word ranks with its characters as well (text/grams.ts), so a word with no CJK character —
// an English word, a number, a code identifier — has one spelling where a Chinese word has two. In
// the 20,000-note store, 能给我介绍一下什么是BCPL么 ranked the one note on BCPL below thirty notes that
// only say 介绍: the word and its characters 介 and 绍 outweighed the rarest word of the question.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { describeTokens } from '../../src/recall/scoring.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

const GATES_OFF = { minCoverage: 0, minSpecificity: 0, minQueryInformation: 0, minTokenIdf: 0, hybridGate: { queryGate: 'off' } };

async function mixedStore(): Promise<Engine> {
  const dirs = tempDirs();
  // A store where 介绍 is about as rare as at 20,000 notes (one note in twenty) and its characters are
  // commoner than the word, as they are in real text (绍兴, 中介); the one note that names the
  // language asked about says it once, in a longer text.
  const day = (i: number) => `2026-10-${String((i % 28) + 1).padStart(2, '0')}`;
  const dishes = ['水煮鱼', '麻婆豆腐', '绍兴醉鸡', '宫保鸡丁', '酸菜鱼', '担担面', '小笼包', '北京烤鸭'];
  for (let i = 0; i < 200; i++) {
    writeFileSync(join(dirs.diaryDir, `${day(i)}-meal-${i}.txt`), diary('12:00', `午饭 ${i}`, `吃了${dishes[i % 8]}。`, `中午和同事去楼下吃了${dishes[i % 8]}，排队${i % 30}分钟，味道${i % 2 ? '不错' : '一般'}${i % 4 === 1 ? '，邻桌在聊房屋中介' : ''}。`, ['午饭']));
  }
  for (let i = 0; i < 10; i++) {
    writeFileSync(join(dirs.diaryDir, `${day(i)}-intro-${i}.txt`), diary('09:00', `新同事 ${i}`, `部门例会。`, `今天的例会上，第${i}位新同事介绍了自己以前做过的项目和擅长的方向，大家都很欢迎。`, ['同事']));
  }
  writeFileSync(join(dirs.diaryDir, '2026-10-30-bcpl.txt'), diary('09:00', '编程语言的历史', '读书笔记。', '读了一本讲编程语言历史的书：BCPL 是 C 语言的前身之一，1966 年由剑桥大学设计，书里用了很多篇幅讲它的编译器和可移植性，以及它对后来各种系统语言的影响。', ['读书']));
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, timeDecay: { enabled: false }, recall: GATES_OFF });
  await engine.index({ full: true });
  return engine;
}

describe('a word without a CJK character weighs as a Chinese word with its characters', () => {
  it('the weight reads the tokenizer\'s script table: kana and Hangul words are spelled again as characters, a single character keeps the index\'s own weight', () => {
    const words = ['东京', 'カメラ', '서울', 'あ', '𠀋', 'bcpl', '8443', 'get_user'];
    const tokens = describeTokens(words.map((token) => ({ token, fromAlias: false })), () => 5, true, { minTokenLen: 2, minTokenIdf: 0, singleCharWeight: 0.15 });
    assert.deepEqual(tokens.map((t) => t.weight), [1, 1, 1, 0.15, 0.15, 2, 2, 2]);
    // A word an alias added ranks at 1 whatever its script.
    assert.equal(describeTokens([{ token: 'bcpl', fromAlias: true }], () => 5, true, { minTokenLen: 2, minTokenIdf: 0, singleCharWeight: 0.15 })[0]?.weight, 1);
  });

  const open: Engine[] = [];
  after(() => open.forEach((e) => e.close()));

  it('the one note naming an English term ranks first in the words\' channel for a Chinese question about it', async () => {
    const engine = await mixedStore();
    open.push(engine);
    const r = await engine.recall('能给我介绍一下什么是BCPL么？', { k: 5 });
    const bcpl = r.hits.find((h) => h.path === '2026-10-30-bcpl.txt');
    assert.equal(bcpl?.channels.lexical?.rank, 1, r.hits.map((h) => `${h.path} ${h.channels.lexical?.rank} ${h.channels.lexical?.score.toFixed(2)}`).join(', '));
    // The explanation's query words say the weight each ranked with.
    assert.deepEqual(r.tokens.map((t) => [t.token, t.weight]), [['介绍', 1], ['bcpl', 2]]);
    // …and first of all: the note repeats the question's English word, as the others repeat its 介绍 (recall/phrase.ts).
    assert.equal(r.hits[0], bcpl, r.hits.map((h) => `${h.path} phrase ${h.channels.phrase?.toFixed(3)}`).join(', '));
    assert.ok((bcpl?.channels.phrase ?? 0) > 0);
  });
});
