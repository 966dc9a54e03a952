// `engram mcp` as a user's MCP host runs it: the compiled CLI (bin/engram.js mcp) spawned by the
// official SDK's own client over stdio (and over Streamable HTTP behind the console's guard).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { estimateTokens } from '../../src/compaction/tokens.ts';
import { processAlive } from '../../src/diary/lock.ts';
import { openEngine } from '../../src/engine.ts';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';
import { IDS, makeHome } from '../sessions/home.ts';
import { ensureCompiledCli } from '../cli/compiled-cli.ts';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = join(engineDir, '../..');
const bin = join(engineDir, 'bin/engram.js');

before(ensureCompiledCli);

type Dirs = ReturnType<typeof tempDirs>;
const common = (d: Dirs) => ['--diary-dir', d.diaryDir, '--data-dir', d.dataDir];
/** HOME inside the temp dir: no DSH home, no model cache of the machine (the CLI and the server see the same). */
const baseEnv = (d: Dirs, extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', HOME: d.root, DSH_HOME: join(d.root, 'no-dsh'), ...extra });

async function connect(d: Dirs, env: Record<string, string> = {}, args: string[] = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...common(d), ...args], env: baseEnv(d, env), stderr: 'pipe' });
  const client = new Client({ name: 'engram-test', version: '0' });
  await client.connect(transport);
  return { client, transport };
}

const textOf = (r: unknown): string => ((r as { content: { text: string }[] }).content ?? []).map((c) => c.text).join('\n');
const isError = (r: unknown): boolean => (r as { isError?: boolean }).isError === true;

/** The lean profile's fixed cost per request by the engine's estimate, as `npm run bench:tokens` wrote it into docs/plugin.md. */
function pluginLeanBudget(): number {
  const doc = readFileSync(join(repoRoot, 'docs/plugin.md'), 'utf8');
  const m = /^\| `lean` \(default\) \|.*?\*\*([\d,]+)\*\*/m.exec(doc);
  assert.ok(m, 'docs/plugin.md has no generated lean row (npm run bench:tokens writes it)');
  return Number(m[1]!.replace(/,/g, ''));
}

test('tools/list: the lean capabilities, and what the host pays for them stays within the plugin lean set\'s fixed cost', async (t) => {
  const d = tempDirs();
  const home = await makeHome(t);
  for (const [label, env] of [
    ['no DSH home', {}],
    ['with DSH sessions', { DSH_HOME: home }],
  ] as const) {
    const { client } = await connect(d, env);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((x) => x.name).sort();
      assert.deepEqual(names, label === 'no DSH home' ? ['read', 'recall', 'search', 'write'] : ['read', 'recall', 'search', 'session_read', 'write']);
      // Counted the way bench:tokens counts a plugin tool: its name, description and parameters, serialised.
      const schemas = tools.reduce((n, x) => n + estimateTokens(JSON.stringify({ name: x.name, description: x.description, parameters: x.inputSchema })), 0);
      const instructions = estimateTokens(client.getInstructions() ?? '');
      assert.ok(schemas + instructions <= pluginLeanBudget(), `${label}: ${schemas} (schemas) + ${instructions} (instructions) > ${pluginLeanBudget()}`);
      for (const x of tools) assert.ok(!('$schema' in x.inputSchema), `${x.name} publishes $schema`);
    } finally {
      await client.close();
    }
  }
});

