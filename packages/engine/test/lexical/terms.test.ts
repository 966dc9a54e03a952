// The packed vocabulary: every term found under its id (CJK, astral characters, long terms), unknown
// terms not found, terms added after opening numbered on, and a damaged table refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TermTable } from '../../src/lexical/terms.ts';

const TERMS = ['东京', '节点', '443', 'jieba', '', '🍜拉面', 'é', 'e\u0301', 'x'.repeat(2_000), ...Array.from({ length: 3_000 }, (_, i) => `词${i}`)];

test('packed terms: every term under its id, unknown ones absent, additions numbered on', () => {
  const table = TermTable.fromPacked(TermTable.pack(TERMS));
  assert.equal(table.size, TERMS.length);
  TERMS.forEach((t, id) => assert.equal(table.get(t), id, JSON.stringify(t.slice(0, 20))));
  for (const unknown of ['东', '东京节点', '词3000', 'x'.repeat(1_999), 'E']) assert.equal(table.get(unknown), undefined, unknown.slice(0, 20));
  table.add('新词', TERMS.length);
  assert.equal(table.get('新词'), TERMS.length);
  assert.throws(() => table.add('跳号', TERMS.length + 5), /in order/);
  assert.deepEqual(table.list(), [...TERMS, '新词']);
  assert.deepEqual(TermTable.fromPacked(table.packedForExport()).list(), [...TERMS, '新词']);
});

test('a damaged packed table is refused, not searched', () => {
  const packed = TermTable.pack(TERMS);
  const broken = (f: (p: ReturnType<typeof TermTable.pack>) => void) => {
    const p = { text: packed.text.slice(), offsets: packed.offsets.slice(), slots: packed.slots.slice() };
    f(p);
    return () => TermTable.fromPacked(p);
  };
  assert.throws(broken((p) => (p.offsets[3] = p.offsets[2]! - 1)), /backwards/);
  assert.throws(broken((p) => (p.offsets[p.offsets.length - 1] = 1)), /span/);
  assert.throws(broken((p) => p.slots.fill(1)), /twice/);
  assert.throws(broken((p) => (p.slots[p.slots.indexOf(5)] = 0)), /no hash slot/);
  assert.throws(() => TermTable.fromPacked({ ...packed, slots: packed.slots.subarray(0, 16) }), /number of hash slots/);
});
