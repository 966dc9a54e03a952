// A data dir records which model its vectors came from (the weights' key in the fingerprint). When
// Engram's own model changes under `embedding.provider: auto` (a new pinned version in the shared
// cache), the channel backs the old vectors up and re-embeds; with a model the user chose, it stops
// and asks for a rebuild as before.
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MODEL_META_FILE } from '../../src/model/manifest.ts';
import { SemanticChannel } from '../../src/semantic/channel.ts';
import { corpusChunks, embeddingConfig, openClient, tempDbUrl } from './helpers.ts';
import { buildTinyModel } from './tiny-onnx.ts';

const root = mkdtempSync(join(tmpdir(), 'engram-model-change-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A tiny model written with Engram's metadata (as `engram model install` leaves it), weights from `seed`. */
function installTiny(dir: string, seed: number): void {
  buildTinyModel(dir, { dims: 16, seed });
  const files = ['config.json', 'tokenizer.json', 'onnx/model.onnx'].map((path) => {
    const data = readFileSync(join(dir, path));
    return { path, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
  });
  writeFileSync(join(dir, MODEL_META_FILE), JSON.stringify({ id: 'Test/tiny', name: 'tiny', pooling: 'mean', maxTokens: 64, dimensions: 16, queryInstruction: '', source: 'test', installedAt: '', files }));
}

async function open(dir: string, url: string, rebuildOnModelChange: boolean) {
  const client = openClient(url);
  const cfg = embeddingConfig({ provider: 'local', modelDir: dir, model: 'tiny', batchSize: 4 });
  const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk, rebuildOnModelChange });
  return { channel, close: () => { channel.close(); client.close(); } };
}

describe('the model behind a data dir\'s vectors changes', () => {
  it('auto: the old vectors are backed up and every chunk is embedded again; a chosen model asks for a rebuild', async () => {
    const dir = join(root, 'Test', 'tiny');
    installTiny(dir, 7);
    const url = tempDbUrl();
    const chunks = corpusChunks();
    const first = await open(dir, url, true);
    assert.equal((await first.channel.sync(chunks, { mode: 'full' })).embedded, chunks.length);
    first.close();

    installTiny(dir, 8); // new weights, same folder and name
    const chosen = await open(dir, url, false);
    assert.equal(chosen.channel.status().state, 'mismatch');
    assert.match(chosen.channel.status().reason ?? '', /weights changed/);
    chosen.close();

    const auto = await open(dir, url, true);
    try {
      assert.equal(auto.channel.status().state, 'ready', auto.channel.status().reason ?? '');
      assert.equal(auto.channel.status().vectors, 0, 'the old vectors were set aside');
      const r = await auto.channel.sync(chunks, { mode: 'full' });
      assert.equal(r.embedded, chunks.length, 'every chunk embedded with the new model');
      const s = await auto.channel.search('flat white coffee at the corner cafe this morning', 1);
      assert.ok(s.ran);
    } finally {
      auto.close();
    }
  });
});
