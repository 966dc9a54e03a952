// Every path that comes from a request or a tool argument stays inside its root: `..`, absolute
// paths, drive letters and symlinks that lead out are refused, fuzzed over safeJoin (10,000 cases)
// and over the engine's write / read / edit / save / forget, with the outside world snapshotted.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { isDiaryError } from '../../src/diary/errors.ts';
import { isInside, safeJoin } from '../../src/diary/fsio.ts';
import { openEngine } from '../../src/engine.ts';
import { isEngramError } from '../../src/errors.ts';
import { hostilePath } from './arbitraries.ts';
import { listAll, runs, seedDiaries, tempDirs } from './helpers.ts';

/** A root with symlinks: one leading outside, one inside, one dangling; and a secret next to the root. */
function hostileTree() {
  const dirs = tempDirs('engram-paths-');
  const outside = join(dirs.root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), '[09:00] 秘密\n\n外面的文件\n\nTag: 秘密\n');
  writeFileSync(join(dirs.root, 'secret.txt'), 'top secret');
  mkdirSync(join(dirs.diaryDir, 'inner'));
  symlinkSync(outside, join(dirs.diaryDir, 'link'));
  symlinkSync(join(dirs.diaryDir, 'inner'), join(dirs.diaryDir, 'inside-link'));
  symlinkSync(join(dirs.root, 'nowhere'), join(dirs.diaryDir, 'dangling'));
  return { ...dirs, outside };
}

const snapshot = (dir: string) => Object.fromEntries(listAll(dir).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));

test(`safeJoin: a result is inside the root, lexically and through symlinks, or the path is refused (${Math.max(10_000, runs(10_000))} cases)`, () => {
  const tree = hostileTree();
  const realRoot = realpathSync(tree.diaryDir);
  let refused = 0;
  let accepted = 0;
  fc.assert(
    fc.property(hostilePath(), (p) => {
      let out: string;
      try {
        out = safeJoin(tree.diaryDir, p);
      } catch (e) {
        assert.ok(isDiaryError(e, 'path-escape'), `unexpected refusal for ${JSON.stringify(p)}: ${String(e)}`);
        refused++;
        return;
      }
      accepted++;
      assert.ok(isInside(tree.diaryDir, out), `${JSON.stringify(p)} → ${out} is outside lexically`);
      // Follow what exists of it: the real location must be inside the real root too.
      let probe = out;
      const rest: string[] = [];
      for (;;) {
        try {
          const real = realpathSync(probe);
          assert.ok(isInside(realRoot, join(real, ...rest)), `${JSON.stringify(p)} escapes through a symlink`);
          break;
        } catch (e) {
          if ((e as { code?: string }).code !== 'ENOENT' && (e as { code?: string }).code !== 'ENOTDIR') throw e;
          rest.unshift(relative(dirname(probe), probe));
          probe = dirname(probe);
        }
      }
    }),
    { numRuns: Math.max(10_000, runs(10_000)) },
  );
  assert.ok(refused > 100 && accepted > 100, `both outcomes exercised (${accepted} accepted, ${refused} refused)`);
  for (const p of ['../secret.txt', '/etc/passwd', 'link/secret.txt', 'inner/../../secret.txt', 'C:\\Windows', '..\\secret.txt', 'a/\u0000b', 'dangling/x.txt']) {
    assert.throws(() => safeJoin(tree.diaryDir, p), (e: unknown) => isDiaryError(e, 'path-escape'), p);
  }
  assert.equal(safeJoin(tree.diaryDir, 'inside-link/x.txt'), join(tree.diaryDir, 'inside-link/x.txt'), 'a symlink that stays inside is fine');
});

test(`the engine keeps every request path inside the diary root (${runs(150)} fuzzed writes + fixed attacks)`, async () => {
  const tree = hostileTree();
  seedDiaries(tree.diaryDir, 4);
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: tree.diaryDir, ENGRAM_DATA_DIR: tree.dataDir, HOME: tree.root } });
  const outsideBefore = snapshot(tree.outside);
  const secretBefore = readFileSync(join(tree.root, 'secret.txt'), 'utf8');
  try {
    const attacks = ['../secret.txt', '/etc/passwd', join(tree.root, 'secret.txt'), 'link/secret.txt', 'diary:../secret.txt', 'diary:link/secret.txt', '..\\secret.txt', 'legacy:../../secret.txt'];
    for (const id of attacks) {
      assert.equal(await engine.read(id), null, `read ${id}`);
      await assert.rejects(engine.edit(id, '外面的文件外面的文件外面的文件', 'x'), (e: unknown) => isEngramError(e), `edit ${id}`);
      await assert.rejects(engine.saveText(id, 'x', 'h'), (e: unknown) => isEngramError(e), `save ${id}`);
      await assert.rejects(engine.forget(id), (e: unknown) => isEngramError(e), `forget ${id}`);
    }
    // The symlinked folder's file is never indexed (symlinks are not followed), so nothing reaches it by id.
    assert.ok((await engine.list()).every((m) => !m.path.startsWith('link/')));

    let written = 0;
    await fc.assert(
      fc.asyncProperty(hostilePath(), fc.string({ minLength: 1, maxLength: 30 }), async (folder, title) => {
        try {
          const r = await engine.write({ title: `${title} ${written}`, content: `路径模糊测试的第 ${written} 篇正文,用来确认文件落在日记根目录之内。`, folder, tags: ['路径'] });
          written++;
          assert.ok(!r.path.split('/').includes('..'));
          assert.ok(isInside(realpathSync(tree.diaryDir), realpathSync(join(tree.diaryDir, r.path))), `${r.path} landed outside`);
        } catch (e) {
          assert.ok(isEngramError(e), `not a typed refusal: ${String(e)}`);
        }
      }),
      { numRuns: runs(150) },
    );
    assert.ok(written > 0);
  } finally {
    engine.close();
  }
  assert.deepEqual(snapshot(tree.outside), outsideBefore, 'nothing outside the root changed');
  assert.equal(readFileSync(join(tree.root, 'secret.txt'), 'utf8'), secretBefore);
});

test('edits and whole-file saves keep a diary’s permissions', async () => {
  const dirs = tempDirs('engram-paths-');
  const [first] = seedDiaries(dirs.diaryDir, 2);
  const file = join(dirs.diaryDir, first!);
  chmodSync(file, 0o664);
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.root } });
  try {
    const doc = (await engine.list()).find((m) => m.path === first)!;
    await engine.edit(doc.docId, '接管,并把时区调整为 UTC+9。 编号 0。', '接管,并把时区调整为 UTC+8。 编号 0。');
    assert.equal(statSync(file).mode & 0o777, 0o664, 'after an edit');
    const detail = (await engine.read(doc.docId))!;
    await engine.saveText(doc.docId, `${detail.raw}\n`, detail.contentHash);
    assert.equal(statSync(file).mode & 0o777, 0o664, 'after a whole-file save');
  } finally {
    engine.close();
  }
});
