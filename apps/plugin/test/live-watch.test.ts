// A memory edited by hand on disk (an editor, git pull, a sync tool) reaches a running plugin: the
// plugin opens its engine with live watching, so the next recall turn injects the new text without a
// restart. Through the simulated host, against the real engine and real files.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { SimHost } from '@engram/dsh-sim';
import type { Engine } from '@engram/engine';
import { diaryText, loadPlugin, recallMessages } from './helpers.ts';
import { STATUS_PATH } from '../src/host/routes/index.ts';

/**
 * Waits (without asserting on time) until the engine has indexed something from outside; gives up
 * after a generous deadline so the assertion that follows says what is missing.
 */
async function untilSynced(engine: Engine, changesBefore: string | null): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const live = engine.liveSync;
    if (live.lastSyncAt !== null && live.lastSyncAt !== changesBefore && live.lastChanges > 0) return;
    await sleep(100);
  }
}

type Status = { engine: { liveSync?: { watching: boolean } } };
const statusOf = async (host: SimHost): Promise<Status> => (await (await fetch(`${await host.listen()}${STATUS_PATH}`)).json()) as Status;

test('a diary file created on disk while the plugin runs is recalled on a later turn', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const session = host.createSession();
  const before = await session.userTurn('火山温泉的门票多少钱?', [{ text: '不知道' }]);
  assert.doesNotMatch(recallMessages(before.requests[0]!).map((m) => m.content).join('\n'), /火山温泉门票/, 'nothing about it exists yet');

  const syncedBefore = engine.liveSync.lastSyncAt;
  writeFileSync(join(corpus.diaryDir, '2026-03-20-火山温泉门票.txt'), diaryText('火山温泉门票', '火山温泉的门票成人一百二十元,周三半价,需要提前一天在小程序预约。'));
  await untilSynced(engine, syncedBefore);

  const after = await session.userTurn('火山温泉的门票多少钱?', [{ text: '一百二十元' }]);
  const injected = recallMessages(after.requests[0]!).map((m) => m.content).join('\n');
  assert.match(injected, /火山温泉的门票成人一百二十元/, 'the hand-written diary reached the recall');
  await host.settle();
  host.assertClean();
});

test('a diary edited by hand on disk is recalled with its new text', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const session = host.createSession();
  const file = join(corpus.diaryDir, '2026-03-05-咖啡豆偏好.txt');
  assert.match(readFileSync(file, 'utf8'), /浅烘的埃塞俄比亚/);

  const syncedBefore = engine.liveSync.lastSyncAt;
  writeFileSync(file, diaryText('咖啡豆偏好', '用户现在改喝中深烘的哥伦比亚咖啡豆,早上一杯手冲,下午不喝咖啡。'));
  await untilSynced(engine, syncedBefore);

  const turn = await session.userTurn('用户喜欢什么咖啡豆?', [{ text: '好的' }]);
  const injected = recallMessages(turn.requests[0]!).map((m) => m.content).join('\n');
  assert.match(injected, /中深烘的哥伦比亚咖啡豆/, 'the recall shows the text as it is on disk now');
  assert.doesNotMatch(injected, /浅烘的埃塞俄比亚/, 'not the text from before the edit');
  await host.settle();
  host.assertClean();
});

test('live watching can be switched off in the plugin config, and status says whether it is on', async (t) => {
  const on = await loadPlugin(t);
  const statusOn = await statusOf(on.host);
  assert.equal(statusOn.engine.liveSync?.watching, true);

  const off = await loadPlugin(t, { config: { watch: false } });
  assert.equal(off.engine.liveSync.watching, false);
  const statusOff = await statusOf(off.host);
  assert.equal(statusOff.engine.liveSync?.watching, false);
});
