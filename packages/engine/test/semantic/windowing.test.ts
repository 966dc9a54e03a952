// How a chunk is cut into model windows (config chunk.windowTokens / windowOverlap / embed): the
// embedder cuts documents to the configured size (queries to the model's limit), the fingerprint
// records it, and vectors windowed otherwise — including those stored before the windowing was
// recorded, under a new default — are embedded again by the next index run while they keep serving.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openEngine } from '../../src/engine.ts';
import { SemanticChannel } from '../../src/semantic/channel.ts';
import { compareFingerprints, fingerprintOf, LEGACY_WINDOWING, parseFingerprint, windowingKey } from '../../src/semantic/fingerprint.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';
import { VectorStore } from '../../src/semantic/vector-store.ts';
import { WorkerEmbedder } from '../../src/semantic/worker-embedder.ts';
import { corpusChunks, embeddingConfig, openClient, tempDbUrl } from './helpers.ts';
import { buildTinyModel } from './tiny-onnx.ts';
import { configSchema } from '../../src/config/schema.ts';

let root: string;
let modelDir: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-windows-'));
  modelDir = buildTinyModel(join(root, 'tiny-bert'), { dims: 16 });
});
after(() => rmSync(root, { recursive: true, force: true }));

/** 60 words the tiny tokenizer knows, one token each. */
const LONG = Array.from({ length: 60 }, (_, i) => ['coffee', 'cat', 'dog', 'train', 'milk', 'sugar'][i % 6]).join(' ');

describe('window size, overlap and first-window-only in the local embedder', () => {
  it('cuts documents to the configured window and overlap; a query gets the model limit', async () => {
    const e = await LocalEmbedder.load(modelDir, { model: 'tiny-bert', windowTokens: 22, windowOverlap: 0 });
    try {
      const windows = e.windowsOf(LONG);
      const whole = e.windowsOf(LONG, 'query');
      assert.equal(whole.length, 1, 'a query is never cut to the document window');
      const tokens = (whole[0] as number[]).length - 2;
      // 20 text tokens + [CLS] + [SEP] per window, no overlap: every token exactly once.
      assert.equal(windows.length, Math.ceil(tokens / 20));
      assert.ok(windows.every((w) => w.length <= 22));
      assert.equal(windows.reduce((n, w) => n + w.length - 2, 0), tokens);
      const [v] = await e.embed([LONG]);
      assert.equal(v?.length, 16);
    } finally {
      await e.dispose();
    }
    const overlapped = await LocalEmbedder.load(modelDir, { model: 'tiny-bert', windowTokens: 22, windowOverlap: 10 });
    try {
      const tokens = (overlapped.windowsOf(LONG, 'query')[0] as number[]).length - 2;
      // Steps of 10 text tokens, the last window reaching the end.
      assert.equal(overlapped.windowsOf(LONG).length, Math.ceil((tokens - 20) / 10) + 1);
    } finally {
      await overlapped.dispose();
    }
  });

  it('embeds only the first window when asked, so the tail of a long text does not count', async () => {
    const first = await LocalEmbedder.load(modelDir, { model: 'tiny-bert', windowTokens: 22, windowOverlap: 0, windows: 'first' });
    const all = await LocalEmbedder.load(modelDir, { model: 'tiny-bert', windowTokens: 22, windowOverlap: 0 });
    try {
      assert.equal(first.windowsOf(LONG).length, 1);
      const [a, b] = await first.embed([LONG, 'coffee cat dog']);
      const [c, d] = await all.embed([LONG, 'coffee cat dog']);
      assert.deepEqual([...(b as Float32Array)], [...(d as Float32Array)], 'a text of one window is embedded the same either way');
      assert.notDeepEqual([...(a as Float32Array)], [...(c as Float32Array)]);
    } finally {
      await first.dispose();
      await all.dispose();
    }
  });
});

