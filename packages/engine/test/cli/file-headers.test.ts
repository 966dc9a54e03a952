// The headers the compiled CLI gives a local model file's response instead of the global Headers
// (scripts/file-headers.cjs, put in place by scripts/build-cli.mjs): what the model runtime reads of
// them behaves as Headers does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const FileHeaders = createRequire(import.meta.url)('../../scripts/file-headers.cjs') as new (init?: unknown) => Headers;

test('file headers: names without case, null when absent, and a real Headers made from them holds the same', () => {
  const h = new FileHeaders();
  h.set('content-length', 42 as unknown as string);
  h.set('Content-Type', 'application/json');
  assert.equal(h.get('Content-Length'), '42');
  assert.equal(h.get('content-type'), 'application/json');
  assert.equal(h.get('etag'), null);
  assert.equal(h.has('CONTENT-LENGTH'), true);
  h.append('x-a', '1');
  h.append('X-A', '2');
  assert.equal(h.get('x-a'), '1, 2');
  h.delete('x-a');
  assert.equal(h.has('x-a'), false);
  const copy = new FileHeaders(h);
  assert.deepEqual([...copy], [['content-length', '42'], ['content-type', 'application/json']]);
  assert.deepEqual([...new Headers(h)], [...copy], 'the order and values Headers itself gives');
  assert.deepEqual([...new FileHeaders({ A: 'b' })], [['a', 'b']]);
  const seen: string[] = [];
  copy.forEach((value, name) => seen.push(`${name}=${value}`));
  assert.deepEqual(seen, ['content-length=42', 'content-type=application/json']);
});
