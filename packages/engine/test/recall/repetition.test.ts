// Issue 26: recall must not punish repetition (near duplicates count once for the gates and show once,
// "also noted N times"), and the Chinese gate's misses are fixed at their root (single-character names
// count, strong agreement of both channels overrides the query gate).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nearDuplicate, nearDuplicateGroups, shingles } from '../../src/recall/near-duplicates.ts';
import { QUERY_FEATURES, type Evidence } from '../../src/recall/hybrid-gate.ts';
import { applyGates, collapseNearDuplicates, coverageOf, isAskingWord, queryWeights, type Candidate } from '../../src/recall/scoring.ts';
import { documentFrequencyOf, redundantCopies, termRarity } from '../../src/recall/term-rarity.ts';
import { bm25Idf } from '../../src/lexical/bm25.ts';
import type { QueryToken } from '../../src/recall/types.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

const FACT = ['小雨的生日是五月三日。', '她最喜欢吃草莓蛋糕。', '每年生日我们都去海边那家餐厅庆祝。', '今年打算送她一台胶片相机。', '记得提前一周预订餐厅的靠窗位置。'];
const dropOne = (k: number) => FACT.filter((_, j) => j !== k % FACT.length).join('');

test('a copy with one sentence dropped is a near duplicate; a note sharing one sentence, or a line inside a long diary, is not', () => {
  const original = shingles(FACT.join(''));
  assert.equal(nearDuplicate(original, shingles(dropOne(2))), true);
  const mixed = shingles(`${FACT[0]}今天的会议讨论了下个季度的预算安排和招聘计划，大家意见不一。`);
  assert.equal(nearDuplicate(original, mixed), false);
  assert.equal(nearDuplicate(original, shingles(FACT[0] as string)), false, 'a short note contained in a longer one is its own note');
});

test('near-duplicate groups link copies through each other and leave unique notes out', () => {
  const items = [
    { id: 'a', text: FACT.join('') },
    { id: 'x', text: '东京节点的443端口被防火墙封了，改用8443端口之后恢复。' },
    { id: 'b', text: dropOne(0) },
    { id: 'c', text: dropOne(4) },
  ];
  assert.deepEqual(nearDuplicateGroups(items), [{ members: ['a', 'b', 'c'] }]);
  assert.deepEqual(nearDuplicateGroups(items.slice(0, 2)), []);
});

test('document frequency for the gates counts a near-duplicate group once; the language table lifts words the store sees often', () => {
  const n = 1000;
  assert.equal(documentFrequencyOf(bm25Idf(n, 31), n), 31);
  const groups = [['a', 'b', 'c'], ['d', 'e']];
  const holds = (id: string, t: string) => t === '小雨' && id !== 'e';
  assert.equal(redundantCopies('小雨', groups, holds), 2);
  const copies = termRarity({ token: '小雨', storeIdf: bm25Idf(n, 31), chunkCount: n, redundant: 30, languageIdf: null }, 12);
  assert.equal(copies.groupedDf, 1);
  assert.equal(copies.source, 'store');
  assert.ok(copies.idf > copies.storeIdf);
  // A word the table knows as rare keeps a share of that rarity however many distinct notes hold it.
  const known = termRarity({ token: '胶片', storeIdf: bm25Idf(n, 400), chunkCount: n, redundant: 0, languageIdf: 11 }, 12);
  assert.equal(known.source, 'language');
  assert.ok(known.idf > known.storeIdf);
  const common = termRarity({ token: '公司', storeIdf: bm25Idf(n, 5), chunkCount: n, redundant: 0, languageIdf: 3 }, 12);
  assert.equal(common.source, 'blend');
  assert.equal(common.idf, common.storeIdf);
});

const tok = (token: string): QueryToken => ({ token, idf: 3, weight: 1, distinctive: true, fromAlias: false });

test('a single character that is rare in the language (a one-character name) counts toward coverage; a common one does not', () => {
  const table = new Map([['父亲', 6], ['是', 1.7], ['谁', 4.6], ['国', 6]]);
  const weights = queryWeights(['晏', '父亲', '谁', '国'].map(tok), table, 12, 8, 'function', (c) => c === '是');
  assert.equal(weights.get('晏'), 12);
  assert.equal(weights.has('国'), false);
  // A note naming 晏 explains more of "晏的父亲是谁" than one that only says 父亲.
  const withName = coverageOf([{ token: '晏', idf: 5, fields: ['body'] }, { token: '父亲', idf: 3, fields: ['body'] }], weights, new Set());
  const without = coverageOf([{ token: '父亲', idf: 3, fields: ['body'] }], weights, new Set());
  assert.ok(withName > without);
});

