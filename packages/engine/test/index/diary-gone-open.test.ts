// A NEW engine opened over the diary folder its data dir was built from, now gone (deleted, its drive
// unmounted while nothing ran): every opener — a one-shot CLI command, the console, the plugin, the
// MCP server — opens it as a running engine meets it: recall paused, writes refused, the index kept
// and nothing created where the folder was. Refusing it ("create it") is the wrong advice for an
// unmounted drive; creating it empty made the sync at open drop every document from the index. A
// folder the data dir does not remember (a typo) is refused as before.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { openEngine, type OpenEngineOptions } from '../../src/engine.ts';
import { goneDiaryDirText, goneDiaryIndexError, goneDiaryToolText, goneDiaryWriteError } from '../../src/diary/errors.ts';
import { isEngramError } from '../../src/errors.ts';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';

const DINNER = '川菜馆 聚餐 订位';

/**
 * What the gone words tell a person who deleted the folder on purpose: create it again to start
 * afresh, and that an empty folder empties the index at the next sync. Chinese first, then English.
 */
const START_AFRESH = /有意删除.*从头开始.*重新创建.*空文件夹.*下次同步.*清空索引.* \/ .*deleted it on purpose.*start afresh.*create the folder again.*empty folder empties the index at the next sync/s;

function writeAll(diaryDir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(diaryDir, path)), { recursive: true });
    writeFileSync(join(diaryDir, path), text);
  }
}

/** The gone-folder refusal of an index run: its own words, never the mistyped folder's "create it". */
const refusedAsGone = (e: unknown): boolean => {
  assert.ok(isEngramError(e), String(e));
  assert.equal(e.code, 'diary-missing', `${e.code}: ${e.message}`);
  assert.match(e.message, /^日记文件夹不见了.* \/ The diary folder is missing/s, e.message);
  assert.doesNotMatch(e.message, /先创建它|create it or point/, e.message);
  assert.match(e.message, START_AFRESH);
  return true;
};

test('every gone wording tells a person who deleted the folder on purpose how to start afresh', () => {
  const texts: [what: string, text: string][] = [
    ['goneDiaryDirText', goneDiaryDirText('/home/me/diaries')],
    ['goneDiaryIndexError', goneDiaryIndexError('/home/me/diaries').message],
    ['goneDiaryWriteError', goneDiaryWriteError('/home/me/diaries').message],
    ['goneDiaryToolText search', goneDiaryToolText('search')],
    ['goneDiaryToolText listing', goneDiaryToolText('listing')],
  ];
  for (const [what, text] of texts) {
    assert.match(text, START_AFRESH, `${what}: ${text}`);
    // One ' / ' between the languages: the console splits a detail there (recall-gates reasonText).
    assert.equal(text.split(' / ').length, 2, `${what}: ${text}`);
  }
});

// The openers' options: the CLI's and the plugin's (none about the folder), the console's and the
// MCP server's (they create a missing folder).
const openers: [name: string, extra: Partial<OpenEngineOptions>][] = [
  ['plain', {}],
  ['createDiaryDir', { createDiaryDir: true }],
];

