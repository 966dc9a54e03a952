// 10,000 files dropped into the diary folder at once (a git pull, Syncthing, an unzip) under a
// running engine: the watcher must not do work per event that grows with the folder (node's own
// recursive watcher on Linux re-read the whole folder for every event, which held the event loop for
// minutes), the burst is indexed in a bounded number of passes, recall and the list answer while a
// pass is half-way, and afterwards every file is indexed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';
import { floodFile, loopGapMeter } from './flood-files.ts';

const FLOOD = 10_000;
const SEEDED = 5;

/**
 * Counts directory entries read synchronously in this process (node's recursive watcher reads the
 * folder with fs.readdirSync from the module object, so the count sees it; so does ours).
 */
function countDirectoryReads(): { entries: () => number; restore: () => void } {
  const original = fs.readdirSync;
  let entries = 0;
  const counting = ((...args: Parameters<typeof fs.readdirSync>) => {
    const out = original(...args);
    entries += out.length;
    return out;
  }) as typeof fs.readdirSync;
  fs.readdirSync = counting;
  return { entries: () => entries, restore: () => void (fs.readdirSync = original) };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`timed out waiting for: ${what}`);
}

test(`a flood of ${FLOOD.toLocaleString('en')} files is read once per file, indexed in a few passes, recall answers meanwhile, and all of it is indexed`, { timeout: 900_000 }, async (t) => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine: Engine = await openTestEngine(dirs, { watch: { intervalMs: 0 } });
  const reads = countDirectoryReads();
  // Reported, not asserted: speed is the benchmark's.
  const gaps = loopGapMeter();
  try {
    const passesBefore = engine.liveSync.passes;
    // Written like an unzip: a few hundred files, then the loop gets a turn (as events from another process would).
    for (let i = 0; i < FLOOD; i++) {
      const { name, text } = floodFile(i);
      fs.writeFileSync(join(dirs.diaryDir, name), text);
      if (i % 250 === 249) {
        await new Promise((r) => setImmediate(r));
        // Whole-folder re-reads per event grow with the square of the flood: stop as soon as that shows.
        assert.ok(reads.entries() <= 4 * (FLOOD + SEEDED), `the watcher read ${reads.entries()} directory entries for ${i + 1} new files`);
      }
    }

    let answeredMidPass = false;
    let largestTotal = 0;
    await until(
      `all ${FLOOD} files indexed`,
      async () => {
        const before = engine.liveSync;
        if (before.running && before.progress?.phase === 'store' && before.progress.done < before.progress.total) {
          largestTotal = Math.max(largestTotal, before.progress.total);
          await engine.recall('洪水条目 同步');
          await engine.list();
          const after = engine.liveSync;
          if (after.running && after.passes === before.passes) answeredMidPass = true;
        }
        if (engine.liveSync.running) return false;
        return (await engine.list()).length === FLOOD + SEEDED;
      },
      840_000,
    );
    const passes = engine.liveSync.passes - passesBefore;
    t.diagnostic(`passes ${passes}, directory entries read ${reads.entries()}, largest event-loop gap ${Math.round(gaps.largest())} ms`);

    assert.ok(reads.entries() <= 4 * (FLOOD + SEEDED), `the watcher read ${reads.entries()} directory entries`);
    assert.ok(passes >= 1 && passes <= 3, `one burst took ${passes} index passes`);
    assert.ok(answeredMidPass, 'recall and the list answered while a pass was half-way');
    assert.ok(largestTotal >= FLOOD / passes / 2, `the progress named the pass's size (largest total ${largestTotal})`);
    assert.equal(engine.liveSync.lastError, null);
    assert.equal(engine.liveSync.pending, 0);
    // Every file, and each by its own words.
    for (const i of [0, 4_321, FLOOD - 1]) {
      const hit = (await engine.recall(`k${i}q`)).hits[0];
      assert.equal(hit?.path, floodFile(i).name, `file ${i} is found by its own token`);
    }
  } finally {
    gaps.stop();
    reads.restore();
    engine.close();
  }
});