test('every tool, resource and the prompt over stdio; bad arguments get a clear error', async (t) => {
  const d = tempDirs();
  seedCorpus(d.diaryDir);
  const home = await makeHome(t);
  const { client } = await connect(d, { DSH_HOME: home });
  try {
    const wrote = await client.callTool({ name: 'write', arguments: { content: '[10:00] 大阪节点换用 8443 端口\n> 大阪节点的面板改到 8443,443 留给 nginx。\n面板监听 8443,防火墙放行 8443/tcp。旧面板先暂停。\nTag: 大阪节点, 8443' } });
    assert.equal(isError(wrote), false, textOf(wrote));
    const docId = (wrote.structuredContent as { docId: string }).docId;
    assert.match(textOf(wrote), new RegExp(docId));

    const recall = await client.callTool({ name: 'recall', arguments: { message: '大阪节点用哪个端口' } });
    assert.ok((recall.structuredContent as { hits: { docId: string }[] }).hits.some((h) => h.docId === docId));
    assert.match(textOf(recall), /大阪节点换用 8443 端口/);

    const found = await client.callTool({ name: 'search', arguments: { q: '节点 端口' } });
    const hitIds = (found.structuredContent as { hits: { docId: string }[] }).hits.map((h) => h.docId);
    assert.ok(hitIds.includes(docId));
    // A search is never small talk: a word about the conversation searched alone finds the note; as a message it is small talk.
    const paused = await client.callTool({ name: 'search', arguments: { q: '暂停' } });
    assert.ok((paused.structuredContent as { hits: { docId: string }[] }).hits.some((h) => h.docId === docId), textOf(paused));
    const said = await client.callTool({ name: 'recall', arguments: { message: '暂停' } });
    assert.equal((said.structuredContent as { hits: unknown[] }).hits.length, 0, textOf(said));
    const filtered = await client.callTool({ name: 'search', arguments: { q: '节点 端口 tag:8443' } });
    assert.deepEqual((filtered.structuredContent as { hits: { docId: string }[] }).hits.map((h) => h.docId), [docId], 'the tag filter keeps only the tagged memory');
    const index = await client.callTool({ name: 'search', arguments: {} });
    assert.equal((index.structuredContent as { total: number }).total, 6);

    const whole = await client.callTool({ name: 'read', arguments: { id: docId } });
    assert.match(textOf(whole), /面板监听 8443,防火墙放行 8443\/tcp。/);
    const located = await client.callTool({ name: 'read', arguments: { id: docId, q: '8443' } });
    assert.equal(isError(located), false, textOf(located));
    const segment = (located.structuredContent as { hits: { index: number }[] }).hits[0]!.index;
    const part = await client.callTool({ name: 'read', arguments: { id: docId, seg: [segment] } });
    assert.match(textOf(part), /8443/);

    const edited = await client.callTool({ name: 'write', arguments: { id: docId, target: '面板监听 8443,防火墙放行 8443/tcp。', content: '面板监听 9443,防火墙放行 9443/tcp。' } });
    assert.equal(isError(edited), false, textOf(edited));
    assert.match(textOf(await client.callTool({ name: 'read', arguments: { id: docId } })), /面板监听 9443,防火墙放行 9443\/tcp。/);

    const sessions = await client.callTool({ name: 'session_read', arguments: {} });
    assert.match(textOf(sessions), new RegExp(IDS.rich.slice(0, 8)));
    const one = await client.callTool({ name: 'session_read', arguments: { id: IDS.rich.slice(0, 8) } });
    assert.equal(isError(one), false, textOf(one));
    assert.equal((one.structuredContent as { id: string }).id, IDS.rich);

    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'engram://resident'));
    const memoryUri = `engram://memory/${docId}`;
    assert.ok(resources.some((r) => r.uri === memoryUri));
    assert.equal(resources.filter((r) => r.uri.startsWith('engram://memory/')).length, 6);
    const file = readdirSync(d.diaryDir).find((f) => f.includes('大阪节点'))!;
    const read = await client.readResource({ uri: memoryUri });
    assert.equal((read.contents[0] as { text: string }).text, readFileSync(join(d.diaryDir, file), 'utf8'));
    assert.equal(typeof ((await client.readResource({ uri: 'engram://resident' })).contents[0] as { text: string }).text, 'string');

    const prompt = await client.getPrompt({ name: 'recall', arguments: { message: '大阪节点用哪个端口' } });
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    assert.match(promptText, /大阪节点换用 8443 端口/);
    assert.ok(promptText.endsWith('大阪节点用哪个端口'));

    const forgot = await client.callTool({ name: 'write', arguments: { id: docId, forget: true } });
    assert.equal(isError(forgot), false, textOf(forgot));
    assert.equal(((await client.callTool({ name: 'search', arguments: {} })).structuredContent as { total: number }).total, 5);

    // Bad arguments: an error result that names the argument, never a crash of the server.
    const wrongType = await client.callTool({ name: 'read', arguments: { id: 5 } });
    assert.ok(isError(wrongType));
    assert.match(textOf(wrongType), /id/);
    const badRange = await client.callTool({ name: 'search', arguments: { q: '端口 from:2026-05 to:2026-03' } });
    assert.ok(isError(badRange), textOf(badRange));
    assert.match(textOf(badRange), /\[invalid-arguments\].*from/);
    const onlyFilters = await client.callTool({ name: 'search', arguments: { q: 'tag:8443' } });
    assert.ok(isError(onlyFilters), textOf(onlyFilters));
    assert.match(textOf(onlyFilters), /\[invalid-arguments\]/);
    const nothing = await client.callTool({ name: 'write', arguments: {} });
    assert.ok(isError(nothing));
    assert.match(textOf(nothing), /content/);
    const missing = await client.callTool({ name: 'read', arguments: { id: 'no-such-memory' } });
    assert.ok(isError(missing));
    assert.match(textOf(missing), /no-such-memory/);
    await assert.rejects(client.readResource({ uri: 'engram://memory/no-such-memory' }), /no-such-memory/);
    // Still answering after all of that.
    assert.equal((await client.listTools()).tools.length, 5);
  } finally {
    await client.close();
  }
});

