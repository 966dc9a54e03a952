// One-shot commands load the embedding model only when something needs a vector: a channel opened
// on demand does not touch the model to open, to report its status or to take a write (new chunks
// are embedded later by whoever holds the index); the first search loads it. Seen from outside with
// a model whose weights are broken: loading it is the only thing that can fail.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SemanticChannel, type ModelLoading } from '../../src/semantic/channel.ts';
import { corpusChunks, embeddingConfig, fingerprintText, openClient, tempDbUrl } from './helpers.ts';
import { buildTinyModel } from './tiny-onnx.ts';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-on-demand-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

async function open(dir: string, url: string, model?: ModelLoading) {
  const client = openClient(url);
  const cfg = embeddingConfig({ provider: 'local', modelDir: dir, batchSize: 4 });
  const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk, ...(model ? { model } : {}) });
  return { channel, close: () => { channel.close(); client.close(); } };
}

/** A database with vectors from a healthy model, then that model's weights broken. */
async function indexedThenBroken(name: string) {
  const dir = buildTinyModel(join(root, name), { dims: 16 });
  const url = tempDbUrl();
  const first = await open(dir, url);
  const chunks = corpusChunks();
  assert.equal((await first.channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
  first.close();
  writeFileSync(join(dir, 'onnx', 'model.onnx'), 'not a model any more');
  return { dir, url, chunks };
}

describe('embedding model loaded on demand', () => {
  it('opening, status and a write never load the model; new chunks wait for the index holder, stale vectors still go', async () => {
    const { dir, url, chunks } = await indexedThenBroken('write');
    // Loading the model at open fails at once with these weights …
    const eager = await open(dir, url);
    assert.equal(eager.channel.status().state, 'error');
    eager.close();
    // … on demand nothing loads it: the channel is ready, with the stored vectors counted.
    const { channel, close } = await open(dir, url, { load: 'on-demand', embedLater: true });
    try {
      const st = channel.status();
      assert.equal(st.state, 'ready', st.reason ?? '');
      assert.equal(st.vectors, chunks.length);
      const text = 'A new memory written from the command line';
      const r = await channel.sync([{ id: 'd9#0', text, fingerprint: fingerprintText(text) }], { mode: 'incremental', removedIds: ['d1#0'] });
      assert.equal(r.embedded, 0);
      assert.match(r.skipped ?? '', /embedded later/);
      assert.equal(r.removed, 1, 'the removed chunk\'s vector is dropped without the model');
      assert.equal(channel.status().state, 'ready', 'still not loaded');
      assert.equal(channel.status().vectors, chunks.length - 1);
    } finally {
      close();
    }
  });

  it('the first search loads the model (and says so when it cannot)', async () => {
    const broken = await indexedThenBroken('search');
    const a = await open(broken.dir, broken.url, { load: 'on-demand' });
    try {
      const s = await a.channel.search('coffee at the corner cafe', 3);
      assert.equal(s.ran, false);
      assert.equal(a.channel.status().state, 'error');
      assert.match(a.channel.status().reason ?? '', /could not be loaded|model/);
    } finally {
      a.close();
    }

    const dir = buildTinyModel(join(root, 'healthy'), { dims: 16 });
    const url = tempDbUrl();
    const first = await open(dir, url);
    await first.channel.sync(corpusChunks(), { mode: 'full' });
    first.close();
    const b = await open(dir, url, { load: 'on-demand' });
    try {
      const s = await b.channel.search('flat white coffee at the corner cafe this morning', 1);
      assert.ok(s.ran, 'searched after loading the model');
      assert.equal(s.hits[0]?.chunkId, 'd1#0');
      // Without embedLater a sync embeds what is new.
      const text = 'The hotel reservation was moved to Friday';
      const r = await b.channel.sync([{ id: 'd9#0', text, fingerprint: fingerprintText(text) }], { mode: 'incremental' });
      assert.equal(r.embedded, 1);
    } finally {
      b.close();
    }
  });
});
