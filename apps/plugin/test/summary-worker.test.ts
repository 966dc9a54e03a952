import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEngine, type Complete, type CompletionRequest, type Engine } from '@engram/engine';
import type { HostLogger } from '../src/host/core/host-types.ts';
import { startSummaryWorker } from '../src/host/notes/summary-worker.ts';

const ROUTE = { provider: 'sim', model: 'sim-flash' };

async function setup(t: { after(fn: () => void | Promise<void>): void }, options: Record<string, unknown> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'engram-summary-worker-'));
  const diaryDir = join(root, 'diaries');
  mkdirSync(diaryDir);
  const engine = await openEngine({ options: { diaryDir, dataDir: join(root, 'data'), ...options }, env: { HOME: root } });
  const logs: { level: string; text: string }[] = [];
  const at = (level: string) => (message: unknown) => void logs.push({ level, text: String(message) });
  const log: HostLogger = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
  t.after(() => {
    engine.close();
    rmSync(root, { recursive: true, force: true });
  });
  const rawOf = async (docId: string) => readFileSync(join(diaryDir, (await engine.read(docId))!.path), 'utf8');
  return { engine, log, logs, rawOf };
}

// Distinct topics: near-duplicate texts would be merged into one memory by write hygiene.
const TOPICS = [
  '东京节点的 443 端口被 nginx 占用,改由 sing-box 监听,nginx 挪到 8080。',
  '数据库迁移前先备份,迁移脚本逐表校验行数,失败就整体回滚。',
  '周报每周五下午写,先列本周完成的任务,再写下周计划,发到项目组邮箱。',
  '前端构建关掉 sourcemap 并开启持久缓存,Vite 构建时间从九十秒降到二十秒。',
];
let topic = 0;
const write = (engine: Engine, title: string) => engine.write({ title, content: `${title}:${TOPICS[topic++ % TOPICS.length]}` });

