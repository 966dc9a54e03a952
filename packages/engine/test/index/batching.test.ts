// A full pass streams the diary folder a batch at a time (read + parse a batch, store it, let it go).
// Batches must neither drop nor repeat a file: every file is indexed once, and the index the pass
// leaves searches exactly like one built in one go from the files.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentHashes } from '@engram/db';
import { docIdFor } from '../../src/diary/ids.ts';
import { listFiles, scanRoots, streamRoots } from '../../src/diary/store.ts';
import { lexicalOptionsOf } from '../../src/index/indexer.ts';
import { documentRows, lexicalEntry } from '../../src/index/rows.ts';
import { LexicalIndex } from '../../src/lexical/bm25.ts';
import type { Engine } from '../../src/engine.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

const TOPICS = ['东京节点', '大阪机房', '分词器', '缓存命中', '数据库备份', '川菜馆', '端口转发', '证书续期', '时区调整', '日志轮转', '法兰克福', '巡检脚本'];
const QUERIES = ['东京节点 443 端口', '分词器', '缓存命中率', '数据库备份 迁移', '川菜馆 订位', '证书续期 日志轮转', '端口 517', '第 200 次', '巡检脚本 法兰克福'];

/** `n` diaries over a few sub-folders and the archive folder (a sorted walk interleaves them). */
function seed(diaryDir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const a = TOPICS[i % TOPICS.length]!;
    const b = TOPICS[(i * 5 + 3) % TOPICS.length]!;
    const folder = i % 7 === 0 ? '已整理' : i % 3 === 0 ? `work/${a}` : i % 2 === 0 ? 'notes' : '';
    const dir = join(diaryDir, folder);
    mkdirSync(dir, { recursive: true });
    // Every 40th repeats an earlier title: the twin warnings must not depend on batch borders.
    const title = i % 40 === 39 ? `${TOPICS[0]}记录 0` : `${a}记录 ${i}`;
    writeFileSync(join(dir, `2026-09-${String((i % 28) + 1).padStart(2, '0')}-n${i}.txt`), diary('08:00', title, `${a}与${b}的第 ${i} 次处理。`, `第 ${i} 次:${a}出现问题,随后检查${b},端口 ${400 + i} 改为 ${500 + i}。`.repeat(1 + (i % 3)), [a, b]));
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const scanOpts = (diaryDir: string) => ({ diaryDir, archiveFolder: '已整理', requireTag: true, timePrefix: true });

test('streamRoots: batches of the asked size, every file once in listing order, the same warnings as one batch', async () => {
  const dirs = tempDirs();
  seed(dirs.diaryDir, 83);
  writeFileSync(join(dirs.diaryDir, 'notes', 'binary.txt'), Buffer.from([0x41, 0, 0x42]));
  const listed = await listFiles(dirs.diaryDir, new Set(['txt', 'md']), []);
  const whole = await streamRoots({ ...scanOpts(dirs.diaryDir), batchSize: 1000 });
  const wholeDocs = (await collect(whole.batches())).flat();
  for (const size of [1, 5, 83, 84]) {
    const stream = await streamRoots({ ...scanOpts(dirs.diaryDir), batchSize: size });
    assert.equal(stream.total, listed.length);
    const batches = await collect(stream.batches());
    assert.equal(batches.length, Math.ceil(listed.length / size), `batch size ${size}`);
    assert.ok(batches.every((b) => b.length <= size));
    const paths = batches.flat().map((d) => d.path);
    assert.deepEqual(paths, listed.filter((p) => !p.endsWith('binary.txt')), `batch size ${size}: every readable file once, in listing order`);
    assert.deepEqual(batches.flat().map((d) => d.raw), wholeDocs.map((d) => d.raw));
    assert.deepEqual(stream.warnings, whole.warnings, `batch size ${size}: twin titles found across batch borders`);
    assert.deepEqual(stream.skipped, whole.skipped);
    await assert.rejects(async () => { for await (const _ of stream.batches()); }, /read once/);
  }
  assert.ok(whole.warnings.some((w) => /same title as/.test(w)), 'the seed has twins');
  assert.deepEqual(whole.skipped.map((s) => s.path), ['notes/binary.txt']);
  assert.deepEqual((await scanRoots(scanOpts(dirs.diaryDir))).docs.map((d) => d.path), wholeDocs.map((d) => d.path), 'scanRoots is the same scan at once');
});

/** The index built in one go from the files (no database): what a full pass must leave. */
async function freshFromFiles(engine: Engine): Promise<LexicalIndex> {
  const scan = await scanRoots(scanOpts(engine.config.diaryDir));
  const index = new LexicalIndex(lexicalOptionsOf(engine.config));
  for (const d of scan.docs) {
    if (d.archived) continue;
    const { doc, chunks } = documentRows(d, docIdFor(d.root, d.path), engine.tokenizer, engine.config.chunk, 'x');
    for (const c of chunks) index.add(lexicalEntry({ chunkId: c.id, docId: c.docId, tokens: c.tokens }, { titleTokens: doc.titleTokens ?? '', summaryTokens: doc.summaryTokens ?? '', tagTokens: doc.tagTokens ?? '' }));
  }
  index.finishBulkAdd();
  return index;
}

async function assertIndexedLikeFiles(engine: Engine, files: number) {
  // What any caller sees: the live index as it loads after the pass (a one-shot engine loads it on use).
  await engine.live.refreshIfStale(engine.database.db);
  const listed = await listFiles(engine.config.diaryDir, new Set(['txt', 'md']), []);
  assert.equal(listed.length, files);
  const rows = await documentHashes(engine.database.db);
  assert.deepEqual([...rows.keys()].sort(), listed.map((p) => `diary:${p}`).sort(), 'one row per file, none missing, none extra');
  const fresh = await freshFromFiles(engine);
  assert.equal(engine.live.lexical.size, fresh.size, 'as many chunks as a build in one go');
  assert.deepEqual([...engine.live.lexical.liveChunks()].sort(), [...fresh.liveChunks()].sort());
  for (const q of QUERIES) {
    const tokens = engine.tokenizer.tokenize(q);
    assert.deepEqual(engine.live.lexical.search(tokens, 50), fresh.search(tokens, 50), q);
  }
}

test('a full pass over more files than one batch indexes each file once and searches like a build in one go', async () => {
  const dirs = tempDirs();
  seed(dirs.diaryDir, 257); // two whole batches of 100 and a part
  const engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  const report = await engine.index({ full: true });
  assert.equal(report.added, 257);
  assert.equal(report.documents, 257 - 37, 'archived ones are not counted as documents');
  assert.equal(report.updated + report.unchanged + report.removed, 0);
  // Twins of n0 (archived): n39, n79, n159, n199, n239 live (n119 archived): the first is kept, 4 named.
  assert.equal(report.warnings.filter((w) => /same title as/.test(w)).length, 4, 'every twin named once');
  await assertIndexedLikeFiles(engine, 257);
  // Again over the indexed corpus, after a file is added and one deleted: every row replaced once.
  rmSync(join(dirs.diaryDir, '2026-09-02-n1.txt'));
  writeFileSync(join(dirs.diaryDir, 'notes', '2026-09-30-extra.txt'), diary('09:00', '新的巡检记录', '巡检脚本改版。', '法兰克福机房的巡检脚本改为每天两次。', ['巡检脚本']));
  const again = await engine.index({ full: true });
  assert.deepEqual([again.added, again.updated, again.removed, again.unchanged], [1, 256, 1, 0]);
  await assertIndexedLikeFiles(engine, 257);
  engine.close();
});

test('a full pass stopped after its first batch loses nothing: no row is removed before every file is seen, the next pass completes it', async () => {
  const dirs = tempDirs();
  seed(dirs.diaryDir, 230);
  let engine = await openTestEngine(dirs); // indexed at open
  const before = await documentHashes(engine.database.db);
  assert.equal(before.size, 230);
  // Deleted on disk: a pass that stops early must not have removed their rows yet (nor anyone else's).
  rmSync(join(dirs.diaryDir, '2026-09-06-n5.txt'));
  rmSync(join(dirs.diaryDir, '2026-09-28-n223.txt'));
  const stop = new AbortController();
  await assert.rejects(
    engine.index({ full: true, signal: stop.signal, onProgress: (p) => { if (p.phase === 'store' && p.done > 0) stop.abort(); } }),
    (e: Error) => e.name === 'AbortError',
  );
  const after = await documentHashes(engine.database.db);
  assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'every row still there');
  engine.close();
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  const report = await engine.index({ full: true });
  assert.equal(report.removed, 2);
  await assertIndexedLikeFiles(engine, 228);
  engine.close();
});
