import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  bm25Idf,
  LEXICAL_FIELDS,
  LexicalIndex,
  type LexicalEntry,
  type LexicalHit,
  type LexicalOptions,
} from '../../src/lexical/bm25.ts';

const options: LexicalOptions = {
  k1: 1.2,
  b: 0.75,
  fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 },
  singleCharWeight: 0.15,
};

function entry(chunkId: string, body: string[], extra: Partial<LexicalEntry['fields']> = {}, docId = chunkId): LexicalEntry {
  return { chunkId, docId, fields: { title: [], summary: [], tags: [], body, ...extra } };
}

function indexOf(entries: LexicalEntry[], opts: LexicalOptions = options): LexicalIndex {
  const index = new LexicalIndex(opts);
  for (const e of entries) index.add(e);
  return index;
}

const scoresById = (hits: LexicalHit[]) => Object.fromEntries(hits.map((h) => [h.chunkId, h.score]));

/** Common filler chunks so that 常见 has a high document frequency. */
const fillers = Array.from({ length: 8 }, (_, i) => entry(`f${i}`, ['常见', '内容', `填充${i}`]));

describe('LexicalIndex scoring relations', () => {
  it('ranks a chunk with a rare query term above one with only common terms', () => {
    const index = indexOf([...fillers, entry('rare', ['稀有', '内容', '其他']), entry('common', ['常见', '常见', '其他'])]);
    const hits = index.search(['稀有', '常见'], 10);
    assert.equal(hits[0]!.chunkId, 'rare');
    assert.ok(hits[0]!.score > scoresById(hits)['common']!);
  });

  it('ranks a title match above a body match of the same term', () => {
    const index = indexOf([
      ...fillers,
      entry('in-title', ['其他', '内容'], { title: ['端口', '说明'] }),
      entry('in-body', ['端口', '内容'], { title: ['其他', '说明'] }),
    ]);
    const hits = index.search(['端口'], 10);
    assert.deepEqual(hits.map((h) => h.chunkId), ['in-title', 'in-body']);
    assert.deepEqual(hits[0]!.matched[0]!.fields, ['title']);
    assert.deepEqual(hits[1]!.matched[0]!.fields, ['body']);
  });

  it('weights single CJK characters by singleCharWeight (0 ignores them)', () => {
    const entries = [...fillers, entry('single', ['港', '内容']), entry('word', ['港口', '内容'])];
    const query = ['港', '港口'];
    const full = indexOf(entries, { ...options, singleCharWeight: 1 }).search(query, 10);
    const reduced = indexOf(entries, { ...options, singleCharWeight: 0.15 }).search(query, 10);
    const ignored = indexOf(entries, { ...options, singleCharWeight: 0 }).search(query, 10);
    const single = (hits: LexicalHit[]) => scoresById(hits)['single'];
    assert.ok(Math.abs(single(reduced)! - 0.15 * single(full)!) < 1e-12);
    assert.equal(single(ignored), undefined, 'a chunk matching only single characters scores 0 and is not returned');
    assert.deepEqual(ignored.map((h) => h.chunkId), ['word']);
    assert.equal(reduced.find((h) => h.chunkId === 'single')!.matched[0]!.weight, 0.15);
  });

  it('applies singleCharWeight to characters outside the basic plane, not to single latin letters', () => {
    const index = indexOf([entry('a', ['𠮷']), entry('b', ['x'])], { ...options, singleCharWeight: 0 });
    assert.deepEqual(index.search(['𠮷', 'x'], 10).map((h) => h.chunkId), ['b']);
  });

  it('decreases idf as document frequency grows and reports 0 for unknown tokens', () => {
    const index = new LexicalIndex(options);
    assert.equal(index.hasIdf(), false);
    assert.equal(index.idf('词'), 0);
    for (let i = 0; i < 10; i++) index.add(entry(`x${i}`, [`独有${i}`]));
    const idfs: number[] = [];
    for (let i = 0; i < 10; i++) {
      index.add(entry(`x${i}`, ['共同', `独有${i}`]));
      idfs.push(index.idf('共同'));
    }
    for (let i = 1; i < idfs.length; i++) assert.ok(idfs[i]! < idfs[i - 1]!, `idf at df=${i + 1}`);
    assert.ok(idfs.at(-1)! > 0, 'Lucene idf stays positive');
    assert.equal(index.idf('未知'), 0);
    assert.equal(index.hasIdf(), true);
    assert.equal(index.idf('独有3'), bm25Idf(10, 1));
  });

  it('scores a longer chunk lower for the same term frequency (length normalisation)', () => {
    const index = indexOf([entry('short', ['端口', '一']), entry('long', ['端口', '一', '二', '三', '四', '五', '六'])]);
    assert.deepEqual(index.search(['端口'], 10).map((h) => h.chunkId), ['short', 'long']);
  });

  it('saturates term frequency', () => {
    const index = indexOf([...fillers, entry('once', ['端口', 'a', 'b', 'c']), entry('thrice', ['端口', '端口', '端口', 'a'])]);
    const scores = scoresById(index.search(['端口'], 10));
    assert.ok(scores['thrice']! > scores['once']!);
    assert.ok(scores['thrice']! < 3 * scores['once']!);
    assert.ok(scores['thrice']! <= index.idf('端口'), 'one term contributes at most its idf');
  });
});

