// The lexical snapshot (<db>.lexical): a later process opens the index from it instead of rebuilding
// it from every row; a write since then is patched in; a damaged, foreign or too-stale file is
// rebuilt. Every path must search exactly like an index built fresh from the database.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { normaliseTitle } from '../../src/diary/parse.ts';
import { documentHashes } from '@engram/db';
import { lexicalOptionsOf } from '../../src/index/indexer.ts';
import { LiveIndex, saveBuiltSnapshot } from '../../src/index/live.ts';
import { LexicalIndex } from '../../src/lexical/bm25.ts';
import { rowSections, StoredRows, StoredRowsBuilder } from '../../src/index/stored-rows.ts';
import { readLexicalSnapshot, writeLexicalSnapshot } from '../../src/lexical/snapshot.ts';
import { lexicalOptions } from '../../src/runtime/state.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const TOPICS = ['东京节点', '大阪机房', '分词器', '缓存命中', '数据库备份', '川菜馆', '端口转发', '证书续期', '时区调整', '日志轮转'];

function seedMore(diaryDir: string, n: number) {
  for (let i = 0; i < n; i++) {
    const a = TOPICS[i % TOPICS.length]!;
    const b = TOPICS[(i * 3 + 1) % TOPICS.length]!;
    writeFileSync(
      join(diaryDir, `2026-09-${String((i % 28) + 1).padStart(2, '0')}-n${i}.txt`),
      diary('08:00', `${a}记录 ${i}`, `${a}与${b}的第 ${i} 次处理。`, `第 ${i} 次:${a}出现问题,随后检查${b},端口 ${400 + i} 改为 ${500 + i}。`.repeat(1 + (i % 3)), [a, b]),
    );
  }
}

const QUERIES = ['东京节点 443 端口', '分词器 jieba', '缓存命中率', '数据库备份 迁移', '川菜馆 订位', '证书续期 日志轮转', '端口 417', '时区'];

