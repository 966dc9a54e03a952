// The heap budget of long bulk passes: below its growth it never collects; past it, it collects and
// the garbage is gone (a full index pass over 50,000 diaries peaked ~100 MB lower with it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { HeapBudget } from '../../src/runtime/heap.ts';

test('a heap budget collects only once the heap has grown past it, and the collection frees the garbage', () => {
  const budget = new HeapBudget(16 * 1024 * 1024);
  budget.check();
  assert.equal(budget.collections, 0, 'nothing allocated yet: no collection');
  // ~40 MB of short-lived objects, kept alive across scavenges so they reach the old generation.
  let keep: string[][] = [];
  for (let round = 0; round < 40; round++) {
    keep.push(Array.from({ length: 20_000 }, (_, i) => `garbage ${round} ${i} ${'x'.repeat(16)}`));
  }
  const before = getHeapStatistics().used_heap_size;
  keep = [];
  budget.check();
  assert.equal(budget.collections, 1, 'grown past the budget: one collection');
  const after = getHeapStatistics().used_heap_size;
  assert.ok(after < before - 16 * 1024 * 1024, `the garbage was collected (${(before / 2 ** 20).toFixed(0)} → ${(after / 2 ** 20).toFixed(0)} MB)`);
  budget.check();
  assert.equal(budget.collections, 1, 'no growth since: no second collection');
  assert.equal(keep.length, 0);
});