describe('LexicalIndex search results', () => {
  it('counts duplicate query tokens once and ignores unknown ones', () => {
    const index = indexOf([...fillers, entry('a', ['端口', '常见'])]);
    assert.deepEqual(index.search(['端口', '端口', '未知'], 10), index.search(['端口'], 10));
  });

  it('lists the matched query tokens with idf and fields', () => {
    const index = indexOf([...fillers, entry('a', ['端口', '常见'], { tags: ['端口'], title: ['节点'] })]);
    const [hit] = index.search(['节点', '端口', '缺席'], 1);
    assert.equal(hit!.chunkId, 'a');
    assert.equal(hit!.rank, 1);
    assert.deepEqual(
      hit!.matched.map((m) => [m.token, m.fields]),
      [['节点', ['title']], ['端口', ['tags', 'body']]],
    );
    assert.equal(hit!.matched[0]!.idf, index.idf('节点'));
  });

  it('breaks score ties by chunkId and honours the limit', () => {
    const index = indexOf(['c', 'a', 'd', 'b'].map((id) => entry(id, ['同样'])));
    assert.deepEqual(index.search(['同样'], 10).map((h) => h.chunkId), ['a', 'b', 'c', 'd']);
    assert.deepEqual(index.search(['同样'], 2).map((h) => [h.chunkId, h.rank]), [['a', 1], ['b', 2]]);
    assert.deepEqual(index.search(['同样'], 0), []);
    assert.deepEqual(index.search([], 10), []);
  });

  it('ignores tokens that only occur in zero-weight fields', () => {
    const index = indexOf([entry('a', ['正文'], { tags: ['标签'] })], { ...options, fieldWeights: { ...options.fieldWeights, tags: 0 } });
    assert.deepEqual(index.search(['标签'], 10), []);
    assert.equal(index.search(['正文'], 10).length, 1);
  });
});

describe('LexicalIndex updates', () => {
  const a = [entry('a1', ['端口', '节点', '东京'], {}, 'A'), entry('a2', ['端口', '上限'], { title: ['召回'] }, 'A')];
  const b = [entry('b1', ['端口', '端口', '召回'], {}, 'B'), entry('b2', ['上限', '节点'], { tags: ['东京'] }, 'B')];
  const queries = [['端口'], ['节点', '东京'], ['召回', '上限'], ['端口', '召回', '东京']];

  it('gives the same scores and idf after removing B as when indexing A alone', () => {
    const alone = indexOf(a);
    const removed = indexOf([...a, ...b]);
    assert.ok(removed.remove('b1'));
    assert.ok(removed.remove('b2'));
    assert.equal(removed.remove('b2'), false);
    assert.equal(removed.size, alone.size);
    for (const q of queries) assert.deepEqual(removed.search(q, 10), alone.search(q, 10));
    for (const token of ['端口', '节点', '召回', '东京']) assert.equal(removed.idf(token), alone.idf(token));
  });

  it('removes a whole document', () => {
    const index = indexOf([...a, ...b]);
    assert.equal(index.removeDocument('B'), 2);
    assert.equal(index.removeDocument('B'), 0);
    assert.equal(index.size, 2);
    assert.deepEqual(index.search(['端口'], 10), indexOf(a).search(['端口'], 10));
  });

  it('replaces a chunk added again under the same id', () => {
    const index = indexOf([...a, entry('x', ['旧词'])]);
    index.add(entry('x', ['新词']));
    assert.equal(index.size, 3);
    assert.deepEqual(index.search(['旧词'], 10), []);
    assert.equal(index.search(['新词'], 10)[0]!.chunkId, 'x');
    assert.equal(index.idf('旧词'), 0);
  });

  it('keeps results after finishBulkAdd repacks memory, and keeps accepting changes', () => {
    const index = indexOf([...a, ...fillers]);
    const before = queries.map((q) => index.search(q, 10));
    index.finishBulkAdd();
    assert.deepEqual(queries.map((q) => index.search(q, 10)), before);
    for (const e of b) index.add(e);
    index.remove('f1');
    const expected = indexOf([...a, ...fillers.filter((f) => f.chunkId !== 'f1'), ...b]);
    for (const q of queries) assert.deepEqual(index.search(q, 10), expected.search(q, 10));
  });

  it('stays exact through heavy churn (slot and posting compaction)', () => {
    const vocabulary = Array.from({ length: 40 }, (_, i) => `词${i}`);
    const make = (id: number, salt: number) =>
      entry(`c${id}`, Array.from({ length: 6 }, (_, k) => vocabulary[(id * 7 + k * 13 + salt) % vocabulary.length]!), {}, `d${id % 50}`);
    const churned = new LexicalIndex(options);
    for (let round = 0; round < 6; round++) {
      for (let id = 0; id < 600; id++) churned.add(make(id, round));
      for (let id = 0; id < 600; id += 2) churned.remove(`c${id}`);
    }
    const fresh = new LexicalIndex(options);
    for (let id = 1; id < 600; id += 2) fresh.add(make(id, 5));
    assert.equal(churned.size, fresh.size);
    for (const q of [['词1'], ['词2', '词30'], vocabulary.slice(0, 10)]) {
      assert.deepEqual(churned.search(q, 50), fresh.search(q, 50));
    }
  });
});

