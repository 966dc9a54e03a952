// The operations strings (messages-ops.ts) follow the same rules as messages.ts: full-width
// punctuation in Chinese, the same keys in both languages, no key shadowing one of messages.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { zh } from '../src/client/messages.ts';
import { enOps, zhOps } from '../src/client/messages-ops.ts';

test('no half-width , : ; ? ! ( ) in the Chinese operations strings', () => {
  const bad = Object.entries(zhOps).filter(([, v]) => /[,:;?!()]/.test(v)).map(([k, v]) => `${k}: ${v}`);
  assert.deepEqual(bad, []);
});

test('same keys in both languages, none shadowing messages.ts', () => {
  assert.deepEqual(Object.keys(enOps).sort(), Object.keys(zhOps).sort());
  assert.deepEqual(Object.keys(zhOps).filter((k) => k in zh), []);
});