test('recall through MCP returns the hits of engram recall --json for the same query', async () => {
  const d = tempDirs();
  seedCorpus(d.diaryDir);
  const queries = ['东京节点 443 端口', '中文分词用什么', '数据库迁移前要做什么', '缓存命中率', '量子计算机的散热'];
  const cli = spawnSync(process.execPath, [bin, 'recall', '--stdin', '--json', ...common(d)], { input: `${queries.join('\n')}\n`, encoding: 'utf8', env: baseEnv(d), timeout: 120_000 });
  assert.equal(cli.status, 0, cli.stderr);
  const byCli = cli.stdout.trim().split('\n').map((line) => JSON.parse(line) as { hits: { docId: string; score: number }[] });
  const { client } = await connect(d);
  try {
    let nonEmpty = 0;
    for (const [i, q] of queries.entries()) {
      const r = await client.callTool({ name: 'recall', arguments: { message: q } });
      const hits = (r.structuredContent as { hits: { docId: string; score: number }[] }).hits;
      assert.deepEqual(hits.map((h) => [h.docId, h.score]), byCli[i]!.hits.map((h) => [h.docId, h.score]), `query ${q}`);
      if (hits.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty >= 3, 'the comparison covered queries with hits');
  } finally {
    await client.close();
  }
});

for (const mode of ['idle', 'busy'] as const) {
  test(`a killed MCP host (${mode === 'idle' ? 'between calls' : 'while it writes'}) leaves no writer lock behind, and the data dir stays writable`, { timeout: 120_000 }, async () => {
    const d = tempDirs();
    const worker = spawn(process.execPath, [join(engineDir, 'test/mcp/workers/writing-client.mjs'), bin, d.diaryDir, d.dataDir, mode], { cwd: repoRoot, env: baseEnv(d), stdio: ['ignore', 'pipe', 'inherit'] });
    let serverPid = 0;
    let writes = 0;
    for await (const line of createInterface({ input: worker.stdout! })) {
      if (line.startsWith('pid ')) serverPid = Number(line.slice(4));
      if (line.startsWith('wrote ')) writes++;
      if (mode === 'idle' ? line === 'idle' : writes === 3) break; // busy: killed while it keeps writing
    }
    assert.ok(serverPid > 0 && writes === 3);
    worker.kill('SIGKILL');
    // The server notices its host is gone (stdin closed, or a write to it fails), lets a started
    // write finish, closes the engine and exits.
    while (processAlive(serverPid)) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(join(d.dataDir, 'engram.lock')), false, 'the writer lock is still there');
    const engine = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d), writerLock: { waitMs: 0 } });
    try {
      const r = await engine.write({ content: '[12:00] 主机被杀之后数据目录还能写\n> 写锁已随 MCP 服务进程退出而释放,新的写入不必等待。' });
      const listed = await engine.list();
      assert.ok(listed.some((m) => m.docId === r.docId));
      assert.ok(listed.length >= writes + 1, 'an acknowledged write is missing');
    } finally {
      engine.close();
    }
  });
}

