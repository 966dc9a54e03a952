// The diary folder deleted (or its drive unmounted) under a running plugin: a person who deleted it
// to make the agent forget must not have its memories injected on the next turns, in either way of
// showing them, and the conversation goes on as if memory were off. Through the simulated host,
// against the real engine (opened with live watching, as the plugin opens it) and real files.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import type { RecordedRequest } from '@engram/dsh-sim';
import { STATUS_PATH } from '../src/host/routes/index.ts';
import { CORPUS, loadPlugin, makeCorpus, recallMessages, snapshotMessages } from './helpers.ts';

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

// The host started while the folder is already gone (its drive not mounted at boot, or deleted while
// nothing ran): the plugin used to fail to open ("diary directory does not exist … create it") and
// run without memory until a restart. It opens as a running plugin meets it: nothing injected, the
// index kept for the folder's return, nothing created where it was.
test('a host started while its diary folder is gone opens the engine paused, injects nothing, and the conversation goes on', async (t) => {
  const corpus = makeCorpus();
  t.after(() => corpus.cleanup());
  const first = await loadPlugin(t, { corpus });
  const indexed = (await first.engine.status()).documents;
  assert.equal(indexed, CORPUS.length);
  await first.host.close();
  rmSync(corpus.diaryDir, { recursive: true });

  const { host, engine } = await loadPlugin(t, { corpus });
  assert.ok(!host.logs.some((l) => /engine failed to open/.test(l.message)), 'the engine opened');
  const status = await engine.status();
  assert.equal(status.documents, indexed, 'the index is kept for the folder\'s return');
  assert.ok(status.diaryMissing?.message.includes(corpus.diaryDir), JSON.stringify(status.diaryMissing));
  const turn = await host.createSession().userTurn('周报怎么写?', [{ text: '我不记得了' }]);
  assert.equal(turn.status, 'completed', `the turn goes on: ${String(turn.error ?? '')}`);
  assert.equal(turn.requests.length, 1, 'one model request, as with memory off');
  assert.equal(recallMessages(turn.requests[0]!).length, 0, 'nothing injected');
  assert.equal(existsSync(corpus.diaryDir), false, 'no folder created where it was');
  await host.settle();
  host.assertClean();
});

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

// What the model reads from the memory tools while the folder is gone. A search finds nothing, and
// an empty result alone reads as "there is no such memory": it must say why. A listing comes from
// the index, whose files are not on disk right now: it still lists them (nothing is lost, the drive
// may be remounting) under a line that says so. Neither names the folder's path (no other tool text
// shows the model an absolute path).
const SEARCH_NOTICE = /^日记文件夹不见了.*无法检索记忆.* \/ The diary folder is missing.*cannot be searched until it is back/;
const LISTING_NOTICE = /^日记文件夹不见了.*不在磁盘上.* \/ The diary folder is missing.*not on disk right now/;

async function toolText(host: Awaited<ReturnType<typeof loadPlugin>>['host'], name: string, args: Record<string, unknown>): Promise<string> {
  const result = await host.tools!.call(name, JSON.stringify(args));
  assert.equal(result.error, undefined, `${name}: ${result.text}`);
  return result.text;
}

test('with the diary folder gone, engram_search says memories cannot be searched until it is back, and engram_index / engram_list say their memories are not on disk', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const calls: [name: string, args: Record<string, unknown>][] = [
    ['engram_search', { query: '周报怎么写?' }],
    ['engram_search', { query: '周报', archived: true }],
    ['engram_index', {}],
    ['engram_list', {}],
  ];
  for (const [name, args] of calls) assert.doesNotMatch(await toolText(host, name, args), /日记文件夹不见了|diary folder is missing/, `${name} while the folder is there`);

  rmSync(corpus.diaryDir, { recursive: true });

  for (const [name, args] of calls.slice(0, 2)) {
    const text = await toolText(host, name, args);
    assert.match(text, SEARCH_NOTICE, `${name} ${JSON.stringify(args)}: ${text}`);
    assert.ok(!text.includes(corpus.root), `no path for the model: ${text}`);
  }
  for (const [name, args] of calls.slice(2)) {
    const text = await toolText(host, name, args);
    const [first, ...rest] = text.split('\n');
    assert.match(first!, LISTING_NOTICE, `${name} opens with the notice: ${text}`);
    assert.ok(!text.includes(corpus.root), `no path for the model: ${text}`);
    assert.match(rest.join('\n'), /周报写作流程/, `${name} still lists the indexed memories`);
  }
});

