// The diary folder deleted (or its drive unmounted) under a running plugin: a person who deleted it
// to make the agent forget must not have its memories injected on the next turns, in either way of
// showing them, and the conversation goes on as if memory were off. Through the simulated host,
// against the real engine (opened with live watching, as the plugin opens it) and real files.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import type { RecordedRequest } from '@engram/dsh-sim';
import { STATUS_PATH } from '../src/host/routes/index.ts';
import { loadPlugin, recallMessages, snapshotMessages } from './helpers.ts';

for (const mode of ['message', 'context'] as const) {
  test(`a diary folder deleted while the plugin runs: nothing of it is injected, and the conversation goes on (${mode} mode)`, async (t) => {
    const { host, corpus } = await loadPlugin(t, mode === 'context' ? { host: { assembleAt: 'after-user-message' }, config: { inject: { mode: 'context' } } } : {});
    // What the model is shown of recall in a request: the recall messages, or the last context snapshot.
    const shown = (request: RecordedRequest) => (mode === 'message' ? recallMessages(request).map((m) => m.content).join('\n') : (snapshotMessages(request).at(-1)?.content ?? ''));
    const session = host.createSession();
    const before = await session.userTurn('周报怎么写?', [{ text: '好的' }]);
    assert.match(shown(before.requests[0]!), /周报每周五下午写/, 'recall works while the folder is there');

    rmSync(corpus.diaryDir, { recursive: true });

    // A question one of the deleted notes answers, and one the earlier recall answered.
    for (const question of ['东京节点的端口是多少', '周报发给谁?']) {
      const turn = await session.userTurn(question, [{ text: '我不记得了' }]);
      assert.equal(turn.status, 'completed', `the turn goes on: ${String(turn.error ?? '')}`);
      assert.equal(turn.requests.length, 1, 'one model request, as with memory off');
      const seen = shown(turn.requests[0]!);
      assert.doesNotMatch(seen, /东京节点的 443 端口/, 'the deleted note about the port is not injected');
      if (mode === 'context') assert.doesNotMatch(seen, /周报每周五下午写/, 'the context no longer shows what was recalled before the folder went');
      else assert.equal(recallMessages(turn.requests[0]!).length, 1, 'only the block of the first turn, in the history: no new one');
    }
    assert.equal(host.logs.filter((l) => /diary folder is missing/.test(l.message)).length, 1, 'logged once, not per turn');
    await host.settle();
    host.assertClean();
  });
}

test("the plugin's status and the engram_status tool say the diary folder is gone, where it was expected, and that recall is paused", async (t) => {
  const { host, corpus } = await loadPlugin(t);
  rmSync(corpus.diaryDir, { recursive: true });
  const status = (await (await fetch(`${await host.listen()}${STATUS_PATH}`)).json()) as { engine: { ready: boolean; diaryMissing?: { message: string } | null } };
  assert.equal(status.engine.ready, true);
  assert.ok(status.engine.diaryMissing?.message.includes(corpus.diaryDir), JSON.stringify(status.engine));
  const tool = await host.tools!.call('engram_status', '{}');
  assert.equal(tool.error, undefined, tool.text);
  assert.match(tool.text.split('\n')[0]!, /^日记文件夹不见了：.*召回已暂停/, `the model reads it first: ${tool.text}`);
  assert.ok(tool.text.includes(corpus.diaryDir), tool.text);
});