/** Waits (bounded) until `check` holds: the background timer has no promise to await. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await sleep(10);
  }
  assert.fail(`never happened: ${what}`);
}

test('drains the queue one job at a time and writes each summary as auto', async (t) => {
  const { engine, log, rawOf } = await setup(t);
  const a = await write(engine, '第一条');
  const b = await write(engine, '第二条');
  let inFlight = 0;
  let maxInFlight = 0;
  const asked: CompletionRequest[] = [];
  const complete: Complete = async (req) => {
    asked.push(req);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await sleep(5);
    inFlight--;
    return req.prompt.includes('第一条') ? '第一条记忆的摘要。' : '第二条记忆的摘要。';
  };
  const worker = startSummaryWorker({ engine: () => engine, complete, log, intervalMs: 60_000, route: () => ROUTE });
  t.after(() => worker.stop());
  assert.equal(await worker.runNow(), 2);
  assert.equal(maxInFlight, 1, 'one model call at a time');
  assert.deepEqual(asked.map((r) => r.route), [ROUTE, ROUTE]);
  assert.match(await rawOf(a.docId), /\n> 第一条记忆的摘要。\n[\s\S]*Meta: summary=auto\n$/);
  assert.match(await rawOf(b.docId), /\n> 第二条记忆的摘要。\n/);
  const status = await engine.summaryQueue().status();
  assert.equal(status.done, 2);
  assert.equal(status.queued + status.running + status.failed, 0);
  assert.equal(await worker.runNow(), 0, 'nothing left');
});

test('survives a model that throws and one that hangs: rule summaries, status failed, the next job still runs', async (t) => {
  const { engine, log, logs, rawOf } = await setup(t, { summaries: { timeoutMs: 500 } });
  const throws = await write(engine, '会抛错');
  const hangs = await write(engine, '会卡住');
  const fine = await write(engine, '会成功');
  const complete: Complete = async (req) => {
    if (req.prompt.includes('会抛错')) throw new Error('provider unavailable');
    if (req.prompt.includes('会卡住')) return new Promise<string>(() => {});
    return '成功的摘要。';
  };
  const worker = startSummaryWorker({ engine: () => engine, complete, log, intervalMs: 60_000, route: () => ROUTE });
  t.after(() => worker.stop());
  assert.equal(await worker.runNow(), 3);
  const queue = engine.summaryQueue();
  assert.equal((await queue.job(throws.docId))?.status, 'failed');
  assert.match((await queue.job(throws.docId))?.error ?? '', /provider unavailable/);
  assert.equal((await queue.job(hangs.docId))?.status, 'failed');
  assert.match((await queue.job(hangs.docId))?.error ?? '', /did not answer within 500 ms/);
  assert.match(await rawOf(throws.docId), /\n> 会抛错:/);
  assert.match(await rawOf(hangs.docId), /Meta: summary=rule\n$/);
  assert.equal((await queue.job(fine.docId))?.status, 'done');
  assert.match(await rawOf(fine.docId), /\n> 成功的摘要。\n/);
  assert.ok(logs.some((l) => l.level === 'warn' && /rule-based fallback/.test(l.text)));
  assert.ok(!logs.some((l) => l.level === 'error'));
});

test('runs on its own timer, in the background', async (t) => {
  const { engine, log } = await setup(t);
  const w = await write(engine, '后台');
  const worker = startSummaryWorker({ engine: () => engine, complete: async () => '后台写的摘要。', log, intervalMs: 20, route: () => ROUTE });
  t.after(() => worker.stop());
  await until(async () => (await engine.summaryQueue().job(w.docId))?.status === 'done', 'the timer drained the job');
  assert.equal((await engine.read(w.docId))!.summarySource, 'auto');
  // A later write is picked up by the same timer.
  const later = await write(engine, '稍后');
  worker.wake();
  await until(async () => (await engine.summaryQueue().job(later.docId))?.status === 'done', 'the second job');
});

test('stop() aborts the call in flight: the job goes back to the queue, the file is untouched', async (t) => {
  const { engine, log, rawOf } = await setup(t);
  const w = await write(engine, '停止');
  const before = await rawOf(w.docId);
  let called!: () => void;
  const calledOnce = new Promise<void>((resolve) => (called = resolve));
  let sawAbort = false;
  const complete: Complete = ({ signal }) =>
    new Promise<string>((_, reject) => {
      signal.addEventListener('abort', () => {
        sawAbort = true;
        reject(new Error('aborted'));
      });
      called();
    });
  const worker = startSummaryWorker({ engine: () => engine, complete, log, intervalMs: 60_000, route: () => ROUTE });
  const draining = worker.runNow();
  await calledOnce;
  await worker.stop();
  assert.equal(await draining, 1);
  assert.ok(sawAbort, 'the model call was told to stop');
  assert.equal(worker.stopped, true);
  assert.equal((await engine.summaryQueue().job(w.docId))?.status, 'queued');
  assert.equal(await rawOf(w.docId), before);
  assert.equal(await worker.runNow(), 0, 'a stopped worker does nothing');
});

test('waits while no model route is known; then drains', async (t) => {
  const { engine, log } = await setup(t);
  const w = await write(engine, '等路由');
  let route: typeof ROUTE | null = null;
  const worker = startSummaryWorker({ engine: () => engine, complete: async () => '有了路由之后的摘要。', log, intervalMs: 60_000, route: () => route });
  t.after(() => worker.stop());
  assert.equal(await worker.runNow(), 0);
  assert.equal((await engine.summaryQueue().job(w.docId))?.status, 'queued');
  route = ROUTE;
  assert.equal(await worker.runNow(), 1);
  assert.equal((await engine.summaryQueue().job(w.docId))?.status, 'done');
});

test('does nothing without an engine, or with summaries switched off', async (t) => {
  const { engine, log } = await setup(t);
  const w = await write(engine, '关闭');
  let calls = 0;
  const complete: Complete = async () => {
    calls++;
    return '不该出现。';
  };
  const none = startSummaryWorker({ engine: () => null, complete, log, intervalMs: 60_000, route: () => ROUTE });
  assert.equal(await none.runNow(), 0);
  await none.stop();
  await engine.saveSettings({ summaries: { enabled: false } });
  const off = startSummaryWorker({ engine: () => engine, complete, log, intervalMs: 60_000, route: () => ROUTE });
  assert.equal(await off.runNow(), 0);
  await off.stop();
  assert.equal(calls, 0);
  assert.equal((await engine.summaryQueue().job(w.docId))?.status, 'queued');
});