test('the MCP server and another engine write to one data dir at once: nothing is lost', { timeout: 180_000 }, async () => {
  const d = tempDirs();
  seedCorpus(d.diaryDir);
  const { client } = await connect(d);
  const engine = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d) });
  const count = 12;
  try {
    const viaMcp = Array.from({ length: count }, (_, i) =>
      client.callTool({ name: 'write', arguments: { content: `[08:${String(i).padStart(2, '0')}] MCP 写的并发记忆 ${i}\n> MCP 第 ${i} 条,编号 mcp-${i}-kiwi。\n正文 mcp-${i}-kiwi。` } }).then((r) => {
        assert.equal(isError(r), false, textOf(r));
        return (r.structuredContent as { docId: string }).docId;
      }),
    );
    const viaEngine = Array.from({ length: count }, (_, i) => engine.write({ content: `[09:${String(i).padStart(2, '0')}] 插件写的并发记忆 ${i}\n> 插件第 ${i} 条,编号 plugin-${i}-plum。\n正文 plugin-${i}-plum。` }).then((r) => r.docId));
    const ids = await Promise.all([...viaMcp, ...viaEngine]);
    assert.equal(new Set(ids).size, 2 * count, 'every write is its own memory');
    await client.close();
    engine.close();
    // A fresh engine (syncing from the files) and the files themselves hold every write.
    const after = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d) });
    try {
      const listed = new Set((await after.list()).map((m) => m.docId));
      for (const id of ids) assert.ok(listed.has(id), `${id} is missing from the index`);
      const texts = readdirSync(d.diaryDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
        .join('\n');
      for (let i = 0; i < count; i++) {
        assert.ok(texts.includes(`正文 mcp-${i}-kiwi。`), `mcp write ${i} lost`);
        assert.ok(texts.includes(`正文 plugin-${i}-plum。`), `engine write ${i} lost`);
      }
      assert.equal(existsSync(join(d.dataDir, 'engram.lock')), false);
    } finally {
      after.close();
    }
  } finally {
    await client.close().catch(() => undefined);
  }
});

test('engram mcp --http: the console guard (Host, token) in front of Streamable HTTP', { timeout: 120_000 }, async () => {
  const d = tempDirs();
  seedCorpus(d.diaryDir);
  mkdirSync(d.dataDir, { recursive: true });
  const server = spawn(process.execPath, [bin, 'mcp', '--http', '--port', '0', ...common(d)], { env: baseEnv(d), stdio: ['ignore', 'ignore', 'pipe'] });
  let idle: import('node:net').Socket | undefined;
  try {
    let url = '';
    for await (const line of createInterface({ input: server.stderr! })) {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(line);
      if (m) {
        url = m[1]!;
        break;
      }
    }
    assert.ok(url, 'the server said where it listens');
    const token = readFileSync(join(d.dataDir, 'console-token'), 'utf8').trim();
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: init });
    assert.equal((await post({})).status, 403, 'no token');
    assert.equal((await post({ 'x-engram-token': `${token}x` })).status, 403, 'wrong token');
    assert.equal((await post({ 'x-engram-token': token, origin: 'http://evil.example' })).status, 403, 'foreign origin');
    const rebound = await new Promise<number>((ok, fail) => {
      // fetch cannot set Host; a raw request can (DNS rebinding sends the attacker's name).
      import('node:http').then(({ request }) => {
        const req = request(url, { method: 'POST', headers: { host: 'evil.example', 'x-engram-token': token, 'content-type': 'application/json' } }, (res) => ok(res.statusCode ?? 0));
        req.on('error', fail);
        req.end(init);
      }, fail);
    });
    assert.equal(rebound, 421, 'foreign Host');
    // The console's browser cookie is sent to every port of 127.0.0.1: it is not this server's credential.
    const { browserSessionValue } = await import('../../src/security/request-guard.ts');
    assert.equal((await post({ cookie: `engram_session=${browserSessionValue(token)}` })).status, 403, 'the console cookie alone');
    const refused = await post({});
    assert.equal(refused.headers.get('connection'), 'close', 'a refused request is not read on');
    assert.equal(refused.headers.get('x-content-type-options'), 'nosniff');
    const elsewhere = await fetch(url.replace(/\/mcp$/, '/other'), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-engram-token': token }, body: init });
    assert.equal(elsewhere.status, 404, 'only /mcp is the endpoint');

    const client = new Client({ name: 'engram-http-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-engram-token': token } } }));
    try {
      assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), ['read', 'recall', 'search', 'write']);
      const r = await client.callTool({ name: 'recall', arguments: { message: '东京节点 443 端口' } });
      assert.equal((r.structuredContent as { hits: { path: string }[] }).hits[0]?.path, '2026-10-20-tokyo-1a2b3c4d.txt');
    } finally {
      await client.close();
    }
    // An idle keep-alive connection must not hold the server up at shutdown.
    const { connect } = await import('node:net');
    idle = connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((r) => idle!.once('connect', r));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    idle?.destroy();
  }
  assert.equal(existsSync(join(d.dataDir, 'engram.lock')), false);
});