describe('the windowing in a worker', () => {
  it('reaches the model in a worker: its vectors are the inline embedder\'s with the same windows', async () => {
    const opts = { model: 'tiny-bert', windowTokens: 22, windowOverlap: 0, windows: 'first' as const };
    const inline = await LocalEmbedder.load(modelDir, opts);
    const worker = await WorkerEmbedder.load(modelDir, opts, { isolation: 'thread', idleMs: 0 });
    const plain = await LocalEmbedder.load(modelDir, { model: 'tiny-bert' });
    try {
      const [a] = await inline.embed([LONG]);
      const [b] = await worker.embed([LONG]);
      const [c] = await plain.embed([LONG]);
      assert.deepEqual([...(b as Float32Array)], [...(a as Float32Array)]);
      assert.notDeepEqual([...(b as Float32Array)], [...(c as Float32Array)]);
    } finally {
      await inline.dispose();
      await worker.dispose();
      await plain.dispose();
    }
  });
});

describe('the windowing in the fingerprint', () => {
  const cfg = (chunk: Record<string, unknown>) => configSchema.parse({ embedding: { provider: 'local', modelDir: '/nowhere/m', model: 'm' }, chunk });

  it('records tokens/overlap/which windows for local models; a change advises, never strands the vectors', () => {
    const legacy = fingerprintOf(cfg({ windowTokens: 512, windowOverlap: 64 }).embedding, cfg({ windowTokens: 512, windowOverlap: 64 }).chunk);
    assert.equal(legacy.windowing, LEGACY_WINDOWING);
    const c = cfg({ windowTokens: 256, windowOverlap: 0, embed: 'header+first-window' });
    const next = fingerprintOf(c.embedding, c.chunk);
    assert.equal(next.windowing, '256/0/first');
    const cmp = compareFingerprints(legacy, next);
    assert.equal(cmp.fatal, false);
    assert.match(cmp.advise.join(' '), /model windows changed: 512\/64\/all → 256\/0\/first/);
    assert.deepEqual(parseFingerprint(JSON.stringify(next))?.windowing, '256/0/first');
  });

  it('reads a fingerprint stored before the windowing was recorded as the legacy windowing', () => {
    const { windowing: _w, ...old } = fingerprintOf(cfg({ windowTokens: 512, windowOverlap: 64 }).embedding, cfg({}).chunk);
    const stored = parseFingerprint(JSON.stringify(old));
    assert.equal(stored?.windowing, undefined);
    const same = cfg({ windowTokens: 512, windowOverlap: 64, embed: 'header+body' });
    assert.deepEqual(compareFingerprints(stored, fingerprintOf(same.embedding, same.chunk)).advise, []);
    const other = cfg({ windowTokens: 256, windowOverlap: 64 });
    assert.equal(compareFingerprints(stored, fingerprintOf(other.embedding, other.chunk)).advise.length, 1);
    assert.equal(windowingKey({ size: 800, overlap: 120 }), windowingKey(configSchema.parse({}).chunk), 'the key fills in the defaults');
  });
});

