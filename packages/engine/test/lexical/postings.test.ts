import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PostingStore } from '../../src/lexical/postings.ts';
import { readVarint, varintSize, writeVarint } from '../../src/lexical/varint.ts';

function contents(store: PostingStore, termId: number): [number, number, number][] {
  const list = store.entries(termId);
  assert.equal(list.length, store.lengthOf(termId));
  return list;
}

function fieldMaskOf(store: PostingStore, termId: number, slot: number): number {
  const out = new Int32Array(1);
  store.fieldMasksOf(termId, [slot], out);
  return out[0]!;
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
            for (const [slot, mask] of expected.get(t) ?? []) assert.equal(fieldMaskOf(store, t, slot), mask);
            assert.equal(fieldMaskOf(store, t, 1000), -1);
            // Every slot at once, in one pass, including ones between and beyond the postings.
            const probe = Array.from({ length: 82 }, (_, i) => i);
            const masks = new Int32Array(probe.length);
            store.fieldMasksOf(t, probe, masks);
            const bySlot = new Map((expected.get(t) ?? []).map(([slot, mask]) => [slot, mask]));
            assert.deepEqual([...masks], probe.map((slot) => bySlot.get(slot) ?? -1));
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

  it('keeps large slot gaps, rare kinds and in-place rewrites exact', () => {
    const store = new PostingStore(16);
    store.addTerm();
    // Gaps spanning every varint length, and more kinds than fit in one byte.
    const slots = [0, 1, 130, 20_000, 3_000_000, 3_000_001, 200_000_000];
    const expected = slots.map((slot, i): [number, number, number] => [slot, i % 16, Math.fround(i * 1.1 + 0.3)]);
    for (let kind = 0; kind < 200; kind++) store.kindOf(kind % 16, kind + 0.5);
    for (const [slot, mask, tf] of expected) store.append(0, slot, mask, tf);
    assert.deepEqual(contents(store, 0), expected);
    // Dropping every other posting merges gaps (the list is rewritten over itself).
    store.rewriteAll((slot) => (slots.indexOf(slot) % 2 === 0 ? slot : -1));
    assert.deepEqual(contents(store, 0), expected.filter((_, i) => i % 2 === 0));
    store.rewriteAll((slot) => slots.indexOf(slot));
    assert.deepEqual(contents(store, 0), expected.filter((_, i) => i % 2 === 0).map(([slot, mask, tf]) => [slots.indexOf(slot), mask, tf]));
    store.append(0, 10, 3, 2);
    store.trim();
    assert.deepEqual(contents(store, 0).at(-1), [10, 3, 2]);
  });
  it('knows the kinds of an imported state: a posting of a known (fields, tf) pair adds no kind', () => {
    const store = new PostingStore();
    store.addTerm();
    const pairs: [number, number][] = [[8, 1], [8, 2], [1, 3], [9, 4.5], [31, 2.5]];
    pairs.forEach(([mask, tf], slot) => store.append(0, slot, mask, tf));
    const exported = store.exportState();
    const bytes = new Uint8Array(exported.bytes.byteLength);
    let at = 0;
    for (const piece of exported.bytes.pieces()) {
      bytes.set(piece, at);
      at += piece.length;
    }
    const reopened = new PostingStore();
    reopened.importState({ ...exported, bytes, start: exported.start.slice(), byteLengths: exported.byteLengths.slice(), counts: exported.counts.slice(), lastSlot: exported.lastSlot.slice(), deadCounts: exported.deadCounts.slice() });
    const kinds = exported.kindTf.length;
    pairs.forEach(([mask, tf]) => assert.equal(reopened.kindOf(mask, tf), store.kindOf(mask, tf), `kind of ${mask}/${tf}`));
    reopened.append(0, 10, 9, 4.5);
    assert.equal(reopened.exportState().kindTf.length, kinds);
    assert.deepEqual(contents(reopened, 0).at(-1), [10, 9, 4.5]);
  });
});

describe('varint', () => {
  it('round-trips values below 2^31 and reports their size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxLength: 50 }), (values) => {
        const bytes = new Uint8Array(values.length * 5);
        let end = 0;
        for (const value of values) {
          const next = writeVarint(bytes, end, value);
          assert.equal(next - end, varintSize(value));
          end = next;
        }
        const cursor = { value: 0 };
        let at = 0;
        for (const value of values) {
          at = readVarint(bytes, at, cursor);
          assert.equal(cursor.value, value);
        }
        assert.equal(at, end);
      }),
    );
  });
});
