import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { estimateTokens } from '../../src/compaction/tokens.ts';
import { meaningWords, missingWords, nearMissRemovals, previewInjection, PREVIEW_RECALL_REASON } from '../../src/preview/injection.ts';
import { escapePromptVariables, renderResident } from '../../src/preview/texts.ts';
import type { RecallResult } from '../../src/recall/types.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

test('the recalled block is the engine render of the same recall, with its token count', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const query = '东京节点的 443 端口后来怎么处理的';
    const preview = await previewInjection(engine, query);
    const recalled = preview.blocks.find((b) => b.kind === 'recalled')!;
    const again = await engine.recall(query);
    assert.ok(again.hits.length > 0);
    assert.equal(recalled.text, escapePromptVariables(engine.renderInjection(again, { reason: PREVIEW_RECALL_REASON })));
    assert.equal(recalled.tokens, estimateTokens(recalled.text));
    assert.deepEqual(recalled.items.map((i) => i.docId), again.hits.map((h) => h.docId));
    assert.equal(preview.totalTokens, preview.blocks.reduce((n, b) => n + b.tokens, 0));
    assert.deepEqual(preview.blocks.map((b) => b.kind), ['resident', 'pinned', 'recalled']);
  } finally {
    engine.close();
  }
});

test('resident memories from the settings appear in the resident block, rendered as the plugin renders them', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { runtime: { memories: [{ text: '回答一律用中文', critical: true }] } });
  try {
    const preview = await previewInjection(engine, '随便问问');
    const resident = preview.blocks.find((b) => b.kind === 'resident')!;
    assert.match(resident.text, /回答一律用中文/);
    assert.equal(resident.text, renderResident(engine.config.runtime, engine.residentMemories(), { toolsAvailable: true }));
    const without = await previewInjection(engine, '随便问问', { toolsAvailable: false });
    assert.ok(without.blocks[0]!.tokens < resident.tokens, 'the tool guidance costs tokens only when the host offers the tools');
  } finally {
    engine.close();
  }
});

test('nothing recalled → the near miss names the missing words → the memory gets them → recalled', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const query = '川菜馆的停车场和包间怎么订';
    const before = await previewInjection(engine, query);
    const miss = before.nearMisses.find((m) => m.title === '周末聚餐地点');
    assert.ok(miss, 'the dinner memory is a near miss');
    assert.ok(!before.result.hits.some((h) => h.docId === miss.docId));
    assert.ok(miss.missing.length > 0);
    assert.ok(miss.missing.every((w) => miss.queryWords.includes(w)), 'only query words are reported missing');
    assert.ok(miss.queryWords.some((w) => !miss.missing.includes(w)), 'it came close because it holds some of them');
    const detail = (await engine.read(miss.docId))!;
    const added = `\n${miss.missing.map((w) => `${w}：问过店家。`).join('')}\n`;
    await engine.saveText(miss.docId, detail.raw.replace('需要提前一天电话订位。', `需要提前一天电话订位。${added}`), detail.contentHash);
    const after = await previewInjection(engine, query);
    assert.ok(after.result.hits.some((h) => h.docId === miss.docId), 'recalled once it holds the words');
    assert.ok(!after.nearMisses.some((m) => m.docId === miss.docId));
  } finally {
    engine.close();
  }
});

test('missing words: a word counts as present as a token or as text, case-insensitively', () => {
  assert.deepEqual(missingWords(['停车场', 'nginx', '包间'], new Set(['包间']), '记得 NGINX 配置'), ['停车场']);
  assert.deepEqual(missingWords([], new Set(), 'x'), []);
});

test('meaning words: weighted, typed words once, in query order', () => {
  const tokens = [
    { token: '川菜馆', weight: 1, fromAlias: false },
    { token: '的', weight: 0, fromAlias: false },
    { token: '饭店', weight: 1, fromAlias: true },
    { token: '川菜馆', weight: 1, fromAlias: false },
    { token: '包间', weight: 0.5, fromAlias: false },
  ] as RecallResult['tokens'];
  assert.deepEqual(meaningWords({ tokens }), ['川菜馆', '包间']);
});

test('near-miss removals: one per document, hits left out, at most the limit', () => {
  const removal = (docId: string, chunkId: string) => ({ gate: 'coverage' as const, chunkId, docId, title: docId, detail: '' });
  const result = {
    hits: [{ docId: 'hit' }],
    explain: { gate: { removals: [removal('a', '1'), removal('a', '2'), removal('hit', '3'), removal('b', '4'), removal('c', '5')] } },
  } as unknown as RecallResult;
  assert.deepEqual(nearMissRemovals(result).map((r) => r.docId), ['a', 'b', 'c']);
  assert.deepEqual(nearMissRemovals(result, 2).map((r) => r.docId), ['a', 'b']);
  assert.deepEqual(nearMissRemovals({ hits: [], explain: {} } as unknown as RecallResult), [], 'an explanation without gate details reads as none');
});

