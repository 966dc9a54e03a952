// The contract test: the PACKED bundle (apps/plugin/bundle, what `dsh plugin add` installs), not the
// source, run through the simulator with the rules of the real host (see packages/dsh-sim/src/client.ts
// and services/tools.ts for the host source each rule comes from). Host half: lib/host.mjs imported as
// the host imports it. Client half: the text of lib/client.js run in a VM with a
// window.__ModuleLoader__ facade, as the host's web UI runs it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createClient } from '@libsql/client';
import { createHost, HOST_SLOTS, loadClientBundle, type SimHost } from '@engram/dsh-sim';
import { byData, createMiniReact, findAll, settle, textOf, type Element } from './mini-react.ts';
import { makeCorpus, NO_MODEL_INSTALL, recallMessages, type Corpus } from './helpers.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');
const pkgOf = () => JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string>; main: string };

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

async function loadBundle(t: { after(fn: () => unknown): void }, config: Record<string, unknown> = {}): Promise<{ host: SimHost; corpus: Corpus }> {
  const mod = await import(pathToFileURL(join(bundle, pkgOf().main)).href);
  const corpus = makeCorpus();
  const host = createHost({ rejectOnTurnError: false, sessionEvents: 'snapshot', httpService: 'httpServer' });
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  await host.load(mod, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, console: { url: 'http://127.0.0.1:9' }, ...NO_MODEL_INSTALL, ...config });
  return { host, corpus };
}

test('packed host half: a recall turn injects the relevant diary, and nothing for an acknowledgement', async (t) => {
  const { host } = await loadBundle(t);
  const session = host.createSession({ id: 'session-7f3a9c21-aaaa' });
  const turn = await session.userTurn('周报怎么写?', [{ text: '先列本周完成的任务。' }]);
  assert.equal(turn.status, 'completed');
  assert.match(recallMessages(turn.requests[0]!)[0]!.content, /周报每周五下午写/);
  const ack = await session.userTurn('好的，继续', [{ text: '好。' }]);
  assert.equal(recallMessages(ack.requests[0]!).length, 1, 'no new recall for an acknowledgement');
  await host.settle();
  host.assertClean();
});

/** Arguments for every tool the bundle offers; a new tool without an entry here fails the test. */
function argumentsFor(docId: string, otherId: string): Record<string, Record<string, unknown>> {
  return {
    engram_status: {},
    engram_index: { page: 1, pageSize: 5 },
    engram_list: { limit: 5 },
    engram_search: { query: '周报' },
    engram_locate: { id: docId, query: '周报 计划' },
    engram_detail: { id: docId },
    engram_read: { id: docId },
    engram_write: { title: '合同测试新记忆', content: '合同测试写入的一条记忆:打包后的插件在模拟宿主里写入日记。', tags: ['合同测试'] },
    engram_edit: { id: docId, target: '先列本周完成的任务,再写下周计划', replace: '先列本周完成的任务,再写下周计划和风险' },
    engram_forget: { id: otherId },
    engram_brief: {},
    engram_wall: { say: '合同测试:大家好' },
    engram_notebook: { which: 'notes', say: '合同测试的私密笔记' },
    history_read: { query: '周报' },
    session_read: {},
    // The lean profile (#15): one tool per layer.
    engram: { q: '周报' },
    engram_save: { content: '[10:00] 合同测试的精简写入\n\n> 打包插件经精简工具写入一条记忆\n\n合同测试时,打包后的插件在模拟宿主里通过 engram_save 写入这条记忆,结论是写入链路可用,因为工具值是纯 JSON 且渲染为内容块。\n\nTag: 合同测试' },
    engram_sync: {},
    engram_history: {},
  };
}

const docIdIn = (text: string): string => {
  const match = /docId:\s*([\w.-]+)/.exec(text);
  assert.ok(match, `no docId in: ${text.slice(0, 300)}`);
  return match![1]!;
};

