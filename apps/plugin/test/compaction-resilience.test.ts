// The compaction channel never costs the conversation anything when it fails or is off, and it
// catches up with a compaction it did not see (the plugin was not loaded at the time).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompactionMemory } from '@engram/engine';
import { createHostPlugin } from '../src/host/apply.ts';
import { compactionMessages, loadCompactionPlugin } from './compaction-helpers.ts';
import { isOwn, NO_MODEL_INSTALL } from './helpers.ts';

const SUMMARY = '## 东京节点端口\n443 端口被占用,决定改用 8443,并重启 sing-box。';

async function foldedSession(host: Awaited<ReturnType<typeof loadCompactionPlugin>>['host']) {
  const session = host.createSession({ cwd: '/w' });
  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: '改用 8443 端口,并重启 sing-box 服务。结论:端口定为 8443。' }]);
  return session;
}

test('a failing store logs and leaves every decision unchanged', async (t) => {
  const { host, engine } = await loadCompactionPlugin(t);
  const session = await foldedSession(host);
  // Break the storage under the plugin: every compaction write and read now fails.
  await engine.database.client.execute('DROP TABLE compaction_runs');
  session.compact({ summary: SUMMARY });
  const turn = await session.userTurn('东京节点现在用哪个端口?', [{ text: '8443' }]);
  assert.equal(turn.status, 'completed');
  assert.equal(turn.requests.length, 1, 'no extra request');
  assert.equal(turn.requests[0]!.messages.filter((m) => isOwn(m) && String(m.source?.form).startsWith('compaction')).length, 0);
  await host.settle();
  assert.ok(host.logs.some((l) => l.level === 'warn' && /compaction/.test(l.message)), 'the failure is logged');
  host.assertClean();
});

test('compaction.enabled: false stores nothing and injects nothing', async (t) => {
  const { host, engine } = await loadCompactionPlugin(t, { compaction: { enabled: false } });
  const session = await foldedSession(host);
  session.compact({ summary: SUMMARY });
  const turn = await session.userTurn('东京节点现在用哪个端口?', [{ text: '8443' }]);
  assert.equal(turn.requests[0]!.messages.filter((m) => isOwn(m) && String(m.source?.form).startsWith('compaction')).length, 0);
  const memory = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
  assert.deepEqual(await memory.listSessions(), []);
  await host.settle();
  host.assertClean();
});

test('a compaction that happened while the plugin was not loaded is ingested at the next step', async (t) => {
  const loaded = await loadCompactionPlugin(t);
  const { host, corpus } = loaded;
  const session = await foldedSession(host);
  host.unload('engram');
  session.compact({ summary: SUMMARY });
  await host.load(createHostPlugin({ env: {} }), { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, ...NO_MODEL_INSTALL });
  const turn = await session.userTurn('东京节点现在用哪个端口?', [{ text: '8443' }]);
  const first = turn.requests[0]!;
  assert.equal(compactionMessages(first, 'compaction-overview').length, 1);
  assert.equal(compactionMessages(first, 'compaction-recall').length, 1);
  assert.match(compactionMessages(first, 'compaction-recall')[0]!.content, /8443/);

  // Loaded again later: nothing is stored twice and the visible overview is not repeated.
  host.unload('engram');
  await host.load(createHostPlugin({ env: {} }), { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, ...NO_MODEL_INSTALL });
  const next = await session.userTurn('帮我写一个快速排序', [{ text: 'ok' }]);
  assert.equal(compactionMessages(next.requests[0]!, 'compaction-overview').length, 1, 'still the one overview');
  await host.settle();
  host.assertClean();
});
