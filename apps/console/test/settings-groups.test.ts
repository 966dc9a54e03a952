import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enSettings, formatBytes, zhSettings } from '../src/client/messages-settings.ts';
import { ADVANCED_SECTIONS, GROUP_PATHS, GROUPS, groupOf } from '../src/components/settings/groups.ts';
import { ALL_FIELDS } from '../src/components/settings/spec.ts';

test('Settings groups are 记忆来源, 召回, 模型 and 高级, in that order', () => {
  assert.deepEqual(
    GROUPS.map((g) => zhSettings[g.title]),
    ['记忆来源', '召回', '模型', '高级'],
  );
  assert.deepEqual(
    GROUPS.map((g) => enSettings[g.title]),
    ['Memory sources', 'Recall', 'Model', 'Advanced'],
  );
});

test('every control is shown exactly once, in one group', () => {
  const shown = GROUPS.flatMap((g) => g.fields.map((f) => f.path));
  assert.equal(new Set(shown).size, shown.length, 'no control twice');
  assert.deepEqual([...shown].sort(), ALL_FIELDS.map((f) => f.path).sort(), 'no control missing');
});

test('raw config paths are shown only under 高级', () => {
  for (const g of GROUPS) assert.equal(g.showPaths, g.id === 'advanced', g.id);
});

test('each group explains itself in one line, in Chinese with full-width punctuation, and in English', () => {
  for (const g of GROUPS) {
    const zh = zhSettings[g.explain];
    assert.ok(zh.length > 10 && !zh.includes('\n'), `${g.id}: one line`);
    assert.match(zh, /[\u4e00-\u9fff]/, `${g.id}: Chinese`);
    assert.doesNotMatch(zh, /[,:;?!()]/, `${g.id}: full-width punctuation`);
    assert.ok(enSettings[g.explain].length > 10, `${g.id}: English`);
  }
  for (const [k, v] of Object.entries(zhSettings)) assert.doesNotMatch(v, /[,:;?!()]/, k);
});

test('the person-facing groups hold what people change, not engine tuning', () => {
  assert.equal(groupOf('embedding.provider'), 'model');
  assert.equal(groupOf('diaryDir'), 'sources');
  assert.equal(groupOf('recall.kMax'), 'recall');
  for (const p of ['recall.bm25K1', 'recall.rrfK', 'recall.hybridGate.threshold', 'embedding.batchSize', 'console.allowedOrigins']) assert.equal(groupOf(p), 'advanced', p);
  const personal = Object.values(GROUP_PATHS).flat();
  assert.ok(personal.length <= 30, `a short page before 高级 (${personal.length} controls)`);
});

test('under 高级 no engine section is left empty, and the connection test moved to 模型', () => {
  for (const s of ADVANCED_SECTIONS) assert.ok(s.fields.length > 0 || s.tool === 'note-preview', s.id);
  assert.ok(!ADVANCED_SECTIONS.some((s) => s.tool === 'test-embedding'));
});

test('sizes read as a person reads them', () => {
  assert.equal(formatBytes(16_338_020), '16.3 MB');
  assert.equal(formatBytes(24_560_715), '24.6 MB');
  assert.equal(formatBytes(2_048), '2 KB');
});
