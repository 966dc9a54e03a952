import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isDiaryError } from '../../src/diary/errors.ts';
import { checkRelativePath, createFileExclusive, isTempFileName, moveNoOverwrite, safeJoin, writeFileAtomic } from '../../src/diary/fsio.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'engram-fsio-'));

test('writeFileAtomic replaces content, keeps the requested mode and leaves no temp file', async () => {
  const dir = tmp();
  const f = join(dir, 'a.txt');
  await writeFileAtomic(f, 'one');
  await writeFileAtomic(f, '二', { mode: 0o600 });
  assert.equal(readFileSync(f, 'utf8'), '二');
  assert.equal(statSync(f).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['a.txt']);
});

test('writeFileAtomic into a missing directory fails without leaving anything behind', async () => {
  const dir = tmp();
  await assert.rejects(writeFileAtomic(join(dir, 'nope', 'a.txt'), 'x'));
  assert.deepEqual(readdirSync(dir), []);
});

test('createFileExclusive creates once and never overwrites', async () => {
  const dir = tmp();
  const f = join(dir, 'a.txt');
  await createFileExclusive(f, 'first');
  await assert.rejects(createFileExclusive(f, 'second'), (e) => isDiaryError(e, 'exists'));
  assert.equal(readFileSync(f, 'utf8'), 'first');
  assert.deepEqual(readdirSync(dir), ['a.txt'], 'the temp file is cleaned up after a refusal');
});

test('createFileExclusive does not write through an existing symlink or directory', async () => {
  const dir = tmp();
  const outside = tmp();
  symlinkSync(join(outside, 'target.txt'), join(dir, 'link.txt'));
  await assert.rejects(createFileExclusive(join(dir, 'link.txt'), 'x'), (e) => isDiaryError(e, 'exists'));
  assert.deepEqual(readdirSync(outside), []);
  mkdirSync(join(dir, 'sub'));
  await assert.rejects(createFileExclusive(join(dir, 'sub'), 'x'));
});

test('concurrent exclusive creates: exactly one wins, the file holds its content whole', async () => {
  const dir = tmp();
  const f = join(dir, 'race.txt');
  const contents = Array.from({ length: 8 }, (_, i) => `writer-${i}-`.repeat(2000));
  const results = await Promise.allSettled(contents.map((c) => createFileExclusive(f, c)));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  assert.ok(contents.includes(readFileSync(f, 'utf8')));
  assert.deepEqual(readdirSync(dir), ['race.txt']);
});

test('moveNoOverwrite moves, and refuses to replace an existing destination', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'a'), 'A');
  writeFileSync(join(dir, 'b'), 'B');
  await assert.rejects(moveNoOverwrite(join(dir, 'a'), join(dir, 'b')), (e) => isDiaryError(e, 'exists'));
  assert.equal(readFileSync(join(dir, 'a'), 'utf8'), 'A');
  assert.equal(readFileSync(join(dir, 'b'), 'utf8'), 'B');
  await moveNoOverwrite(join(dir, 'a'), join(dir, 'c'));
  assert.deepEqual(readdirSync(dir).sort(), ['b', 'c']);
});

test('safeJoin accepts paths inside the root, including not-yet-existing ones', () => {
  const root = tmp();
  mkdirSync(join(root, '工作'));
  assert.equal(safeJoin(root, '工作/a.txt'), join(root, '工作', 'a.txt'));
  assert.equal(safeJoin(root, 'new/deeper/a.txt'), join(root, 'new', 'deeper', 'a.txt'));
  assert.equal(safeJoin(root, './x/./y.txt'), join(root, 'x', 'y.txt'));
  assert.equal(safeJoin(root, ''), root);
  assert.equal(safeJoin(root, 'a\\b.txt'), join(root, 'a', 'b.txt'));
});

test('safeJoin refuses .., absolute paths, drive letters, UNC and NUL with a typed error', () => {
  const root = tmp();
  for (const bad of ['../x', 'a/../../x', 'a/..', '..\\x', '/etc/passwd', 'C:\\x', 'c:x', '\\\\server\\share', 'a\0b']) {
    assert.throws(() => safeJoin(root, bad), (e) => isDiaryError(e, 'path-escape'), bad);
  }
  assert.throws(() => checkRelativePath('a/../b'), (e) => isDiaryError(e, 'path-escape'));
});

test('safeJoin refuses symlink escapes: a linked directory, a linked file, a dangling link', () => {
  const root = tmp();
  const outside = tmp();
  writeFileSync(join(outside, 'secret.txt'), 's');
  symlinkSync(outside, join(root, 'out'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret.txt'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'dangling.txt'));
  for (const bad of ['out/secret.txt', 'out/new.txt', 'out', 'secret.txt', 'dangling.txt', 'dangling.txt/x']) {
    assert.throws(() => safeJoin(root, bad), (e) => isDiaryError(e, 'path-escape'), bad);
  }
  // A symlink that stays inside the root is fine.
  mkdirSync(join(root, 'real'));
  symlinkSync(join(root, 'real'), join(root, 'alias'));
  assert.equal(safeJoin(root, 'alias/a.txt'), join(root, 'alias', 'a.txt'));
});

test('safeJoin works when the root itself is reached through a symlink', () => {
  const real = tmp();
  const parent = tmp();
  symlinkSync(real, join(parent, 'root-link'));
  assert.equal(safeJoin(join(parent, 'root-link'), 'a.txt'), join(parent, 'root-link', 'a.txt'));
});

test('safeJoin on a missing root is a typed not-found', () => {
  assert.throws(() => safeJoin(join(tmp(), 'missing'), 'a.txt'), (e) => isDiaryError(e, 'not-found'));
});

test('temp file names are recognisable', () => {
  assert.ok(isTempFileName('.engram-tmp-1-abc.tmp'));
  assert.ok(!isTempFileName('2026-01-01-x.txt'));
});
