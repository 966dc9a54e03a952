import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSchema } from '@engram/engine';
import { buildPatch, changedPaths, getAt, groupToList, linesToList, setAt } from '../src/components/settings/draft.ts';
import { ALL_FIELDS } from '../src/components/settings/spec.ts';

/** Leaf paths of the config: objects are walked, arrays and scalars are leaves. */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

test('every option the engine reads has a control on the Settings page', () => {
  const leaves = leafPaths(configSchema.parse({}));
  const controlled = new Set(ALL_FIELDS.map((f) => f.path));
  const missing = leaves.filter((p) => !controlled.has(p));
  assert.deepEqual(missing, [], `config paths without a control: ${missing.join(', ')}`);
});

test('every control points at a real config path, once', () => {
  const leaves = new Set(leafPaths(configSchema.parse({})));
  const paths = ALL_FIELDS.map((f) => f.path);
  assert.deepEqual(paths.filter((p) => !leaves.has(p)), []);
  assert.equal(new Set(paths).size, paths.length);
});

test('the query gate setting shows whether or not the hybrid gate is on: it also governs lexical recall\'s query gate', () => {
  const field = ALL_FIELDS.find((f) => f.path === 'recall.hybridGate.queryGate');
  assert.ok(field);
  for (const enabled of [true, false]) assert.equal(field.showIf?.((path) => (path === 'recall.hybridGate.enabled' ? enabled : undefined)) ?? true, true);
});

test('the patch holds exactly the changed paths', () => {
  const original = configSchema.parse({});
  let draft = setAt(original, 'recall.kBase', 7);
  draft = setAt(draft, 'aliases', [['a', 'b']]);
  const changed = changedPaths(draft, original, ALL_FIELDS.map((f) => f.path));
  assert.deepEqual(changed.sort(), ['aliases', 'recall.kBase']);
  const patch = buildPatch(draft, changed);
  assert.deepEqual(patch, { recall: { kBase: 7 }, aliases: [['a', 'b']] });
  assert.equal(getAt(original, 'recall.kBase'), 5, 'setAt does not mutate');
});

test('list editors parse lines and comma groups', () => {
  assert.deepEqual(linesToList(' a \n\n b\n'), ['a', 'b']);
  assert.deepEqual(groupToList('东京节点， tokyo-1、TYO,'), ['东京节点', 'tokyo-1', 'TYO']);
});
