import assert from 'node:assert/strict';
import { test } from 'node:test';
import { progressPercent, type ProgressPhase } from '../src/shared/progress.ts';

test('the bar only moves forward across phases and ends at 100', () => {
  const events: { phase: ProgressPhase; done: number; total: number }[] = [
    { phase: 'scan', done: 0, total: 0 },
    { phase: 'parse', done: 5, total: 10 },
    { phase: 'parse', done: 10, total: 10 },
    { phase: 'tokenize', done: 1, total: 10 },
    { phase: 'store', done: 10, total: 10 },
    { phase: 'embed', done: 0, total: 40 },
    { phase: 'embed', done: 40, total: 40 },
    { phase: 'done', done: 1, total: 1 },
  ];
  const percents = events.map(progressPercent);
  for (let i = 1; i < percents.length; i++) assert.ok(percents[i]! >= percents[i - 1]!, `step ${i}: ${percents.join(',')}`);
  assert.equal(percents.at(-1), 100);
  assert.ok(percents.slice(0, -1).every((p) => p < 100), 'nothing but done reports 100');
});

test('odd counts never leave 0..100', () => {
  assert.equal(progressPercent({ phase: 'embed', done: 50, total: 10 }) <= 99, true);
  assert.equal(progressPercent({ phase: 'parse', done: -3, total: 10 }) >= 0, true);
});
