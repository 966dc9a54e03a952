import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { SemanticChannel } from '../../src/semantic/channel.ts';
import { compareFingerprints, fingerprintOf, normaliseEndpoint, parseFingerprint, type EmbeddingFingerprint } from '../../src/semantic/fingerprint.ts';

const base: EmbeddingFingerprint = {
  provider: 'openai',
  model: 'text-embedding-3-small',
  endpoint: 'https://api.example.com/v1',
  dimensions: 1536,
  chunkSize: 800,
  chunkOverlap: 120,
  pooling: '',
};

describe('fingerprint comparison (the three gates share it)', () => {
  const cases: { name: string; change: Partial<EmbeddingFingerprint>; fatal: boolean; advise: boolean }[] = [
    { name: 'identical', change: {}, fatal: false, advise: false },
    { name: 'dimensions', change: { dimensions: 768 }, fatal: true, advise: false },
    { name: 'model', change: { model: 'text-embedding-3-large' }, fatal: true, advise: false },
    { name: 'endpoint', change: { endpoint: 'https://other.example.com/v1' }, fatal: true, advise: false },
    { name: 'provider', change: { provider: 'local' }, fatal: true, advise: false },
    { name: 'chunk size', change: { chunkSize: 600 }, fatal: false, advise: true },
    { name: 'chunk overlap', change: { chunkOverlap: 0 }, fatal: false, advise: true },
    { name: 'model and chunk size', change: { model: 'm2', chunkSize: 600 }, fatal: true, advise: true },
    { name: 'dimensions unknown yet (auto)', change: { dimensions: 0 }, fatal: false, advise: false },
  ];
  for (const c of cases) {
    it(`${c.name}: fatal=${c.fatal}, advise=${c.advise}`, () => {
      const r = SemanticChannel.compare(base, { ...base, ...c.change });
      assert.equal(r.fatal, c.fatal);
      assert.equal(r.reasons.length > 0, c.fatal);
      assert.equal(r.advise.length > 0, c.advise);
    });
  }

  it('names what changed in the reasons', () => {
    const r = compareFingerprints(base, { ...base, dimensions: 768, model: 'm2' });
    assert.ok(r.reasons.some((x) => x.includes('1536') && x.includes('768')));
    assert.ok(r.reasons.some((x) => x.includes('m2')));
  });

  it('nothing stored, or provider none, is never fatal', () => {
    assert.deepEqual(compareFingerprints(null, base), { fatal: false, reasons: [], advise: [] });
    assert.equal(compareFingerprints(base, { ...base, provider: 'none', model: '', endpoint: '' }).fatal, false);
  });
});

describe('fingerprintOf', () => {
  it('keeps credentials and query strings out of the endpoint', () => {
    assert.equal(normaliseEndpoint('https://user:secret@api.example.com/v1/?key=abc#x'), 'https://api.example.com/v1');
    const cfg = configSchema.parse({ embedding: { provider: 'openai', baseUrl: 'https://u:pw@h.example/v1/', model: 'm', apiKey: 'sk-secret', dimensions: 8 } });
    const fp = fingerprintOf(cfg.embedding, cfg.chunk);
    assert.equal(fp.endpoint, 'https://h.example/v1');
    assert.ok(!JSON.stringify(fp).includes('sk-secret'));
    assert.ok(!JSON.stringify(fp).includes('pw'));
    assert.equal(fp.dimensions, 8);
    assert.equal(fp.chunkSize, cfg.chunk.size);
  });

  it('reads a local model dimension from config.json and names it after its directory', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'engram-fp-')), 'my-model');
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ hidden_size: 384 }));
    const cfg = configSchema.parse({ embedding: { provider: 'local', modelDir: dir } });
    const fp = fingerprintOf(cfg.embedding, cfg.chunk);
    assert.equal(fp.dimensions, 384);
    assert.equal(fp.model, 'my-model');
    assert.equal(fp.endpoint, dir);
  });

  it('round-trips through its stored JSON and rejects garbage', () => {
    assert.deepEqual(parseFingerprint(JSON.stringify(base)), base);
    assert.equal(parseFingerprint('not json'), null);
    assert.equal(parseFingerprint('{"model": 3}'), null);
  });
});