/** Every query's top 100 from the engine's index and from one built fresh from the rows. */
async function assertSearchesLikeFreshBuild(engine: Engine) {
  const fresh = new LiveIndex((engine.live as unknown as { options: ConstructorParameters<typeof LiveIndex>[0] }).options);
  fresh.snapshotPath = null;
  await fresh.load(engine.database.db);
  assert.equal(engine.live.lexical.size, fresh.lexical.size, 'same number of chunks');
  for (const q of QUERIES) {
    const tokens = engine.tokenizer.tokenize(q);
    assert.deepEqual(engine.live.lexical.search(tokens, 100), fresh.lexical.search(tokens, 100), q);
  }
  assert.deepEqual(new Map([...engine.live.chunkDoc].sort()), new Map([...fresh.chunkDoc].sort()));
  // The document rows too: a load may take them from the snapshot, caught up with the versions.
  const byId = (m: Map<string, unknown>) => new Map([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
  assert.deepEqual(byId(engine.live.docs), byId(fresh.docs), 'the same document rows as a listing of the table');
}

async function loaded(dirs: ReturnType<typeof tempDirs>) {
  const engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  await engine.live.refreshIfStale(engine.database.db);
  return engine;
}

test('lexical snapshot: reopened from the file, a later write patched in, damaged or truncated files rebuilt — always searching like a fresh build', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 40);
  let engine = await openTestEngine(dirs);
  const snapshot = `${engine.database.filePath}.lexical`;
  engine.close();
  assert.ok(existsSync(snapshot), 'the first load wrote the snapshot');

  // 1. Unchanged: straight from the file.
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 0 });
  await assertSearchesLikeFreshBuild(engine);

  // 2. A write made after the snapshot (by this engine: the next process must see it).
  const written = await engine.write({ title: '法兰克福节点迁移', content: '法兰克福节点迁移到新机房,带宽 10 Gbps,窗口在周二凌晨。', tags: ['法兰克福'] });
  engine.close();
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 1 }, 'stale by one document: patched, not rebuilt');
  assert.ok(engine.live.lexical.search(engine.tokenizer.tokenize('法兰克福'), 5).some((h) => h.docId === written.docId), 'the written memory is found');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 1 }, 'a small patch is applied again rather than saved each time');
  // An archived memory leaves the index through the patch too.
  await engine.forget(written.docId);
  engine.close();
  engine = await loaded(dirs);
  assert.equal(engine.live.lastLoad?.kind, 'snapshot');
  assert.equal(engine.live.lexical.search(engine.tokenizer.tokenize('法兰克福'), 5).some((h) => h.docId === written.docId), false, 'the archived memory is gone');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();

  // 3. One flipped byte in the middle of the largest section the open reads (the checksum covers
  // those; deferred sections are checked when read): the checksum catches it.
  const bytes = readFileSync(snapshot);
  const at = middleOfLargestCheckedSection(bytes);
  bytes[at] = bytes[at]! ^ 0x40;
  writeFileSync(snapshot, bytes);
  engine = await loaded(dirs);
  assert.equal(engine.live.lastLoad?.kind, 'rebuilt');
  assert.match((engine.live.lastLoad as { reason: string }).reason, /checksum/);
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 0 }, 'the rebuild replaced the damaged file');
  engine.close();

  // 4. Cut short (a crash while copying the data folder), and not a snapshot at all.
  truncateSync(snapshot, Math.floor(readFileSync(snapshot).length / 3));
  engine = await loaded(dirs);
  assert.equal(engine.live.lastLoad?.kind, 'rebuilt');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
  writeFileSync(snapshot, 'not a snapshot');
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'rebuilt', reason: 'not a lexical snapshot' });
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('lexical snapshot: edits by hand to most files since the snapshot rebuild it; other lexical options never read it', async () => {
  const dirs = tempDirs();
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  engine.close();
  for (let i = 0; i < 20; i++) {
    const file = join(dirs.diaryDir, `2026-09-${String((i % 28) + 1).padStart(2, '0')}-n${i}.txt`);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n补充 ${i}:改用新的巡检脚本。\n`);
  }
  engine = await openTestEngine(dirs); // the open's sync indexes the 20 edits, then loads
  assert.equal(engine.live.lastLoad?.kind, 'rebuilt');
  assert.match((engine.live.lastLoad as { reason: string }).reason, /20 of 30 documents changed/);
  await assertSearchesLikeFreshBuild(engine);
  engine.close();

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false }, { recall: { bm25K1: 1.5 } });
  await engine.live.refreshIfStale(engine.database.db);
  assert.deepEqual(engine.live.lastLoad, { kind: 'rebuilt', reason: 'built with other lexical options' });
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('a full index pass saves the snapshot it built, so the load after it reads no rows back', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 30);
  const engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  assert.deepEqual(lexicalOptionsOf(engine.config), lexicalOptions(engine.config), 'the pass builds with the live index options');
  await engine.index({ full: true });
  await engine.live.refreshIfStale(engine.database.db); // a one-shot engine loads it on use
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 0 }, 'loaded from the pass snapshot');
  assert.equal(engine.live.lastRows, 'snapshot', 'with the rows the pass stored: the table is not listed');
  assert.deepEqual(readdirSync(dirs.dataDir).filter((f) => f.includes('.tmp-')), [], 'the rows the pass spilled are removed');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('document rows ride in the snapshot: the same generation lists nothing; writes, edits, archives and deleted files are caught up from the change log, a full pass through the versions', async () => {
  const dirs = tempDirs();
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  engine.close();

  engine = await loaded(dirs);
  assert.equal(engine.live.lastRows, 'snapshot', 'nothing written since: the rows come from the snapshot');
  await assertSearchesLikeFreshBuild(engine);
  const written = await engine.write({ title: '法兰克福节点迁移', content: '法兰克福节点迁移到新机房,带宽 10 Gbps,窗口在周二凌晨。', tags: ['法兰克福'] });
  engine.close();

  // Another process's view after a write, a hand edit, a deleted file and an archive.
  engine = await loaded(dirs);
  assert.equal(engine.live.lastRows, 'log', 'one write behind: the change log names the row');
  assert.ok(engine.live.docs.has(written.docId), 'the written memory is listed');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
  const edited = join(dirs.diaryDir, '2026-09-02-n1.txt');
  writeFileSync(edited, `${readFileSync(edited, 'utf8')}\n补充:改用新的巡检脚本。\n`);
  rmSync(join(dirs.diaryDir, '2026-09-03-n2.txt'));
  engine = await openTestEngine(dirs); // the open's sync indexes the edit and drops the deleted file
  const archived = [...engine.live.docs.values()].find((d) => d.path.endsWith('-n5.txt'))!;
  await engine.forget(archived.id);
  engine.close();
  engine = await loaded(dirs);
  assert.equal(engine.live.lastRows, 'log');
  assert.equal([...engine.live.docs.values()].some((d) => d.path.endsWith('-n2.txt')), false, 'the deleted file is gone');
  assert.equal([...engine.live.docs.values()].find((d) => d.path.endsWith('-n5.txt'))?.archived, true, 'the archive is seen');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();

  // A full pass records no change list: a snapshot older than it compares every version.
  const stale = `${engine.database.filePath}.lexical`;
  const old = readFileSync(stale);
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  writeFileSync(join(dirs.diaryDir, '2026-09-09-n40.txt'), diary('08:00', '新增的一篇', '全量重建前写入。', '全量重建前写入的正文,提到证书续期。', ['证书']));
  await engine.index({ full: true });
  engine.close();
  writeFileSync(stale, old);
  engine = await loaded(dirs);
  assert.equal(engine.live.lastRows, 'versions');
  assert.ok([...engine.live.docs.values()].some((d) => d.path.endsWith('-n40.txt')), 'the file the full pass added is listed');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('stored rows read back exactly; rows of another schema or with a broken offset table are not used', async () => {
  const dirs = tempDirs();
  seedMore(dirs.diaryDir, 6);
  const engine = await openTestEngine(dirs);
  try {
    const docs = [...engine.live.docs.values()];
    const sections = () => new Map(rowSections(docs));
    const rows = StoredRows.from(sections())!;
    assert.equal(rows.size, docs.length);
    docs.forEach((d, i) => assert.deepEqual(rows.row(rows.indexOf(d.id)!), d, `row ${i}`));
    // The write checks: each live title found in its own workspace (and only there), none of another.
    for (const d of docs) {
      const at = rows.indexOf(d.id)!;
      const found = rows.liveWithTitle(normaliseTitle(d.title), (w) => w === d.workspace);
      assert.equal(found.includes(at), !d.archived, `title of ${d.path}`);
      assert.ok(!rows.liveWithTitle(normaliseTitle(d.title), (w) => w !== d.workspace).includes(at), `other workspaces do not see ${d.path}`);
    }
    assert.deepEqual(rows.liveWithTitle('没有这个标题', () => true), []);
    assert.deepEqual([...rows.supersessions()], docs.filter((d) => !d.archived).flatMap((d) => d.supersedes.filter((o) => o !== d.id).map((o) => [d.id, o])));
    const other = sections();
    other.set('rows.columns', [...(other.get('rows.columns') as string[]), 'fromTheFuture']);
    assert.equal(StoredRows.from(other), null, 'another schema');
    const broken = sections();
    const offsets = Int32Array.from(broken.get('rows.offsets') as Int32Array);
    offsets[offsets.length - 1] = offsets[offsets.length - 1]! + 1;
    broken.set('rows.offsets', offsets);
    assert.equal(StoredRows.from(broken), null, 'offsets that do not end at the data');
    assert.equal(StoredRows.from(new Map()), null, 'no rows (a full pass snapshot)');
  } finally {
    engine.close();
  }
});

test('a one-shot recall or write decodes only the rows it touches, not every stored row', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 120);
  let engine = await openTestEngine(dirs); // indexes and loads: the snapshot gets its rows
  const total = engine.live.docs.size;
  engine.close();
  assert.ok(total > 100);

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  const found = await engine.recall('东京节点 443 端口');
  assert.ok(found.hits.length > 0, 'the recall finds something');
  assert.equal(engine.live.lastRows, 'snapshot', 'the rows came from the snapshot');
  assert.ok(engine.live.rowsDecoded < total / 2, `recall decoded ${engine.live.rowsDecoded} of ${total} rows for ${found.hits.length} hits`);
  engine.close();

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  await engine.write({ title: '解码计数', content: '东京节点的 443 端口今天又改回了 8443,备份也迁移到了大阪机房。' });
  assert.ok(engine.live.rowsDecoded <= 40, `a write decoded ${engine.live.rowsDecoded} of ${total} rows`);
  engine.close();
});

test('a one-shot write checks titles per workspace and sees what is superseded from the snapshot, changed rows included', async () => {
  const dirs = tempDirs();
  // Sixty rows: a write's hygiene check reads the rows of its dozen best candidates, so with a store
  // barely larger than that "decoded fewer than 20" could not tell touched rows from every row.
  seedMore(dirs.diaryDir, 60);
  let engine = await openTestEngine(dirs);
  const a = await engine.write({ title: '仅限工作区的笔记', content: '东京节点的证书在工作区 w1 里续期。', meta: { workspace: 'w1' } });
  const old = await engine.write({ title: '旧的端口说明', content: '端口 443 转发到 8443,旧的说法。' });
  engine.close();
  const oneShot = () => openTestEngine(dirs, { syncOnOpen: false, preload: false });

  engine = await oneShot();
  await assert.rejects(engine.write({ title: '仅限工作区的笔记', content: '另一段完全不同的内容:大阪机房的川菜馆订位。', meta: { workspace: 'w1' } }), /already exists/, 'taken in w1');
  const other = await engine.write({ title: '仅限工作区的笔记', content: '另一段完全不同的内容:大阪机房的川菜馆订位。', meta: { workspace: 'w2' } });
  assert.notEqual(other.docId, a.docId, 'w2 does not see the w1 memory: a new one');
  const by = await engine.write({ title: '新的端口说明', content: '端口 443 现在直接由网关终止 TLS,不再转发。', meta: { supersedes: [old.docId] } });
  engine.close();

  engine = await oneShot();
  await engine.live.refreshIfStale(engine.database.db);
  assert.equal(engine.live.meta(old.docId)?.supersededBy, by.docId, 'superseded, from a row changed since the snapshot');
  await assert.rejects(engine.write({ title: '仅限工作区的笔记', content: '第三段不同的内容:日志轮转改为每天一次。', meta: { workspace: 'w2' } }), /already exists/, 'the w2 memory written since the snapshot is seen');
  assert.ok(engine.live.rowsDecoded < 20, `decoded ${engine.live.rowsDecoded} rows`);
  engine.close();

  // After the snapshot is written again (rebuilt, with every row), the same answers from its tables.
  rmSync(`${engine.database.filePath}.lexical`);
  engine = await openTestEngine(dirs);
  engine.close();
  engine = await oneShot();
  await engine.live.refreshIfStale(engine.database.db);
  assert.equal(engine.live.lastRows, 'snapshot');
  assert.equal(engine.live.meta(old.docId)?.supersededBy, by.docId, 'superseded, from the snapshot');
  assert.equal(engine.live.titleTaken(normaliseTitle('仅限工作区的笔记'), (w) => w === 'w2'), true);
  assert.equal(engine.live.titleTaken(normaliseTitle('仅限工作区的笔记'), (w) => w === 'w3' || w === 'global'), false);
  engine.close();
});

/** Where a section's bytes are in a snapshot file (the layout of lexical/snapshot.ts). */
function sectionAt(file: Buffer, name: string): { at: number; bytes: number } {
  const headerLength = file.readUInt32LE(12);
  const header = JSON.parse(file.toString('utf8', 16, 16 + headerLength)) as { sections: { name: string; bytes: number }[] };
  let at = 16 + headerLength;
  at += (8 - (at % 8)) % 8;
  for (const s of header.sections) {
    if (s.name === name) return { at, bytes: s.bytes };
    at += s.bytes + ((8 - (s.bytes % 8)) % 8);
  }
  throw new Error(`no section ${name}`);
}

test('stored rows are read one by one after open; a damaged one is left out once, the snapshot removed, and the next use reloads from the database', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  const snapshot = `${engine.database.filePath}.lexical`;
  const ids = [...engine.live.docs.keys()];
  engine.close();

  // Damage one row's bytes: the file's own checksum does not cover the rows, their per-row checks do.
  const file = readFileSync(snapshot);
  const rows = sectionAt(file, 'extra.rows.data');
  file[rows.at + Math.floor(rows.bytes / 2)]! ^= 0x20;
  writeFileSync(snapshot, file);

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  await engine.live.refreshIfStale(engine.database.db);
  assert.equal(engine.live.lastRows, 'snapshot', 'opened: the damage is not read yet');
  const found = ids.map((id) => engine.live.doc(id));
  assert.equal(found.filter((d) => d === undefined).length, 1, 'exactly the damaged row is left out');
  assert.ok(!existsSync(snapshot), 'the damaged snapshot is removed');
  await engine.live.refreshIfStale(engine.database.db);
  assert.equal(engine.live.lastRows, 'listed', 'reloaded from the database');
  assert.deepEqual(ids.map((id) => engine.live.doc(id)?.id), ids, 'every row back');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('the posting lists stay in the snapshot file until needed; one damaged there fails that recall, the snapshot is removed, and the next recall reloads from the database', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  const snapshot = `${engine.database.filePath}.lexical`;
  const expected = (await engine.recall('东京节点的 443 端口', { only: 'lexical' })).hits.map((h) => h.docId);
  assert.ok(expected.length > 0);
  engine.close();

  // Unchanged, a reopened engine searches from the file's lists as a fresh build does.
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  assert.deepEqual((await engine.recall('东京节点的 443 端口', { only: 'lexical' })).hits.map((h) => h.docId), expected);
  engine.close();

  const file = readFileSync(snapshot);
  const lists = sectionAt(file, 'postings.bytes');
  file.fill(0xff, lists.at, lists.at + lists.bytes);
  writeFileSync(snapshot, file);
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    await assert.rejects(engine.recall('东京节点的 443 端口', { only: 'lexical' }), /does not read back/);
    assert.ok(!existsSync(snapshot), 'the damaged snapshot is removed');
    assert.deepEqual((await engine.recall('东京节点的 443 端口', { only: 'lexical' })).hits.map((h) => h.docId), expected, 'reloaded from the database');
    await assertSearchesLikeFreshBuild(engine);
  } finally {
    engine.close();
  }
});

test('an index replaced by a reload still searches for a recall that took it before (its lists stay readable)', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  const expected = (await engine.recall('东京节点的 443 端口', { only: 'lexical' })).hits.map((h) => h.docId);
  engine.close();
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    await engine.live.refreshIfStale(engine.database.db);
    const taken = engine.live.lexical;
    await engine.live.load(engine.database.db);
    assert.notEqual(engine.live.lexical, taken, 'the reload replaced the index');
    const tokens = engine.tokenizer.tokenize('东京节点的 443 端口');
    assert.deepEqual(taken.search(tokens, 10).map((h) => h.docId), engine.live.lexical.search(tokens, 10).map((h) => h.docId));
    assert.ok(expected.length > 0);
  } finally {
    engine.close();
  }
});

test("an open's manifest check reads the indexed files from the snapshot: the same as the table's, and hand edits, new and deleted files are still caught", async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 25);
  let engine = await openTestEngine(dirs);
  const before = (await engine.list()).length;
  engine.close();
  const asTable = async (e: Engine) =>
    new Map([...(await documentHashes(e.database.db))].filter(([k]) => k.startsWith('diary:')).map(([k, v]) => [k.slice('diary:'.length), { size: v.size, mtimeMs: v.mtimeMs }]));

  // By hand, while nothing runs: one file edited, one added, one deleted.
  const files = readdirSync(dirs.diaryDir).filter((f) => f.endsWith('.txt')).sort();
  writeFileSync(join(dirs.diaryDir, files[0]!), `${readFileSync(join(dirs.diaryDir, files[0]!), 'utf8')}\n补记:东京节点换成了 8443 端口。\n`);
  writeFileSync(join(dirs.diaryDir, '2026-09-30-hand.txt'), diary('09:00', '手写的新日记', '手写', '今天在编辑器里直接写了这条:证书续期提前到周一。', ['手写']));
  rmSync(join(dirs.diaryDir, files[1]!));

  engine = await openTestEngine(dirs, { preload: false }); // a one-shot command that syncs on open
  assert.notEqual(engine.live.lastRows, 'listed', 'the index came from the snapshot');
  const titles = (await engine.list()).map((m) => m.title);
  assert.ok(titles.includes('手写的新日记'), 'the new file is indexed');
  assert.equal(titles.length, before, 'one added, one gone');
  assert.ok((await engine.recall('8443 端口 补记')).hits.length > 0, 'the edit is indexed');
  assert.deepEqual(new Map([...engine.live.indexedDiaryFiles()].sort()), new Map([...(await asTable(engine))].sort()), 'the snapshot-based files equal the table');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});

test('a snapshot is never written from an index holding a document its rows do not list as live', () => {
  const dir = tempDirs().diaryDir;
  const url = `file:${join(dir, 'engram.db')}`;
  const options = { k1: 1.2, b: 0.75, fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 }, singleCharWeight: 0.15 };
  const index = new LexicalIndex(options);
  index.add({ chunkId: 'a#0', docId: 'a', fields: { title: ['东京'], summary: [], tags: [], body: ['节点', '端口'] } });
  const row = { id: 'a', contentHash: 'h', indexedAt: '2026-12-01T00:00:00.000Z', archived: true };
  saveBuiltSnapshot(url, index, options, [row], 1, null);
  assert.equal(existsSync(join(dir, 'engram.db.lexical')), false, 'archived in its rows: not written');
  saveBuiltSnapshot(url, index, options, [], 1, null);
  assert.equal(existsSync(join(dir, 'engram.db.lexical')), false, 'missing from its rows: not written');
  // As many live rows as held documents, but not the same ones: one held document is missing.
  index.add({ chunkId: 'b#0', docId: 'b', fields: { title: ['大阪'], summary: [], tags: [], body: ['节点'] } });
  const live = (id: string) => ({ ...row, id, archived: false });
  saveBuiltSnapshot(url, index, options, [live('a'), live('c')], 1, null);
  assert.equal(existsSync(join(dir, 'engram.db.lexical')), false, 'b missing from its rows, c (no chunks) listed: not written');
  saveBuiltSnapshot(url, index, options, [live('a'), live('b'), live('c')], 1, null);
  assert.equal(existsSync(join(dir, 'engram.db.lexical')), true, 'every held document live (c has no chunks): written');
});

/** The file layout of lexical/snapshot.ts: magic (8), CRC-32 (4), header length (4), the JSON header, then 8-aligned sections. */
function middleOfLargestCheckedSection(bytes: Buffer): number {
  const pad8 = (n: number) => (8 - (n % 8)) % 8;
  const headerLength = bytes.readUInt32LE(12);
  const header = JSON.parse(bytes.subarray(16, 16 + headerLength).toString('utf8')) as { sections: { bytes: number; deferred?: unknown }[] };
  let at = 16 + headerLength;
  at += pad8(at);
  let best = { bytes: 0, middle: -1 };
  for (const section of header.sections) {
    if (section.deferred === undefined && section.bytes > best.bytes) best = { bytes: section.bytes, middle: at + Math.floor(section.bytes / 2) };
    at += section.bytes + pad8(section.bytes);
  }
  assert.ok(best.middle > 0, 'a section the open reads');
  return best.middle;
}

test('a one-shot open whose sync finds the folder unchanged answers its first recall without comparing every document; a change found by the sync is caught up from the change log', async () => {
  const dirs = tempDirs();
  seedMore(dirs.diaryDir, 30);
  let engine = await openTestEngine(dirs);
  engine.close();

  // As `engram recall` opens: the sync on open, index loaded on first use.
  engine = await openTestEngine(dirs, { preload: false });
  await engine.live.refreshIfStale(engine.database.db);
  assert.notEqual(engine.live.lastRefresh, 'versions', 'nothing changed: no listing of every version');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();

  const edited = join(dirs.diaryDir, '2026-09-02-n1.txt');
  writeFileSync(edited, `${readFileSync(edited, 'utf8')}\n补充:改用新的巡检脚本。\n`);
  engine = await openTestEngine(dirs, { preload: false });
  await engine.live.refreshIfStale(engine.database.db);
  assert.notEqual(engine.live.lastRefresh, 'versions', 'the edit the sync indexed is named by the change log');
  await assertSearchesLikeFreshBuild(engine);
  const found = engine.live.lexical.search(engine.tokenizer.tokenize('巡检脚本'), 5).map((h) => h.docId);
  const n1 = [...engine.live.docs.values()].find((d) => d.path.endsWith('-n1.txt'))!.id;
  assert.ok(found.includes(n1), 'the edited note is found by its new words');
  engine.close();
});

test('rows a full pass spills to a file, a block at a time, read back exactly from the snapshot written with them; the file is removed', async () => {
  const dirs = tempDirs();
  seedMore(dirs.diaryDir, 12);
  const engine = await openTestEngine(dirs);
  try {
    const docs = [...engine.live.docs.values()];
    const spill = join(dirs.dataDir, 'rows.spill');
    const builder = new StoredRowsBuilder(spill, 256); // blocks smaller than the rows: every path of the spill
    for (const d of docs) builder.add(d);
    assert.ok(statSync(spill).size > 0, 'the rows went to the file');
    const path = join(dirs.dataDir, 'spilled.lexical');
    const options = lexicalOptions(engine.config);
    writeLexicalSnapshot(path, engine.live.lexical, options, { generation: 1, count: docs.length }, builder.sections());
    builder.dispose();
    assert.equal(existsSync(spill), false, 'the spill file is removed');
    const read = readLexicalSnapshot<unknown>(path, options);
    assert.ok(read.ok, 'the snapshot reads back');
    const rows = StoredRows.from(read.extra)!;
    assert.equal(rows.size, docs.length);
    docs.forEach((d, i) => assert.deepEqual(rows.row(rows.indexOf(d.id)!), d, `row ${i}`));
    assert.deepEqual(rows.all(), docs, 'read whole (its checksum checked), in the order added');
    read.close();
  } finally {
    engine.close();
  }
});

test('a search (the MCP tool, as the plugin\'s) reads the summaries of its hits only, not every stored row', async () => {
  const { mcpTools } = await import('../../src/mcp/tools.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 120);
  let engine = await openTestEngine(dirs);
  const total = engine.live.docs.size;
  const listed = new Map((await engine.list()).map((m) => [m.docId, m]));
  engine.close();

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    const found = await engine.recall('东京节点 443 端口');
    const ids = found.hits.map((h) => h.docId);
    assert.ok(ids.length > 0);
    const summaries = await engine.summariesOf([...ids, 'no-such-doc']);
    assert.deepEqual([...summaries.keys()].sort(), [...ids].sort(), 'one summary per known id');
    for (const id of ids) assert.deepEqual(summaries.get(id), listed.get(id), `the same summary as the list gives for ${id}`);
    const search = mcpTools({ engine, workspace: null, env: {} }).find((t) => t.name === 'search')!;
    const answer = await search.run({ q: '东京节点 443 端口' });
    assert.match(answer.text, /docId/);
    assert.ok(engine.live.rowsDecoded < total / 2, `a search decoded ${engine.live.rowsDecoded} of ${total} rows`);
  } finally {
    engine.close();
  }
});

test('list modifiedAfterMs: exactly the memories whose file changed after that time (what a cross-session brief asks for)', async () => {
  const { utimesSync } = await import('node:fs');
  const dirs = tempDirs();
  const files = Object.keys(seedCorpus(dirs.diaryDir));
  const base = Date.parse('2026-10-30T00:00:00Z') / 1000;
  files.forEach((f, i) => utimesSync(join(dirs.diaryDir, f), base + i * 60, base + i * 60));
  const engine = await openTestEngine(dirs);
  try {
    const all = await engine.list();
    assert.equal(all.length, files.length);
    const cut = (base + 2 * 60) * 1000;
    const after = await engine.list({ modifiedAfterMs: cut });
    assert.deepEqual(after.map((m) => m.docId), all.filter((m) => m.mtimeMs > cut).map((m) => m.docId));
    assert.equal(after.length, files.length - 3, 'the first three files changed at or before the cut');
  } finally {
    engine.close();
  }
});

test('the memory index (engram_index) decodes only its page\'s rows, in the same order and with the same summaries as from every row', async () => {
  const { pageOfIndex } = await import('../../src/memory-index.ts');
  const { utimesSync } = await import('node:fs');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 120);
  let engine = await openTestEngine(dirs);
  // One pinned memory, and mtimes that tie in places (the order then goes by path).
  const pinned = await engine.write({ title: '置顶的约定', content: '每周一上午例会,不得缺席。', meta: { pinned: true } });
  const base = Date.parse('2026-10-30T00:00:00Z') / 1000;
  [...engine.live.docs.values()].filter((d) => d.id !== pinned.docId).forEach((d, i) => utimesSync(join(dirs.diaryDir, d.path), base + (i % 7) * 60, base + (i % 7) * 60));
  await engine.index();
  const total = engine.live.docs.size;
  const expected = pageOfIndex(await engine.list(), 2, 20);
  engine.close();

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    const first = await engine.memoryIndex({ page: 1, pageSize: 20 });
    assert.equal(first.items[0]!.docId, pinned.docId, 'pinned first');
    const second = await engine.memoryIndex({ page: 2, pageSize: 20 });
    assert.deepEqual(second, expected);
    assert.equal(second.total, total);
    assert.ok(engine.live.rowsDecoded <= 45, `the index decoded ${engine.live.rowsDecoded} of ${total} rows for two pages of 20`);
  } finally {
    engine.close();
  }
});

test('the memory index of a long-lived engine follows every change: a pin, an archive, a new memory, a file edited outside', async () => {
  const { pageOfIndex } = await import('../../src/memory-index.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 40);
  let engine = await openTestEngine(dirs);
  await engine.index({ full: true });
  engine.close();
  engine = await openTestEngine(dirs, { syncOnOpen: false });
  try {
    // What the index must show: the order of the whole list, as it stands after each change.
    const expectIndex = async (label: string) => assert.deepEqual(await engine.memoryIndex({ page: 1, pageSize: 100 }), pageOfIndex(await engine.list(), 1, 100), label);
    const before = await engine.memoryIndex({ page: 1, pageSize: 100 });
    await expectIndex('as opened');
    const last = before.items.at(-1)!;
    await engine.updateMeta(last.docId, { pinned: true });
    assert.equal((await engine.memoryIndex({ pageSize: 5 })).items[0]!.docId, last.docId, 'the memory pinned comes first');
    await expectIndex('after a pin');
    await engine.forget(before.items[3]!.docId);
    assert.equal((await engine.memoryIndex({ pageSize: 5 })).total, before.total - 1, 'the archived memory is gone');
    await expectIndex('after an archive');
    const added = await engine.write({ title: '新记下的约定', content: '周五下午代码评审,每人准备一页。' });
    assert.ok((await engine.memoryIndex({ pageSize: 100 })).items.some((m) => m.docId === added.docId), 'the new memory is listed');
    await expectIndex('after a write');
    const edited = before.items[10]!;
    writeFileSync(join(dirs.diaryDir, edited.path), `${readFileSync(join(dirs.diaryDir, edited.path), 'utf8')}\n补记:外部编辑。\n`);
    await engine.index();
    assert.equal((await engine.memoryIndex({ pageSize: 5 })).items[1]!.docId, edited.docId, 'the file edited outside is the latest change after the pinned one');
    await expectIndex('after an edit outside');
  } finally {
    engine.close();
  }
});

test('a page of the list (engram list) decodes only its rows, in the same order and with the same summaries as the whole list', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  // 28 dates, 120 notes: many share a date, and the order then goes by path.
  seedMore(dirs.diaryDir, 120);
  let engine = await openTestEngine(dirs);
  const archived = (await engine.list())[7]!;
  await engine.forget(archived.docId);
  await engine.index({ full: true });
  const all = await engine.list();
  const withArchived = await engine.list({ includeArchived: true });
  const recent = await engine.listPage({ order: 'recent', offset: 0, limit: 1000 });
  const total = engine.live.docs.size;
  engine.close();

  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    // The sidebar's light view: pinned first, then the newest date, then the latest change.
    assert.deepEqual(await engine.listPage({ order: 'recent', offset: 30, limit: 10 }), { total: recent.total, items: recent.items.slice(30, 40) });
    assert.ok(engine.live.rowsDecoded <= 10, `a recent page of 10 decoded ${engine.live.rowsDecoded} of ${total} rows`);
    const page = await engine.listPage({ offset: 20, limit: 20 });
    assert.equal(page.total, all.length);
    assert.deepEqual(page.items, all.slice(20, 40));
    assert.ok(!page.items.some((m) => m.docId === archived.docId) && all.length === total - 1, 'the archived memory is left out');
    assert.ok(engine.live.rowsDecoded <= 30, `a page of 20 decoded ${engine.live.rowsDecoded - 10} of ${total} rows`);
    const archivedToo = await engine.listPage({ includeArchived: true, offset: 0, limit: 10 });
    assert.deepEqual(archivedToo.items, withArchived.slice(0, 10));
    assert.equal(archivedToo.total, total);
    // A text filter reads the titles of every row: the same page as filtering the whole list.
    const found = await engine.listPage({ text: '记录 1', offset: 0, limit: 5 });
    assert.deepEqual(found.items, all.filter((m) => m.title.toLowerCase().includes('记录 1')).slice(0, 5));
  } finally {
    engine.close();
  }
});

test('reading a memory by the id a search handed out decodes its row only; a path or file name still resolves', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 60);
  let engine = await openTestEngine(dirs);
  const some = (await engine.list()).slice(0, 3);
  const total = engine.live.docs.size;
  engine.close();
  engine = await openTestEngine(dirs, { syncOnOpen: false, preload: false });
  try {
    for (const m of some) assert.equal((await engine.read(m.docId))?.path, m.path);
    assert.equal((await engine.detail(some[0]!.docId)).docId, some[0]!.docId);
    assert.ok(engine.live.rowsDecoded <= some.length, `reading ${some.length} memories by id decoded ${engine.live.rowsDecoded} of ${total} rows`);
    assert.equal((await engine.read(some[1]!.path))?.docId, some[1]!.docId, 'by path');
    assert.equal((await engine.read(`diary:${some[1]!.path}`))?.docId, some[1]!.docId, 'by root and path');
    assert.equal((await engine.read(some[2]!.path.split('/').pop()!))?.docId, some[2]!.docId, 'by file name');
    assert.equal(await engine.read('no-such-memory'), null);
    assert.ok(engine.live.rowsDecoded <= some.length + 1, `by path and file name too, only the rows read were decoded (${engine.live.rowsDecoded} of ${total})`);
    // A memory written since is found by its path (the identities follow the index).
    const written = await engine.write({ title: '新写的路径测试', content: '写入之后按路径也能立刻读到这一条记忆,不必重启。' });
    assert.equal((await engine.read(written.path))?.docId, written.docId, 'a new memory by its path');
    await engine.forget(written.docId);
    assert.equal((await engine.read(written.path))?.archived ?? null, true, 'archived, still readable by path');
  } finally {
    engine.close();
  }
});

test('the memory index with a tag: the tagged memories in index order, paged, the same as ordering every tagged summary', async () => {
  const { pageOfIndex } = await import('../../src/memory-index.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 60);
  const engine = await openTestEngine(dirs);
  try {
    await engine.write({ title: '置顶的备份约定', content: '数据库备份每周一上午检查一次,确认最近五份都能恢复。', tags: ['备份'], meta: { pinned: true } });
    const counts = new Map<string, number>();
    for (const m of await engine.list()) for (const t of m.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
    const [tag, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    assert.ok(n > 5, `a tag on several memories (${tag}: ${n})`);
    for (const t of [tag, '备份']) {
      const tagged = await engine.list({ tag: t });
      for (const page of [1, 2]) {
        const got = await engine.memoryIndex({ tag: t, page, pageSize: 3 });
        assert.deepEqual(got, pageOfIndex(tagged, page, 3), `${t}, page ${page}`);
        assert.ok(got.items.every((m) => m.tags.includes(t)));
      }
    }
    assert.equal((await engine.memoryIndex({ tag: '备份', pageSize: 3 })).items[0]!.title, '置顶的备份约定', 'pinned first');
    assert.equal((await engine.memoryIndex({ tag: '没有这个标签' })).total, 0);
  } finally {
    engine.close();
  }
});

test('listPage (engram_list): the list\'s order and filters, the same items and total as filtering every summary', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 60);
  const engine = await openTestEngine(dirs);
  try {
    const all = await engine.list();
    for (const [text, folder] of [['', ''], ['端口', ''], ['备份', ''], ['', 'work'], ['SING-BOX', '']] as const) {
      const wanted = all.filter((m) => (folder === '' || m.category === folder || m.category.startsWith(`${folder}/`)) && (text === '' || m.title.toLowerCase().includes(text.toLowerCase()) || m.tags.some((t) => t.toLowerCase().includes(text.toLowerCase()))));
      const page = await engine.listPage({ text, folder, limit: 7 });
      assert.equal(page.total, wanted.length, `${text}/${folder}`);
      assert.deepEqual(page.items, wanted.slice(0, 7), `${text}/${folder}`);
      assert.deepEqual((await engine.listPage({ text, folder, offset: 7, limit: 7 })).items, wanted.slice(7, 14));
    }
    assert.ok((await engine.listPage({ text: '端口', limit: 200 })).total > 0);
    // The recent order (a light view): the summaries sorted by recentOrder, whatever the list's order was.
    const { recentOrder } = await import('../../src/memory-index.ts');
    await engine.write({ title: '置顶的约定', content: '每周一上午例会,不得缺席。', meta: { pinned: true } });
    const now = await engine.list();
    assert.deepEqual((await engine.listPage({ order: 'recent', limit: 500 })).items, [...now].sort(recentOrder));
    assert.equal((await engine.listPage({ order: 'recent', limit: 1 })).items[0]!.title, '置顶的约定');
  } finally {
    engine.close();
  }
});

test('a snapshot holding other terms than the rows is rebuilt, not trusted: its versions may match while its terms are a tokenizer\'s before', async () => {
  const { getManifest } = await import('@engram/db');
  const { versionSections } = await import('../../src/index/snapshot-meta.ts');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  seedMore(dirs.diaryDir, 20);
  let engine = await openTestEngine(dirs);
  const path = `${engine.database.filePath}.lexical`;
  const docs = [...engine.live.docs.values()];
  const generation = (engine.live as unknown as { generation: number }).generation;
  const options = lexicalOptions(engine.config);
  const rowsTerms = (await getManifest(engine.database.db))!.tokenizer;
  assert.match(rowsTerms, /\+terms\d+$/);
  engine.close();
  // What an index of an older tokenizer's terms looks like here: the same documents at the same
  // versions and generation (a re-tokenising pass run with a fixed clock leaves both as they were),
  // none of the rows' terms — here none at all.
  for (const terms of [rowsTerms.replace(/\d+$/, (v) => String(Number(v) - 1)), undefined]) {
    writeLexicalSnapshot(path, new LexicalIndex(options), options, { generation, count: docs.length, terms }, [...versionSections(docs), ...rowSections(docs)]);
    engine = await loaded(dirs);
    try {
      assert.equal(engine.live.lastLoad?.kind, 'rebuilt', `terms ${terms}`);
      assert.match((engine.live.lastLoad as { reason: string }).reason, /terms/);
      await assertSearchesLikeFreshBuild(engine);
    } finally {
      engine.close();
    }
  }
  engine = await loaded(dirs);
  assert.deepEqual(engine.live.lastLoad, { kind: 'snapshot', patched: 0 }, 'the rebuilt index was saved with the rows\' terms: the next open maps it');
  await assertSearchesLikeFreshBuild(engine);
  engine.close();
});
