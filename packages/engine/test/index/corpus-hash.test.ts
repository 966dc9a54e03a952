// The manifest's corpus hash is SHA-1 of the sorted `id:contentHash` lines joined by newlines; it is
// computed line by line, so it must equal that definition for any ids, including ids that begin
// other ids (where the ':' decides the order) and repeated ids.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { corpusHash } from '../../src/index/rows.ts';

const byDefinition = (items: { id: string; contentHash: string }[]) =>
  createHash('sha1')
    .update(items.map((i) => `${i.id}:${i.contentHash}`).sort().join('\n'))
    .digest('hex');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('corpusHash equals the hash of the sorted, joined lines, whatever the ids and the order', () => {
  const alphabet = ['a', 'b', '9', ':', ';', '9', '日', '\u0001', '-'];
  for (let seed = 1; seed <= 300; seed++) {
    const r = rng(seed);
    const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    const items: { id: string; contentHash: string }[] = [];
    const count = Math.floor(r() * 12);
    for (let i = 0; i < count; i++) {
      const earlier = items.length > 0 && r() < 0.5 ? items[Math.floor(r() * items.length)]!.id : null;
      // Often an id that begins, extends or repeats an earlier one.
      const id = earlier === null ? pick(1 + Math.floor(r() * 4)) : r() < 0.3 ? earlier : r() < 0.5 ? earlier + pick(1) : earlier.slice(0, Math.max(0, earlier.length - 1));
      items.push({ id, contentHash: pick(Math.floor(r() * 3)) });
    }
    const expected = byDefinition(items);
    assert.equal(corpusHash(items), expected, JSON.stringify(items));
    assert.equal(corpusHash([...items].reverse()), expected, 'order-independent');
  }
});

test('corpusHash leaves the list it is given in its order', () => {
  const items = [
    { id: 'b', contentHash: '2' },
    { id: 'a', contentHash: '1' },
  ];
  corpusHash(items);
  assert.deepEqual(items.map((i) => i.id), ['b', 'a']);
});
