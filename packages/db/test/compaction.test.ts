import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  addCompactionUsage,
  compactionAuditLog,
  compactionBlockCount,
  compactionBlocksOf,
  compactionCacheGet,
  compactionCachePut,
  compactionRunsOf,
  compactionSessions,
  compactionUsage,
  hasCompactionRun,
  insertCompactionAudit,
  insertCompactionBlocks,
  insertCompactionRun,
  markCompactionBlocksInjected,
  openDatabase,
  purgeCompactionBlocks,
  restoreCompactionBlocks,
  setCompactionModelKeywords,
  trashCompactionBlocks,
  type CompactionScope,
  type Database,
  type NewCompactionBlock,
  type NewCompactionRunRow,
} from '../src/index.ts';
import { startSqld, type SqldServer } from './sqld.ts';

const open = () => openDatabase({ url: `file:${join(mkdtempSync(join(tmpdir(), 'engram-db-compaction-')), 'engram.db')}` });

const A: CompactionScope = { workspace: 'ws-a', sessionId: 's-1' };
const B: CompactionScope = { workspace: 'ws-a', sessionId: 's-2' };

const block = (id: string, extra: Partial<NewCompactionBlock> = {}): NewCompactionBlock => ({
  id,
  layer: 'L2',
  kind: 'dialogue',
  title: `标题 ${id}`,
  keywords: ['东京节点', id],
  modelKeywords: [],
  body: `正文 ${id}`,
  fingerprint: `fp-${id}`,
  seqStart: 1,
  seqEnd: 2,
  cutFrom: null,
  ...extra,
});

const run = (scope: CompactionScope, key: string, ord: number, createdAt: string): NewCompactionRunRow => ({
  id: `${scope.workspace}:${scope.sessionId}:${key}`,
  ...scope,
  dedupeKey: key,
  compactionId: key,
  rangeFingerprint: `r-${key}`,
  ord,
  seqStart: null,
  seqEnd: null,
  blocksAdded: 1,
  blocksSkipped: 0,
  overview: `overview ${key}`,
  overviewTokens: 3,
  rulesText: '',
  report: { status: 'ingested', key },
  createdAt,
});

const ids = async (db: Database, scope: CompactionScope, trashed = false) => (await compactionBlocksOf(db.db, scope, { trashed })).map((b) => b.id);

test('blocks append after the session’s highest ord; a fingerprint the session has (even trashed) is skipped, another session’s is not', async () => {
  const db = await open();
  assert.deepEqual(await insertCompactionBlocks(db.db, A, 'c1', [block('a'), block('b')], '2026-03-01T00:00:00Z'), ['a', 'b']);
  await trashCompactionBlocks(db.db, A, ['b'], '2026-03-01T01:00:00Z');
  // same fingerprint as the trashed "b" (new id), the same id as "a", and one new block
  const added = await insertCompactionBlocks(db.db, A, 'c2', [block('b2', { fingerprint: 'fp-b' }), block('a', { fingerprint: 'fp-new' }), block('c')], '2026-03-02T00:00:00Z');
  assert.deepEqual(added, ['c']);
  const live = await compactionBlocksOf(db.db, A);
  assert.deepEqual(live.map((b) => [b.id, b.ord, b.compactionId]), [['a', 1, 'c1'], ['c', 5, 'c2']]);
  assert.deepEqual(await insertCompactionBlocks(db.db, B, 'c1', [block('b-of-B', { fingerprint: 'fp-b' })], '2026-03-02T00:00:00Z'), ['b-of-B']);
  assert.equal((await compactionBlocksOf(db.db, B))[0]!.ord, 1, 'ord counts per session');
  assert.deepEqual(await insertCompactionBlocks(db.db, A, 'c3', [], 'x'), []);
  db.close();
});

