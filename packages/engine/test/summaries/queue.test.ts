import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Complete, CompletionRequest } from '../../src/compaction/assist.ts';
import { isEngramError } from '../../src/errors.ts';
import { summaryRoute } from '../../src/summaries/queue.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

const ROUTE = { provider: 'test-provider', model: 'test-model' };
const BODY = '东京节点的 443 端口被 nginx 占用。停掉 nginx 之后改由 sing-box 监听 443,时区也调成了 UTC+9。';

async function setup(t: { after(fn: () => void): void }, options: Record<string, unknown> = {}) {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs, {}, options);
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  const fileOf = async (docId: string) => join(dirs.diaryDir, (await engine.read(docId))!.path);
  return { dirs, engine, fileOf, queue: engine.summaryQueue() };
}

/** A model that answers `reply` and records what it was asked. */
function model(reply: string | ((req: CompletionRequest) => Promise<string>)) {
  const calls: CompletionRequest[] = [];
  const complete: Complete = async (req) => {
    calls.push(req);
    return typeof reply === 'string' ? reply : reply(req);
  };
  return { complete, calls };
}

test('a memory written without a summary is queued, and the model’s sentence is written as auto', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const w = await engine.write({ title: '东京节点端口', content: BODY, tags: ['东京节点'] });
  assert.deepEqual(await queue.status(), { enabled: true, queued: 1, running: 0, done: 0, failed: 0 });
  const job = await queue.job(w.docId);
  assert.equal(job?.status, 'queued');

  const m = model('摘要:东京节点的 443 端口改由 sing-box 接管。');
  const run = await queue.runOnce(m.complete, { route: ROUTE });
  assert.deepEqual(run, { docId: w.docId, path: w.path, outcome: 'auto', summary: '东京节点的 443 端口改由 sing-box 接管。' });
  assert.equal(m.calls.length, 1);
  assert.deepEqual(m.calls[0]!.route, ROUTE);
  assert.match(m.calls[0]!.prompt, /标题:东京节点端口/);
  assert.match(m.calls[0]!.prompt, /sing-box 监听 443/);

  const raw = readFileSync(await fileOf(w.docId), 'utf8');
  assert.match(raw, /^\[\d{2}:\d{2}\] 东京节点端口\n\n> 东京节点的 443 端口改由 sing-box 接管。\n\n东京节点的 443 端口被 nginx 占用。/);
  assert.match(raw, /\nMeta: summary=auto\n$/);
  const listed = (await engine.list()).find((x) => x.docId === w.docId)!;
  assert.equal(listed.summarySource, 'auto');
  assert.equal(listed.summary, '东京节点的 443 端口改由 sing-box 接管。');
  const done = (await queue.job(w.docId))!;
  assert.equal(done.status, 'done');
  assert.equal(done.source, 'auto');
  assert.equal(done.attempts, 1);
  assert.equal(await queue.runOnce(m.complete, { route: ROUTE }), null, 'the queue is empty');
});

test('a summary given with the memory is manual: nothing is queued; summaries off: nothing either', async (t) => {
  const { engine, queue } = await setup(t);
  const w = await engine.write({ title: '带摘要的记忆', content: BODY, summary: '端口改由 sing-box 接管。' });
  assert.equal((await engine.read(w.docId))!.summarySource, 'manual');
  assert.equal(await queue.job(w.docId), null);
  await engine.saveSettings({ summaries: { enabled: false } });
  const w2 = await engine.write({ title: '没有摘要但关掉了', content: '这一条没有摘要,而自动摘要已经在设置里关掉了。' });
  assert.equal(await queue.job(w2.docId), null);
  assert.equal((await queue.status()).enabled, false);
});

test('a failing model: the rule summary is written, status failed with the error, source rule', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const w = await engine.write({ title: '东京节点端口', content: BODY });
  const run = await queue.runOnce(model(async () => { throw new Error('provider exploded'); }).complete, { route: ROUTE, maxChars: 30 });
  assert.equal(run?.outcome, 'rule');
  assert.match(run?.error ?? '', /provider exploded/);
  assert.equal(run?.summary, '东京节点的 443 端口被 nginx 占用。');
  const raw = readFileSync(await fileOf(w.docId), 'utf8');
  assert.match(raw, /\n> 东京节点的 443 端口被 nginx 占用。\n/);
  assert.match(raw, /\nMeta: summary=rule\n$/);
  const job = (await queue.job(w.docId))!;
  assert.equal(job.status, 'failed');
  assert.equal(job.source, 'rule');
  assert.match(job.error ?? '', /provider exploded/);
  assert.equal((await engine.read(w.docId))!.summarySource, 'rule');
  assert.deepEqual(await queue.status(), { enabled: true, queued: 0, running: 0, done: 0, failed: 1 });
});

