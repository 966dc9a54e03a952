// The table a build adds its terms to: the same answers as a Map over every kind of term (CJK, astral
// characters, a lone surrogate, the empty term, terms longer than its first arena), through many
// growths of its slots and arenas; and a vocabulary built from nothing in it packs and reopens whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TermHash } from '../../src/lexical/term-hash.ts';
import { TermTable } from '../../src/lexical/terms.ts';

const ODD = ['', '东京', '🍜拉面', '\ud800', 'a\udc00b', 'e\u0301', 'é', 'x'.repeat(10_000), 'x'.repeat(9_999)];

/** A deterministic stream of words with repeats: short CJK and Latin words, some astral, some long. */
function words(n: number, seed = 7): string[] {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const kind = next();
    const len = 1 + Math.floor(next() * (kind < 0.05 ? 60 : 4));
    let w = '';
    for (let j = 0; j < len; j++) w += kind < 0.5 ? String.fromCharCode(0x4e00 + Math.floor(next() * 300)) : kind < 0.55 ? String.fromCodePoint(0x1f300 + Math.floor(next() * 50)) : String.fromCharCode(97 + Math.floor(next() * 26));
    out.push(w);
  }
  return out;
}

test('the same ids as a Map, in order of first sight, through its growths; absent terms are -1', () => {
  const table = new TermHash();
  const model = new Map<string, number>();
  for (const w of [...ODD, ...words(60_000)]) {
    const known = model.get(w);
    assert.equal(table.get(w), known ?? -1, JSON.stringify(w.slice(0, 12)));
    if (known === undefined) {
      model.set(w, model.size);
      assert.equal(table.add(w), model.size - 1);
    }
  }
  assert.ok(model.size > 5_000, `enough distinct terms to grow several times (${model.size})`);
  assert.equal(table.size, model.size);
  for (const [w, id] of model) {
    assert.equal(table.get(w), id);
    assert.equal(table.termAt(id), w, 'each term comes back code unit for code unit');
  }
  for (const absent of ['龘', 'x'.repeat(10_001), '\udc00', 'zzzzzzzzzzzzzzzzzzzzz']) assert.equal(table.get(absent), -1);
  assert.throws(() => table.termAt(model.size), RangeError);
});

test('a vocabulary built from nothing packs, and the packed table finds every term under the same id', () => {
  // Without the lone surrogates: the snapshot stores UTF-8, which cannot hold them.
  const wellFormed = ODD.filter((t) => !t.includes('\ud800') && !t.includes('\udc00'));
  const terms = [...new Set([...wellFormed, ...words(20_000, 3)])];
  const table = TermTable.empty();
  terms.forEach((t, id) => {
    assert.equal(table.get(t), undefined);
    table.add(t, id);
  });
  terms.forEach((t, id) => assert.equal(table.get(t), id));
  const reopened = TermTable.fromPacked(table.packedForExport());
  assert.deepEqual(reopened.list(), terms);
  terms.forEach((t, id) => assert.equal(reopened.get(t), id));
});