test('the lean profile says the same: engram({ q }) that the folder is missing, engram({}) that its listing is not on disk', async (t) => {
  const { host, corpus } = await loadPlugin(t, { config: { tools: { profile: 'lean' } } });
  rmSync(corpus.diaryDir, { recursive: true });
  assert.match(await toolText(host, 'engram', { q: '周报怎么写?' }), SEARCH_NOTICE);
  const index = (await toolText(host, 'engram', {})).split('\n');
  assert.match(index[0]!, LISTING_NOTICE, index.join('\n'));
  assert.match(index.slice(1).join('\n'), /周报写作流程/);
});

// A write while the folder is gone is refused as that: nothing was written, write again once it is
// back — not "create it", which for an unmounted drive puts the notes on the disk under the mount
// point. The model reads the refusal: fixed words, no path.
const WRITE_REFUSED = /\[diary-missing\] 日记文件夹不见了.*没有写入.*不要新建.* \/ The diary folder is missing.*nothing was written.*do not create the folder/s;

test('with the diary folder gone, engram_write / engram_edit / engram_forget are refused as the folder gone, and nothing is created', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const found = await host.tools!.call('engram_search', JSON.stringify({ query: '周报怎么写?' }));
  const docId = (found.value as { hits: { docId: string }[] }).hits[0]!.docId;
  rmSync(corpus.diaryDir, { recursive: true });
  const calls: [name: string, args: Record<string, unknown>][] = [
    ['engram_write', { content: '[11:00] 新的发布规范\n\n> 发布前先写回滚脚本\n\n发布前先写回滚脚本,再通知值班同事。\n\nTag: 发布, 回滚' }],
    ['engram_edit', { id: docId, target: '这一段文字只是用来测试的锚点文字', replace: 'x' }],
    ['engram_forget', { id: docId }],
  ];
  for (const [name, args] of calls) {
    const result = await host.tools!.call(name, JSON.stringify(args));
    assert.ok(result.error, `${name} fails`);
    assert.match(result.text, WRITE_REFUSED, `${name}: ${result.text}`);
    assert.ok(!result.text.includes(corpus.root), `no path for the model: ${result.text}`);
  }
  assert.equal(existsSync(corpus.diaryDir), false, 'the folder was not created');
});

// Opening one memory the index still lists, while the folder is gone: the folder is missing and the
// memory can be read once it is back — not "[not-found] root directory does not exist: <path>", which
// the model takes for a memory that is gone, with an absolute path it cannot act on.
const READ_REFUSED = /\[diary-missing\] 日记文件夹不见了.*这篇记忆.*无法读取.*没有丢失.* \/ The diary folder is missing.*cannot be read until it is back/s;

test('with the diary folder gone, engram_read / engram_locate / engram_detail say the folder is missing and the memory can be read once it is back', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const found = await host.tools!.call('engram_search', JSON.stringify({ query: '周报怎么写?' }));
  const docId = (found.value as { hits: { docId: string }[] }).hits[0]!.docId;
  rmSync(corpus.diaryDir, { recursive: true });
  const calls: [name: string, args: Record<string, unknown>][] = [
    ['engram_read', { id: docId }],
    ['engram_locate', { id: docId, query: '周报' }],
    ['engram_detail', { id: docId }],
  ];
  for (const [name, args] of calls) {
    const result = await host.tools!.call(name, JSON.stringify(args));
    assert.ok(result.error, `${name} fails`);
    assert.match(result.text, READ_REFUSED, `${name}: ${result.text}`);
    assert.ok(!result.text.includes(corpus.root), `no path for the model: ${result.text}`);
  }
});