test('a model that never answers times out into the rule summary; an empty answer too', async (t) => {
  const { engine, queue } = await setup(t);
  const a = await engine.write({ title: '永远不回答', content: BODY });
  const hang: Complete = () => new Promise<string>(() => {}); // ignores its signal on purpose
  const run = await queue.runOnce(hang, { route: ROUTE, timeoutMs: 30 });
  assert.equal(run?.outcome, 'rule');
  assert.match(run?.error ?? '', /did not answer within 30 ms/);
  assert.equal((await queue.job(a.docId))?.status, 'failed');

  const b = await engine.write({ title: '空回答', content: '回答是空的时候用规则摘要兜底,状态记为失败,可以重跑。' });
  const empty = await queue.runOnce(model('  \n').complete, { route: ROUTE });
  assert.equal(empty?.docId, b.docId);
  assert.equal(empty?.outcome, 'rule');
  assert.match(empty?.error ?? '', /no usable summary/);
});

test('no model to ask (no route, no settings): rule summary, failed, with the reason', async (t) => {
  const { engine, queue } = await setup(t);
  await engine.write({ title: '没有路由', content: BODY });
  const run = await queue.runOnce(model('不会被调用').complete, { route: null });
  assert.equal(run?.outcome, 'rule');
  assert.match(run?.error ?? '', /no model to ask/);
});

test('a manual summary is never overwritten: not when queued before it, not when written during the call', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const a = await engine.write({ title: '先排队后手写', content: BODY });
  await engine.setSummary(a.docId, '人手写的摘要。', 'manual');
  const before = readFileSync(await fileOf(a.docId), 'utf8');
  const m = model('模型的摘要。');
  assert.equal((await queue.runOnce(m.complete, { route: ROUTE }))?.outcome, 'manual');
  assert.equal(m.calls.length, 0, 'the model is not even asked');
  assert.equal(readFileSync(await fileOf(a.docId), 'utf8'), before);
  assert.deepEqual({ status: (await queue.job(a.docId))!.status, source: (await queue.job(a.docId))!.source }, { status: 'done', source: null });

  // The person writes a summary while the model is thinking: the file is checked again before writing.
  const b = await engine.write({ title: '模型思考时手写', content: '模型还在生成摘要的时候,人在控制台里写了自己的摘要。' });
  const racing = model(async () => {
    await engine.setSummary(b.docId, '人在中途写的摘要。', 'manual');
    return '模型的摘要。';
  });
  const run = await queue.runOnce(racing.complete, { route: ROUTE });
  assert.equal(run?.outcome, 'manual');
  const raw = readFileSync(await fileOf(b.docId), 'utf8');
  assert.match(raw, /\n> 人在中途写的摘要。\n/);
  assert.doesNotMatch(raw, /模型的摘要|summary=auto/);
  assert.equal((await engine.read(b.docId))!.summarySource, 'manual');
  // setSummary itself refuses the same way.
  assert.deepEqual(await engine.setSummary(b.docId, '自动的。', 'auto'), { docId: b.docId, path: b.path, written: false, source: 'manual' });
});

test('re-run from the console: queued again, attempts reset, the auto summary replaced; manual ones refused', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const w = await engine.write({ title: '重跑', content: BODY });
  await queue.runOnce(model(async () => { throw new Error('down'); }).complete, { route: ROUTE });
  assert.equal((await queue.job(w.docId))?.status, 'failed');
  const job = await queue.rerun(w.docId);
  assert.equal(job.status, 'queued');
  assert.equal(job.attempts, 0);
  assert.equal(job.error, null);
  const run = await queue.runOnce(model('第二次成功的摘要。').complete, { route: ROUTE });
  assert.equal(run?.outcome, 'auto');
  const raw = readFileSync(await fileOf(w.docId), 'utf8');
  assert.match(raw, /\n> 第二次成功的摘要。\n/);
  assert.doesNotMatch(raw, /> 东京节点的 443 端口被 nginx 占用。/, 'the rule summary was replaced, not kept beside it');
  assert.equal(raw.match(/^>/gm)?.length, 1);
  assert.match(raw, /\nMeta: summary=auto\n$/);

  await engine.setSummary(w.docId, '人写的。', 'manual');
  await assert.rejects(queue.rerun(w.docId), (e: unknown) => isEngramError(e) && e.code === 'manual-summary');
  await assert.rejects(queue.rerun('no-such-memory'), (e: unknown) => isEngramError(e) && e.code === 'not-found');
});

test('a memory archived before its turn: the job is dropped', async (t) => {
  const { engine, queue } = await setup(t);
  const w = await engine.write({ title: '很快就归档', content: BODY });
  await engine.forget(w.docId);
  assert.equal((await queue.runOnce(model('x').complete, { route: ROUTE }))?.outcome, 'gone');
  assert.equal(await queue.job(w.docId), null);
});

