// usage.daily: the tokens of model-assisted work per day, as the engine counted them, through the
// console's tRPC API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngine, recordModelUsage } from '@engram/engine';
import { runtimeFor } from '../src/server/engine.ts';
import { createCaller } from '../src/server/root.ts';
import { createContext } from '../src/server/trpc.ts';

/** Local calendar day, YYYY-MM-DD (the engine counts by the local day). */
const today = () => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

test('usage.daily: today first, each kind apart, a quiet day as zeros; the range is bounded', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-console-usage-'));
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root }, createDiaryDir: true });
  t.after(() => {
    engine.close();
    rmSync(root, { recursive: true, force: true });
  });
  const caller = createCaller(createContext(await runtimeFor(engine)));
  const empty = await caller.usage.daily({});
  assert.equal(empty.days.length, 14);
  assert.equal(empty.days[0]!.day, today());
  assert.ok(empty.days.every((d) => d.total.calls === 0));

  await recordModelUsage(engine.database.db, 'summary', 1, 420);
  await recordModelUsage(engine.database.db, 'judge', 3, 183);
  const now = await caller.usage.daily({ days: 2 });
  assert.equal(now.days.length, 2);
  assert.deepEqual(now.days[0]!.byWork, { compaction: { calls: 0, tokens: 0 }, summary: { calls: 1, tokens: 420 }, judge: { calls: 3, tokens: 183 } });
  assert.deepEqual(now.days[0]!.total, { calls: 4, tokens: 603 });
  await assert.rejects(caller.usage.daily({ days: 91 }), /91|less than or equal|too_big/i);
});
