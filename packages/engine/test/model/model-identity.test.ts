// A data dir records which model its vectors came from (the weights' pinned hashes, not only the
// folder they were read from): the model moving into the shared cache keeps its vectors; other
// weights under the same name or folder do not.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { DEFAULT_MODEL, filesKey, MODEL_META_FILE } from '../../src/model/manifest.ts';
import { compareFingerprints, fingerprintOf, parseFingerprint, type EmbeddingFingerprint } from '../../src/semantic/fingerprint.ts';

const roots: string[] = [];
after(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

/** A model folder with Engram's metadata naming these weights. */
function modelFolder(parent: string, files = DEFAULT_MODEL.files): string {
  const dir = join(parent, 'BAAI', 'bge-small-zh-v1.5');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ hidden_size: 512 }));
  writeFileSync(join(dir, MODEL_META_FILE), JSON.stringify({ ...DEFAULT_MODEL, source: 'test', installedAt: '', files }));
  return dir;
}

const local = (modelDir: string) => fingerprintOf(configSchema.parse({ embedding: { provider: 'local', modelDir, model: 'bge-small-zh-v1.5' } }).embedding, { size: 800, overlap: 120 });

describe('which model a data dir\'s vectors came from', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-identity-'));
  roots.push(root);
  const legacy = modelFolder(join(root, 'data', 'models'));
  const cached = modelFolder(join(root, 'cache'));
  const otherWeights = DEFAULT_MODEL.files.map((f) => (f.path.endsWith('.onnx') ? { ...f, sha256: 'f'.repeat(64) } : f));
  const retrained = modelFolder(join(root, 'other'), otherWeights);

  it('is recorded: the fingerprint of a local model carries its weights\' key, and survives storing', () => {
    const fp = local(cached);
    assert.equal(fp.modelKey, filesKey(DEFAULT_MODEL.files));
    assert.deepEqual(parseFingerprint(JSON.stringify(fp)), fp);
  });

  it('the same weights in another folder (moved into the shared cache) keep the vectors', () => {
    const cmp = compareFingerprints(local(legacy), local(cached));
    assert.equal(cmp.fatal, false, cmp.reasons.join('; '));
  });

  it('other weights under the same name are a model change', () => {
    const cmp = compareFingerprints(local(cached), local(retrained));
    assert.equal(cmp.fatal, true);
    assert.match(cmp.reasons.join(' '), /weights/);
  });

  it('vectors stored before the key was recorded: the same model folder moved keeps them, another folder does not', () => {
    const { modelKey: _drop, ...old } = local(legacy);
    const stored = parseFingerprint(JSON.stringify(old)) as EmbeddingFingerprint;
    assert.equal(compareFingerprints(stored, local(cached)).fatal, false);
    const elsewhere = modelFolder(join(root, 'x'));
    const renamed = join(root, 'x', 'BAAI', 'bge-small-zh-v1.5');
    assert.equal(renamed, elsewhere);
    assert.equal(compareFingerprints({ ...stored, endpoint: join(root, 'mine', 'my-model') }, local(cached)).fatal, true);
  });
});
