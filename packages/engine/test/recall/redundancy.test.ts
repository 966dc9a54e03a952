// A note that only repeats the sentences a question matches in a better-ranked note is moved down, so
// the injected memory is not five copies of one sentence and the note that says more gets its slot.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recallJson, recallText } from '../../src/cli/output.ts';
import { demoteRedundant, matchingSentences } from '../../src/recall/redundancy.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

test('the sentences that hold a query word, lower-cased, each once', () => {
  const s = matchingSentences('Nginx 占用了 443 端口。停掉 nginx 之后恢复！天气很好。\n端口改成 8443', ['nginx', '端口']);
  assert.deepEqual([...s], ['nginx 占用了 443 端口', '停掉 nginx 之后恢复', '端口改成 8443']);
  assert.equal(matchingSentences('没有关系的一句话。', ['端口']).size, 0);
});

test('a Latin query word matches the way the index reads words: by its stem, and inside a code identifier', () => {
  // The query's "studies" is the term "studi"; a sentence saying "study" holds it too.
  const s = matchingSentences('We ran the study twice. Lunch was late. The getUserName call failed.', ['studi', 'user']);
  assert.deepEqual([...s], ['we ran the study twice', 'the getusername call failed']);
  assert.equal(matchingSentences('A studio apartment.', ['studi']).size, 0, 'a word whose stem differs is not a match, though it starts the same');
});

test('a candidate whose matching sentences a better one holds goes after the others, in order; one that adds a sentence stays', () => {
  const texts: Record<string, string> = {
    a: '老周负责防火墙。今天开会。',
    b: '老周负责防火墙。午饭吃面。',
    c: '老周负责防火墙。防火墙规则迁到了 nftables。',
    d: '防火墙规则迁到了 nftables。报销单已交。',
    e: '只和语义有关的一段话。',
    f: '老周负责防火墙。',
  };
  const { ordered, moves } = demoteRedundant(Object.keys(texts), (id) => texts[id], ['防火墙', 'nftables']);
  assert.deepEqual(ordered, ['a', 'c', 'e', 'b', 'd', 'f']);
  assert.deepEqual(moves.map((m) => [m.moved, m.coveredBy, m.sentences]), [['b', 'a', 1], ['d', 'c', 1], ['f', 'a', 1]]);
  // Nothing to compare: no query word, or a window of one.
  assert.deepEqual(demoteRedundant(['a', 'b'], (id) => texts[id], []).ordered, ['a', 'b']);
  assert.deepEqual(demoteRedundant(['a', 'b', 'c'], (id) => texts[id], ['防火墙'], 1).ordered, ['a', 'b', 'c']);
});

test('recall: notes that repeat one sentence of a longer note take one slot, and the note that answers gets another', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const shared = '东京节点的防火墙规则由运维组的老周负责维护。';
  const others = ['下午的周会改到三点开始。', '采购的显示器下周二到货。', '午饭订了楼下的兰州拉面。', '报销单要在月底前交给财务。'];
  others.forEach((line, i) => writeFileSync(join(dirs.diaryDir, `2026-10-2${i + 5}-copy${i}.txt`), diary(`1${i}:00`, `杂记 ${i + 1}`, line, `${line}${shared}`, ['杂记'])));
  const answer = '上个月他把这些规则迁移到了 nftables，旧的 iptables 脚本归档在 ops 仓库的 legacy 目录。';
  writeFileSync(join(dirs.diaryDir, '2026-10-10-firewall.txt'), diary('09:00', '运维变更记录', '上个月的一次迁移。', `${shared}${answer}以后每次变更都要先在测试机上验证，再在周五晚上发布。`, ['运维']));
  const engine = await openTestEngine(dirs);
  try {
    const r = await engine.recall('东京节点的防火墙规则由谁维护？', { k: 2 });
    const titles = r.hits.map((h) => h.title);
    assert.ok(titles.includes('运维变更记录'), `the longer note is among the hits: ${titles.join(' / ')}`);
    assert.ok(titles.filter((t) => t.startsWith('杂记')).length <= 1, 'the copies of one sentence take one slot at most');
    const moved = r.explain.redundant ?? [];
    assert.ok(moved.length >= 3, `the other copies are moved down and say why: ${JSON.stringify(moved)}`);
    for (const m of moved) assert.ok(m.title.startsWith('杂记') && m.sentences >= 1);
    assert.match(r.explain.stages.find((s) => s.name === 'collapse')?.note ?? '', /moved down/);
    // The CLI's explanation says it too (engram recall, --json).
    assert.deepEqual(recallJson(r).redundant, moved);
    assert.equal(recallText(r).split('\n').filter((l) => l.startsWith('moved down: 杂记')).length, moved.length);
  } finally {
    engine.close();
  }
});