test('words that ask (哪一年, 由谁, 几层) do not weigh: the note that answers holds the answer, not the question word', () => {
  const table = new Map([['出版', 7]]);
  const weights = queryWeights(['哪一年', '出版', '由谁', '几层'].map(tok), table, 12, 8, 'function', () => false);
  assert.deepEqual([...weights.keys()], ['出版']);
  assert.equal(isAskingWord('哪吒'), true, 'judged only when the table does not know the word');
  assert.equal(queryWeights([tok('哪吒')], new Map([['哪吒', 9]]), 12, 8).get('哪吒'), 9);
});

const ev = (o: Partial<Evidence>): Evidence => ({ lexical: 1, coverage: 0.8, rarity: 0.9, z: 2, semantic: 1, semInvRank: 1, lexInvRank: 1, zTop: 3, margin: 0.5, p: 0.3, ...o });
const cand = (id: string, lex: number, sem: number, e: Evidence): Candidate => ({
  chunkId: id, docId: id, lexical: { score: 1, rank: lex }, semantic: { score: 0.6, rank: sem },
  matched: [{ token: '司马', idf: 5, fields: ['body'] }], coverage: e.coverage, fused: 1, decay: 1, score: 1 / lex, folded: 0, evidence: e,
});

test('both channels ranking the same candidate first keep a question the query gate doubts, unless it finds it hopeless; without that agreement it silences', () => {
  // q = sigmoid(10 maxP − 5): maxP 0.3 → 0.12, below the bar 0.5 and above the agreement bar 0.1.
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const ctx = { distinctive: new Set(['司马', '儿子']), semanticRan: true, cfg: { minSemantic: 0, requireSemantic: false, minCoverage: 0.3 }, titleOf: () => '', maxIdf: 6, queryGate: { weights, threshold: 0.5, agreementBar: 0.1 } };
  const agreeing = [cand('a', 1, 1, ev({ lexInvRank: 1, semInvRank: 1 })), cand('b', 2, 2, ev({ p: 0.05, lexInvRank: 0.5, semInvRank: 0.5 }))];
  const kept = applyGates(agreeing, ctx);
  assert.equal(kept.kept.map((c) => c.chunkId).join(), 'a');
  assert.equal(kept.queryGate?.overriddenBy, 'channels agree');
  const split = [cand('a', 1, 2, ev({ semInvRank: 0.5 })), cand('b', 2, 1, ev({ p: 0.2, lexInvRank: 0.5 }))];
  assert.equal(applyGates(split, ctx).kept.length, 0);
  // Hopeless (maxP 0.2 → q 0.05, below the agreement bar): agreement does not keep it.
  const hopeless = [cand('a', 1, 1, ev({ p: 0.2, lexInvRank: 1, semInvRank: 1 })), cand('b', 2, 2, ev({ p: 0.05, lexInvRank: 0.5, semInvRank: 0.5 }))];
  assert.equal(applyGates(hopeless, ctx).kept.length, 0);
  // A gate without an agreement bar judges agreeing channels like any others.
  assert.equal(applyGates(agreeing, { ...ctx, queryGate: { weights, threshold: 0.5 } }).kept.length, 0);
});

test('agreement keeps a doubted question only in a store large enough for it to mean something', () => {
  // In a store of a few hundred notes the one note on a subject is first in both channels whether or not it answers.
  const weights = [-5, 10, ...QUERY_FEATURES.slice(1).map(() => 0)];
  const gate = { weights, threshold: 0.5, agreementBar: 0.1, agreementFrom: 600 };
  const ctx = { distinctive: new Set(['司马', '儿子']), semanticRan: true, cfg: { minSemantic: 0, requireSemantic: false, minCoverage: 0.3 }, titleOf: () => '', maxIdf: 6, queryGate: gate };
  const agreeing = [cand('a', 1, 1, ev({ lexInvRank: 1, semInvRank: 1 })), cand('b', 2, 2, ev({ p: 0.05, lexInvRank: 0.5, semInvRank: 0.5 }))];
  const small = applyGates(agreeing, { ...ctx, chunkCount: 200 });
  assert.equal(small.kept.length, 0);
  assert.match(small.removals[0]?.detail ?? '', /channels agree, which counts from 600 chunks \(this store: 200\)/);
  assert.equal(applyGates(agreeing, { ...ctx, chunkCount: 599 }).kept.length, 0);
  const large = applyGates(agreeing, { ...ctx, chunkCount: 600 });
  assert.equal(large.kept.map((c) => c.chunkId).join(), 'a');
  assert.equal(large.queryGate?.overriddenBy, 'channels agree');
});