test('word search finds a memory by a word only its body holds, once, with the words it matched', async () => {
  const { searchMemories } = await import('../../src/preview/search.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    // 水煮鱼 is only in the dinner memory's body (not its title, summary or tags).
    const found = await searchMemories(engine, '水煮鱼');
    const list = await engine.list();
    const dinner = list.find((m) => m.title === '周末聚餐地点')!;
    assert.ok(!`${dinner.title}${dinner.summary}${dinner.tags.join('')}`.includes('水煮鱼'));
    assert.deepEqual(found.hits.map((h) => h.docId), [dinner.docId]);
    assert.ok(found.hits[0]!.matched.some((m) => m.token === '水煮鱼' && m.fields.includes('body')));
    const two = await searchMemories(engine, '数据库 川菜馆');
    assert.equal(new Set(two.hits.map((h) => h.docId)).size, two.hits.length, 'one entry per memory');
    assert.ok(two.hits.length >= 2);
    assert.deepEqual((await searchMemories(engine, '   ')).hits, []);
  } finally {
    engine.close();
  }
});

test('near misses: one holding some query words comes before one only the embedding found, then by probability', async () => {
  const { closestFirst } = await import('../../src/preview/injection.ts');
  const m = (id: string, missing: string[], probability: number | null) => ({ id, queryWords: ['甲', '乙'], missing, probability });
  const order = closestFirst([m('embedding-only', ['甲', '乙'], 0.4), m('low', ['乙'], 0.1), m('high', ['乙'], 0.6), m('none', ['甲'], null)]).map((x) => x.id);
  assert.deepEqual(order, ['high', 'low', 'none', 'embedding-only']);
});

test('workspace levels: every level with its text and token cost, the one in effect marked, the hint only with tools', async () => {
  const { previewWorkspaceLevels } = await import('../../src/preview/workspace-levels.ts');
  const { WORKSPACE_HINT } = await import('../../src/preview/texts.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { workspace: { inject: 'index', injectMaxItems: 3 } });
  try {
    const preview = await previewWorkspaceLevels(engine);
    const by = Object.fromEntries(preview.levels.map((l) => [l.level, l]));
    assert.deepEqual(Object.keys(by), ['hint', 'index', 'full', 'off']);
    assert.equal(preview.current, 'index');
    assert.deepEqual(preview.levels.filter((l) => l.current).map((l) => l.level), ['index']);
    assert.equal(by.hint!.text, WORKSPACE_HINT);
    assert.equal(by.hint!.tokens, estimateTokens(WORKSPACE_HINT));
    assert.deepEqual([by.off!.text, by.off!.tokens], ['', 0]);
    assert.equal(by.index!.items.length, 3, 'index lists injectMaxItems at most');
    assert.ok(by.index!.total > 3);
    assert.match(by.index!.text, new RegExp(`另有 ${by.index!.total - 3} 条未列出`));
    assert.equal(by.index!.tokens, estimateTokens(by.index!.text));
    assert.ok(by.full!.tokens >= by.index!.tokens, 'full gives whole summaries');
    const noTools = await previewWorkspaceLevels(engine, null, { toolsAvailable: false });
    assert.equal(noTools.levels.find((l) => l.level === 'hint')!.tokens, 0, 'the hint points at tools the host does not offer');
  } finally {
    engine.close();
  }
});

test('word search finds a word inside a longer one the tokenizer kept whole (长城 in 万里长城), after the memories holding it as a word', async () => {
  const { searchMemories } = await import('../../src/preview/search.ts');
  const dirs = tempDirs();
  writeFileSync(join(dirs.diaryDir, '2026-10-01-wall.txt'), '[09:00] 周末爬山\n\n> 去了八达岭。\n\n周末去爬了万里长城,人很多。\n\nTag: 出游\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-02-word.txt'), '[09:00] 长城的历史\n\n> 读书笔记。\n\n长城 修建于多个朝代。\n\nTag: 读书\n');
  writeFileSync(join(dirs.diaryDir, '2026-10-03-other.txt'), '[09:00] 城市规划\n\n> 长沙的城区。\n\n长沙 城区 扩建。\n\nTag: 城市\n');
  const engine = await openTestEngine(dirs);
  try {
    const list = await engine.list();
    const idOf = (title: string) => list.find((m) => m.title === title)!.docId;
    const found = await searchMemories(engine, '长城');
    assert.deepEqual(found.hits.map((h) => h.docId), [idOf('长城的历史'), idOf('周末爬山')], 'the word first, then the longer word holding it; not 长 … 城 apart');
    assert.ok(found.hits[1]!.matched.some((m) => m.token === '长城'), 'marked as the word searched');
  } finally {
    engine.close();
  }
});
