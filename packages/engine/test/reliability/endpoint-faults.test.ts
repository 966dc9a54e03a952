// The embedding and judge endpoints failing in every way at once (429, 5xx, hangs, resets, garbage
// and cut-off JSON, wrong dimensions, 401s echoing the key): the index build finishes and names the
// batches that degraded, and a bounded loop of recalls answers every query — lexically when the
// semantic channel or the judge cannot — without an unhandled rejection or the key in any answer.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openEngine, type Engine } from '../../src/engine.ts';
import { ALL_FAULTS, startFlakyEndpoints, type FlakyServer } from './flaky-endpoints.ts';
import { diaryText, runs, seedDiaries, tempDirs } from './helpers.ts';

const KEY = 'sk-planted-embedding-key-0123456789abcdef';
const JUDGE_KEY = 'sk-planted-judge-key-fedcba9876543210';
const DIMS = 32;

/** Queries and the title each must find lexically. */
const QUERIES: [string, string][] = [
  ['东京节点 sing-box', '东京节点端口处置'],
  ['jieba 分词', '分词器选择'],
  ['前缀缓存 命中率', '前缀缓存命中率'],
  ['数据库备份 backups 目录', '数据库备份策略'],
  ['川菜馆 水煮鱼', '周末聚餐地点'],
  ['猫咪体检 体重', '猫咪体检'],
  ['茶轴 机械键盘', '键盘轴体选择'],
  ['日语 N3 语法', '日语学习进度'],
];

let server: FlakyServer;
const dirs = tempDirs('engram-faults-');
let engine: Engine;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startFlakyEndpoints({ dims: DIMS, seed: 20261101, weights: { ok: 1 } });
  seedDiaries(dirs.diaryDir, 48);
  engine = await openEngine({
    env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root, ENGRAM_EMBEDDING_KEY: KEY, ENGRAM_JUDGE_KEY: JUDGE_KEY },
    options: {
      embedding: { provider: 'openai', baseUrl: server.url, model: 'flaky-embed', dimensions: DIMS, batchSize: 4, concurrency: 2, minIntervalMs: 0, timeoutMs: 150, maxRetries: 1 },
      judge: { enabled: true, baseUrl: server.url, model: 'flaky-judge', timeoutMs: 150, concurrency: 4, threshold: 0.5 },
    },
  });
});

after(async () => {
  engine?.close();
  await server?.close();
  process.off('unhandledRejection', onUnhandled);
});

test('a full index build under faults finishes, indexes every diary, and names the degraded batches', { timeout: 120_000 }, async () => {
  // New diaries: their chunks have no vectors yet, so the build has to embed them through the faults.
  mkdirSync(join(dirs.diaryDir, '新增'), { recursive: true });
  for (let i = 0; i < 40; i++) {
    writeFileSync(join(dirs.diaryDir, '新增', `2026-11-${String((i % 28) + 1).padStart(2, '0')}-new-${i}.txt`), diaryText('10:00', `新增记录 ${i}`, `第 ${i} 篇新增记录的摘要。`, `这是第 ${i} 篇新增的记录,编号 ${i * 7919},内容各不相同以便重新嵌入。`, [`新增${i}`]));
  }
  server.setWeights({ ok: 40, 'rate-limit': 10, 'server-error': 10, hang: 5, reset: 10, garbage: 10, truncated: 5, 'wrong-dims': 5, 'unauthorized-echo': 5 });
  const report = await engine.index({ full: true });
  assert.equal(report.documents, 88, 'lexically, everything is indexed');
  assert.ok(report.semantic.degradedBatches > 0, 'with this many faults some batches degrade');
  assert.ok(report.semantic.embedded > 0, 'and some succeed');
  const named = report.warnings.filter((w) => /^semantic batch \d+ \(\d+ chunks?\) degraded: /.test(w));
  assert.equal(named.length, report.semantic.degradedBatches, `every degraded batch is named:\n${report.warnings.join('\n')}`);
  assert.ok(!JSON.stringify(report).includes(KEY), 'the key never appears in the report');

  // The endpoint recovers: an incremental pass fills in what degraded.
  server.setWeights({ ok: 1 });
  const healed = await engine.index({ full: false });
  assert.equal(healed.semantic.degradedBatches, 0);
  const status = await engine.status();
  assert.equal(status.vectors, status.chunks, 'every chunk has its vector after the endpoint recovered');
});

test(`${runs(1_000)} recalls against endpoints failing a third of the time: every query answered, lexically when needed`, { timeout: 300_000 }, async () => {
  server.setWeights(ALL_FAULTS);
  const tally = { recalls: 0, semanticRan: 0, semanticSkipped: 0, judgeApplied: 0, judgeFailed: 0, lexicalAnswers: 0 };
  const skipReasons = new Map<string, number>();
  const total = runs(1_000);
  for (let i = 0; i < total; i++) {
    const [words, title] = QUERIES[i % QUERIES.length]!;
    // Varying whitespace (which the lexical side ignores) defeats the query-embedding cache, so
    // nearly every recall really goes to the flaky endpoint.
    const query = words.replace(' ', ' '.repeat(1 + (i % 200)));
    const result = await engine.recall(query);
    tally.recalls++;
    const text = JSON.stringify(result);
    assert.ok(!text.includes(KEY) && !text.includes(JUDGE_KEY), 'a key leaked into a recall result');
    if (result.explain.semantic.ran) tally.semanticRan++;
    else {
      tally.semanticSkipped++;
      const reason = (result.explain.semantic.skipped ?? '').replace(/\d+/g, 'N').slice(0, 60);
      skipReasons.set(reason, (skipReasons.get(reason) ?? 0) + 1);
      // The lexical channel alone answers: the diary with those words is found (the seed repeats each
      // topic as 「title 第N篇」 copies, which now show once as near-duplicates: any copy is the answer).
      assert.ok(result.hits.some((h) => h.title === title || h.title.startsWith(`${title} 第`)), `“${query}” lost its lexical answer while the semantic channel was down (${result.explain.semantic.skipped})`);
      tally.lexicalAnswers++;
    }
    if (result.explain.judge?.applied) tally.judgeApplied++;
    else if (result.explain.judge) {
      tally.judgeFailed++;
      assert.equal(result.explain.judge.dropped, 0, 'a failed judge drops nothing');
    }
  }
  assert.equal(tally.recalls, total);
  assert.ok(tally.semanticSkipped > 0 && tally.semanticRan > 0, JSON.stringify(tally));
  assert.deepEqual(unhandled, [], 'no unhandled rejection');
  console.log(`# endpoint faults ${JSON.stringify({ ...tally, serverOutcomes: server.counts, skipReasons: Object.fromEntries(skipReasons) })}`);
});
