// Texts to check token counters on, by kind: Chinese prose (the diary guideline, diaries), English
// prose (this repository's docs), TypeScript code, and the tool schemas of both profiles. Used by
// lean-token-estimate.test.ts and printed by bench-tokens.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_DIARY_GUIDELINE } from '@engram/engine';
import { createLeanTools } from '../src/host/tools/lean-tools.ts';
import { createTools } from '../src/host/tools/memory-tools.ts';
import { CORPUS, diaryText } from '../test/helpers.ts';
import { CODING_MEMORIES } from './coding-session.ts';

const root = join(import.meta.dirname, '../../..');
/** A document's prose: code fences and table rows left out. */
const prose = (path: string) =>
  readFileSync(join(root, path), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => !line.startsWith('|'))
    .join('\n');
const schemaText = (tools: { name: string; description: string; parameters: unknown }[]) => tools.map((t) => JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })).join('\n');

export const SAMPLES: Record<'chinese' | 'english' | 'code' | 'schemas', Record<string, string>> = {
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

export type SampleKind = keyof typeof SAMPLES;