describe('vectors windowed otherwise are embedded again', () => {
  async function open(url: string, chunk: Record<string, unknown>) {
    const client = openClient(url);
    const c = embeddingConfig({ provider: 'local', modelDir, batchSize: 4 });
    const channel = await SemanticChannel.open({ client, embedding: c.embedding, chunk: { ...c.chunk, ...chunk } });
    return { client, channel, close: () => { channel.close(); client.close(); } };
  }

  it('a store from before the windowing was recorded keeps its vectors under the legacy windowing and re-embeds under another', async () => {
    const url = tempDbUrl();
    const chunks = corpusChunks();
    const first = await open(url, { windowTokens: 512, windowOverlap: 64, embed: 'header+body' });
    assert.equal((await first.channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
    // As a store written before this field existed: the same fingerprint without `windowing`.
    const store = new VectorStore(first.client);
    const { windowing: _w, ...old } = (await store.readFingerprint())!;
    await store.writeFingerprint(old);
    first.close();

    const same = await open(url, { windowTokens: 512, windowOverlap: 64 });
    try {
      assert.equal(same.channel.status().outdated, false);
      const r = await same.channel.sync(chunks, { mode: 'full' });
      assert.deepEqual([r.embedded, r.reused], [0, chunks.length], 'legacy windowing: every vector is still current');
    } finally {
      same.close();
    }

    const smaller = await open(url, { windowTokens: 32, windowOverlap: 0 });
    try {
      const st = smaller.channel.status();
      assert.equal(st.state, 'ready', 'the old vectors keep serving meanwhile');
      assert.equal(st.outdated, true);
      assert.equal(st.vectors, chunks.length);
      const r = await smaller.channel.sync(chunks, { mode: 'full' });
      assert.equal(r.embedded, chunks.length, 'every chunk embedded again with the new windows');
      assert.equal(smaller.channel.status().outdated, false);
      assert.equal(smaller.channel.status().storedFingerprint?.windowing, '32/0/all');
    } finally {
      smaller.close();
    }

    const again = await open(url, { windowTokens: 32, windowOverlap: 0 });
    try {
      assert.equal(again.channel.status().outdated, false);
      assert.equal((await again.channel.sync(chunks, { mode: 'full' })).embedded, 0);
    } finally {
      again.close();
    }
  });

  it('under the default settings, a store from before the windowing was recorded is outdated: the default is not the legacy windowing', async () => {
    const url = tempDbUrl();
    const chunks = corpusChunks();
    const legacy = await open(url, { windowTokens: 512, windowOverlap: 64, embed: 'header+body' });
    assert.equal((await legacy.channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
    const store = new VectorStore(legacy.client);
    const { windowing: _w, ...old } = (await store.readFingerprint())!;
    await store.writeFingerprint(old);
    legacy.close();
    const defaults = await open(url, configSchema.parse({}).chunk);
    try {
      assert.equal(defaults.channel.status().outdated, true);
      assert.equal((await defaults.channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
    } finally {
      defaults.close();
    }
  });

  it('through the engine: an ordinary (incremental) index run after a windowing change embeds every chunk again', async () => {
    const work = mkdtempSync(join(root, 'engine-'));
    const diaryDir = join(work, 'diaries');
    mkdirSync(diaryDir, { recursive: true });
    for (let i = 0; i < 4; i++) writeFileSync(join(diaryDir, `2026-10-0${i + 1}-n${i}.txt`), `[09:00] note ${i}\n\n${LONG} number ${i}\n`);
    const openWith = (chunk: Record<string, unknown>) =>
      openEngine({
        options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding: { provider: 'local', modelDir }, chunk },
        env: { HOME: work },
        syncOnOpen: false,
      });
    const a = await openWith({ windowTokens: 512, windowOverlap: 64 });
    let chunks = 0;
    try {
      const report = await a.index({ full: true });
      chunks = report.semantic?.embedded ?? 0;
      assert.ok(chunks >= 4, `embedded ${chunks}`);
    } finally {
      a.close();
    }
    const b = await openWith({ windowTokens: 32, windowOverlap: 0 });
    try {
      const report = await b.index({});
      assert.equal(report.semantic?.embedded, chunks, 'no file changed, yet every chunk is embedded with the new windows');
      const again = await b.index({});
      assert.equal(again.semantic?.embedded ?? 0, 0);
      // Saved in the settings (the console): applied at once, every chunk embedded with the new windows.
      const saved = await b.saveSettings({ chunk: { windowTokens: 64 } });
      assert.equal(saved.ok, true);
      const st = b.semantic?.status() as { outdated?: boolean; storedFingerprint?: { windowing?: string } } | undefined;
      assert.equal(st?.storedFingerprint?.windowing, '64/0/all');
      assert.equal(st?.outdated, false);
    } finally {
      b.close();
    }
  });
});
