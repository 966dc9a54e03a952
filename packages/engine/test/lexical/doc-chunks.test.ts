// The lexical index's document → chunks table (lexical/doc-chunks.ts) answers as a Map of Sets would,
// through any adds and deletes — one chunk held as itself, several in a set, back and forth.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DocChunks } from '../../src/lexical/doc-chunks.ts';

const op = fc.record({ add: fc.boolean(), doc: fc.constantFrom('a', 'b', 'c'), chunk: fc.constantFrom('a#0', 'a#1', 'a#2', 'b#0', 'x') });

test('document chunks: the same answers as a Map of Sets, in the same order, after any adds and deletes', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60, size: 'max' }), (ops) => {
      const table = new DocChunks();
      const ref = new Map<string, Set<string>>();
      for (const { add, doc, chunk } of ops) {
        if (add) {
          table.add(doc, chunk);
          if (!ref.has(doc)) ref.set(doc, new Set());
          ref.get(doc)!.add(chunk);
        } else {
          table.delete(doc, chunk);
          ref.get(doc)?.delete(chunk);
          if (ref.get(doc)?.size === 0) ref.delete(doc);
        }
        for (const d of ['a', 'b', 'c']) {
          assert.deepEqual(table.chunksOf(d), [...(ref.get(d) ?? [])]);
          assert.equal(table.countOf(d), ref.get(d)?.size ?? 0);
        }
        assert.deepEqual(new Set(table.docIds()), new Set(ref.keys()));
      }
    }),
    { numRuns: 500 },
  );
});