test('a block reads back as written: JSON lists, nulls, scope; model keywords can be set later', async () => {
  const db = await open();
  await insertCompactionBlocks(db.db, A, 'c1', [block('a', { layer: 'L1', kind: 'summary', seqStart: null, seqEnd: null, cutFrom: 4000, modelKeywords: ['模型'] })], '2026-03-01T00:00:00Z');
  const [a] = await compactionBlocksOf(db.db, A);
  assert.deepEqual(a, {
    id: 'a',
    workspace: 'ws-a',
    sessionId: 's-1',
    compactionId: 'c1',
    ord: 1,
    layer: 'L1',
    kind: 'summary',
    title: '标题 a',
    keywords: ['东京节点', 'a'],
    modelKeywords: ['模型'],
    body: '正文 a',
    fingerprint: 'fp-a',
    seqStart: null,
    seqEnd: null,
    cutFrom: 4000,
    createdAt: '2026-03-01T00:00:00Z',
    injectedAt: null,
    deletedAt: null,
  });
  await setCompactionModelKeywords(db.db, 'a', ['443 端口', 'sing-box']);
  assert.deepEqual((await compactionBlocksOf(db.db, A))[0]!.modelKeywords, ['443 端口', 'sing-box']);
  db.close();
});

test('a JSON column that does not parse reads as its empty value instead of failing the listing', async () => {
  const db = await open();
  await insertCompactionBlocks(db.db, A, 'c1', [block('a'), block('b')], 't');
  await insertCompactionRun(db.db, run(A, 'k1', 1, 't'));
  await db.client.execute(`UPDATE compaction_blocks SET keywords = '[broken', model_keywords = 'nope' WHERE id = 'a'`);
  await db.client.execute(`UPDATE compaction_runs SET report = '{' WHERE dedupe_key = 'k1'`);
  const blocks = await compactionBlocksOf(db.db, A);
  assert.deepEqual(blocks.map((b) => [b.id, b.keywords, b.modelKeywords]), [['a', [], []], ['b', ['东京节点', 'b'], []]]);
  assert.deepEqual((await compactionRunsOf(db.db, A))[0]!.report, {});
  db.close();
});

test('trash, restore and purge count what changed, stay in their session, and null ids mean the whole session', async () => {
  const db = await open();
  await insertCompactionBlocks(db.db, A, 'c1', ['a', 'b', 'c', 'd'].map((id) => block(id)), 't');
  await insertCompactionBlocks(db.db, B, 'c1', [block('x')], 't');
  assert.equal(await trashCompactionBlocks(db.db, A, ['a', 'b', 'a', 'x', 'missing'], 't1'), 2, 'a duplicate, another session’s id and an unknown id move nothing');
  assert.equal(await trashCompactionBlocks(db.db, A, [], 't1'), 0);
  assert.deepEqual(await ids(db, A, true), ['a', 'b']);
  assert.equal(await compactionBlockCount(db.db, A), 2);
  assert.equal(await restoreCompactionBlocks(db.db, A, ['a', 'c']), 1, 'a live block is not restored');
  assert.equal(await trashCompactionBlocks(db.db, A, null, 't2'), 3, 'everything live of A');
  assert.equal(await compactionBlockCount(db.db, B), 1, 'B untouched');
  assert.equal(await restoreCompactionBlocks(db.db, A, null), 4);
  assert.equal((await compactionBlocksOf(db.db, A))[0]!.deletedAt, null);
  await trashCompactionBlocks(db.db, A, ['a'], 't3');
  assert.equal(await purgeCompactionBlocks(db.db, A, ['a', 'b'], true), 1, 'only the trashed one goes when onlyTrashed');
  assert.equal(await purgeCompactionBlocks(db.db, A, ['b'], false), 1);
  assert.equal(await purgeCompactionBlocks(db.db, A, [], false), 0);
  assert.equal(await purgeCompactionBlocks(db.db, A, null, true), 0, 'nothing in the trash');
  assert.equal(await purgeCompactionBlocks(db.db, A, null, false), 2);
  assert.deepEqual(await ids(db, A), []);
  assert.deepEqual(await ids(db, B), ['x']);
  db.close();
});

test('a block keeps the time it was first injected', async () => {
  const db = await open();
  await insertCompactionBlocks(db.db, A, 'c1', [block('a'), block('b')], 't');
  await markCompactionBlocksInjected(db.db, ['a'], 't1');
  await markCompactionBlocksInjected(db.db, ['a', 'b'], 't2');
  await markCompactionBlocksInjected(db.db, [], 't3');
  assert.deepEqual((await compactionBlocksOf(db.db, A)).map((b) => b.injectedAt), ['t1', 't2']);
  db.close();
});

