// The docs' generated sections (settings and defaults, the gate table, the tool profiles) and every
// inline `setting` number agree with the code; a doc that drifts is named with the command that fixes it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultLeaves, docsDifferences, inlineSettingNumbers, repoRoot, sectionText, withSection } from './docs-sections.ts';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

test('the docs agree with the code (else: node --import tsx scripts/docs-sections.ts --write)', async () => {
  assert.deepEqual(await docsDifferences(), []);
});

test('a generated section that no longer matches the code is reported, and so is a stale inline number', async () => {
  const minSemantic = defaultLeaves().get('recall.minSemantic') as number;
  const stale = minSemantic + 0.05;
  const drifted = (file: string) => {
    const text = read(file);
    if (file !== 'docs/architecture.md') return text;
    const gates = sectionText(text, 'gate-table')!;
    return `${withSection(text, 'gate-table', gates.replace(/≥ [\d.]+: a hit that matched only/, '≥ 9.99: a hit that matched only'))}\nA hit needs \`recall.minSemantic\` ${stale}.\n`;
  };
  const diffs = await docsDifferences(drifted);
  assert.ok(diffs.some((d) => d.startsWith('docs/architecture.md: the generated section "gate-table" differs')), diffs.join('\n'));
  assert.ok(diffs.some((d) => d.includes(`\`recall.minSemantic\` ${stale}, but its default is ${minSemantic}`)), diffs.join('\n'));
});

test('a missing section is reported', async () => {
  const diffs = await docsDifferences((file) => (file === 'docs/configuration.md' ? '# Configuration\n' : read(file)));
  assert.ok(diffs.includes('docs/configuration.md: the generated section "config-defaults" is missing'), diffs.join('\n'));
});

test('sections are replaced between their markers only; inline numbers are read with their line', () => {
  const md = 'before\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nafter `recall.kBase` 5 and `recall.minCoverage` 30 % and `a.b` 1,200\n';
  const next = withSection(md, 'x', 'new\ntext');
  assert.equal(sectionText(next, 'x'), 'new\ntext');
  assert.ok(next.startsWith('before\n') && next.endsWith('after `recall.kBase` 5 and `recall.minCoverage` 30 % and `a.b` 1,200\n'));
  assert.deepEqual(inlineSettingNumbers(md), [
    { path: 'recall.kBase', value: 5, line: 5 },
    { path: 'a.b', value: 1200, line: 5 },
  ]);
  assert.throws(() => withSection('no markers', 'x', 'y'), /generated:x/);
});
