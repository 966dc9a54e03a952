// The semantic channel's fusion weight by the query's language (recall/channel-weights.ts): calibrated
// where the model was fitted (Chinese); for English with that model it only reorders what the words
// found. Relations, checked over generated rankings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { configSchema } from '../../src/config/schema.ts';
import { channelWeightsFor, semanticCandidates } from '../../src/recall/channel-weights.ts';
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
  it('is the configured weight; for English with the Chinese model its own, reordering the words\' finds', () => {
    assert.deepEqual(channelWeightsFor('zh', MODEL, recall), { lexical: recall.lexicalWeight, semantic: recall.semanticWeight, rule: 'calibrated' });
    assert.equal(channelWeightsFor('mixed', MODEL, recall).rule, 'calibrated');
    assert.deepEqual(channelWeightsFor('en', MODEL, recall), { lexical: recall.lexicalWeight, semantic: recall.english.semanticWeight, rule: 'reorder' });
    assert.ok(recall.english.semanticWeight > 0 && recall.english.semanticWeight < recall.semanticWeight);
  });

  it('stays calibrated for English with a model that was not fitted on Chinese only, or none named', () => {
    assert.equal(channelWeightsFor('en', 'text-embedding-3-small', recall).rule, 'calibrated');
    assert.equal(channelWeightsFor('en', undefined, recall).rule, 'calibrated');
  });

  const lexicalOf = (ids: number[]) => ids.map((n, i) => ({ chunkId: `c${n}`, docId: `d${n}`, score: 100 - i, matched: [] }));
  const semanticOf = (ids: number[]) => ids.map((n, i) => ({ chunkId: `c${n}`, docId: `d${n}`, score: 0.9 - i / 1000 }));
  const fusedFor = (rule: 'calibrated' | 'reorder', lex: number[], sem: number[]) => {
    const lexical = lexicalOf(lex);
    const weights = channelWeightsFor(rule === 'reorder' ? 'en' : 'zh', MODEL, recall);
    return fuse(lexical, semanticCandidates(rule, lexical, semanticOf(sem)), { ...recall, lexicalWeight: weights.lexical, semanticWeight: weights.semantic }).map((c) => c.chunkId);
  };
  const ids = (max: number) => fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: max });

  it('for English finds only what the words found, and without the model ranks as the words do', () => {
    fc.assert(
      fc.property(ids(recall.lexicalLimit), fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: recall.semanticLimit }), (lex, sem) => {
        const order = fusedFor('reorder', lex, sem);
        assert.deepEqual([...order].sort(), lex.map((n) => `c${n}`).sort(), 'exactly the lexical candidates');
        assert.deepEqual(fusedFor('reorder', lex, []), lex.map((n) => `c${n}`));
        // A calibrated query keeps the model's own finds.
        const calibrated = fusedFor('calibrated', lex, sem);
        assert.equal(calibrated.length, new Set([...lex, ...sem]).size);
      }),
      { numRuns: 300 },
    );
  });

  it('for English lifts a note the words found and the model puts first above the words\' first', () => {
    const lex = Array.from({ length: 10 }, (_, i) => i);
    assert.equal(fusedFor('reorder', lex, [5, 150, 151])[0], 'c5');
    assert.deepEqual(fusedFor('reorder', lex, [150, 151]), lex.map((n) => `c${n}`), 'the model\'s own finds neither enter nor move anything');
  });
});
