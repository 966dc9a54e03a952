// Tokens of model-assisted work per day: the compaction channel's calls (the rows its daily cap
// reads), the summary queue's and the relevance judge's, each counted where its call ends — failed
// calls too — and read back per local day, newest first, a day without calls as zeros.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { addCompactionUsage } from '@engram/db';
import type { Complete } from '../../src/compaction/assist.ts';
import { dayOf } from '../../src/compaction/assist.ts';
import { createJudge } from '../../src/judge/judge.ts';
import { modelUsageByDay, recordModelUsage } from '../../src/usage/model-usage.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

/** The test engine's clock (engine/helpers.ts): usage lands on its day. */
const ENGINE_NOW = new Date('2026-11-01T00:00:00');

async function setup(t: { after(fn: () => unknown): void }, options: Record<string, unknown> = {}, seed = false) {
  const dirs = tempDirs();
  if (seed) seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, options);
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return engine;
}

const judgeConfig = (baseUrl: string) => ({ enabled: true, baseUrl, model: 'judge', apiKey: '', threshold: 0.7, maxCandidates: 8, concurrency: 2, timeoutMs: 5000, proxyUrl: '' });

async function fakeJudge(answer: (res: import('node:http').ServerResponse) => void) {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      answer(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () => new Promise((r) => server.close(r)),
  };
}

const YES = JSON.stringify({ choices: [{ message: { content: '是' } }], usage: { prompt_tokens: 60, completion_tokens: 1, total_tokens: 61 } });

test('per day and per work: newest first, zeros for a quiet day, the three kinds apart and summed', async (t) => {
  const engine = await setup(t);
  const db = engine.database.db;
  const now = new Date(2026, 11, 3, 15, 0);
  const yesterday = new Date(2026, 11, 2, 9, 0);
  await recordModelUsage(db, 'compaction', 1, 120, now);
  await recordModelUsage(db, 'compaction', 1, 80, now);
  await recordModelUsage(db, 'summary', 1, 300, now);
  await recordModelUsage(db, 'judge', 4, 244, yesterday);
  await addCompactionUsage(db, `${dayOf(now)} something-newer`, 9, 9999); // a kind this version does not know
  const days = await modelUsageByDay(db, 3, now);
  assert.deepEqual(days.map((d) => d.day), ['2026-12-03', '2026-12-02', '2026-12-01']);
  assert.deepEqual(days[0]!.byWork, { compaction: { calls: 2, tokens: 200 }, summary: { calls: 1, tokens: 300 }, judge: { calls: 0, tokens: 0 } });
  assert.deepEqual(days[0]!.total, { calls: 3, tokens: 500 });
  assert.deepEqual(days[1]!.byWork.judge, { calls: 4, tokens: 244 });
  assert.deepEqual(days[2]!.total, { calls: 0, tokens: 0 });
});

test('the summary queue counts each model call, a failed one by its prompt', async (t) => {
  const engine = await setup(t);
  const route = { provider: 'p', model: 'm' };
  await engine.write({ title: '东京节点端口', content: '东京节点的 443 端口被 nginx 占用,改由 sing-box 监听 8443。', tags: ['东京节点'] });
  const ok: Complete = async () => '东京节点端口改为 8443。';
  await engine.summaryQueue().runOnce(ok, { route });
  let today = (await modelUsageByDay(engine.database.db, 1, ENGINE_NOW))[0]!;
  assert.equal(today.byWork.summary.calls, 1);
  const afterOne = today.byWork.summary.tokens;
  assert.ok(afterOne > 10, `prompt and reply counted: ${afterOne}`);

  await engine.write({ title: '备份脚本', content: '备份脚本放在 scripts/backup.sh,每天凌晨三点跑。', tags: ['备份'] });
  const failing: Complete = async () => {
    throw new Error('429 rate limit');
  };
  await engine.summaryQueue().runOnce(failing, { route });
  today = (await modelUsageByDay(engine.database.db, 1, ENGINE_NOW))[0]!;
  assert.equal(today.byWork.summary.calls, 2, 'the failed call is counted');
  assert.ok(today.byWork.summary.tokens > afterOne);
  assert.equal(today.byWork.compaction.calls, 0);
});

test('the summary queue counts the provider’s own number when the model service reports it', async (t) => {
  const engine = await setup(t);
  await engine.write({ title: '东京节点端口', content: '东京节点的 443 端口被 nginx 占用,改由 sing-box 监听 8443。', tags: ['东京节点'] });
  const reporting: Complete = async (req) => {
    req.onUsage?.(777);
    return '东京节点端口改为 8443。';
  };
  await engine.summaryQueue().runOnce(reporting, { route: { provider: 'p', model: 'm' } });
  assert.deepEqual((await modelUsageByDay(engine.database.db, 1, ENGINE_NOW))[0]!.byWork.summary, { calls: 1, tokens: 777 });
});

test('the judge counts each request, by the endpoint’s own token count when it gives one', async (t) => {
  const server = await fakeJudge((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(YES));
  t.after(() => server.close());
  const counted: [number, number][] = [];
  const { judge } = createJudge(judgeConfig(server.url), fetch, {}, (calls, tokens) => counted.push([calls, tokens]));
  await judge!('东京节点端口', [
    { chunkId: 1, title: 'a', text: '东京节点改用 8443' },
    { chunkId: 2, title: 'b', text: '周报每周五写' },
  ] as never);
  assert.deepEqual(counted, [
    [1, 61],
    [1, 61],
  ]);

  const down = await fakeJudge((res) => res.writeHead(503).end('down'));
  t.after(() => down.close());
  const failed: [number, number][] = [];
  const { judge: failing } = createJudge(judgeConfig(down.url), fetch, {}, (calls, tokens) => failed.push([calls, tokens]));
  await failing!('东京节点端口', [{ chunkId: 1, title: 'a', text: '东京节点改用 8443' }] as never);
  assert.equal(failed.length, 1, 'a refused request is counted');
  assert.ok(failed[0]![1] > 5, 'by the estimate of what was sent');
});

test('through the engine: a recall that asks the judge adds to today’s judge usage', async (t) => {
  const server = await fakeJudge((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(YES));
  t.after(() => server.close());
  const engine = await setup(t, { judge: { enabled: true, baseUrl: server.url, model: 'judge' }, recall: { minCoverage: 0 } }, true);
  const result = await engine.recall('东京节点 443 端口');
  assert.equal(result.explain.judge?.applied, true);
  assert.ok(server.requests() >= 1);
  // The count is written after the verdict, without holding the recall up: wait for it.
  let judge = { calls: 0, tokens: 0 };
  for (let i = 0; i < 50 && judge.calls < server.requests(); i++) {
    await new Promise((r) => setImmediate(r));
    judge = (await modelUsageByDay(engine.database.db, 1, ENGINE_NOW))[0]!.byWork.judge;
  }
  assert.deepEqual(judge, { calls: server.requests(), tokens: 61 * server.requests() });
});
