// The compressed index against a plain BM25F written out term by term, on a generated corpus large
// enough to exercise the posting log, region moves, multi-byte gaps, rare posting kinds and slot
// compaction: every ranked list, score and matched field must come out the same.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25Idf, LEXICAL_FIELDS, LexicalIndex, type LexicalEntry, type LexicalHit, type LexicalOptions } from '../../src/lexical/bm25.ts';
import { isSingleCjkChar } from '../../src/text/scripts.ts';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words, single CJK characters and latin tokens, drawn with Zipf-like frequencies as text is. */
function vocabulary(size: number): string[] {
  const chars = Array.from({ length: 400 }, (_, i) => String.fromCodePoint(0x4e00 + i * 7));
  return Array.from({ length: size }, (_, i) => {
    if (i % 11 === 0) return chars[i % chars.length]!;
    if (i % 13 === 0) return `v${i}`;
    return `${chars[i % chars.length]}${chars[(i * 31) % chars.length]}${i % 3 === 0 ? chars[(i * 7) % chars.length] : ''}`;
  });
}

function generatedCorpus(count: number, seed: number): { entries: LexicalEntry[]; words: string[] } {
  const words = vocabulary(6000);
  const next = random(seed);
  const word = () => words[Math.min(words.length - 1, Math.floor(words.length * next() ** 3))]!;
  const run = (max: number) => Array.from({ length: Math.floor(next() * max) }, word);
  const entries = Array.from({ length: count }, (_, i): LexicalEntry => {
    // Chunks of one document share its title, summary and tags, as the live index does.
    const docSeed = random(Math.floor(i / 3) + 1);
    const docWord = () => words[Math.floor(words.length * docSeed() ** 2)]!;
    const docRun = (max: number) => Array.from({ length: Math.floor(docSeed() * max) }, docWord);
    return {
      chunkId: `c${String(i).padStart(5, '0')}`,
      docId: `d${Math.floor(i / 3)}`,
      // Every other document has a goal line; the rest leave the field out, as other indexes do.
      fields: { title: docRun(6), summary: docRun(12), tags: docRun(3), body: run(160), ...(Math.floor(i / 3) % 2 === 0 ? { goal: docRun(5) } : {}) },
    };
  });
  return { entries, words };
}

/** BM25F exactly as documented on LexicalIndex, recomputed from the live entries for each query. */
function referenceSearch(live: Map<string, LexicalEntry>, query: readonly string[], limit: number, opts: LexicalOptions): LexicalHit[] {
  const entries = [...live.values()];
  const weights = LEXICAL_FIELDS.map((f) => opts.fieldWeights[f] ?? 0);
  const totals = LEXICAL_FIELDS.map((f) => entries.reduce((sum, e) => sum + (e.fields[f] ?? []).length, 0));
  let total = 0;
  for (let f = 0; f < weights.length; f++) total += weights[f]! * totals[f]!;
  const avg = total / entries.length;
  const lengthScale = avg > 0 ? (opts.k1 * opts.b) / avg : 0;
  const lengthBase = opts.k1 * (1 - opts.b);
  const terms: { token: string; weight: number; idf: number }[] = [];
  for (const token of new Set(query)) {
    const df = entries.filter((e) => LEXICAL_FIELDS.some((f) => (e.fields[f] ?? []).includes(token))).length;
    const weight = isSingleCjkChar(token) ? opts.singleCharWeight : 1;
    if (df > 0 && weight > 0) terms.push({ token, weight, idf: bm25Idf(entries.length, df) });
  }
  const hits: LexicalHit[] = [];
  for (const e of entries) {
    let length = 0;
    for (let f = 0; f < weights.length; f++) length += weights[f]! * (e.fields[LEXICAL_FIELDS[f]!] ?? []).length;
    let score = 0;
    const matched: LexicalHit['matched'] = [];
    for (const term of terms) {
      let wtf = 0;
      const fields = LEXICAL_FIELDS.filter((f, i) => {
        let seen = false;
        for (const token of e.fields[f] ?? []) {
          if (token !== term.token) continue;
          wtf += weights[i]!;
          seen = true;
        }
        return seen;
      });
      if (fields.length === 0) continue;
      matched.push({ token: term.token, idf: term.idf, weight: term.weight, fields });
      // The index keeps weighted term frequencies as float32.
      wtf = Math.fround(wtf);
      if (wtf > 0) score += (term.weight * term.idf * wtf) / (wtf + lengthBase + lengthScale * length);
    }
    if (score > 0) hits.push({ chunkId: e.chunkId, docId: e.docId, score, rank: 0, matched });
  }
  hits.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.chunkId < b.chunkId ? -1 : 1));
  return hits.slice(0, limit).map((hit, i) => ({ ...hit, rank: i + 1 }));
}

