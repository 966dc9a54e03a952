// Nothing outside the data dir is ever written: session ids and workspaces become safe folder
// names, "..", absolute paths and symlink escapes are refused, deletes never touch a root.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { emptyArchive } from '../../src/compaction/archive.ts';
import { CompactionFiles } from '../../src/compaction/files.ts';
import { assertStrictlyInside, safeSegment, sessionDir, workspaceSegment } from '../../src/compaction/paths.ts';
import { isDiaryError } from '../../src/diary/errors.ts';

function sandbox(t: { after(fn: () => void): void }) {
  const root = mkdtempSync(join(tmpdir(), 'engram-cmp-paths-'));
  const dataDir = join(root, 'data');
  const outside = join(root, 'outside');
  mkdirSync(dataDir);
  mkdirSync(outside);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return { root, dataDir, outside };
}

const HOSTILE = ['../../etc/passwd', '..', '.', '/abs/path', 'C:\\Windows\\x', '\\\\server\\share', 'a/../../b', 'nul\u0000byte', '', '....', '-rf', '会话-一'];

test('hostile session ids and workspaces become plain, distinct folder names', () => {
  const seen = new Set<string>();
  for (const id of HOSTILE) {
    const segment = safeSegment(id);
    assert.match(segment, /^[A-Za-z0-9][A-Za-z0-9._-]*$/, JSON.stringify(id));
    assert.ok(!segment.includes('..'), segment);
    assert.ok(!seen.has(segment), `two ids share ${segment}`);
    seen.add(segment);
  }
  assert.equal(safeSegment('session-1'), 'session-1', 'plain ids stay readable');
  assert.notEqual(workspaceSegment('/a/proj'), workspaceSegment('/b/proj'), 'same basename, different workspaces');
  assert.match(sessionDir({ workspace: '../../..', sessionId: '../../x' }), /^compaction\/[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/);
});

test('writes for hostile ids land inside the data dir and nowhere else', async (t) => {
  const { root, dataDir, outside } = sandbox(t);
  const files = new CompactionFiles(dataDir);
  for (const id of HOSTILE) {
    await files.writeRules({ workspace: id, sessionId: id }, [{ text: '必须测试', hits: 1, firstSeen: '2026-01-01', lastSeen: '2026-01-01', lastCompaction: 'c' }]);
    await files.writeArchive({ workspace: '/w', sessionId: id }, emptyArchive(), 10_000);
  }
  assert.deepEqual(readdirSync(root).sort(), ['data', 'outside']);
  assert.deepEqual(readdirSync(outside), []);
  assert.deepEqual(readdirSync(dataDir), ['compaction']);
  assert.throws(() => files.pathOf('../outside/x'), (e) => isDiaryError(e, 'path-escape'));
  assert.throws(() => files.pathOf(join(outside, 'x')), (e) => isDiaryError(e, 'path-escape'));
  assert.throws(() => files.pathOf('compaction/..\\..\\x'), (e) => isDiaryError(e, 'path-escape'));
});

test('a symlink inside the data dir pointing outside is refused, nothing is written through it', async (t) => {
  const { dataDir, outside } = sandbox(t);
  symlinkSync(outside, join(dataDir, 'compaction'), 'dir');
  const files = new CompactionFiles(dataDir);
  await assert.rejects(files.writeRules({ workspace: '/w', sessionId: 's1' }, []), (e) => isDiaryError(e, 'path-escape'));
  await assert.rejects(files.readRules({ workspace: '/w', sessionId: 's1' }), (e) => isDiaryError(e, 'path-escape'));
  assert.deepEqual(readdirSync(outside), []);

  // A dangling symlink as the session folder: refused as well.
  rmSync(join(dataDir, 'compaction'));
  mkdirSync(join(dataDir, 'compaction', workspaceSegment('/w')), { recursive: true });
  symlinkSync(join(outside, 'later'), join(dataDir, sessionDir({ workspace: '/w', sessionId: 's1' })), 'dir');
  await assert.rejects(files.writeArchive({ workspace: '/w', sessionId: 's1' }, emptyArchive(), 10_000), (e) => isDiaryError(e, 'path-escape'));
  assert.ok(!existsSync(join(outside, 'later')));
});

test('deletes: the target must lie strictly inside its root (the root itself is refused)', async (t) => {
  const { dataDir, outside } = sandbox(t);
  const files = new CompactionFiles(dataDir);
  const scope = { workspace: '/w', sessionId: 's1' };
  await files.writeRules(scope, []);
  assert.throws(() => assertStrictlyInside(dataDir, dataDir), (e) => isDiaryError(e, 'path-escape'));
  assert.throws(() => assertStrictlyInside(dataDir, outside), (e) => isDiaryError(e, 'path-escape'));
  symlinkSync(outside, join(dataDir, 'link-out'), 'dir');
  assert.throws(() => assertStrictlyInside(dataDir, join(dataDir, 'link-out')), (e) => isDiaryError(e, 'path-escape'));
  writeFileSync(join(outside, 'keep.txt'), 'x');

  const entry = await files.trashSession(scope, '2026-03-01T00-00-00');
  assert.ok(entry);
  assert.equal(await files.purgeTrashEntry('../../outside'), false, 'a hostile trash name is a safe name that does not exist');
  assert.ok(existsSync(join(outside, 'keep.txt')));
  assert.equal(await files.restoreSession(scope, entry!), true);
  assert.ok(existsSync(files.rulesPath(scope)));
  assert.equal(await files.removeSession(scope), true);
  assert.ok(!existsSync(files.rulesPath(scope)));
  assert.ok(existsSync(join(outside, 'keep.txt')));
});