test('stopping mid-call puts the job back; nothing is written', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const w = await engine.write({ title: '中途停止', content: BODY });
  const before = readFileSync(await fileOf(w.docId), 'utf8');
  const stop = new AbortController();
  const run = await queue.runOnce(model(async () => { stop.abort(); return new Promise<string>(() => {}); }).complete, { route: ROUTE, signal: stop.signal });
  assert.equal(run?.outcome, 'cancelled');
  assert.equal((await queue.job(w.docId))?.status, 'queued');
  assert.equal(readFileSync(await fileOf(w.docId), 'utf8'), before);
});

test('a job is taken by one worker only', async (t) => {
  const { engine, queue } = await setup(t);
  await engine.write({ title: '只被取一次', content: BODY });
  const [a, b] = await Promise.all([queue.next(), queue.next()]);
  assert.equal([a, b].filter((x) => x !== null).length, 1);
  assert.equal((a ?? b)!.status, 'running');
});

test('hand-written files without a summary are queued on request; a merge re-queues a generated summary', async (t) => {
  const { dirs, engine, queue } = await setup(t);
  writeFileSync(join(dirs.diaryDir, '2026-10-30-手写的-1a2b3c4d.txt'), '[09:00] 手写的日记\n\n手写的日记没有摘要,等人要求时才排队。\n\nTag: 手写\n');
  await engine.index();
  assert.equal(await queue.enqueueMissing(), 1);
  assert.equal(await queue.enqueueMissing(), 0, 'already queued');
  await queue.runOnce(model('手写日记的摘要。').complete, { route: ROUTE });

  const w = await engine.write({ title: '会被合并的记忆', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一次,再通知值班同事。' });
  await queue.runOnce(model('发布前写回滚脚本并演练。').complete, { route: ROUTE });
  assert.equal((await queue.job(w.docId))?.status, 'done');
  const merged = await engine.write({ title: '回滚准备', content: '发布前先写好回滚脚本,回滚脚本要在预发环境演练一次,再通知值班同事,并记录演练结果。' });
  assert.equal(merged.merged, true);
  assert.equal((await queue.job(w.docId))?.status, 'queued', 'its auto summary no longer covers the text');
});

test('the summary route: settings first, else the session’s model', () => {
  const s = { enabled: true, provider: '', model: '', timeoutMs: 1000, maxChars: 100 };
  assert.deepEqual(summaryRoute(s, ROUTE), ROUTE);
  assert.equal(summaryRoute(s, null), null);
  assert.deepEqual(summaryRoute({ ...s, provider: 'p', model: 'm' }, ROUTE), { provider: 'p', model: 'm' });
  assert.deepEqual(summaryRoute({ ...s, model: 'flash' }, ROUTE), { provider: 'test-provider', model: 'flash' });
});

test('trying a summary (the console\'s 试一下 AI 摘要) asks as the queue asks, counts the tokens, and writes nothing', async (t) => {
  const { engine, queue, fileOf } = await setup(t);
  const w = await engine.write({ title: '东京节点端口', content: BODY, tags: ['东京节点'] });
  const before = readFileSync(await fileOf(w.docId), 'utf8');
  const jobBefore = await queue.job(w.docId);
  const m = model('摘要:东京节点的 443 端口改由 sing-box 接管。');
  const tried = await queue.trySummary(m.complete, { title: '东京节点端口(草稿)', body: `${BODY}还没保存的一句。` }, { route: ROUTE });
  assert.deepEqual({ ...tried, ms: 0 }, { source: 'auto', summary: '东京节点的 443 端口改由 sing-box 接管。', route: ROUTE, ms: 0 });
  assert.match(m.calls[0]!.prompt, /标题:东京节点端口\(草稿\)/);
  assert.match(m.calls[0]!.prompt, /还没保存的一句/, 'the text as it stands in the editor');
  assert.equal(readFileSync(await fileOf(w.docId), 'utf8'), before, 'the file is untouched');
  assert.deepEqual(await queue.job(w.docId), jobBefore, 'the queue is untouched');

  const failing = await queue.trySummary(model(async () => Promise.reject(new Error('401 bad key'))).complete, { title: '东京节点端口', body: BODY }, { route: ROUTE });
  assert.equal(failing.source, 'rule');
  assert.match(failing.error!, /401 bad key/);
  assert.ok(failing.summary.length > 0, 'the rule summary the queue would fall back to');
  const unrouted = await queue.trySummary(null, { title: '东京节点端口', body: BODY });
  assert.deepEqual([unrouted.source, unrouted.route], ['rule', null]);
  assert.match(unrouted.error!, /no model to ask/);
});
