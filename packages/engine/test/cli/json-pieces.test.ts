// The CLI prints JSON in pieces (a report can list tens of thousands of warnings); the pieces must
// join to exactly what JSON.stringify makes of the same value, and no single piece may hold a long
// list whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonPieces } from '../../src/cli/output.ts';

const joined = (v: unknown) => [...jsonPieces(v)].join('');

test('jsonPieces joins to JSON.stringify for reports, lists and the values JSON leaves out or converts', () => {
  const warnings = Array.from({ length: 2500 }, (_, i) => `f${i}.txt: same title as g${i}.txt; "quoted" \u202e ${i}`);
  const values: unknown[] = [
    { mode: 'full', added: 3, warnings, changedDocIds: warnings.slice(0, 1001), skipped: [], nested: { list: warnings.slice(0, 1500), n: null } },
    { a: undefined, b: () => 1, c: Symbol('x'), d: new Date(0), e: new Map([[1, 2]]), f: [undefined, () => 1, NaN, Infinity] },
    Array.from({ length: 2001 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? { i } : [i, 'x'])),
    Array.from({ length: 1000 }, (_, i) => i),
    [],
    {},
    null,
    'text',
    42,
    { toJSON: () => ({ replaced: true }) },
    Object.assign(Object.create(null), { bare: 1 }),
  ];
  for (const v of values) assert.equal(joined(v), JSON.stringify(v));
});

test('a long list is printed in pieces of a thousand items', () => {
  const warnings = Array.from({ length: 40_000 }, (_, i) => `notes/${i}.txt: same title as notes/0.txt; consider merging them`);
  const pieces = [...jsonPieces({ warnings })];
  const longest = Math.max(...pieces.map((p) => p.length));
  assert.ok(pieces.length > 40, `${pieces.length} pieces`);
  // A thousand of the longest items and a bracket or comma, against 2.7 million characters in all.
  assert.ok(longest <= JSON.stringify(warnings.slice(-1000)).length, `longest piece ${longest} characters`);
});
