// The semantic channel's fusion weight by the query's language (recall/channel-weights.ts): full where
// the model was calibrated (Chinese), a tie-breaker for English, which can never reorder the lexical
// ranking. Relations, checked over generated rankings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../../src/config/schema.ts';
import { channelWeightsFor, tieBreakWeight } from '../../src/recall/channel-weights.ts';
import { fuse } from '../../src/recall/scoring.ts';
import { detectLanguage } from '../../src/text/language.ts';

const recall = configSchema.parse({}).recall;
const MODEL = 'bge-small-zh-v1.5';

describe('query language', () => {
  it('is read from the script', () => {
    assert.equal(detectLanguage('上周的会议定在哪天').language, 'zh');
    assert.equal(detectLanguage('when is the weekly meeting?').language, 'en');
    assert.equal(detectLanguage('sing-box 的 config 放在哪个 folder').language, 'mixed');
    assert.equal(detectLanguage('把 getUserName 改名了吗').language, 'zh');
    assert.equal(detectLanguage('443 2026').language, 'none');
  });
});

describe('semantic weight by language', () => {
  it('is the configured weight for Chinese and mixed queries and a tie-breaker for English', () => {
    assert.equal(channelWeightsFor('zh', MODEL, recall).semantic, recall.semanticWeight);
    assert.equal(channelWeightsFor('mixed', MODEL, recall).semantic, recall.semanticWeight);
    const en = channelWeightsFor('en', MODEL, recall);
    assert.equal(en.rule, 'tie-break');
    assert.ok(en.semantic > 0 && en.semantic < recall.semanticWeight);
    assert.equal(en.lexical, recall.lexicalWeight);
  });

  it('stays the configured weight for English with a model that was not fitted on Chinese only, or none named', () => {
    assert.equal(channelWeightsFor('en', 'text-embedding-3-small', recall).rule, 'calibrated');
    assert.equal(channelWeightsFor('en', undefined, recall).rule, 'calibrated');
  });

  it('for English never reorders lexical candidates and ranks embedding-only finds below them', () => {
    const cfg = { ...recall, semanticWeight: channelWeightsFor('en', MODEL, recall).semantic };
    const ids = fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: recall.lexicalLimit });
    fc.assert(
      fc.property(ids, fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: recall.semanticLimit }), (lex, sem) => {
        const lexical = lex.map((n, i) => ({ chunkId: `c${n}`, docId: `d${n}`, score: 100 - i, matched: [] }));
        const semantic = sem.map((n, i) => ({ chunkId: `c${n}`, docId: `d${n}`, score: 0.9 - i / 1000 }));
        const order = fuse(lexical, semantic, cfg).map((c) => c.chunkId);
        const lexicalOrder = order.filter((id) => lexical.some((h) => h.chunkId === id));
        assert.deepEqual(lexicalOrder, lexical.map((h) => h.chunkId));
        assert.deepEqual(order.slice(0, lexical.length), lexicalOrder, 'no embedding-only find above a lexical one');
      }),
      { numRuns: 300 },
    );
  });

  it('at the configured weight, the model can lift a lower lexical rank above a higher one (what English no longer allows)', () => {
    const lexical = Array.from({ length: 10 }, (_, i) => ({ chunkId: `c${i}`, docId: `d${i}`, score: 10 - i, matched: [] }));
    const order = fuse(lexical, [{ chunkId: 'c5', docId: 'd5', score: 0.9 }], recall).map((c) => c.chunkId);
    assert.equal(order[0], 'c5');
    assert.ok(tieBreakWeight(recall) < recall.semanticWeight);
  });
});
