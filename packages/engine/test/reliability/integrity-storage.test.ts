// Issue #13 item 8 — a full disk: the data held, but the console said "Internal error", and the
// writer lock left 0-byte `.engram.lock.*.tmp` files. Storage refusals (ENOSPC, EDQUOT, EROFS,
// EACCES, EPERM) must reach every caller as a typed error with a plain message (Chinese first),
// with no temp file left behind. Tested by injecting the errno into the real code path, and on a
// real full / read-only tmpfs when this machine lets the test mount one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { toTRPCError } from '../../../../apps/console/src/server/errors.ts';
import { WriterLock } from '../../src/diary/lock.ts';
import { openEngine, type Engine } from '../../src/engine.ts';
import { fsError, withFsPatch } from './integrity-fsfault.ts';
import { diaryText, listAll, tempDirs } from './helpers.ts';

const EXISTING = diaryText('09:00', '已有的记忆', '磁盘满之前写下的。', '这段内容在磁盘写满之后必须原样保留。', ['磁盘']);
const isTemp = (name: string) => name.endsWith('.tmp') || name.includes('.engram-tmp-');

async function withEngineOn(diaryDir: string, dataDir: string, fn: (engine: Engine) => Promise<void>) {
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: dataDir } });
  try {
    await fn(engine);
  } finally {
    engine.close();
  }
}

/** The error every caller gets: typed code, both languages, and what the console turns it into. */
function assertStorageError(e: unknown, code: string): true {
  const err = e as { code?: string; message?: string };
  assert.equal(err.code, code, `code (got ${err.code}: ${err.message})`);
  assert.match(err.message!, /[\u4e00-\u9fff]/, 'a Chinese message first');
  assert.match(err.message!, / \/ [A-Z]/, 'then English');
  const trpc = toTRPCError(e, () => {});
  assert.notEqual(trpc.code, 'INTERNAL_SERVER_ERROR', 'the console shows the message, not "Internal error"');
  assert.equal(trpc.message, err.message);
  return true;
}

/** A FileHandle whose writeFile fails like a full disk does: after the file was created. */
function failingWrites(code: string) {
  return (original: typeof import('node:fs/promises').open) =>
    (async (...args: Parameters<typeof original>) => {
      const handle = await original(...args);
      handle.writeFile = async () => {
        throw fsError(code, 'write', String(args[0]));
      };
      return handle;
    }) as typeof original;
}

for (const [errno, code] of [['ENOSPC', 'disk-full'], ['EDQUOT', 'disk-full'], ['EROFS', 'read-only-fs'], ['EACCES', 'permission-denied']] as const) {
  test(`${errno} while writing a memory: typed "${code}" error, no temp file, existing diaries intact`, { timeout: 60_000 }, async () => {
    const dirs = tempDirs('engram-integrity-disk-');
    writeFileSync(join(dirs.diaryDir, '2026-11-01-existing-aaaa1111.txt'), EXISTING);
    await withEngineOn(dirs.diaryDir, dirs.dataDir, async (engine) => {
      const before = listAll(dirs.diaryDir);
      await withFsPatch('open', failingWrites(errno), async () => {
        await assert.rejects(engine.write({ title: '磁盘满时写的', content: '磁盘写满的时候想记下的一条完整的记忆：东京节点的端口改由 sing-box 接管，因为 nginx 占用了 443。', tags: ['测试'] }), (e) => assertStorageError(e, code));
        const id = (await engine.list())[0]!.docId;
        await assert.rejects(engine.updateMeta(id, { pinned: true }), (e) => assertStorageError(e, code));
      });
      assert.deepEqual(listAll(dirs.diaryDir), before, 'no temp file and no new file left behind');
      assert.equal(readFileSync(join(dirs.diaryDir, '2026-11-01-existing-aaaa1111.txt'), 'utf8'), EXISTING);
    });
  });
}

