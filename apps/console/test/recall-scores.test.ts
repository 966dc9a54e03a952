import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelScales, DEFAULT_SCALE_CONFIG } from '../src/components/recall/scores.ts';

test('a full fused bar is rank 1 in every channel that ran, whatever the other hits scored', () => {
  assert.equal(channelScales(DEFAULT_SCALE_CONFIG, false).fusedMax, 1 / 61);
  assert.equal(channelScales(DEFAULT_SCALE_CONFIG, true).fusedMax, 1.25 / 61);
  // Rank 1 and rank 2 of one channel differ by their real ratio (0.0164 vs 0.0161 is 98 %), not 100 % vs 98 % of "the best".
  const { fusedMax } = channelScales(DEFAULT_SCALE_CONFIG, false);
  assert.ok(Math.abs(1 / 62 / fusedMax - 61 / 62) < 1e-12);
});

test('thresholds are drawn only where that gate decides', () => {
  assert.equal(channelScales(DEFAULT_SCALE_CONFIG, false).coverageThreshold, 0.3);
  assert.equal(channelScales(DEFAULT_SCALE_CONFIG, false).semanticThreshold, undefined, 'no vector channel, no vector threshold');
  assert.deepEqual(channelScales(DEFAULT_SCALE_CONFIG, true), { fusedMax: 1.25 / 61 }, 'the hybrid gate replaces both thresholds');
  const simple = { ...DEFAULT_SCALE_CONFIG, hybridGate: { enabled: false } };
  assert.equal(channelScales(simple, true).semanticThreshold, 0.55);
  assert.equal(channelScales({ ...simple, minCoverage: 0 }, true).coverageThreshold, undefined, 'a gate switched off has no tick');
});