for (const profile of ['default', 'full'] as const) {
test(`packed host half (${profile} tool profile): a turn that calls every offered tool, then answers; the session keeps working`, async (t) => {
  const { host } = await loadBundle(t, profile === 'full' ? { tools: { profile: 'full' } } : {});
  const session = host.createSession({ id: 'session-1b2c3d4e-bbbb' });
  const searchTool = host.tools!.has('engram_search') ? 'engram_search' : 'engram';
  const searchArgs = (q: string) => JSON.stringify(searchTool === 'engram' ? { q } : { query: q });
  const docId = docIdIn((await host.tools!.call(searchTool, searchArgs('周报'), session)).text);
  const otherId = docIdIn((await host.tools!.call(searchTool, searchArgs('搬家 货车'), session)).text);
  const table = argumentsFor(docId, otherId);
  const offered = host.tools!.names().filter((name) => name !== 'todo_write');
  assert.deepEqual(offered.filter((name) => !(name in table)), [], 'every offered tool has arguments in this test');

  const turn = await session.userTurn('把记忆工具都用一遍', [
    { toolCalls: offered.map((name) => ({ name, arguments: table[name]! })) },
    { text: '都调用过了。' },
  ]);
  assert.equal(turn.status, 'completed', String((turn.error as Error | undefined)?.message));
  const results = turn.events.filter((e) => e.type === 'tool/result');
  assert.equal(results.length, offered.length);
  for (const result of results) {
    const name = result.data.message.name as string;
    assert.ok(Array.isArray(result.data.message.content), `${name}: content blocks`);
    assert.equal(result.data.error, undefined, `${name} failed: ${JSON.stringify(result.data.message.content)}`);
    assert.ok(result.data.message.content.every((b: { type: string; text?: string }) => b.type === 'text' && (b.text ?? '').length > 0), `${name}: text blocks`);
  }
  assert.equal(turn.requests.length, 2, 'the answer step got its request');

  const after = await session.userTurn('还记得周报吗?', [{ text: '记得。' }]);
  assert.equal(after.status, 'completed', 'a later turn of the same session still works');
  await host.settle();
  assert.deepEqual(host.toolFailures.map((f) => f.tool), []);
  host.assertClean();
});
}

