// Tier 3 through the host's tool service: JSON-schema parameters, typed results, errors with codes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TOOL_NAMES } from '../src/host/tools/memory-tools.ts';
import { CROSS_SESSION_TOOL_NAMES } from '../src/host/crosssession/tools.ts';
import { SESSION_READ_TOOL } from '../src/host/sessions/tools.ts';
import { CORPUS, loadPlugin } from './helpers.ts';

test('every engram tool is registered with an object JSON schema and a description', async (t) => {
  const { host } = await loadPlugin(t);
  const schemas = host.tools!.schemas().filter((s) => s.name.startsWith('engram_'));
  assert.deepEqual(schemas.map((s) => s.name).sort(), [...TOOL_NAMES, ...CROSS_SESSION_TOOL_NAMES].sort());
  assert.ok(host.tools!.schemas().some((s) => s.name === SESSION_READ_TOOL), 'session_read is offered too');
  for (const s of schemas) {
    assert.equal((s.parameters as { type?: string }).type, 'object', s.name);
    assert.ok(s.description.length > 10, s.name);
  }
  const session = host.createSession();
  const turn = await session.userTurn('hi', [{ text: 'ok' }]);
  for (const name of TOOL_NAMES) assert.ok(turn.requests[0]!.tools.includes(name), `${name} offered to the model`);
});

test('search, read, write, edit, list, forget, status: values and rendered text', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const tools = host.tools!;

  const search = await tools.call('engram_search', JSON.stringify({ query: '东京节点的端口' }));
  assert.equal(search.error, undefined);
  const hits = (search.value as { hits: { docId: string; title: string }[] }).hits;
  assert.equal(hits[0]?.title, '东京节点端口处置');
  assert.match(search.text, /\[1\] 2026-03-02 · 东京节点端口处置 \(docId: [0-9a-f]+\)/);

  const nothing = await tools.call('engram_search', JSON.stringify({ query: '今天天气怎么样' }));
  assert.equal((nothing.value as { hits: unknown[] }).hits.length, 0);
  assert.match(nothing.text, /没有/);

  const read = await tools.call('engram_read', JSON.stringify({ id: hits[0]!.docId }));
  assert.match(read.text, /改用 8443 端口/);

  const write = await tools.call('engram_write', JSON.stringify({ content: '[11:00] 新的发布规范\n\n> 发布前先写回滚脚本\n\n发布前先写回滚脚本,再通知值班同事。\n\nTag: 发布, 回滚', tags: ['发布'] }));
  assert.equal(write.error, undefined, write.text);
  const written = write.value as { docId: string; path: string };
  assert.ok(existsSync(join(corpus.diaryDir, written.path)));
  assert.match(write.text, /已保存/);

  const dup = await tools.call('engram_write', JSON.stringify({ content: '[11:00] 新的发布规范\n\n别的内容' }));
  assert.equal(dup.error?.code, 'execute');
  assert.match(dup.text, /\[title-exists\]/);

  const edit = await tools.call('engram_edit', JSON.stringify({ id: written.docId, target: '发布前先写回滚脚本,再通知值班同事。', replace: '发布前先写回滚脚本,再通知值班同事和产品经理。' }));
  assert.equal(edit.error, undefined, edit.text);
  assert.equal((edit.value as { docId: string }).docId, written.docId);
  assert.match(readFileSync(join(corpus.diaryDir, written.path), 'utf8'), /再通知值班同事和产品经理。/);
  assert.match(edit.text, /已修改/);

  const short = await tools.call('engram_edit', JSON.stringify({ id: written.docId, target: '回滚', replace: 'x' }));
  assert.match(short.text, /\[target-too-short\]/);
  const missing = await tools.call('engram_edit', JSON.stringify({ id: written.docId, target: '这一段文字根本不在这篇日记里面出现过', replace: 'x' }));
  assert.match(missing.text, /\[target-not-found\]/);

  const list = await tools.call('engram_list', JSON.stringify({ filter: '发布' }));
  assert.deepEqual((list.value as { items: { title: string }[] }).items.map((i) => i.title), ['新的发布规范']);

  const forget = await tools.call('engram_forget', JSON.stringify({ id: written.docId }));
  assert.equal(forget.error, undefined, forget.text);
  assert.match((forget.value as { to: string }).to, /^已整理\//);
  const listAfter = await tools.call('engram_list', JSON.stringify({ filter: '发布' }));
  assert.equal((listAfter.value as { total: number }).total, 0, 'archived diaries leave the default list');
  const again = await tools.call('engram_forget', JSON.stringify({ id: written.docId }));
  assert.match(again.text, /\[(already-archived|not-found)\]/);

  const status = await tools.call('engram_status', '{}');
  const counts = status.value as { documents: number; archived: number };
  assert.equal(counts.documents, CORPUS.length, 'the corpus plus the new diary, minus the archived one');
  assert.equal(counts.archived, 1);
  assert.ok(status.text.includes(`日记 ${CORPUS.length} 篇(已归档 1)`), status.text);
});