test('ENOSPC while taking the writer lock: typed error and no 0-byte .engram.lock.*.tmp left', async () => {
  const { root } = tempDirs('engram-integrity-disk-');
  const path = join(root, 'engram.lock');
  const lock = new WriterLock(path, { waitMs: 500 });
  await withFsPatch(
    'writeFile',
    (original) =>
      (async (...args: Parameters<typeof original>) => {
        await original(args[0], ''); // the file is created, then the write fails — as on a full disk
        throw fsError('ENOSPC', 'write', String(args[0]));
      }) as typeof original,
    async () => {
      await assert.rejects(lock.acquire('write'), (e) => assertStorageError(e, 'disk-full'));
    },
  );
  assert.deepEqual(readdirSync(root).filter(isTemp), [], 'the temp file was cleaned up');
});

/** Mounts a tiny tmpfs (root only); null when this machine does not allow it. */
function mountTmpfs(sizeKb: number): { dir: string; remountReadOnly(): void; unmount(): void } | null {
  const dir = mkdtempSync(join(tmpdir(), 'engram-integrity-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remountReadOnly: () => execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' }),
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the filesystem under `dir` until it refuses another byte. */
function fill(dir: string): void {
  for (let i = 0; i < 64; i++) {
    try {
      writeFileSync(join(dir, `.filler-${i}`), Buffer.alloc(16 * 1024, 1));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw e;
    }
  }
  throw new Error('the tmpfs never filled up');
}

test('on a real full tmpfs, then a read-only one: typed errors, no temp files, the data held', { timeout: 60_000 }, async (t) => {
  const fs = mountTmpfs(64);
  if (!fs) {
    t.skip('mounting a tmpfs is not permitted here (needs root); the injected-errno tests above cover the mapping');
    return;
  }
  try {
    const diaryDir = join(fs.dir, 'diaries');
    mkdirSync(diaryDir);
    const existing = join(diaryDir, '2026-11-01-existing-aaaa1111.txt');
    writeFileSync(existing, EXISTING);
    const dataDir = tempDirs('engram-integrity-disk-').dataDir; // the database is not on the tiny disk
    await withEngineOn(diaryDir, dataDir, async (engine) => {
      const id = (await engine.list())[0]!.docId;
      fill(fs.dir);
      await assert.rejects(engine.write({ title: '磁盘满时写的', content: '磁盘写满的时候想记下的一条完整的记忆：东京节点的端口改由 sing-box 接管，因为 nginx 占用了 443。', tags: ['测试'] }), (e) => assertStorageError(e, 'disk-full'));
      await assert.rejects(engine.updateMeta(id, { pinned: true }), (e) => assertStorageError(e, 'disk-full'));
      const lock = new WriterLock(join(fs.dir, 'engram.lock'), { waitMs: 300 });
      await assert.rejects(lock.acquire('write'), (e) => assertStorageError(e, 'disk-full'));
      assert.deepEqual(readdirSync(fs.dir).filter(isTemp), [], 'no lock temp file on the full disk');
      assert.deepEqual(readdirSync(diaryDir), ['2026-11-01-existing-aaaa1111.txt'], 'no diary temp file');
      assert.equal(readFileSync(existing, 'utf8'), EXISTING);

      for (const f of readdirSync(fs.dir)) if (f.startsWith('.filler-')) rmSync(join(fs.dir, f));
      fs.remountReadOnly();
      await assert.rejects(engine.updateMeta(id, { pinned: true }), (e) => assertStorageError(e, 'read-only-fs'));
      await assert.rejects(engine.write({ title: '只读时写的', content: '只读挂载的时候想记下的另一条完整记忆：数据库备份保留最近五份，迁移前先复制到 backups 目录。', tags: ['测试'] }), (e) => assertStorageError(e, 'read-only-fs'));
      assert.equal(readFileSync(existing, 'utf8'), EXISTING);
    });
  } finally {
    fs.unmount();
  }
});