// tools.test.ts drives this through the source; here the packed bundle, which carries its own copy of
// the engine's errors.ts and of the tool wrappers (memory-tools.ts guarded, tool-output.ts toHostTool).
// The database fails under the bundle's engine: its tables are dropped through a second connection to
// the same file, so the next query fails with SQL in its text and the note's own words in its params.
for (const [profile, tool] of [['full', 'engram_write'], ['lean', 'engram_save']] as const) {
test(`packed host half (${profile} tool profile): an engine failure in ${tool} reaches the model as fixed words under a code, its cause the plugin log`, async (t) => {
  const { host, corpus } = await loadBundle(t, { tools: { profile } });
  const searchTool = profile === 'lean' ? 'engram' : 'engram_search';
  const opened = await host.tools!.call(searchTool, JSON.stringify(profile === 'lean' ? { q: '周报' } : { query: '周报' }));
  assert.equal(opened.error, undefined, `the engine is open: ${opened.text}`);
  const database = createClient({ url: pathToFileURL(join(corpus.dataDir, 'engram.db')).href });
  try {
    await database.execute('PRAGMA busy_timeout = 30000');
    await database.execute('DROP TABLE chunks');
    await database.execute('DROP TABLE documents');
  } finally {
    database.close();
  }
  const session = host.createSession({ id: `session-4c5d6e7f-${profile}` });
  const turn = await session.userTurn('记一下路由器地址', [
    { toolCalls: [{ name: tool, arguments: { content: '[11:00] 家里路由器\n\n> 管理地址\n\n家里路由器的管理地址是 192.168.1.1,密码在抽屉里。\n\nTag: 家里' } }] },
    { text: '没记上。' },
  ]);
  assert.equal(turn.status, 'completed', String((turn.error as Error | undefined)?.message));
  const result = turn.events.find((e) => e.type === 'tool/result' && e.data.message.name === tool);
  assert.ok(result, `a ${tool} result`);
  const told = (result.data.message.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');
  assert.match(told, /\[failed\] 引擎内部出错，这次调用没有完成；原因已记入日志。/);
  assert.doesNotMatch(told, /select|insert|params|SQLITE|no such table|192\.168|路由器的管理地址/i);
  // And the request after the call carried the model those words, nothing more.
  const toolMessage = turn.requests[1]?.messages.find((m) => m.role === 'tool');
  assert.equal(toolMessage?.content, told);
  const cause = host.logs.find((l) => l.message.includes(`${tool} failed`));
  assert.ok(cause, host.logs.map((l) => l.message).join('\n'));
  assert.match(cause.message, /no such table/i);
});
}

test('packed host half: a note block in the reply becomes one diary file', async (t) => {
  const { host, corpus } = await loadBundle(t);
  const session = host.createSession({ id: 'session-9d8e7f60-cccc' });
  const before = readdirSync(corpus.diaryDir, { recursive: true }).length;
  const block = ['好的,记下了。', '<<<DailyNoteStart>>>', 'command: create', 'title: 合同测试日记', 'tags: 合同测试', '', '[10:00] 合同测试日记', '', '> 打包插件的日记块', '', '打包插件写入的一条日记,内容足够长以通过写入检查。', '<<<DailyNoteEnd>>>'].join('\n');
  const turn = await session.userTurn('记一下今天的测试', [{ text: block }]);
  assert.equal(turn.status, 'completed');
  await host.settle();
  const files = readdirSync(corpus.diaryDir, { recursive: true }).map(String);
  assert.equal(files.length, before + 1);
  assert.ok(files.some((f) => f.includes('合同测试日记')), files.join(', '));
  host.assertClean();
});

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('packed host half: the routes answer, client-config only to a loopback Host, writes need the token', async (t) => {
  const { host, corpus } = await loadBundle(t);
  const base = await host.listen();
  const status = await get(`${base}/engram/status`);
  assert.equal(status.status, 200);
  assert.equal(JSON.parse(status.body).plugin.name, 'engram');
  const config = await get(`${base}/engram/client-config`);
  assert.equal(config.status, 200);
  assert.match(JSON.parse(config.body).token, /^[\w-]{20,}$/);
  // DNS rebinding: the same request under a foreign Host name gets no token.
  const rebound = await get(`${base}/engram/client-config`, { host: 'attacker.example:80' });
  assert.equal(rebound.status, 421);
  assert.doesNotMatch(rebound.body, new RegExp(JSON.parse(config.body).token));
  for (const path of ['/engram/status', '/engram/logs', '/engram/console/', '/engram/console-start', '/engram/compaction/recheck']) {
    assert.equal((await get(`${base}${path}`, { host: 'attacker.example' }, path.endsWith('start') || path.endsWith('recheck') ? 'POST' : 'GET')).status, 421, path);
  }
  // A cross-origin page on a loopback Host gets no token either.
  assert.equal((await get(`${base}/engram/client-config`, { origin: 'http://evil.example' })).status, 403);
  assert.equal((await get(`${base}/engram/compaction/recheck`, {}, 'POST')).status, 403, 'a write without the token is refused');
  // The plugin's own log file: one line per recall, readable through the route.
  await host.createSession().userTurn('周报怎么写?', [{ text: 'ok' }]);
  const logs = await get(`${base}/engram/logs?lines=50`);
  assert.equal(logs.status, 200);
  const tail = JSON.parse(logs.body) as { file: string; lines: string[] };
  assert.ok(tail.file.startsWith(corpus.dataDir), tail.file);
  assert.equal(tail.lines.filter((l) => / INFO recall \S+ session=\S+ mode=/.test(l)).length, 1, tail.lines.join(" ⏎ "));
});

interface Fetched {
  url: string;
  init?: { method?: string; headers?: Record<string, string>; body?: string };
}

function loadPackedClient(services: Record<string, unknown> = {}, slots = HOST_SLOTS) {
  const pkg = pkgOf();
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const requests: Fetched[] = [];
  const fetch = async (url: string, init?: Fetched['init']) => {
    requests.push({ url, ...(init ? { init } : {}) });
    const body = url.includes('client-config')
      ? { consoleUrl: 'http://127.0.0.1:3000', proxyPath: '/engram/console/', startPath: '/engram/console-start', recheckPath: '/engram/compaction/recheck', tokenHeader: 'x-engram-token', token: 't'.repeat(40), reachable: true }
      : url.includes('recheck') ? { ok: true, result: { found: true, blocks: [{ title: '早先的讨论' }] } } : { ok: true };
    return { ok: true, status: 200, json: async () => body };
  };
  const loaded = loadClientBundle(code, { id: pkg.name, modules: { react: mini.React }, services, slots, globals: { fetch, location: { protocol: 'http:' }, setTimeout, console } });
  return { loaded, mini, requests };
}

test('packed client half: registers itself, injects an array, and on this host (no sidebarRightTabs) offers its entries', () => {
  const { loaded } = loadPackedClient();
  assert.equal(loaded.status, 'active', `waiting for ${loaded.waitingFor.join(', ')}`);
  assert.ok(Array.isArray(loaded.exports.inject));
  assert.deepEqual(Object.keys(loaded.exports).sort(), ['apply', 'inject', 'name']);
  assert.equal(loaded.slots.of('settings.section').length, 1, 'settings section fallback');
  assert.equal(loaded.slots.of('conversation.session.header.actions').length, 1, 'entry button in the session header');
  assert.equal(loaded.slots.of('conversation.chat.assistant-actions').length, 1, 'per-answer "look again" action');
});


test('packed client half: the header button opens the console in a drawer; "look again" posts the session to the recheck route', async () => {
  const { loaded, mini, requests } = loadPackedClient();
  const header = loaded.slots.of('conversation.session.header.actions')[0]!;
  let tree = await settle(mini, header.component, { sessionId: 'session-1' });
  assert.equal(findAll(tree, byData('drawer')).length, 0);
  (findAll(tree, byData('open-console'))[0]!.props.onClick as () => void)();
  tree = await settle(mini, header.component, { sessionId: 'session-1' });
  assert.equal(findAll(tree, byData('drawer')).length, 1);

  const mini2 = loadPackedClient();
  const action = mini2.loaded.slots.of('conversation.chat.assistant-actions')[0]!;
  const before = await settle(mini2.mini, action.component, { sessionId: 'session-42', messageId: 'msg-9' });
  await (findAll(before, byData('recheck-button'))[0]!.props.onClick as () => Promise<void>)();
  const post = mini2.requests.find((r) => r.init?.method === 'POST')!;
  assert.equal(post.url, '/engram/compaction/recheck');
  assert.equal(post.init!.headers!['x-engram-token'], 't'.repeat(40));
  assert.deepEqual(JSON.parse((post.init as { body: string }).body), { sessionId: 'session-42' });
  const after = await settle(mini2.mini, action.component, { sessionId: 'session-42', messageId: 'msg-9' });
  assert.ok(textOf(findAll(after, byData('recheck-note'))[0]).length > 0);
});

test('packed client half: where the host has sidebarRightTabs, a right-sidebar tab and its body', () => {
  const tabs: Record<string, unknown>[] = [];
  const { loaded } = loadPackedClient(
    { sidebarRightTabs: { register: (tab: Record<string, unknown>) => (tabs.push(tab), () => {}) } },
    { ...HOST_SLOTS, 'sidebar.right.pane.tab': 'keyed' },
  );
  assert.equal(loaded.status, 'active');
  assert.equal(tabs.length, 1);
  assert.equal(loaded.slots.of('sidebar.right.pane.tab')[0]!.options.key, tabs[0]!.id);
  assert.equal(loaded.slots.of('settings.section').length, 0, 'no fallback when the tab exists');
});

test('the bundle declares no dependency that runs an install script (pnpm refuses them by default)', () => {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const all = { ...pkg.dependencies, ...pkg.optionalDependencies };
  for (const heavy of ['@huggingface/transformers', 'onnxruntime-node', 'protobufjs', 'sharp']) assert.ok(!(heavy in all), `${heavy} is a dependency`);
  for (const name of Object.keys(all)) {
    const manifest = [join(root, 'node_modules', name, 'package.json'), join(root, 'packages/engine/node_modules', name, 'package.json'), join(root, 'packages/db/node_modules', name, 'package.json')].find(existsSync);
    assert.ok(manifest, `${name} is installed in the workspace`);
    const scripts = JSON.parse(readFileSync(manifest, 'utf8')).scripts ?? {};
    for (const hook of ['preinstall', 'install', 'postinstall']) assert.equal(scripts[hook], undefined, `${name} has a ${hook} script`);
  }
});

test('packed host half: a follow-up after a tool turn that recalls nothing alone is asked again with the previous message', async (t) => {
  const { host } = await loadBundle(t);
  const session = host.createSession({ id: 'session-5e6f7a8b-cccc' });
  const searchTool = host.tools!.has('engram_search') ? 'engram_search' : 'engram';
  const first = await session.userTurn('报销发票要交给谁？', [
    { toolCalls: [{ name: searchTool, arguments: searchTool === 'engram' ? { q: '报销' } : { query: '报销' } }] },
    { text: '交给财务。' },
  ]);
  assert.equal(first.status, 'completed', String((first.error as Error | undefined)?.message));
  // Alone, 抬头 reaches the invoice note without enough of the question: every candidate fails a gate.
  const second = await session.userTurn('它的抬头后来改成英文简称了吗', [{ text: '没有。' }]);
  assert.equal(second.status, 'completed');
  assert.ok(host.logs.some((l) => /a follow-up \(every-candidate\), asked again with the previous message/.test(l.message)), host.logs.map((l) => l.message).join('\n'));
  const line = host.logs.filter((l) => l.message.startsWith('recall user-message') && l.message.includes('hits=')).at(-1);
  assert.match(line?.message ?? '', /hits=1 \[2026-03-09 发票报销规则\]/);
  await host.settle();
  host.assertClean();
});
