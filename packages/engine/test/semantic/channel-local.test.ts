import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SemanticChannel } from '../../src/semantic/channel.ts';
import { LocalEmbedder, inspectModelDir } from '../../src/semantic/local-embedder.ts';
import { cosine } from '../../src/semantic/vector-index.ts';
import { buildTinyModel } from './tiny-onnx.ts';
import { corpusChunks, embeddingConfig, openClient, tempDbUrl } from './helpers.ts';

let root: string;
let modelDir: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-onnx-'));
  modelDir = buildTinyModel(join(root, 'tiny-bert'), { dims: 16 });
});
after(() => rmSync(root, { recursive: true, force: true }));

async function openLocal(dir: string, url = tempDbUrl(), over: Record<string, unknown> = {}) {
  const client = openClient(url);
  const cfg = embeddingConfig({ provider: 'local', modelDir: dir, batchSize: 4, ...over });
  const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk });
  return { client, channel, close: () => { channel.close(); client.close(); } };
}

describe('local ONNX embedder (built by the test, loaded offline)', () => {
  it('loads the model directory and produces normalised vectors of the model width', async () => {
    const e = await LocalEmbedder.load(modelDir, { model: 'tiny-bert' });
    assert.equal(e.dimensions, 16);
    const [a, b, c] = await e.embed(['coffee with milk', 'coffee with sugar', 'zebra 42']);
    assert.equal(a?.length, 16);
    let norm = 0;
    for (const x of a!) norm += x * x;
    assert.ok(Math.abs(norm - 1) < 1e-4);
    // Mean pooling of token vectors: shared tokens pull texts together.
    assert.ok(cosine(a!, b!) > cosine(a!, c!));
    const [zh1, zh2, zh3] = await e.embed(['今天天气晴朗', '今天天气下雨', '咖啡猫狗']);
    assert.ok(cosine(zh1!, zh2!) > cosine(zh1!, zh3!));
    // Deterministic: the same text gives the same vector.
    const [again] = await e.embed(['coffee with milk']);
    assert.ok(cosine(a!, again!) > 0.99999);
    await e.dispose();
  });

  it('serves the semantic channel: sync, search, integrity check', async () => {
    const { channel, close } = await openLocal(modelDir);
    const st = channel.status();
    assert.equal(st.state, 'ready');
    assert.equal(st.provider, 'local');
    assert.equal(st.fingerprint?.dimensions, 16);
    assert.equal(st.fingerprint?.model, 'tiny-bert');
    const chunks = corpusChunks();
    const r = await channel.sync(chunks, { mode: 'full' });
    assert.equal(r.embedded, chunks.length);
    assert.equal(r.degradedBatches.length, 0);
    const s = await channel.search('flat white coffee at the corner cafe this morning', 1);
    assert.ok(s.ran);
    assert.equal(s.hits[0]?.chunkId, 'd1#0');
    const check = await channel.integrityCheck(chunks.slice(0, 3).map((c) => ({ id: c.id, text: c.text })));
    assert.equal(check.ok, true);
    close();
  });

  it('a model with another width in the same directory is a dimension mismatch', async () => {
    const url = tempDbUrl();
    const dir = buildTinyModel(join(root, 'swappable'), { dims: 16 });
    const a = await openLocal(dir, url);
    await a.channel.sync(corpusChunks().slice(0, 3), { mode: 'full' });
    a.close();
    buildTinyModel(dir, { dims: 24 });
    const b = await openLocal(dir, url);
    assert.equal(b.channel.status().state, 'mismatch');
    assert.match(b.channel.status().reason ?? '', /dimensions changed: 16 → 24/);
    b.close();
  });

  describe('missing or broken model directory → error status, lexical-only', () => {
    const cases: { name: string; make: () => string; reason: RegExp }[] = [
      { name: 'empty setting', make: () => '', reason: /modelDir is empty/ },
      { name: 'missing directory', make: () => join(root, 'does-not-exist'), reason: /model directory not found/ },
      {
        name: 'no tokenizer.json',
        make: () => {
          const d = join(root, 'no-tokenizer');
          mkdirSync(join(d, 'onnx'), { recursive: true });
          writeFileSync(join(d, 'config.json'), '{}');
          return d;
        },
        reason: /no tokenizer\.json/,
      },
      {
        name: 'no ONNX weights',
        make: () => {
          const d = buildTinyModel(join(root, 'no-weights'));
          rmSync(join(d, 'onnx'), { recursive: true });
          return d;
        },
        reason: /no ONNX weights/,
      },
      {
        name: 'corrupt model.onnx',
        make: () => {
          const d = buildTinyModel(join(root, 'corrupt'));
          writeFileSync(join(d, 'onnx', 'model.onnx'), 'this is not a protobuf');
          return d;
        },
        reason: /could not be loaded|could not embed/,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const dir = c.make();
        // The cheap file check catches everything but a corrupt model, which only loading reveals.
        if (c.name === 'corrupt model.onnx') assert.equal(inspectModelDir(dir).dtype, 'fp32');
        else assert.throws(() => inspectModelDir(dir), c.reason);
        const { channel, close } = await openLocal(dir);
        const st = channel.status();
        assert.equal(st.state, 'error');
        assert.match(st.reason ?? '', c.reason);
        assert.match(st.action ?? '', /modelDir/);
        const s = await channel.search('coffee', 3);
        assert.equal(s.ran, false);
        const r = await channel.sync(corpusChunks(), { mode: 'full' });
        assert.equal(r.embedded, 0);
        assert.ok(r.skipped);
        close();
      });
    }
  });
});