test('collapse shows a near-duplicate group once, counting the others', () => {
  const c = (id: string, score: number): Candidate => ({ chunkId: id, docId: id, lexical: null, semantic: null, matched: [], coverage: 1, fused: score, decay: 1, score, folded: 0 });
  const { kept, folded } = collapseNearDuplicates([c('a', 1), c('b', 3), c('x', 2), c('c', 0.5)], [['a', 'b', 'c']]);
  assert.deepEqual(kept.map((k) => [k.chunkId, k.duplicates ?? 0]), [['b', 2], ['x', 0]]);
  assert.deepEqual(folded, [{ kept: 'b', folded: ['a', 'c'] }]);
});

const dirs = tempDirs();
after(() => rmSync(dirs.root, { recursive: true, force: true }));

test('a fact noted many times among other notes is recalled once, with how often it was noted and why', async () => {
  const topics = ['预算', '招聘', '服务器迁移', '周报', '年会', '报销', '培训', '合同', '采购', '出差', '面试', '季度目标', '客户拜访', '产品发布', '代码评审', '数据库备份', '机房断电', '域名续费', '版本冻结', '性能测试'];
  mkdirSync(join(dirs.diaryDir, 'notes'), { recursive: true });
  topics.forEach((t, i) => writeFileSync(join(dirs.diaryDir, 'notes', `2026-10-${String((i % 28) + 1).padStart(2, '0')}-n${i}.txt`), `[10:00] ${t}\n\n今天处理了${t}相关的事情，和同事讨论了${t}的进度安排，下周继续跟进${t}。\n`));
  for (let k = 0; k < 24; k++) writeFileSync(join(dirs.diaryDir, 'notes', `2026-10-${String((k % 28) + 1).padStart(2, '0')}-fact${k}.txt`), `[20:00] 小雨\n\n${k === 0 ? FACT.join('') : dropOne(k)}\n`);
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' } });
  try {
    await engine.index({ full: true });
    const r = await engine.recall('小雨的生日是哪天', { k: 5 });
    assert.ok(r.hits.length >= 1, `silenced: ${JSON.stringify(r.explain.gate.silencedBy ?? r.explain.gate.byGate)}`);
    const facts = r.hits.filter((h) => h.path.includes('fact'));
    assert.equal(facts.length, 1, 'the copies show once');
    assert.ok((facts[0]!.duplicates ?? 0) >= 10, `duplicates: ${facts[0]!.duplicates}`);
    const term = r.explain.terms?.find((t) => t.token === '小雨');
    assert.ok(term?.rarity && term.rarity.groupedDf < term.rarity.storeDf, JSON.stringify(term));
    assert.ok((r.explain.nearDuplicates ?? []).some((g) => g.folded.length >= 10));
    // A question the notes do not answer still gets nothing, and the explanation names the rule.
    const none = await engine.recall('公司年会的抽奖奖品是什么', { k: 5 });
    if (none.hits.length === 0 && none.explain.gate.removed > 0) assert.ok(none.explain.gate.silencedBy?.rule);
  } finally {
    engine.close();
  }
});

test('near-duplicates of different layers (a workspace and global) are never grouped', () => {
  const text = '部署脚本失败时先执行 rollback.sh,再清理 releases 目录里最新的一份,最后重启 supervisor。';
  assert.equal(nearDuplicateGroups([{ id: 'a', text, layer: 'ws-a' }, { id: 'b', text, layer: 'global' }]).length, 0);
  assert.deepEqual(nearDuplicateGroups([{ id: 'a', text, layer: 'ws-a' }, { id: 'b', text, layer: 'ws-a' }]).map((g) => g.members), [['a', 'b']]);
});