test('runs: one per id (a repeat is ignored), listed in ord order without their id, found by dedupe key', async () => {
  const db = await open();
  await insertCompactionRun(db.db, run(A, 'k2', 2, '2026-03-02'));
  await insertCompactionRun(db.db, run(A, 'k1', 1, '2026-03-01'));
  await insertCompactionRun(db.db, { ...run(A, 'k1', 9, '2026-03-09'), overview: 'second try' });
  const runs = await compactionRunsOf(db.db, A);
  assert.deepEqual(runs.map((r) => [r.dedupeKey, r.ord, r.overview]), [['k1', 1, 'overview k1'], ['k2', 2, 'overview k2']]);
  assert.ok(!('id' in runs[0]!));
  assert.deepEqual(runs[0]!.report, { status: 'ingested', key: 'k1' });
  assert.equal(await hasCompactionRun(db.db, A, 'k1'), true);
  assert.equal(await hasCompactionRun(db.db, B, 'k1'), false);
  assert.equal(await hasCompactionRun(db.db, A, 'k3'), false);
  db.close();
});

test('the audit is newest first, per session or for everyone, and honours the limit', async () => {
  const db = await open();
  await insertCompactionAudit(db.db, { at: 't1', ...A, action: 'trash', target: 'session', count: 3, detail: '' });
  await insertCompactionAudit(db.db, { at: 't2', ...B, action: 'purge', target: 'x', count: 1, detail: 'files removed' });
  await insertCompactionAudit(db.db, { at: 't3', ...A, action: 'restore', target: 'a,b', count: 2, detail: '' });
  assert.deepEqual((await compactionAuditLog(db.db, A)).map((e) => e.at), ['t3', 't1']);
  assert.deepEqual((await compactionAuditLog(db.db, null)).map((e) => e.action), ['restore', 'purge', 'trash']);
  assert.deepEqual((await compactionAuditLog(db.db, null, 1)).map((e) => e.at), ['t3']);
  const [first] = await compactionAuditLog(db.db, B);
  assert.deepEqual({ ...first, id: undefined }, { id: undefined, at: 't2', ...B, action: 'purge', target: 'x', count: 1, detail: 'files removed' });
  db.close();
});

test('sessions: live and trashed blocks, compactions and the last one, newest first, sessions without a run last', async () => {
  const db = await open();
  const C: CompactionScope = { workspace: 'ws-b', sessionId: 's-1' }; // same session id, other workspace
  const D: CompactionScope = { workspace: 'ws-b', sessionId: 's-9' }; // runs, no blocks
  await insertCompactionBlocks(db.db, A, 'c1', [block('a'), block('b'), block('c')], 't');
  await trashCompactionBlocks(db.db, A, ['c'], 't');
  await insertCompactionBlocks(db.db, B, 'c1', [block('x')], 't');
  await insertCompactionBlocks(db.db, C, 'c1', [block('y')], 't');
  await insertCompactionRun(db.db, run(A, 'k1', 1, '2026-03-01T00:00:00Z'));
  await insertCompactionRun(db.db, run(A, 'k2', 2, '2026-03-05T00:00:00Z'));
  await insertCompactionRun(db.db, run(C, 'k1', 1, '2026-03-03T00:00:00Z'));
  await insertCompactionRun(db.db, run(D, 'k1', 1, '2026-03-07T00:00:00Z'));
  assert.deepEqual(await compactionSessions(db.db), [
    { ...D, blocks: 0, trashed: 0, compactions: 1, lastAt: '2026-03-07T00:00:00Z' },
    { ...A, blocks: 2, trashed: 1, compactions: 2, lastAt: '2026-03-05T00:00:00Z' },
    { ...C, blocks: 1, trashed: 0, compactions: 1, lastAt: '2026-03-03T00:00:00Z' },
    { ...B, blocks: 1, trashed: 0, compactions: 0, lastAt: null },
  ]);
  db.close();
});

