// A line of small talk made of words about the conversation in hand ("revert it", "just a sec",
// "lol", 先暂停) recalled the note that happened to hold that word: each weighs above the vague-query
// bar alone (revert 12, lol 12, 暂停 7.6 in the general tables). Those words stay terms — a question
// about the revert still finds its note — and only stop counting toward how much a query says.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { recallJson, recallText } from '../../src/cli/output.ts';
import { queryInformation } from '../../src/recall/scoring.ts';
import { asksInChinese, asksInEnglish, isTalkWord, opensWithQuestionWord } from '../../src/text/talk-words.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

describe('words about the conversation in hand do not make a query say something', () => {
  let engine: Engine;
  before(async () => {
    const dirs = tempDirs();
    const day = (i: number) => `2026-10-${String((i % 28) + 1).padStart(2, '0')}`;
    const notes: [string, string, string][] = [
      ['schema-revert', 'Schema migration reverted', 'We had to revert the orders schema migration 0042 on prod-east after it locked the orders table for nine minutes; lol, the lock timeout was still the default.'],
      ['pause-job', '暂停夜间任务', '先暂停了夜间的对账任务，等数据库升级完再恢复，负责人是老周。'],
      ['redis', 'Redis eviction', 'The cache cluster uses allkeys-lru eviction with maxmemory 12gb; the sessions live in a separate instance, and a failover takes about one sec.'],
      ['budget', 'Error budget', 'The checkout service error budget is 0.1 % a month; the pager fires when a quarter of it burns in a day.'],
      ['anniversary', 'Anniversary dinner', 'For our anniversary we booked the rooftop place on Elm Street, Saturday at eight.'],
      ['kubeadm', 'Cluster upgrade', 'The lab cluster was upgraded with kubeadm; the join token lives in the team vault.'],
      ['titles', 'Page titles', 'The docs site now uses shorter page titles so the sidebar fits in 300 px.'],
      ['wiki', '知识库迁移', '团队知识库从旧的维基迁到了新的文档系统，链接在群公告里，页面标题比以前短，感谢小李整理。'],
      ['standup', '站会改时间', '每天的站会从九点半改到十点开会，地点换到三楼的小会议室。'],
      ['kunpeng', '编译机', '新的编译机是昇腾服务器，缓存目录放在数据盘上。'],
    ];
    for (let i = 0; i < 40; i++) notes.push([`filler-${i}`, `周报 ${i}`, `第${i}周：修了${i % 5}个缺陷，评审了${i % 3}个合并请求，会议${i % 4}次。`]);
    notes.forEach(([id, title, body], i) => writeFileSync(join(dirs.diaryDir, `${day(i)}-${id}.txt`), diary('09:00', title, title, body, ['work'])));
    engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, timeDecay: { enabled: false } });
    await engine.index({ full: true });
  });
  after(() => engine?.close());

  it('the words are known as the tokenizer spells them (English stemmed), and leave the query\'s information', () => {
    for (const term of ['revert', 'lol', 'sec', 'shorter', '暂停', '感谢']) assert.equal(isTalkWord(term), true, term);
    for (const term of ['password', 'server', 'migrat', 'redis', '数据库', '回滚']) assert.equal(isTalkWord(term), false, term);
    // A talk word whose stem is another word stays out: evening → even, tired → tire, excellent → excel.
    for (const term of ['even', 'tire', 'excel', 'near', 'exact', 'interest']) assert.equal(isTalkWord(term), false, term);
    const { information, talkWords } = queryInformation(new Map([['revert', 12], ['migrat', 9]]));
    assert.equal(information, 9);
    assert.deepEqual(talkWords, ['revert']);
  });

  for (const line of ['revert it', 'lol', 'just a sec', 'shorter please', '先暂停', '感谢']) {
    it(`"${line}" injects nothing, and says which words it did not count`, async () => {
      const r = await engine.recall(line, { k: 5 });
      assert.deepEqual(r.hits.map((h) => h.path), []);
      assert.equal(r.explain.gate.silencedBy?.rule, 'vague-query', JSON.stringify(r.explain.gate.silencedBy));
      assert.match(r.explain.gate.silencedBy?.detail ?? '', /\(not counted, about the conversation: \S[^)]*\), so nothing is injected$/);
      // Each word says in the explanation whether it counted (the console's Recall debug shows it).
      const talk = r.explain.terms?.filter((t) => t.talk).map((t) => t.token) ?? [];
      assert.ok(talk.length > 0 && talk.every((w) => r.explain.gate.silencedBy?.detail.includes(w)), JSON.stringify(r.explain.terms));
    });
  }

  for (const [line, path] of [
    ['revert the orders schema migration', '2026-10-01-schema-revert.txt'],
    ['why did we revert migration 0042?', '2026-10-01-schema-revert.txt'],
    ['暂停了哪个夜间任务', '2026-10-02-pause-job.txt'],
  ] as const) {
    it(`"${line}" still finds the note that holds the talk word`, async () => {
      const r = await engine.recall(line, { k: 5 });
      assert.equal(r.hits[0]?.path, path, JSON.stringify(r.explain.gate.silencedBy));
      assert.ok(r.hits[0]?.matched.some((m) => isTalkWord(m.token)), 'the talk word is still a term the note matched on');
    });
  }

  it('an English line whose information is one everyday word alone injects nothing; one rarer word, or two words, still ask', async () => {
    const lone = await engine.recall('same error', { k: 5 });
    assert.deepEqual(lone.hits.map((h) => h.path), []);
    assert.match(lone.explain.gate.silencedBy?.detail ?? '', /^the query carries too little information \(\d+\.\d < 10\) for one English word alone, so nothing is injected$/);
    assert.equal((await engine.recall('kubeadm?', { k: 5 })).hits[0]?.path, '2026-10-06-kubeadm.txt');
    assert.equal((await engine.recall('error budget', { k: 5 })).hits[0]?.path, '2026-10-04-budget.txt');
  });

  it('engram recall prints the language, the words not counted and the rule; --json carries them', async () => {
    const r = await engine.recall('revert it', { k: 5 });
    const text = recallText(r);
    assert.match(text, /^language: en \(semantic weight [\d.]+\)$/m);
    assert.match(text, /^about the conversation, not counted: revert$/m);
    assert.match(text, /^silenced by vague-query: /m);
    const json = recallJson(r);
    assert.equal(json.gate.silencedBy?.rule, 'vague-query');
    assert.equal(json.language?.query, 'en');
    assert.deepEqual(json.terms?.filter((t) => t.talk).map((t) => t.token), ['revert']);
  });

  it('typed as a search, a talk word or one everyday word alone still finds its note', async () => {
    assert.equal((await engine.recall('revert', { k: 5 })).hits.length, 0, 'as a message: small talk');
    assert.equal((await engine.recall('revert', { k: 5, typedAs: 'search' })).hits[0]?.path, '2026-10-01-schema-revert.txt');
    assert.equal((await engine.recall('暂停', { k: 5, typedAs: 'search' })).hits[0]?.path, '2026-10-02-pause-job.txt');
    const error = await engine.recall('error', { k: 5, typedAs: 'search' });
    assert.equal(error.hits[0]?.path, '2026-10-04-budget.txt', JSON.stringify(error.explain.gate.silencedBy));
    assert.equal(error.explain.terms?.some((t) => t.talk), false);
  });

  it('a line that opens with a question word asks about its one word', async () => {
    assert.equal(opensWithQuestionWord("Where's the dinner?"), true);
    assert.equal(opensWithQuestionWord('same error'), false);
    const r = await engine.recall('where are we going for our anniversary?', { k: 5 });
    assert.equal(r.hits[0]?.path, '2026-10-05-anniversary.txt', JSON.stringify(r.explain.gate.silencedBy));
    assert.equal((await engine.recall('our anniversary, lol', { k: 5 })).hits.length, 0, 'the same word alone, not asked, is small talk');
  });

  it('an English line asks with a question mark, or a question word, an auxiliary verb or a request for a memory first; a statement does not', () => {
    for (const q of ['the backup finished?', 'is the backup done', "didn't we pick postgres", 'can you find the router password', 'remind me what we decided about the standup', 'Which database did we pick', 'anyone seen the deploy key'])
      assert.equal(asksInEnglish(q), true, q);
    for (const s of ['the dog needs a walk', 'my laptop battery is swelling again', 'isolated the bug in the parser', 'cannot wait for friday', 'finding it hard to focus', 'ok do the thing'])
      assert.equal(asksInEnglish(s), false, s);
  });

  it('a Chinese line whose information is one everyday word alone injects nothing; a question, a search, a rarer word or two words still ask', async () => {
    // 明天要开会 is about the day, not about a note: in a store of 20,000 notes it recalled whichever one held 开会.
    for (const line of ['明天要开会', '开会了']) {
      const r = await engine.recall(line, { k: 5 });
      assert.deepEqual(r.hits.map((h) => h.path), [], line);
      assert.equal(r.explain.gate.silencedBy?.rule, 'vague-query', line);
      assert.match(r.explain.gate.silencedBy?.detail ?? '', /^the query carries too little information \(\d+\.\d < 10\) for one word alone, so nothing is injected$/, line);
    }
    assert.equal(asksInChinese('开会改到几点？'), true);
    assert.equal(asksInChinese('开会在哪个会议室'), true);
    assert.equal(asksInChinese('明天要开会'), false);
    const standup = '2026-10-09-standup.txt';
    for (const line of ['开会改到几点？', '开会在哪个会议室']) assert.equal((await engine.recall(line, { k: 5 })).hits[0]?.path, standup, line);
    assert.equal((await engine.recall('开会', { k: 5, typedAs: 'search' })).hits[0]?.path, standup, 'a search');
    { const two = await engine.recall('开会换了会议室', { k: 5 }); assert.equal(two.hits[0]?.path, standup, JSON.stringify([two.explain.terms, two.explain.gate.silencedBy])); }
    const rare = await engine.recall('昇腾', { k: 5 });
    assert.equal(rare.hits[0]?.path, '2026-10-10-kunpeng.txt', JSON.stringify(rare.explain.terms));
    // Every other language keeps its own rule: an English line still meets recall.english's bar.
    assert.match((await engine.recall('same error', { k: 5 })).explain.gate.silencedBy?.detail ?? '', / for one English word alone, /);
  });
});
