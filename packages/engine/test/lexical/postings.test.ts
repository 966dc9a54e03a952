import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { POSTING_STRIDE, PostingStore, postingFieldMask, postingSlot } from '../../src/lexical/postings.ts';

function contents(store: PostingStore, termId: number): [number, number, number][] {
  store.flush();
  const base = store.startOf(termId) * POSTING_STRIDE;
  return Array.from({ length: store.lengthOf(termId) }, (_, i) => [
    postingSlot(store.arena[base + i * POSTING_STRIDE]!),
    postingFieldMask(store.arena[base + i * POSTING_STRIDE]!),
    store.arenaTf[base + i * POSTING_STRIDE + 1]!,
  ]);
}

describe('PostingStore', () => {
  it('files logged postings per term in slot order, through any mix of flushes, moves and compactions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 29 }), { maxLength: 8 }), { maxLength: 80 }),
        fc.array(fc.nat({ max: 80 }), { maxLength: 10 }),
        (vocabulary, logCapacity, slots, readsAfter) => {
          const store = new PostingStore(logCapacity);
          for (let t = 0; t < vocabulary; t++) store.addTerm();
          const expected = new Map<number, [number, number, number][]>();
          slots.forEach((terms, slot) => {
            for (const term of new Set(terms.map((t) => t % vocabulary))) {
              const posting: [number, number, number] = [slot, (slot + term) % 16, (term % 5) + 0.5];
              store.append(term, ...posting);
              expected.set(term, [...(expected.get(term) ?? []), posting]);
            }
            // Reads in between force small flushes; the rest go through the capacity-triggered flush.
            if (readsAfter.includes(slot)) contents(store, 0);
          });
          for (let t = 0; t < vocabulary; t++) {
            assert.deepEqual(contents(store, t), expected.get(t) ?? []);
            for (const [slot, mask] of expected.get(t) ?? []) assert.equal(store.fieldMaskOf(t, slot), mask);
            assert.equal(store.fieldMaskOf(t, 1000), -1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every list intact while thousands of lists grow and move', () => {
    const store = new PostingStore(64);
    const terms = 3000;
    for (let t = 0; t < terms; t++) store.addTerm();
    for (let slot = 0; slot < 400; slot++) {
      for (let k = 0; k < 20; k++) store.append((slot * 37 + k * 101) % terms, slot, k % 16, k);
      if (slot % 50 === 0) store.flush();
    }
    let total = 0;
    for (let t = 0; t < terms; t++) {
      const list = contents(store, t);
      total += list.length;
      for (let i = 1; i < list.length; i++) assert.ok(list[i]![0] > list[i - 1]![0], `term ${t} sorted`);
    }
    assert.equal(total, 400 * 20);
  });

  it('drops postings of removed slots once they are the majority of a list, and renumbers on rewriteAll', () => {
    const store = new PostingStore();
    store.addTerm();
    for (let slot = 0; slot < 40; slot++) store.append(0, slot, 1, slot);
    const alive = (slot: number) => slot % 2 === 0 && slot >= 10;
    for (let slot = 0; slot < 40; slot++) if (!alive(slot)) store.markDead(0, alive);
    assert.deepEqual(contents(store, 0).map(([slot]) => slot), Array.from({ length: 15 }, (_, i) => 10 + 2 * i));
    store.rewriteAll((slot) => (slot - 10) / 2);
    assert.deepEqual(contents(store, 0).map(([slot]) => slot), Array.from({ length: 15 }, (_, i) => i));
    assert.deepEqual(contents(store, 0).map(([, , tf]) => tf), Array.from({ length: 15 }, (_, i) => 10 + 2 * i));
  });
});
