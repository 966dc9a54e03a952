// Settings payloads, fuzzed through Engine.saveSettings: whatever arrives (wrong types, unknown keys,
// out-of-range numbers, masked secrets, prototype tricks), the answer is a result or a typed refusal,
// the running config stays valid, and a restart opens with what was saved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../../src/config/schema.ts';
import { openEngine } from '../../src/engine.ts';
import { isEngramError } from '../../src/errors.ts';
import { runs, seedDiaries, tempDirs } from './helpers.ts';

const PATHS = [
  ['recall', 'kBase'], ['recall', 'kMax'], ['recall', 'tokenizer'], ['recall', 'minCoverage'], ['recall', 'userDict'], ['recall', 'fieldWeights', 'title'],
  ['inject', 'header'], ['inject', 'mode'], ['inject', 'maxMessages'], ['runtime', 'memories'], ['runtime', 'mode'], ['diary', 'folder'],
  ['diary', 'archiveFolder'], ['diary', 'updateMinTarget'], ['chunk', 'size'], ['chunk', 'overlap'], ['timeDecay', 'halfLifeDays'],
  ['embedding', 'apiKey'], ['embedding', 'provider'], ['judge', 'apiKey'], ['judge', 'enabled'], ['console', 'allowedOrigins'], ['aliases'],
  ['dataDir'], ['databaseUrl'], ['__proto__'], ['constructor', 'prototype'], ['unknownKey'],
];

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer({ min: -10, max: 30_000 }),
  fc.double(),
  fc.constantFrom('••••••••', '', 'jieba', 'gram', 'message', 'context', '../..', '/etc', null, true, [], {}),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.array(fc.record({ text: fc.string({ maxLength: 10 }), critical: fc.boolean() }), { maxLength: 2 }),
);

const isSecret = (path: string[]) => path.at(-1) === 'apiKey';
/** Secret paths get a recognisable key (or its mask, or empty); the view must never show the key. */
const entry = fc
  .constantFrom(...PATHS)
  .chain((path) => (isSecret(path) ? fc.constantFrom('sk-fuzz-secret', '••••••••', '') : value).map((v) => [path, v] as const));

const patch = fc.oneof(
  { weight: 3, arbitrary: fc.array(entry, { maxLength: 5 }).map((entries) => {
    const out: Record<string, unknown> = {};
    for (const [path, v] of entries) {
      let cur = out;
      for (const key of path.slice(0, -1)) {
        if (typeof cur[key] !== 'object' || cur[key] === null || Array.isArray(cur[key])) Object.defineProperty(cur, key, { value: {}, enumerable: true, writable: true, configurable: true });
        cur = cur[key] as Record<string, unknown>;
      }
      Object.defineProperty(cur, path.at(-1)!, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out as unknown;
  }) },
  { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 2 })) },
);

test(`settings payloads: a result or a typed refusal, never a crash; the config stays valid (${runs(600)} cases)`, { timeout: 300_000 }, async () => {
  const dirs = tempDirs('engram-fuzz-settings-');
  seedDiaries(dirs.diaryDir, 5);
  // Endpoints locked to a closed local port by env: no saved setting can send traffic anywhere.
  const env = { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root, ENGRAM_EMBEDDING_PROVIDER: 'none', ENGRAM_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', ENGRAM_EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' };
  const engine = await openEngine({ env });
  const outcomes = { saved: 0, refused: 0, confirm: 0 };
  try {
    await fc.assert(
      fc.asyncProperty(patch, async (p) => {
        try {
          const r = await engine.saveSettings(p);
          if (r.ok) outcomes.saved++;
          else outcomes.confirm++;
        } catch (e) {
          assert.ok(isEngramError(e), `untyped failure: ${String(e)}`);
          assert.ok(['bad-input', 'config-invalid'].includes(e.code), e.code);
          assert.ok(e.message.length > 0);
          outcomes.refused++;
        }
        assert.ok(configSchema.safeParse(engine.config).success, 'the running config is still valid');
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
        const view = JSON.stringify(engine.getSettings());
        assert.ok(!view.includes('sk-fuzz-secret'), 'a saved secret is masked in the settings view');
      }),
      { numRuns: runs(600) },
    );
    assert.ok(outcomes.saved > 0 && outcomes.refused > 0, JSON.stringify(outcomes));
    const saved = engine.getSettings().overlay;
    engine.close();
    const again = await openEngine({ env });
    // What was saved is what a restart opens with (as JSON: the payloads arrive as JSON anyway).
    assert.deepEqual(again.getSettings().overlay, JSON.parse(JSON.stringify(saved)), 'a restart opens with what was saved');
    assert.deepEqual((await again.status()).warnings.filter((w) => /settings/.test(w)), [], 'nothing saved needed repair');
    again.close();
  } finally {
    engine.close();
  }
  console.log(`# settings fuzz ${JSON.stringify(outcomes)}`);
});
