// The conversation is never blocked by the remote endpoints: the plugin runs in the simulated DSH
// host with its embedding and judge endpoints failing a third of the time (429, 5xx, hangs, resets,
// garbage, wrong dimensions, key-echoing 401s). Every turn completes, the person's question still
// gets its diary (lexically when needed), and no key reaches a model request or a log line.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ALL_FAULTS, startFlakyEndpoints, type FlakyServer } from '../../../packages/engine/test/reliability/flaky-endpoints.ts';
import { loadPlugin, recallMessages } from './helpers.ts';

const KEY = 'sk-planted-plugin-embed-5a5a5a5a5a5a';
const JUDGE_KEY = 'sk-planted-plugin-judge-6b6b6b6b6b6b';
let server: FlakyServer;

before(async () => {
  server = await startFlakyEndpoints({ dims: 32, seed: 99, weights: { ok: 1 } });
});
after(async () => {
  await server.close();
});

const QUESTIONS: [string, string][] = [
  ['东京节点的端口后来改成多少了?', '东京节点端口处置'],
  ['数据库迁移脚本要注意什么?', '数据库迁移复盘'],
  ['服务器备份策略是怎样的?', '服务器备份策略'],
  ['报销发票有什么规则?', '发票报销规则'],
  ['猫咪体检上次体重多少?', '猫咪体检'],
];

test('every turn completes with its recall while the endpoints fail at random', { timeout: 240_000 }, async (t) => {
  const { host } = await loadPlugin(t, {
    deps: { env: { ENGRAM_EMBEDDING_KEY: KEY, ENGRAM_JUDGE_KEY: JUDGE_KEY } },
    config: {
      embedding: { provider: 'openai', baseUrl: server.url, model: 'flaky', dimensions: 32, batchSize: 4, minIntervalMs: 0, timeoutMs: 150, maxRetries: 1 },
      judge: { enabled: true, baseUrl: server.url, model: 'flaky-judge', timeoutMs: 150 },
      // The fake embeddings are hashed n-grams: their cosines say nothing about relevance, so the
      // semantic gates are off here, the fitted hybrid gate included (it read those cosines and
      // removed answering notes whenever the background fill had embedded them before the turn, so
      // the count depended on the machine's speed) — this test is about faults, not about gate tuning.
      recall: { requireSemantic: false, minSemantic: 0, hybridGate: { enabled: false } },
    },
  });
  server.setWeights(process.env.FLAKY_HEALTHY ? { ok: 1 } : ALL_FAULTS);
  let turns = 0;
  let answered = 0;
  for (let round = 0; round < 8; round++) {
    const session = host.createSession();
    for (const [question, title] of QUESTIONS) {
      // Spaces the lexical side ignores make each round's question new to the query-embedding cache.
      const turn = await session.userTurn(question.replace(/^(..)/, `$1${' '.repeat(round)}`), [{ text: '好的。' }]);
      turns++;
      assert.equal(turn.status, 'completed', `turn ${turns} did not complete`);
      const blocks = recallMessages(turn.requests[0]!);
      if (blocks.some((b) => b.content.includes(title))) answered++;
      for (const r of turn.requests) {
        const text = JSON.stringify(r);
        assert.ok(!text.includes(KEY) && !text.includes(JUDGE_KEY), 'a key reached a model request');
      }
    }
  }
  await host.settle();
  host.assertClean();
  const logText = JSON.stringify(host.logs);
  assert.ok(!logText.includes(KEY) && !logText.includes(JUDGE_KEY), 'a key reached the host log');
  assert.deepEqual(host.logs.filter((l) => l.level === 'error'), []);
  // The faults cost semantic ranking, not answers: nearly every question still finds its diary.
  assert.ok(answered >= turns * 0.9, `${answered}/${turns} questions found their diary`);
  console.log(`# plugin under endpoint faults: ${turns} turns completed, ${answered} with their diary; endpoint outcomes ${JSON.stringify(server.counts)}`);
});
