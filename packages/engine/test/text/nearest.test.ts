// "Did you mean": one rule for config keys, workspace ids and commands (text/nearest.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { editDistance, nearestSpelling } from '../../src/text/nearest.ts';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), maxLength: 8 });

test('the edit distance is zero only for the same word, symmetric, and at most the longer length', () => {
  fc.assert(
    fc.property(word, word, (a, b) => {
      const d = editDistance(a, b);
      assert.equal(d === 0, a === b);
      assert.equal(d, editDistance(b, a));
      assert.ok(d <= Math.max(a.length, b.length));
      assert.ok(d >= Math.abs(a.length - b.length));
    }),
    { numRuns: 500 },
  );
});

test('two neighbouring letters swapped are one edit, so the slip is taken for the word it slipped from', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e'), minLength: 2, maxLength: 8 }), fc.nat(), (w, n) => {
      const i = n % (w.length - 1);
      const swapped = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
      assert.ok(editDistance(w, swapped) <= 1);
    }),
    { numRuns: 500 },
  );
  assert.equal(nearestSpelling('lsit', ['edit', 'list', 'forget']), 'list');
  assert.equal(nearestSpelling('Kbase', ['kBase', 'k']), 'kBase', 'the same but for case first');
  assert.equal(nearestSpelling('xyz', ['xya']), null, 'too short to guess');
});