test('the answer cache: fresh entries only, an update replaces, expired ones go, only the newest `keep` stay', async () => {
  const db = await open();
  await compactionCachePut(db.db, { key: 'k1', value: 'v1', createdAt: '2026-03-01' }, '2026-01-01', 10);
  assert.equal(await compactionCacheGet(db.db, 'k1', '2026-02-01'), 'v1');
  assert.equal(await compactionCacheGet(db.db, 'k1', '2026-03-02'), null, 'older than notBefore');
  assert.equal(await compactionCacheGet(db.db, 'nope', '2000-01-01'), null);
  await compactionCachePut(db.db, { key: 'k1', value: 'v1b', createdAt: '2026-03-02' }, '2026-01-01', 10);
  assert.equal(await compactionCacheGet(db.db, 'k1', '2026-03-02'), 'v1b');
  await compactionCachePut(db.db, { key: 'k2', value: 'v2', createdAt: '2026-03-03' }, '2026-01-01', 10);
  await compactionCachePut(db.db, { key: 'k3', value: 'v3', createdAt: '2026-03-04' }, '2026-03-03', 10);
  assert.equal(await compactionCacheGet(db.db, 'k1', '2000-01-01'), null, 'expired before notBefore of the last put');
  assert.equal(await compactionCacheGet(db.db, 'k2', '2000-01-01'), 'v2');
  await compactionCachePut(db.db, { key: 'k4', value: 'v4', createdAt: '2026-03-05' }, '2026-01-01', 2);
  const left = await db.client.execute('SELECT key FROM compaction_llm_cache ORDER BY key');
  assert.deepEqual(left.rows.map((r) => r.key), ['k3', 'k4']);
  db.close();
});

test('usage adds up per day, also when many calls race', async () => {
  const db = await open();
  assert.deepEqual(await compactionUsage(db.db, '2026-03-01'), { calls: 0, tokens: 0 });
  await Promise.all(Array.from({ length: 20 }, () => addCompactionUsage(db.db, '2026-03-01', 1, 50)));
  await addCompactionUsage(db.db, '2026-03-02', 2, 7);
  assert.deepEqual(await compactionUsage(db.db, '2026-03-01'), { calls: 20, tokens: 1000 });
  assert.deepEqual(await compactionUsage(db.db, '2026-03-02'), { calls: 2, tokens: 7 });
  db.close();
});

test('the blocks of one compaction go in one transaction: a block the table refuses stores none of them', async () => {
  const db = await open();
  const bad = block('bad', { title: null as unknown as string });
  await assert.rejects(insertCompactionBlocks(db.db, A, 'c1', [block('a'), bad, block('c')], 't'), /NOT NULL/);
  assert.deepEqual(await ids(db, A), []);
  db.close();
});

let server: SqldServer;
before(async () => {
  server = await startSqld();
});
after(async () => {
  await server?.stop();
});

test('remote: the batched writes and the grouped reads work on a real libSQL server', async () => {
  const db = await openDatabase({ url: server.url });
  assert.deepEqual(await insertCompactionBlocks(db.db, A, 'c1', [block('a'), block('b'), block('c')], 't'), ['a', 'b', 'c']);
  assert.deepEqual(await insertCompactionBlocks(db.db, A, 'c2', [block('a'), block('d')], 't'), ['d']);
  assert.equal(await trashCompactionBlocks(db.db, A, ['a', 'b'], 't1'), 2);
  await markCompactionBlocksInjected(db.db, ['c', 'd'], 't2');
  assert.equal(await purgeCompactionBlocks(db.db, A, ['a'], true), 1);
  await insertCompactionRun(db.db, run(A, 'k1', 1, '2026-03-01'));
  assert.deepEqual(await compactionSessions(db.db), [{ ...A, blocks: 2, trashed: 1, compactions: 1, lastAt: '2026-03-01' }]);
  await compactionCachePut(db.db, { key: 'k1', value: 'v1', createdAt: '2026-03-01' }, '2026-01-01', 1);
  await compactionCachePut(db.db, { key: 'k2', value: 'v2', createdAt: '2026-03-02' }, '2026-01-01', 1);
  assert.equal(await compactionCacheGet(db.db, 'k1', '2000-01-01'), null);
  assert.equal(await compactionCacheGet(db.db, 'k2', '2000-01-01'), 'v2');
  await Promise.all(Array.from({ length: 10 }, () => addCompactionUsage(db.db, 'd', 1, 2)));
  assert.deepEqual(await compactionUsage(db.db, 'd'), { calls: 10, tokens: 20 });
  db.close();
});
