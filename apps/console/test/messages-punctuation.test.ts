// Chinese UI strings take full-width punctuation (，：；？！（）). The only half-width marks left are
// in examples of what to type: the diary format itself ("[21:14]", "Tag: a, b") and an alias list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en, zh } from '../src/client/messages.ts';

const TYPED_EXAMPLES = new Set(['library.create.contentPh', 'library.create.tagsPh', 'settings.aliases.ph']);

test('no half-width , : ; ? ! ( ) in the Chinese UI strings', () => {
  const bad = Object.entries(zh).filter(([k, v]) => !TYPED_EXAMPLES.has(k) && /[,:;?!()]/.test(v)).map(([k, v]) => `${k}: ${v}`);
  assert.deepEqual(bad, []);
});

test('the typed examples keep full-width marks around them', () => {
  for (const k of TYPED_EXAMPLES) assert.doesNotMatch(zh[k as keyof typeof zh].replace(/\[\d\d:\d\d\]|Tag: [^\n]*|例如：.*$/g, ''), /[,:;?!()]/, k);
  assert.equal(Object.keys(en).length, Object.keys(zh).length);
});