function assertSameResults(actual: LexicalHit[], expected: LexicalHit[], label: string): void {
  assert.deepEqual(
    actual.map((h) => [h.chunkId, h.docId, h.rank, h.matched]),
    expected.map((h) => [h.chunkId, h.docId, h.rank, h.matched]),
    label,
  );
  for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i]!.score - expected[i]!.score) < 1e-9, `${label}: score of ${actual[i]!.chunkId}`);
}

function queries(words: string[], count: number, seed: number): string[][] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    // Up to 14 words: longer queries than the index notes field masks for while scoring.
    const query = Array.from({ length: 1 + Math.floor(next() * 14) }, () => words[Math.floor(words.length * next() ** 2)]!);
    if (next() < 0.3) query.push(query[0]!); // a repeated token counts once
    if (next() < 0.3) query.push('不在词表');
    return query;
  });
}

const defaults: LexicalOptions = { k1: 1.2, b: 0.75, fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1, goal: 1.4 }, singleCharWeight: 0.15 };
// Weights that are not exact in binary, and a zero-weight field, so float rounding and skipped fields are compared too.
const unusual: LexicalOptions = { k1: 0.9, b: 0.4, fieldWeights: { title: 1.7, summary: 0, tags: 2.2, body: 0.3, goal: 0.8 }, singleCharWeight: 0.5 };

describe('LexicalIndex against a reference BM25F on a generated corpus', () => {
  for (const [name, opts] of [['default options', defaults], ['unusual weights', unusual]] as const) {
    it(`ranks, scores and explains every query as the reference does (${name}), through bulk load, removals and re-adds`, () => {
      const { entries, words } = generatedCorpus(3000, 5);
      const index = new LexicalIndex(opts);
      const live = new Map<string, LexicalEntry>();
      for (const e of entries) {
        index.add(e);
        live.set(e.chunkId, e);
      }
      index.finishBulkAdd();
      const check = (label: string) => {
        for (const [i, query] of queries(words, 60, live.size).entries()) {
          const expected = referenceSearch(live, query, 400, opts);
          assertSameResults(index.search(query, 400), expected, `${label} #${i} top 400`);
          assertSameResults(index.search(query, 10), expected.slice(0, 10), `${label} #${i} top 10`);
        }
        for (const token of words.slice(0, 50)) {
          const df = [...live.values()].filter((e) => LEXICAL_FIELDS.some((f) => (e.fields[f] ?? []).includes(token))).length;
          assert.equal(index.documentFrequencyOf(token), df, `${label}: df of ${token}`);
        }
      };
      check('after the bulk load');

      // Removing two thirds leaves more dead slots than live ones: slots and posting lists are renumbered.
      for (const e of entries) {
        if (Number(e.chunkId.slice(1)) % 3 === 0) continue;
        assert.ok(index.remove(e.chunkId));
        live.delete(e.chunkId);
      }
      assert.equal(index.size, live.size);
      check('after removals');

      // Re-adding replaced chunks (with new bodies) and dropping whole documents keeps it exact.
      const { entries: changed } = generatedCorpus(3000, 99);
      for (const e of changed.filter((_, i) => i % 4 === 0)) {
        index.add(e);
        live.set(e.chunkId, e);
      }
      for (let d = 0; d < 1000; d += 9) {
        const ids = [...live.values()].filter((e) => e.docId === `d${d}`).map((e) => e.chunkId);
        assert.equal(index.removeDocument(`d${d}`), ids.length);
        for (const id of ids) live.delete(id);
      }
      check('after re-adds and document removals');
    });
  }

  it('holds a posting in under 4 bytes of typed arrays after finishBulkAdd', () => {
    const { entries } = generatedCorpus(3000, 5);
    const index = new LexicalIndex(defaults);
    let postings = 0;
    for (const e of entries) {
      index.add(e);
      postings += new Set(LEXICAL_FIELDS.flatMap((f) => e.fields[f])).size;
    }
    index.finishBulkAdd();
    // Each posting is stored twice (in its term's list and in its chunk's term list); the previous
    // layout took 12 bytes for the two, before per-term tables and headroom.
    assert.ok(index.memoryBytes() / postings < 4, `${(index.memoryBytes() / postings).toFixed(2)} bytes per posting`);
  });
});