test('bad arguments are clear errors: missing, wrong type, empty, unknown id', async (t) => {
  const { host } = await loadPlugin(t);
  const tools = host.tools!;
  const cases: [string, string, RegExp][] = [
    ['engram_search', '{}', /missing required argument "query"/],
    ['engram_search', '{"query": 5}', /"query" should be string/],
    ['engram_search', '{"query": "   "}', /\[invalid-arguments\] "query" must be a non-empty string/],
    ['engram_read', '{"id": "nope"}', /\[not-found\]/],
    ['engram_edit', '{"target": "x", "replace": "y"}', /missing required argument "id"/],
    ['engram_edit', '{"id": "x", "target": "x"}', /missing required argument "replace"/],
    ['engram_write', '{"content": ""}', /\[invalid-arguments\]/],
  ];
  for (const [name, args, pattern] of cases) {
    const outcome = await tools.call(name, args);
    assert.ok(outcome.error, `${name} ${args} should fail`);
    assert.match(outcome.text, pattern, `${name} ${args}`);
  }
});

test('tools.disabled keeps those tools away from the model (their schemas cost tokens every request)', async (t) => {
  const { host } = await loadPlugin(t, { config: { tools: { disabled: ['engram_list', 'engram_wall', 'session_read'] } } });
  const names = host.tools!.schemas().map((s) => s.name);
  for (const gone of ['engram_list', 'engram_wall', 'session_read']) assert.ok(!names.includes(gone), `${gone} is not offered`);
  for (const kept of ['engram_search', 'engram_brief', 'history_read']) assert.ok(names.includes(kept), `${kept} is still offered`);
});

// A failure inside the engine reached the model as its raw text: "Failed query: select … params: …",
// SQL with a memory's own words, which the model can do nothing with. It now reads the engine's fixed
// words under a stable code, as an MCP client does; the cause goes to the plugin's log.
test('an engine failure reaches the model as fixed words under a code, and its cause reaches the log', async (t) => {
  const { host, engine } = await loadPlugin(t);
  const tools = host.tools!;
  await engine.database.client.execute('DROP TABLE chunks');
  await engine.database.client.execute('DROP TABLE documents');
  const write = await tools.call('engram_write', JSON.stringify({ content: '[11:00] 家里路由器\n\n> 管理地址\n\n家里路由器的管理地址是 192.168.1.1。' }));
  assert.equal(write.error?.code, 'execute');
  assert.match(write.text, /\[failed\] 引擎内部出错/);
  assert.doesNotMatch(write.text, /select|params|insert|SQLITE|192\.168/i);
  assert.ok(host.logs.some((l) => /engram_write failed/.test(l.message) && /no such table/i.test(l.message)), host.logs.map((l) => l.message).join('\n'));
  // What the engine says to the person stays as it is.
  const missing = await tools.call('engram_read', JSON.stringify({ id: 'ffffffffffff' }));
  assert.doesNotMatch(missing.text, /引擎内部出错/);
});

test('the lean profile\'s save tool says the same, and its cause reaches the log too', async (t) => {
  const { host, engine } = await loadPlugin(t, { config: { tools: { profile: 'lean' } } });
  await engine.database.client.execute('DROP TABLE chunks');
  await engine.database.client.execute('DROP TABLE documents');
  const save = await host.tools!.call('engram_save', JSON.stringify({ content: '[11:00] 家里路由器\n\n> 管理地址\n\n家里路由器的管理地址是 192.168.1.1。' }));
  assert.match(save.text, /\[failed\] 引擎内部出错/);
  assert.doesNotMatch(save.text, /select|params|SQLITE|192\.168/i);
  assert.ok(host.logs.some((l) => /engram_save failed/.test(l.message) && /no such table/i.test(l.message)), host.logs.map((l) => l.message).join('\n'));
});
