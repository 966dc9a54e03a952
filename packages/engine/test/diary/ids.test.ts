import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { docIdFor, resolveDocId, resolveDocIdDetailed, type DocIdentity } from '../../src/diary/ids.ts';
import { parseFileName } from '../../src/diary/parse.ts';

const doc = (root: 'diary' | 'legacy', path: string, embeddedId: string | null = null): DocIdentity => ({
  id: docIdFor(root, path),
  root,
  path,
  embeddedId: embeddedId ?? parseFileName(path.split('/').pop()!).id,
});

const UUID_A = '1a2b3c4d-0000-4000-8000-00000000000a';
const docs: DocIdentity[] = [
  doc('diary', '运维/2026-11-01-东京节点-1a2b3c4d.txt'),
  doc('diary', '2026-11-02-另一篇-9f8e7d6c.txt'),
  doc('legacy', 'documents/active/m.md', UUID_A.replace('1a2b3c4d', 'aaaabbbb')),
  // Two documents whose 8-char ids collide on a shorter prefix: they must never cross over.
  doc('diary', '2026-11-03-甲-cafe0001.txt'),
  doc('diary', '2026-11-03-乙-cafe0002.txt'),
  // The same relative path in both roots.
  doc('diary', 'same.txt'),
  doc('legacy', 'same.txt'),
];
const byPath = (root: string, path: string) => docs.find((d) => d.root === root && d.path === path)!.id;

test('docIdFor: 16 hex, stable, different per root and path, slash-insensitive', () => {
  const id = docIdFor('diary', 'a/b.txt');
  assert.match(id, /^[0-9a-f]{16}$/);
  assert.equal(docIdFor('diary', 'a/b.txt'), id);
  assert.equal(docIdFor('diary', 'a\\b.txt'), id);
  assert.notEqual(docIdFor('legacy', 'a/b.txt'), id);
  assert.notEqual(docIdFor('diary', 'a/c.txt'), id);
  // The ids stored indexes hold: the first 16 hex digits of SHA-1 over "root:path", whatever builds them.
  assert.equal(id, 'e431140a72cfeb29');
  assert.equal(docIdFor('diary', '东京/节点.txt'), '903e93ac305ee0a5');
});

test('every identity of a document resolves to its docId', () => {
  const tokyo = byPath('diary', '运维/2026-11-01-东京节点-1a2b3c4d.txt');
  const identities = [
    tokyo,
    tokyo.toUpperCase(),
    '运维/2026-11-01-东京节点-1a2b3c4d.txt',
    './运维/2026-11-01-东京节点-1a2b3c4d.txt',
    '运维\\2026-11-01-东京节点-1a2b3c4d.txt',
    'diary:运维/2026-11-01-东京节点-1a2b3c4d.txt',
    '1a2b3c4d',
    '1A2B3C4D',
    UUID_A, // the full uuid written at creation, whose prefix is in the file name
    '2026-11-01-东京节点-1a2b3c4d.txt', // bare file name
  ];
  for (const q of identities) assert.equal(resolveDocId(q, docs), tokyo, q);

  const legacy = byPath('legacy', 'documents/active/m.md');
  for (const q of [legacy, 'documents/active/m.md', 'legacy:documents/active/m.md', 'aaaabbbb', UUID_A.replace('1a2b3c4d', 'aaaabbbb')]) {
    assert.equal(resolveDocId(q, docs), legacy, q);
  }
});

test('unknown ids stay unknown (the reverse direction)', () => {
  for (const q of ['', '   ', 'deadbeef', '0000000000000000', 'nope.txt', '运维/不存在.txt', '1a2b3c4', '1a2b3c', 'diary:documents/active/m.md', '1a2b3c4e-0000-4000-8000-00000000000a']) {
    const r = resolveDocIdDetailed(q, docs);
    assert.equal(r.ok, false, q);
    assert.equal(resolveDocId(q, docs), null, q);
  }
});

test('short ids never cross over, and a shared prefix is ambiguous, not a guess', () => {
  assert.equal(resolveDocId('cafe0001', docs), byPath('diary', '2026-11-03-甲-cafe0001.txt'));
  assert.equal(resolveDocId('cafe0002', docs), byPath('diary', '2026-11-03-乙-cafe0002.txt'));
  assert.equal(resolveDocId('cafe000', docs), null, 'a 7-char prefix is not an id');
  const amb = resolveDocIdDetailed('same.txt', docs);
  assert.deepEqual(amb.ok ? null : amb.reason, 'ambiguous');
  assert.equal(resolveDocId('diary:same.txt', docs), byPath('diary', 'same.txt'));
  assert.equal(resolveDocId('legacy:same.txt', docs), byPath('legacy', 'same.txt'));
});

test('two documents with the same embedded id are ambiguous by that id but reachable by path', () => {
  const twins = [doc('diary', 'a/2026-01-01-x-12345678.txt'), doc('diary', 'b/2026-01-01-x-12345678.txt')];
  const r = resolveDocIdDetailed('12345678', twins);
  assert.equal(r.ok, false);
  assert.equal(r.ok ? '' : r.reason, 'ambiguous');
  assert.equal(resolveDocId('a/2026-01-01-x-12345678.txt', twins), twins[0]!.id);
});

test('property: each generated document resolves from its docId, path and file id, and only to itself', () => {
  const pathArb = fc
    .tuple(fc.constantFrom('', '工作/', 'a/b/'), fc.stringMatching(/^[a-z\u4e00-\u4e10]{1,6}$/), fc.stringMatching(/^[0-9a-f]{8}$/))
    .map(([dir, slug, id]) => `${dir}2026-01-01-${slug}-${id}.txt`);
  fc.assert(
    fc.property(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 12, selector: (p) => p.slice(-12) }), (paths) => {
      const set = paths.map((p) => doc('diary', p));
      for (const d of set) {
        assert.equal(resolveDocId(d.id, set), d.id);
        assert.equal(resolveDocId(d.path, set), d.id);
        assert.equal(resolveDocId(d.embeddedId!, set), d.id);
      }
    }),
    { numRuns: 200 },
  );
});
