import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '@engram/db';
import { createSemanticPort } from '../../src/semantic/factory.ts';
import { startFakeEmbedder, type FakeEmbedder } from './fake-embedder.ts';
import { corpusChunks, embeddingConfig } from './helpers.ts';

let server: FakeEmbedder;
before(async () => {
  server = await startFakeEmbedder({ dims: 24 });
});
after(() => server.close());

describe('createSemanticPort', () => {
  it('opens the channel on the engine database, next to the migrated schema', async () => {
    const db = await openDatabase({ url: `file:${join(mkdtempSync(join(tmpdir(), 'engram-factory-')), 'engram.db')}` });
    const config = embeddingConfig({ provider: 'openai', baseUrl: server.url, model: 'm', minIntervalMs: 0 });
    const port = await createSemanticPort({ config, db });
    assert.equal(port.status().state, 'ready');
    const r = await port.sync(corpusChunks(), { mode: 'full' });
    assert.equal(r.embedded, corpusChunks().length);
    const s = await port.search('coffee', 2);
    assert.ok(s.ran && s.hits.length === 2);
    // The engine's own tables are untouched and the vector tables sit beside them.
    const tables = await db.client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    const names = tables.rows.map((t) => String(t.name));
    for (const t of ['chunks', 'documents', 'vectors', 'vector_meta']) assert.ok(names.includes(t), t);
    port.close();
    db.close();
  });
});

describe('createEmbedder', () => {
  it('refuses an endpoint URL with a user name or password, saying where the key goes and not repeating it', async () => {
    const { createEmbedder } = await import('../../src/semantic/embedder-factory.ts');
    const cfg = embeddingConfig({ provider: 'openai', baseUrl: `${server.url.replace('://', '://me:hunter2-pw@')}`, model: 'm', minIntervalMs: 0 });
    await assert.rejects(createEmbedder(cfg.embedding), (e: Error) => /embedding\.apiKey/.test(e.message) && !e.message.includes('hunter2'));
  });
});