for (const folder of ['named', 'default'] as const) {
  for (const [opener, extra] of openers) {
    test(`a new engine (${opener}) over the ${folder} diary folder its data dir was built from, now gone, opens paused, keeps the index and creates nothing`, async (t) => {
      const dirs = tempDirs();
      const diaryDir = folder === 'named' ? dirs.diaryDir : join(dirs.dataDir, 'diaries');
      const files = seedCorpus(diaryDir);
      // The default folder is the one a data dir has when none is named: no diaryDir at all.
      const open = (more: Partial<OpenEngineOptions> = {}) =>
        openEngine({ options: { dataDir: dirs.dataDir, ...(folder === 'named' ? { diaryDir } : {}) }, env: { HOME: dirs.root }, now: () => new Date('2026-11-01T00:00:00'), ...extra, ...more });
      t.after(() => rmSync(dirs.root, { recursive: true, force: true }));

      const first = await open();
      await first.index();
      assert.equal(first.config.diaryDir, diaryDir);
      const seeded = (await first.status()).documents;
      assert.equal(seeded, Object.keys(files).length);
      first.close();

      rmSync(diaryDir, { recursive: true });

      const engine = await open();
      t.after(() => engine.close());
      assert.equal(existsSync(diaryDir), false, 'opening created nothing where the folder was');
      const status = await engine.status();
      assert.equal(status.documents, seeded, 'every document is still in the index');
      assert.ok(status.diaryMissing?.message.includes(diaryDir), `status says where the folder was expected: ${JSON.stringify(status.diaryMissing)}`);
      assert.match(status.diaryMissing?.message ?? '', START_AFRESH);

      const recalled = await engine.recall(DINNER);
      assert.deepEqual(recalled.hits, [], 'nothing is injected from a folder that is not there');
      assert.equal(recalled.explain.gate.silencedBy?.rule, 'diary-missing');

      await assert.rejects(engine.write({ content: '[10:00] 咖啡豆的产地\n\n> 耶加雪菲，浅烘。\n\n水温 92 度，粉水比 1:15。\n\nTag: 咖啡\n' }), (e: unknown) => isEngramError(e) && e.code === 'diary-missing');
      // An index run has nothing to compare with: refused as the folder gone, the index left whole.
      await assert.rejects(engine.index(), refusedAsGone);
      await assert.rejects(engine.index({ full: true }), refusedAsGone);
      assert.equal((await engine.status()).documents, seeded, 'no index run emptied the index');
      assert.equal(existsSync(diaryDir), false, 'nothing created where the folder was');

      // Back with its files (a remount): recall answers again once a sync has looked at it.
      writeAll(diaryDir, files);
      await engine.index();
      assert.deepEqual((await engine.recall(DINNER)).hits.map((h) => h.path), ['2026-10-24-dinner.txt']);
      assert.equal((await engine.status()).diaryMissing, null);
    });
  }
}

test('a missing folder the data dir does not remember (a typo of the remembered one) is refused as before, and remembered by nobody', async (t) => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  t.after(() => rmSync(dirs.root, { recursive: true, force: true }));
  const open = (diaryDir: string) => openEngine({ options: { dataDir: dirs.dataDir, diaryDir }, env: { HOME: dirs.root } });
  const first = await open(dirs.diaryDir);
  await first.index();
  first.close();
  rmSync(dirs.diaryDir, { recursive: true });

  const typo = `${dirs.diaryDir}-typo`;
  await assert.rejects(open(typo), (e: unknown) => isEngramError(e) && e.code === 'diary-dir-missing' && /先创建它/.test(e.message));
  assert.equal(existsSync(typo), false);
  // The remembered one still opens paused: the typo was not remembered in its place.
  const engine = await open(dirs.diaryDir);
  assert.ok((await engine.status()).diaryMissing);
  engine.close();
});

/** Waits for what file events start (no awaitable exists for an event not yet delivered); fails with `what` after a generous deadline. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

// A watching host (the plugin, the console) opened over the gone folder, without a sync at open: the
// folder cannot be watched, so its return must make the watchers anew — else only the periodic
// check would ever see a file written there.
test('a watching engine opened over the gone folder follows it once it is back', async (t) => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  t.after(() => rmSync(dirs.root, { recursive: true, force: true }));
  const open = (more: Partial<OpenEngineOptions> = {}) => openEngine({ options: { dataDir: dirs.dataDir, diaryDir: dirs.diaryDir }, env: { HOME: dirs.root }, ...more });
  const first = await open();
  first.close();
  rmSync(dirs.diaryDir, { recursive: true });

  const engine = await open({ syncOnOpen: false, watch: { debounceMs: 50, intervalMs: 0 } });
  t.after(() => engine.close());
  writeAll(dirs.diaryDir, files);
  const watcher = engine.watch();
  await watcher.trigger('poll');
  await watcher.idle();
  assert.equal(engine.liveSync.events, true, 'file events are watched again');
  writeFileSync(join(dirs.diaryDir, '2026-10-26-bike.txt'), '[07:30] 自行车保养\n\n> 链条每月上一次油。\n\n山地车的链条每个月上一次油,刹车片半年换一次。\n\nTag: 自行车, 链条\n');
  await until('a file written into the returned folder is indexed', async () => (await engine.recall('自行车 链条 上油')).hits.some((h) => h.path === '2026-10-26-bike.txt'));
});