describe('LexicalIndex against a plain reference implementation (generated operations)', () => {
  /** Straightforward BM25F over the live entries, same formula, no index structures. */
  function referenceSearch(live: Map<string, LexicalEntry>, query: string[], opts: LexicalOptions) {
    const n = live.size;
    const weights = LEXICAL_FIELDS.map((f) => opts.fieldWeights[f] ?? 0);
    const totals = LEXICAL_FIELDS.map((f) => [...live.values()].reduce((sum, e) => sum + (e.fields[f] ?? []).length, 0));
    const avg = totals.reduce((sum, t, i) => sum + weights[i]! * t, 0) / n;
    const scale = avg > 0 ? (opts.k1 * opts.b) / avg : 0;
    const base = opts.k1 * (1 - opts.b);
    const scores = new Map<string, number>();
    for (const token of new Set(query)) {
      const df = [...live.values()].filter((e) => LEXICAL_FIELDS.some((f) => (e.fields[f] ?? []).includes(token))).length;
      if (df === 0) continue;
      const weight = Array.from(token).length === 1 && /\p{Script=Han}/u.test(token) ? opts.singleCharWeight : 1;
      if (weight <= 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const e of live.values()) {
        const wtf = Math.fround(LEXICAL_FIELDS.reduce((sum, f, i) => sum + weights[i]! * (e.fields[f] ?? []).filter((t) => t === token).length, 0));
        if (wtf <= 0) continue;
        const len = LEXICAL_FIELDS.reduce((sum, f, i) => sum + weights[i]! * (e.fields[f] ?? []).length, 0);
        scores.set(e.chunkId, (scores.get(e.chunkId) ?? 0) + (weight * idf * wtf) / (wtf + base + scale * len));
      }
    }
    return scores;
  }

  const tokens = ['东', '京', '东京', '端口', '443', '召回', '上限'];
  const fieldArb = fc.array(fc.constantFrom(...tokens), { maxLength: 6 });
  const entryArb = fc.record({
    chunkId: fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c5', 'c6'),
    docId: fc.constantFrom('d1', 'd2', 'd3'),
    fields: fc.record({ title: fieldArb, summary: fieldArb, tags: fieldArb, body: fieldArb }),
  });
  const opArb = fc.oneof(
    { weight: 4, arbitrary: entryArb.map((e) => ({ kind: 'add' as const, entry: e })) },
    { weight: 1, arbitrary: fc.constantFrom('c1', 'c2', 'c3').map((id) => ({ kind: 'remove' as const, id })) },
    { weight: 1, arbitrary: fc.constantFrom('d1', 'd2').map((id) => ({ kind: 'removeDocument' as const, id })) },
  );

  it('matches the reference scores and order after any sequence of adds and removals', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), fc.subarray(tokens, { minLength: 1 }), (ops, query) => {
        const index = new LexicalIndex(options);
        const live = new Map<string, LexicalEntry>();
        for (const op of ops) {
          if (op.kind === 'add') {
            index.add(op.entry);
            live.set(op.entry.chunkId, op.entry);
          } else if (op.kind === 'remove') {
            assert.equal(index.remove(op.id), live.delete(op.id));
          } else {
            const ids = [...live.values()].filter((e) => e.docId === op.id).map((e) => e.chunkId);
            assert.equal(index.removeDocument(op.id), ids.length);
            for (const id of ids) live.delete(id);
          }
        }
        assert.equal(index.size, live.size);
        const hits = index.search(query, 100);
        const expected = live.size > 0 ? referenceSearch(live, query, options) : new Map();
        assert.deepEqual(hits.map((h) => h.chunkId).sort(), [...expected.keys()].sort());
        for (const hit of hits) assert.ok(Math.abs(hit.score - expected.get(hit.chunkId)!) < 1e-9);
        for (let i = 1; i < hits.length; i++) {
          const [prev, cur] = [hits[i - 1]!, hits[i]!];
          assert.ok(prev.score > cur.score || (prev.score === cur.score && prev.chunkId < cur.chunkId));
        }
      }),
      { numRuns: 400 },
    );
  });
});