test('a scoped server told to forget another workspace\'s archived memory by its old id says not-found, without its title', async () => {
  const d = tempDirs();
  const engine = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d) });
  const theirs = await engine.write({ content: '[08:10] 贝塔项目的部署密钥位置\n> 贝塔项目的部署密钥放在运维保险柜里。', meta: { workspace: 'ws-beta0002' } });
  const mine = await engine.write({ content: '[08:20] 阿尔法项目的部署方式\n> 阿尔法项目用 make deploy 部署。', meta: { workspace: 'ws-alpha001' } });
  await engine.write({ content: '[08:30] 阿尔法项目的发布日\n> 阿尔法项目每周四下午发布新版本,周五不发布。', meta: { workspace: 'ws-alpha001' } });
  await engine.forget(theirs.docId);
  await engine.forget(mine.docId);
  engine.close();
  const { client } = await connect(d, {}, ['--workspace', 'ws-alpha001']);
  try {
    const r = await client.callTool({ name: 'write', arguments: { id: theirs.docId, forget: true } });
    assert.ok(isError(r), textOf(r));
    assert.match(textOf(r), /\[not-found\]/);
    assert.doesNotMatch(textOf(r), /贝塔|部署密钥/, 'another workspace\'s title reached a scoped server');
    // Its own archived memory is still said to be archived.
    const own = await client.callTool({ name: 'write', arguments: { id: mine.docId, forget: true } });
    assert.match(textOf(own), /already-archived|已经归档|already archived/);
  } finally {
    await client.close();
  }
});

test('--workspace scopes the server like a plugin session: its memories and global ones; another workspace\'s is not found', async () => {
  const d = tempDirs();
  const engine = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d) });
  const mine = await engine.write({ content: '[08:00] 阿尔法项目的构建命令\n> 阿尔法项目用 make release 构建,产物在 out 目录。', meta: { workspace: 'ws-alpha001' } });
  const theirs = await engine.write({ content: '[08:10] 贝塔项目的构建命令\n> 贝塔项目用 cargo build 构建,产物在 target 目录。', meta: { workspace: 'ws-beta0002' } });
  const shared = await engine.write({ content: '[08:20] 所有项目的构建习惯\n> 所有项目构建前先跑一遍单元测试,失败就不构建。' });
  engine.close();
  const { client } = await connect(d, {}, ['--workspace', 'ws-alpha001']);
  try {
    const found = await client.callTool({ name: 'search', arguments: { q: '项目 构建' } });
    const ids = (found.structuredContent as { hits: { docId: string }[] }).hits.map((h) => h.docId);
    assert.ok(ids.includes(mine.docId) && ids.includes(shared.docId), textOf(found));
    assert.ok(!ids.includes(theirs.docId), 'another workspace\'s memory was found');
    const recall = await client.callTool({ name: 'recall', arguments: { message: '贝塔项目怎么构建' } });
    assert.ok(!(recall.structuredContent as { hits: { docId: string }[] }).hits.some((h) => h.docId === theirs.docId));
    for (const call of [
      { name: 'read', arguments: { id: theirs.docId } },
      { name: 'write', arguments: { id: theirs.docId, forget: true } },
    ]) {
      const r = await client.callTool(call);
      assert.ok(isError(r), `${call.name} reached another workspace's memory`);
      assert.match(textOf(r), /\[not-found\]/);
    }
    await assert.rejects(client.readResource({ uri: `engram://memory/${theirs.docId}` }));
    const wrote = await client.callTool({ name: 'write', arguments: { content: '[09:00] 阿尔法项目的发布渠道\n> 阿尔法项目的发布包上传到内部制品库,不发公网。' } });
    const after = await openEngine({ options: { diaryDir: d.diaryDir, dataDir: d.dataDir }, env: baseEnv(d), syncOnOpen: false });
    try {
      assert.equal((await after.resolve((wrote.structuredContent as { docId: string }).docId))?.workspace, 'ws-alpha001');
    } finally {
      after.close();
    }
  } finally {
    await client.close();
  }
});
