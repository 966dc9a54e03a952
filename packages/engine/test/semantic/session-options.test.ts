import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_BATCH_TOKENS, lengthBuckets, sessionOptions } from '../../src/semantic/local-embedder.ts';

test('session options: spinning off and the arena on by default, threads only when set', () => {
  const o = sessionOptions(0);
  assert.equal(o.enableCpuMemArena, true);
  assert.equal(o.enableMemPattern, true);
  assert.equal(o.graphOptimizationLevel, 'all');
  assert.deepEqual(o.extra, { session: { intra_op: { allow_spinning: '0' } } });
  assert.equal('intraOpNumThreads' in o, false);
  const t = sessionOptions(2, { allowSpinning: true, enableCpuMemArena: false });
  assert.equal(t.intraOpNumThreads, 2);
  assert.equal(t.interOpNumThreads, 1);
  assert.equal(t.enableCpuMemArena, false);
  assert.deepEqual(t.extra, { session: { intra_op: { allow_spinning: '1' } } });
});

test('the default token budget runs a full-length window alone and batches short texts', () => {
  assert.deepEqual(lengthBuckets([512, 500, 480], DEFAULT_BATCH_TOKENS, 16), [[0], [1], [2]]);
  const short = lengthBuckets(Array.from({ length: 20 }, () => 20), DEFAULT_BATCH_TOKENS, 16);
  assert.deepEqual(short.map((b) => b.length), [16, 4]);
});
