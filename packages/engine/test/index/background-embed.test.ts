// Indexing with the model runs in the background (#31 item 2): an open over new notes is ready once
// their rows and the lexical index are stored, the vectors fill in afterwards with progress, a write
// meanwhile does not wait for them, and a close mid-way loses nothing (the next open picks them up).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeEmbedding } from '../semantic/fake-embedder.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const MARK = 'heldmark';

/**
 * An OpenAI-compatible embeddings endpoint (the tests' hashed embedder) that holds every request
 * naming MARK — the new notes' chunks — until release(); queries and other notes pass at once.
 */
async function startHeldEmbedder(dims = 64) {
  let release!: () => void;
  let gate = new Promise<void>((r) => (release = r));
  let held = 0;
  let seenHeld!: () => void;
  const firstHeld = new Promise<void>((r) => (seenHeld = r));
  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    });
  const server = createServer(async (req, res) => {
    const input = (JSON.parse(await body(req)) as { input: string | string[] }).input;
    const texts = typeof input === 'string' ? [input] : input;
    if (texts.some((t) => t.includes(MARK))) {
      held++;
      seenHeld();
      await gate;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: texts.map((t, index) => ({ object: 'embedding', index, embedding: Array.from(fakeEmbedding(t, dims)) })) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    firstHeld,
    held: () => held,
    release: () => release(),
    hold: () => (gate = new Promise<void>((r) => (release = r))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const embedding = (url: string) => ({
  embedding: { provider: 'openai', baseUrl: url, model: 'fake-bigram', dimensions: 64, minIntervalMs: 0, timeoutMs: 60_000, maxRetries: 0, batchSize: 2 },
});

function addNotes(diaryDir: string, from: number, n: number): string[] {
  const names: string[] = [];
  for (let i = from; i < from + n; i++) {
    const name = `2026-10-${String(10 + (i % 18)).padStart(2, '0')}-held-${i}.txt`;
    writeFileSync(join(diaryDir, name), diary('08:00', `新笔记 ${i} 号`, `代号 ${MARK} 批次的第 ${i} 条。`, `${MARK} 第 ${i} 条记录：蓝鲸观测站的潮汐数据 ${i}。`, [MARK]));
    names.push(name);
  }
  return names;
}

test('an open over new notes is ready before their vectors: lexical recall finds them, vectors fill in with progress, a write does not wait', { timeout: 60_000 }, async () => {
  const server = await startHeldEmbedder();
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  // The seed corpus embedded in full (nothing here names MARK, so nothing is held).
  let engine = await openTestEngine(dirs, {}, embedding(server.url));
  await engine.vectorsSettled();
  const seeded = await engine.status();
  assert.equal(seeded.vectors, seeded.chunks);
  engine.close();

  const names = addNotes(dirs.diaryDir, 0, 6);
  engine = await openTestEngine(dirs, {}, embedding(server.url));
  try {
    await server.firstHeld;
    assert.ok(server.held() > 0, 'the new chunks are being embedded (held)');
    const lexical = await engine.recall(`${MARK} 蓝鲸观测站 潮汐`, { only: 'lexical' });
    assert.ok(lexical.hits.some((h) => h.title.startsWith('新笔记')), 'the new notes are found lexically while their vectors are held');

    const during = await engine.status();
    assert.ok(during.vectors < during.chunks, 'vectors are behind the chunks while held');
    const sync = engine.liveSync;
    assert.equal(sync.running, true);
    assert.equal(sync.progress?.phase, 'embed');
    assert.equal(sync.progress?.total, during.chunks - seeded.chunks, 'progress counts the chunks to embed');

    // The semantic channel answers for the chunks that have vectors, and says the rest are still coming.
    const hybrid = await engine.recall('数据库迁移之前的备份保留几份');
    assert.equal(hybrid.explain.semantic.ran, true, hybrid.explain.semantic.skipped ?? '');
    assert.match(hybrid.explain.semantic.partial ?? '', new RegExp(`still being filled in \\(${seeded.chunks} of ${during.chunks}\\b`));

    // A write during the embedding is not held up by it.
    const w = await engine.write({ content: '[12:00] 写入不等嵌入\n\n> 嵌入进行中也能写。\n\n代号 kappa-7 的记录。\n\nTag: kappa-7' });
    assert.equal((await engine.recall('kappa-7 记录', { only: 'lexical' })).hits[0]?.docId, w.docId);

    // A note forgotten while its chunks are being embedded: their vectors, when they come, are not stored.
    await engine.forget(names[0] as string);

    server.release();
    await engine.vectorsSettled();
    const after = await engine.status();
    assert.equal(after.chunks, during.chunks + 1 - 1, 'the write added a chunk, the forgotten note took one away');
    assert.equal(after.vectors, after.chunks, 'every chunk has its vector once released, and the forgotten note none');
    assert.equal(engine.liveSync.running, false);
    const settled = await engine.recall('蓝鲸观测站的潮汐数据');
    assert.equal(settled.explain.semantic.ran, true);
    assert.equal(settled.explain.semantic.partial ?? null, null);
  } finally {
    server.release();
    engine.close();
    await server.close();
  }
});

test('a close during the background embedding stops it; the next open embeds what is still without vectors', { timeout: 60_000 }, async () => {
  const server = await startHeldEmbedder();
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  addNotes(dirs.diaryDir, 0, 4);
  let engine = await openTestEngine(dirs, {}, embedding(server.url));
  await server.firstHeld;
  const during = await engine.status();
  assert.ok(during.vectors < during.chunks);
  engine.close();
  server.release(); // the held request answers after the close: nothing is written into a closed engine

  engine = await openTestEngine(dirs, {}, embedding(server.url));
  try {
    await engine.vectorsSettled();
    const after = await engine.status();
    assert.equal(after.chunks, during.chunks);
    assert.equal(after.vectors, after.chunks, 'the next open filled in every missing vector');
  } finally {
    engine.close();
    await server.close();
  }
});

test('a full rebuild embeds after its pass too: a write during its embedding does not wait, and the rebuild reports the embedding', { timeout: 60_000 }, async () => {
  const server = await startHeldEmbedder();
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  addNotes(dirs.diaryDir, 0, 3);
  const engine = await openTestEngine(dirs, {}, embedding(server.url));
  try {
    await server.firstHeld;
    // `engram index --full` / the console's rebuild: resolves once every vector is in.
    let rebuilt = false;
    const rebuild = engine.index({ full: true }).then((r) => ((rebuilt = true), r));
    const w = await engine.write({ content: '[12:00] 重建时写入\n\n> 重建嵌入时也能写。\n\n代号 sigma-3 的记录。\n\nTag: sigma-3' });
    assert.equal((await engine.recall('sigma-3 记录', { only: 'lexical' })).hits[0]?.docId, w.docId);
    assert.equal(rebuilt, false, 'the rebuild is still waiting for its vectors');
    server.release();
    const report = await rebuild;
    assert.ok(report.semantic.embedded > 0, 'the rebuild reports what it embedded');
    await engine.vectorsSettled();
    const after = await engine.status();
    assert.equal(after.vectors, after.chunks);
  } finally {
    server.release();
    engine.close();
    await server.close();
  }
});
