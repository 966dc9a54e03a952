// The config schema's error messages as a user reads them (`engram status` with a bad config file):
// zod's English wording for built-in checks plus our own caps and folder checks, in schema order.
// zod/mini has no default locale (classic zod registered English on its first schema), so without
// the registration in schema.ts every built-in message below would read "Invalid input".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';

const messages = (input: unknown) => {
  const r = configSchema.safeParse(input);
  assert.equal(r.success, false);
  return r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

test('built-in checks speak English and our own checks keep their wording, in schema order', () => {
  assert.deepEqual(
    messages({
      chunk: { size: 5, overlap: 1.5 },
      diary: { format: 'doc', folder: '../x', archiveFolder: '', updateMinTarget: 'x' },
      recall: { userDict: 'x', bm25B: 2, tokenizer: null },
      aliases: [['a'], ['b', '']],
      runtime: { memories: [{ text: '' }], title: 'a'.repeat(201) },
      embedding: { queryInstruction: 'a'.repeat(501) },
    }),
    [
      'diary.format: Invalid option: expected one of "txt"|"md"',
      'diary.folder: diary.folder "../x": must be a relative folder inside the diary root (".." is not allowed in paths: ../x)',
      'diary.archiveFolder: diary.archiveFolder cannot be empty (the diary root itself)',
      'diary.updateMinTarget: Invalid input: expected number, received string',
      'chunk.size: Too small: expected number to be >=100',
      'chunk.overlap: Invalid input: expected int, received number',
      'recall.tokenizer: Invalid option: expected one of "auto"|"jieba"|"gram"',
      'recall.userDict: Invalid input: expected array, received string',
      'recall.bm25B: Too big: expected number to be <=1',
      'aliases.0: Too small: expected array to have >=2 items',
      'aliases.1.1: Too small: expected string to have >=1 characters',
      'embedding.queryInstruction: Too big: expected string to have <=500 characters',
      'runtime.title: runtime.title: at most 200 characters',
      'runtime.memories.0.text: Too small: expected string to have >=1 characters',
    ],
  );
  assert.deepEqual(messages({ recall: { userDict: Array(5001).fill('x') } }), ['recall.userDict: recall.userDict: at most 5,000 entries']);
});

test('missing sections and fields take their defaults; a default is a fresh copy each parse', () => {
  const a = configSchema.parse({ diary: undefined, recall: { fieldWeights: { title: 4 } } });
  assert.equal(a.diary.archiveFolder, '已整理');
  assert.deepEqual(a.recall.fieldWeights, { title: 4, summary: 2, tags: 2.5, body: 1, goal: 1.4 });
  assert.equal(a.recall.hybridGate.queryGate, 'auto');
  const b = configSchema.parse({});
  assert.deepEqual(b.compaction.readTools, ['read', 'grep', 'glob', 'web_fetch', 'history_read', 'engram_history']);
  b.compaction.readTools.push('x');
  assert.equal(configSchema.parse({}).compaction.readTools.length, 6);
});
