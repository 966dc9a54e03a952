// The semantic integrity check re-embeds a sample and compares it with the stored vectors. The int8
// model quantises activations over the padded batch, so the same text batched with other texts
// comes back slightly different (cosine down to ~0.992, packages/engine/bench/integrity-drift.ts):
// healthy vectors must pass however the sample is batched, while vectors from another model setting
// or stored under the wrong chunk (≤ 0.93 in the same measurement) must still fail. With the real
// model (ENGRAM_TEST_MODEL_DATA_DIR; scripts/test-all.mjs installs it); skipped without it outside CI.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { installedModel } from '../../src/model/install.ts';
import { SemanticChannel } from '../../src/semantic/channel.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';
import { VectorStore } from '../../src/semantic/vector-store.ts';
import { embeddingConfig, fingerprintText, openClient, tempDbUrl } from './helpers.ts';

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
const found = source ? installedModel(source) : null;
/** CMRC 2018 dev, in the shared folder beside the repository. */
const dataset = new URL('../../../../../shared/datasets/cmrc2018/cmrc2018_dev.json', import.meta.url).pathname;
if ((!found || !existsSync(dataset)) && process.env.CI) throw new Error('CI must run the real-model tests: set ENGRAM_TEST_MODEL_DATA_DIR (scripts/test-all.mjs does) and provide shared/datasets/cmrc2018');
const skip = !found ? 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR; scripts/test-all.mjs installs it)' : !existsSync(dataset) ? `no ${dataset}` : false;

/** Chunk-sized Chinese texts of varied length (padding differs from batch to batch). */
function texts(n: number): string[] {
  const data = JSON.parse(readFileSync(dataset, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
  const out: string[] = [];
  for (const d of data.data) for (const p of d.paragraphs) if (out.length < n) out.push(p.context.slice(0, 60 + (out.length % 7) * 90));
  return out;
}

describe('semantic integrity check with the real int8 model', { skip }, () => {
  const chunks = (found ? texts(96) : []).map((text, i) => ({ id: `d${i}#0`, text, fingerprint: fingerprintText(text) }));
  let url: string;
  before(async () => {
    url = tempDbUrl();
    const client = openClient(url);
    const cfg = embeddingConfig({ provider: 'local', modelDir: found?.dir, model: 'bge-small-zh-v1.5', threads: 2 });
    const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk });
    assert.equal((await channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
    channel.close();
    client.close();
  });

  const open = async (batchSize: number) => {
    const client = openClient(url);
    const cfg = embeddingConfig({ provider: 'local', modelDir: found?.dir, model: 'bge-small-zh-v1.5', threads: 2, batchSize });
    const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk });
    return { client, channel, close: () => { channel.close(); client.close(); } };
  };
  let healthy: Awaited<ReturnType<SemanticChannel['integrityCheck']>>;

  it('passes healthy vectors re-embedded in other batches, though they drift below 0.999', async () => {
    const { channel, close } = await open(3);
    try {
      // Sampled in an order unlike the index run's (that one sorts by length).
      const sample = [...chunks].reverse().map((c) => ({ id: c.id, text: c.text }));
      healthy = await channel.integrityCheck(sample);
      assert.equal(healthy.checked, chunks.length);
      assert.ok(healthy.minCos < 0.999, `the drift this test is about is present (min cos ${healthy.minCos})`);
      assert.equal(healthy.ok, true, `healthy vectors flagged: ${JSON.stringify(healthy.failures.slice(0, 3))}`);
    } finally {
      close();
    }
  });

  it('fails vectors from another model setting, and vectors stored under the wrong chunk', async () => {
    const { client, channel, close } = await open(3);
    try {
      // Another model setting behind the same fingerprint: the same texts mean-pooled instead of CLS.
      const mean = await LocalEmbedder.load(found?.dir as string, { model: 'bge-small-zh-v1.5', threads: 2, pooling: 'mean' });
      const wrong = chunks.slice(0, 8);
      const vectors = await mean.embed(wrong.map((c) => c.text));
      await mean.dispose();
      // Two chunks' vectors swapped.
      const a = chunks[20] as (typeof chunks)[number];
      const b = chunks[21] as (typeof chunks)[number];
      const store = new VectorStore(client);
      const all = new Map<string, Float32Array>();
      await store.loadAll((row) => void all.set(row.id, Float32Array.from(row.vector)));
      await store.upsertMany([
        ...wrong.map((c, i) => ({ id: c.id, fingerprint: c.fingerprint, vector: vectors[i] as Float32Array })),
        { id: a.id, fingerprint: a.fingerprint, vector: all.get(b.id) as Float32Array },
        { id: b.id, fingerprint: b.fingerprint, vector: all.get(a.id) as Float32Array },
      ]);
      close();
      const again = await open(3);
      try {
        const sample = [...wrong, a, b, ...chunks.slice(30, 40)].map((c) => ({ id: c.id, text: c.text }));
        const report = await again.channel.integrityCheck(sample);
        assert.equal(report.ok, false);
        const failed = new Set(report.failures.map((f) => f.id));
        for (const c of [...wrong, a, b]) assert.ok(failed.has(c.id), `${c.id} is caught`);
        for (const c of chunks.slice(30, 40)) assert.equal(failed.has(c.id), false, `${c.id} is healthy`);
      } finally {
        again.close();
      }
    } finally {
      channel.close();
    }
  });

});
