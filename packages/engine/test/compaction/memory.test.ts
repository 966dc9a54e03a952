// CompactionMemory on a real libSQL file: ingest and its de-duplication, the order of writes,
// answers (once, cool-down), history_read's cap, trash / restore / purge with an audit, and the
// model-assistance gates (daily cap, cache, timeout, cooldown, malformed output).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@engram/db';
import { configSchema, type EngramConfigInput } from '../../src/config/schema.ts';
import { CompactionMemory } from '../../src/compaction/memory.ts';
import type { Complete } from '../../src/compaction/assist.ts';
import type { TranscriptEvent } from '../../src/compaction/types.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const scope = { workspace: '/work/p', sessionId: 's1' };

async function open(t: { after(fn: () => unknown): void }, input: EngramConfigInput = {}, complete: Complete | null = null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-cmp-mem-'));
  const database = await openDatabase({ url: `file:${join(dataDir, 'engram.db')}` });
  t.after(() => {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  let config = configSchema.parse({ ...input, dataDir });
  const memory = new CompactionMemory({ database, dataDir, tokenizer, config: () => config, complete, now: () => new Date('2026-03-10T08:00:00Z') });
  return { memory, database, dataDir, setConfig: (next: EngramConfigInput) => (config = configSchema.parse({ ...next, dataDir })) };
}

function transcript(): TranscriptEvent[] {
  let seq = 0;
  const ev = (type: string, data: unknown): TranscriptEvent => ({ type, seq: seq++, data });
  const user = (text: string, kind = 'user') => ev('user/message', { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind } });
  const reply = (text: string, reasoning = '') => ev('assistant/message', { message: { content: [...(reasoning ? [{ type: 'reasoning', text: reasoning }] : []), { type: 'text', text }] } });
  return [
    user('东京节点 443 端口被占用了怎么办?<engram-recall date="x">注入的旧记忆 INJECTED</engram-recall>'),
    user('<engram-recall>整条都是插件注入 PLUGIN-TEXT</engram-recall>', 'plugin'),
    reply('建议改用 8443 端口,并重启 sing-box 服务。结论:东京节点端口定为 8443。', '内心独白 THOUGHT'),
    ev('tool/call', { callId: 'c1', name: 'read', arguments: JSON.stringify({ path: 'logs/big.log' }) }),
    ev('tool/result', { message: { callId: 'c1', name: 'read', content: [{ type: 'text', text: 'x'.repeat(500) }] } }),
    ev('tool/call', { callId: 'c2', name: 'bash', arguments: '{"command":"ls"}' }),
    ev('tool/result', { message: { callId: 'c2', name: 'bash', content: [{ type: 'text', text: 'BASH' }] } }),
    user('数据库从 PostgreSQL 迁移到 libSQL 要注意什么?'),
    reply('迁移前必须先备份数据库,再逐表校验行数,确认无误后再切换连接串。'),
    user('周报应该怎么写?'),
    reply('周报每周五下午写,先列本周完成的任务,再写下周计划,发给项目组邮箱。'),
  ];
}

const SUMMARY = '## 东京节点端口\n443 被占用,决定改用 8443。\n\n## 数据库迁移\n迁移前必须先备份数据库,以后一律逐表校验行数。';
const ingestInput = (events: TranscriptEvent[], compactionId: string | null) => ({ scope, compactionId, summary: [{ type: 'text', text: SUMMARY }], shadowedSeqs: events.map((e) => e.seq), events });

test('ingest: L1 sections and L2 dialogue / read results; no reasoning, plugin text or injected fragments', async (t) => {
  const { memory } = await open(t, { compaction: { maxToolResultChars: 200 } });
  const events = transcript();
  const report = await memory.ingest(ingestInput(events, 'c1'));
  assert.equal(report.status, 'ingested');
  assert.equal(report.summaryBlocks, 2);
  assert.equal(report.dialogueBlocks, 3);
  assert.equal(report.toolBlocks, 1);
  const blocks = await memory.listBlocks(scope);
  const all = blocks.map((b) => b.body).join('\n');
  for (const absent of ['THOUGHT', 'INJECTED', 'PLUGIN-TEXT', 'BASH']) assert.ok(!all.includes(absent), absent);
  const tool = blocks.find((b) => b.kind === 'tool')!;
  assert.equal(tool.title, 'read logs/big.log');
  assert.equal(tool.body.length, 200);
  assert.equal(tool.cutFrom, 500, 'the cut is recorded, not silent');
  for (const b of blocks) {
    assert.match(b.fingerprint, /^[0-9a-f]{16}$/);
    assert.ok(b.keywords.length > 0, `keywords for ${b.title}`);
  }
  const runs = await memory.runs(scope);
  assert.equal(runs.length, 1);
  assert.match(runs[0]!.overview, /东京节点端口 — /);
});

test('duplicate deliveries: by compactionId, and by the shadowed range when there is no id', async (t) => {
  const { memory } = await open(t);
  const events = transcript();
  assert.equal((await memory.ingest(ingestInput(events, 'c1'))).status, 'ingested');
  const [again, concurrent] = await Promise.all([memory.ingest(ingestInput(events, 'c1')), memory.ingest(ingestInput(events, 'c1'))]);
  assert.equal(again.status, 'duplicate');
  assert.equal(concurrent.status, 'duplicate');

  const other = { ...scope, sessionId: 's2' };
  const noId = { ...ingestInput(events, null), scope: other };
  const first = await memory.ingest(noId);
  assert.match(first.dedupeKey, /^range:[0-9a-f]{16}$/);
  assert.equal((await memory.ingest(noId)).status, 'duplicate');
  const fewer = await memory.ingest({ ...noId, shadowedSeqs: events.slice(0, 3).map((e) => e.seq) });
  assert.equal(fewer.status, 'ingested', 'another range is another compaction');
  assert.equal(fewer.added, 0, 'but its blocks are all known: nothing stored twice');
  assert.equal((await memory.runs(other)).length, 2);
});

test('the compaction is recorded only after its blocks are written: a failed write is retried by the next delivery', async (t) => {
  const { memory } = await open(t);
  const events = transcript();
  const original = memory.store.insertBlocks.bind(memory.store);
  memory.store.insertBlocks = async () => {
    throw new Error('disk full');
  };
  await assert.rejects(memory.ingest(ingestInput(events, 'c1')), /disk full/);
  assert.equal((await memory.runs(scope)).length, 0, 'no record: the id was not marked as done');
  memory.store.insertBlocks = original;
  const retry = await memory.ingest(ingestInput(events, 'c1'));
  assert.equal(retry.status, 'ingested');
  assert.ok(retry.added > 0);
});

test('a failing rules/archive file is reported; the blocks and the record are still written', async (t) => {
  const { memory, dataDir } = await open(t);
  writeFileSync(join(dataDir, 'compaction'), 'a file where the folder should be');
  const report = await memory.ingest(ingestInput(transcript(), 'c1'));
  assert.equal(report.status, 'ingested');
  assert.ok(report.errors.some((e) => /rules book/.test(e)));
  assert.ok(report.added > 0);
  assert.equal((await memory.runs(scope)).length, 1);
});

test('answer: injected once, same-topic cool-down, nothing for unrelated questions', async (t) => {
  const { memory } = await open(t);
  await memory.ingest(ingestInput(transcript(), 'c1'));
  const first = await memory.answer(scope, '东京节点现在用哪个端口?');
  assert.ok(first.items.length >= 1);
  assert.match(first.text, /8443/);
  const cooled = await memory.answer(scope, '东京节点的端口现在是多少?');
  assert.equal(cooled.reason, 'cooldown');
  await memory.answer(scope, '帮我写一个快速排序函数');
  const again = await memory.answer(scope, '东京节点现在用哪个端口?');
  assert.ok(again.dropped.some((d) => d.reason === 'already-injected'));
  assert.ok(!again.items.some((i) => first.items.some((f) => f.fingerprint === i.fingerprint)), 'a block is never injected twice');
  const unrelated = await memory.answer(scope, '今天天气怎么样');
  assert.equal(unrelated.text, '');
  assert.equal(unrelated.reason, 'no-match');
  const other = await memory.answer({ ...scope, sessionId: 'other' }, '东京节点现在用哪个端口?');
  assert.equal(other.reason, 'no-blocks', 'sessions do not see each other’s memory');
});

test('history_read: verbatim turns within the character cap, the rest counted', async (t) => {
  const { memory } = await open(t, { compaction: { historyReadMaxChars: 500 } });
  await memory.ingest(ingestInput(transcript(), 'c1'));
  const read = await memory.historyRead(scope, '东京节点端口', 1);
  assert.equal(read.turns.length, 1);
  assert.ok(read.text.includes('建议改用 8443 端口,并重启 sing-box 服务。结论:东京节点端口定为 8443。'), 'verbatim');
  assert.equal((await memory.historyRead(scope, '', 3)).turns.length, 3, 'an empty query: the newest turns');

  let seq = 100;
  const long: TranscriptEvent[] = [];
  for (const topic of ['端口', '迁移', '周报']) {
    long.push({ type: 'user/message', seq: seq++, data: { content: [{ type: 'text', text: `关于${topic}的长问题` }], source: { kind: 'user' } } });
    long.push({ type: 'assistant/message', seq: seq++, data: { message: { content: [{ type: 'text', text: `${topic}的详细回答。`.repeat(40) }] } } });
  }
  const other = { ...scope, sessionId: 'long' };
  await memory.ingest({ scope: other, compactionId: 'c9', summary: '', shadowedSeqs: long.map((e) => e.seq), events: long });
  const capped = await memory.historyRead(other, '', 3);
  assert.equal(capped.turns.length, 1);
  assert.equal(capped.omitted, 2);
  assert.match(capped.text, /还有 2 段匹配的对话因长度上限 500 字未显示/);
});

test('trash, restore and purge, each audited; trashed blocks are never injected', async (t) => {
  const { memory } = await open(t);
  await memory.ingest(ingestInput(transcript(), 'c1'));
  const blocks = await memory.listBlocks(scope);
  const port = blocks.filter((b) => /8443/.test(b.body)).map((b) => b.id);
  assert.equal(await memory.remove(scope, port), port.length);
  assert.equal((await memory.listBlocks(scope, { trashed: true })).length, port.length);
  assert.doesNotMatch((await memory.answer(scope, '东京节点现在用哪个端口?')).text, /8443/);
  assert.equal(await memory.restore(scope, port), port.length);
  await memory.answer(scope, '帮我写一个快速排序函数');
  assert.match((await memory.answer(scope, '东京节点端口定为多少?')).text, /8443/, 'restored blocks are found again');

  assert.equal(await memory.remove(scope, null), blocks.length, 'the whole session');
  assert.equal((await memory.listBlocks(scope)).length, 0);
  assert.equal(await memory.purge(scope, null), blocks.length);
  assert.equal((await memory.listBlocks(scope, { trashed: true })).length, 0);
  const audit = await memory.auditLog(scope);
  assert.deepEqual(audit.map((a) => a.action).reverse(), ['trash', 'restore', 'trash', 'purge']);
  assert.match(audit[1]!.detail, /_trash\//, 'the session’s files went to the trash too');
  // A redelivered compaction does not bring purged blocks back.
  assert.equal((await memory.ingest(ingestInput(transcript(), 'c1'))).status, 'duplicate');
});

test('with the trash off a delete is permanent, and still audited', async (t) => {
  const { memory } = await open(t, { compaction: { trash: false } });
  await memory.ingest(ingestInput(transcript(), 'c1'));
  const n = (await memory.listBlocks(scope)).length;
  assert.equal(await memory.remove(scope, null), n);
  assert.equal((await memory.listBlocks(scope, { trashed: true })).length, 0);
  assert.deepEqual((await memory.auditLog(scope)).map((a) => [a.action, a.count]), [['delete', n]]);
});

test('trashed blocks older than compaction.trashDays are purged for good, with their files, one audit line per session', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-cmp-mem-'));
  const database = await openDatabase({ url: `file:${join(dataDir, 'engram.db')}` });
  t.after(() => {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  let now = new Date('2026-03-01T08:00:00Z');
  let config = configSchema.parse({ dataDir, compaction: { trashDays: 7 } });
  const memory = new CompactionMemory({ database, dataDir, tokenizer, config: () => config, now: () => now });
  const other = { ...scope, sessionId: 's2' };
  await memory.ingest(ingestInput(transcript(), 'c1'));
  await memory.ingest({ ...ingestInput(transcript(), 'c2'), scope: other });
  const blocks = (await memory.listBlocks(scope)).length;
  assert.equal(await memory.remove(scope, null), blocks, 'the whole session, files into the trash');
  const trashDir = join(dataDir, 'compaction', '_trash');
  assert.equal(readdirSync(trashDir).length, 1);
  now = new Date('2026-03-05T08:00:00Z');
  const port = (await memory.listBlocks(other)).filter((b) => /8443/.test(b.body)).map((b) => b.id);
  await memory.remove(other, port);

  now = new Date('2026-03-07T08:00:00Z');
  assert.deepEqual(await memory.expireTrash(), { blocks: 0, entries: 0 }, 'six days: nothing is old enough');
  assert.equal((await memory.listBlocks(scope, { trashed: true })).length, blocks);

  now = new Date('2026-03-09T08:00:00Z');
  assert.deepEqual(await memory.expireTrash(), { blocks, entries: 1 }, 'eight days: the first session, files included');
  assert.equal((await memory.listBlocks(scope, { trashed: true })).length, 0);
  assert.equal(readdirSync(trashDir).length, 0);
  assert.equal((await memory.listBlocks(other, { trashed: true })).length, port.length, 'trashed four days ago: kept');
  const [line] = await memory.auditLog(scope);
  assert.deepEqual([line!.action, line!.count], ['purge', blocks]);
  assert.match(line!.detail, /trashDays 7/);
  assert.match(line!.detail, /_trash\//, 'the files removed are named');
  assert.deepEqual((await memory.auditLog(other)).map((a) => a.action), ['trash'], 'no line for a session with nothing expired');

  config = configSchema.parse({ dataDir, compaction: { trashDays: 0 } });
  now = new Date('2027-03-09T08:00:00Z');
  assert.deepEqual(await memory.expireTrash(), { blocks: 0, entries: 0 }, '0 days: the trash is kept until emptied by hand');
  config = configSchema.parse({ dataDir, compaction: { trashDays: 7 } });
  await memory.listSessions();
  await memory.idleExpiry();
  assert.equal((await memory.listBlocks(other, { trashed: true })).length, 0, 'listing the sessions expires the trash too');
});

test('model assistance: daily cap, 30-day cache, malformed output dropped, timeout cools the path down', async (t) => {
  let calls = 0;
  let reply: () => Promise<string> = async () => '{"keywords":["端口","port"]}';
  const complete: Complete = async () => {
    calls++;
    return reply();
  };
  const { memory, setConfig } = await open(t, { compaction: { assist: { mode: 'model', provider: 'p', model: 'm', dailyCap: 2 } } }, complete);
  await memory.ingest(ingestInput(transcript(), 'c1'));
  assert.equal(calls, 1, 'keywords for the dialogue blocks in one batch');
  const route = memory.assist.route(null)!;
  assert.deepEqual(await memory.assist.rewrite(route, '端口是多少'), ['端口', 'port']);
  assert.equal(calls, 2);
  assert.deepEqual(await memory.assist.rewrite(route, '端口是多少'), ['端口', 'port'], 'cached');
  assert.equal(calls, 2, 'the cache answered');
  assert.equal(await memory.assist.rewrite(route, '另一个问题'), null, 'the daily cap of 2 is reached');
  assert.equal(calls, 2);
  assert.match(await memory.assist.blocked('search'), /daily cap/);

  setConfig({ compaction: { assist: { mode: 'model', provider: 'p', model: 'm', dailyCap: 0, searchTimeoutMs: 500 } } });
  reply = async () => 'not json at all';
  assert.equal(await memory.assist.rewrite(route, '格式不对'), null, 'malformed output = no answer');
  assert.deepEqual(await memory.assist.keywords(route, [{ title: 'a', body: 'b' }]), [null], 'a malformed batch is dropped whole');
  reply = () => new Promise(() => {});
  assert.equal(await memory.assist.rewrite(route, '超时'), null);
  assert.match(await memory.assist.blocked('search'), /cooling down/);
  const before = calls;
  assert.equal(await memory.assist.rewrite(route, '冷却中'), null);
  assert.equal(calls, before, 'no call while cooling down');
  assert.equal(await memory.assist.blocked('ingest'), '', 'paths cool down separately');

  setConfig({ compaction: { assist: { mode: 'off' } } });
  assert.equal(memory.assist.route(null), null, 'off by default means no route at all');
});

test('recheck without a model: the local hit above the threshold, queued for the next answer', async (t) => {
  const { memory } = await open(t);
  await memory.ingest(ingestInput(transcript(), 'c1'));
  const result = await memory.recheck(scope, '东京节点端口');
  assert.equal(result.found, true);
  assert.equal(result.verdict, null);
  assert.equal(result.rewrote, false);
  const next = await memory.answer(scope, '好的,继续吧');
  assert.equal(next.items[0]?.id, result.blocks[0]!.id, 'injected with the next question whatever it is');
  const nothing = await memory.recheck(scope, '今天天气怎么样');
  assert.equal(nothing.found, false);
});
