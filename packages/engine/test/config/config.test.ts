import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { deepMerge, deltaAgainst, isMasked, maskSecrets, MASK, stripMaskedSecrets } from '../../src/config/merge.ts';
import { applyOverlay, resolveBase } from '../../src/config/resolve.ts';
import { secretPaths } from '../../src/config/schema.ts';

test('deepMerge merges objects key by key and replaces arrays and scalars', () => {
  const merged = deepMerge({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, e: true });
  assert.deepEqual(merged, { a: { b: 1, c: [3] }, d: 'x', e: true });
});

test('deltaAgainst keeps only what differs from the base', () => {
  assert.deepEqual(deltaAgainst({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: 1, c: 3 }, d: [1] }), { a: { c: 3 } });
  assert.equal(deltaAgainst({ a: 1 }, { a: 1 }), undefined);
});

test('secrets are masked for display and a masked echo is stripped from a patch', () => {
  const cfg = { embedding: { apiKey: 'sk-real', model: 'm' }, judge: { apiKey: '' } };
  const masked = maskSecrets(cfg, secretPaths);
  assert.equal(masked.embedding.apiKey, MASK);
  assert.equal(masked.judge.apiKey, '', 'an empty secret stays empty so the UI can tell "not set"');
  assert.ok(isMasked(masked.embedding.apiKey));
  const patch = stripMaskedSecrets({ embedding: { apiKey: MASK, model: 'n' } }, secretPaths);
  assert.deepEqual(patch, { embedding: { model: 'n' } });
});

test('env wins over the config file and over the overlay; data location stays with the base', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-cfg-'));
  const file = join(dir, 'engram.json');
  writeFileSync(file, JSON.stringify({ recall: { kBase: 4 }, embedding: { model: 'from-file' } }));
  const env = { HOME: dir, ENGRAM_EMBEDDING_MODEL: 'from-env', ENGRAM_DATA_DIR: join(dir, 'data') };
  const resolved = resolveBase({ configFile: file, env });
  assert.equal(resolved.base.recall.kBase, 4);
  assert.equal(resolved.base.embedding.model, 'from-env');
  assert.ok(resolved.lockedByEnv.includes('embedding.model'));
  const effective = applyOverlay(resolved, { embedding: { model: 'from-overlay' }, recall: { kBase: 7 }, dataDir: '/elsewhere' }, env);
  assert.equal(effective.embedding.model, 'from-env');
  assert.equal(effective.recall.kBase, 7);
  assert.equal(effective.dataDir, join(dir, 'data'));
  assert.equal(effective.databaseUrl, `file:${join(dir, 'data', 'engram.db')}`);
});

test('an invalid config names the offending path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-cfg-'));
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ recall: { kBase: 'five' } }));
  assert.throws(() => resolveBase({ configFile: file, env: { HOME: dir } }), /recall\.kBase/);
  writeFileSync(file, '{ not json');
  assert.throws(() => resolveBase({ configFile: file, env: { HOME: dir } }), /not valid JSON/);
});

// A bad value from the environment was named by its setting only, as if it were in a config file.
test('an invalid value from the environment names its variable and the setting, a list item by the variable that set the list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-cfg-'));
  assert.throws(() => resolveBase({ env: { HOME: dir, ENGRAM_TOKENIZER: 'foo' } }), /: ENGRAM_TOKENIZER \(recall\.tokenizer\): /);
  assert.throws(() => resolveBase({ env: { HOME: dir, ENGRAM_ALLOWED_ORIGINS: `https://a.example,${'x'.repeat(600)}` } }), /: ENGRAM_ALLOWED_ORIGINS \(console\.allowedOrigins\.1\): /);
  // The same setting from options (a flag, the plugin's config) is named by the setting alone.
  assert.throws(() => resolveBase({ options: { recall: { tokenizer: 'foo' } }, env: { HOME: dir } }), /\): recall\.tokenizer: /);
});

// A misspelt key in the config file was dropped without a word: {"recall":{"kbase":5}} ran with the default.
test('a config file key that misspells a setting is refused with the setting it likely means; a key unlike any is left alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-cfg-'));
  const file = join(dir, 'typo.json');
  for (const [raw, path, meant] of [
    [{ recall: { kbase: 5 } }, 'recall.kbase', 'recall.kBase'],
    [{ recall: { hybridGate: { queryGates: 'off' } } }, 'recall.hybridGate.queryGates', 'recall.hybridGate.queryGate'],
    [{ timedecay: { enabled: false } }, 'timedecay', 'timeDecay'],
  ] as const) {
    writeFileSync(file, JSON.stringify(raw));
    assert.throws(
      () => resolveBase({ configFile: file, env: { HOME: dir } }),
      (e: Error & { code?: string }) => e.code === 'config-invalid' && e.message.includes(path) && e.message.includes(meant) && /不是设置项/.test(e.message),
      path,
    );
  }
  // A key from another tool or an older version, like no setting, is not a typo.
  writeFileSync(file, JSON.stringify({ recall: { kBase: 7, someRetiredOption: true }, $schema: 'x' }));
  assert.equal(resolveBase({ configFile: file, env: { HOME: dir } }).base.recall.kBase, 7);
});

test('overlayAfterSave: sets what differs from the base, drops what equals it, keeps the rest, skips locked and prototype keys', async () => {
  const { overlayAfterSave } = await import('../../src/config/merge.ts');
  const base = { recall: { kBase: 5, kMax: 10 }, inject: { mode: 'message' }, dataDir: '/d', embedding: { model: 'env-model' } };
  const previous = { recall: { kMax: 8 }, inject: { mode: 'context' } };
  const patch = JSON.parse('{"recall":{"kBase":6},"inject":{"mode":"message"},"dataDir":"/x","embedding":{"model":"m"},"__proto__":{"polluted":true}}');
  const next = overlayAfterSave(previous, patch, base, ['embedding.model']);
  assert.deepEqual(next, { recall: { kMax: 8, kBase: 6 } });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(previous, { recall: { kMax: 8 }, inject: { mode: 'context' } }, 'pure: the previous overlay is not mutated');
});
