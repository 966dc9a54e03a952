// What `engram mcp --http` tells its client when something goes wrong, in process (serveMcpHttp over
// an engine of the test's own). A failure inside the engine — the database losing its tables, a
// dependency that throws — used to reach the client as the engine's raw text: SQL with its
// parameters (the memory's own words), file paths. The client now gets fixed words under a stable
// code and the engine's log keeps the cause; the errors the engine words for the person (bad
// arguments, not found) still go out as they are. A refusal by the request guard used to echo the
// caller's Host or Origin back; it now says what was refused in fixed words.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DatabaseUnreachableError } from '@engram/db/reachability';
import type { Engine } from '../../src/engine.ts';
import { EngramError } from '../../src/errors.ts';
import type { LogLevel } from '../../src/log.ts';
import { serveMcpHttp } from '../../src/mcp/http.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

interface Served {
  engine: Engine;
  url: string;
  token: string;
  /** Every line the engine's logger was given, as JSON. */
  logs: string[];
}

/** An engine over a seeded corpus, served over HTTP on a free loopback port; both closed after the test. */
async function serve(t: TestContext): Promise<Served> {
  const d = tempDirs();
  seedCorpus(d.diaryDir);
  const logs: string[] = [];
  const log = (level: LogLevel, message: string, data?: Record<string, unknown>) => void logs.push(JSON.stringify({ level, message, ...data }));
  const engine = await openTestEngine(d, { log });
  const http: Server = await serveMcpHttp(engine, { host: '127.0.0.1', port: 0, workspace: null });
  t.after(() => {
    http.close();
    http.closeAllConnections();
    engine.close();
  });
  const address = http.address();
  assert.ok(address && typeof address === 'object');
  const token = readFileSync(join(d.dataDir, 'console-token'), 'utf8').trim();
  return { engine, url: `http://127.0.0.1:${address.port}/mcp`, token, logs };
}

async function connect(t: TestContext, s: Served): Promise<Client> {
  const client = new Client({ name: 'engram-http-errors', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { 'x-engram-token': s.token } } }));
  t.after(() => client.close());
  return client;
}

const textOf = (r: unknown): string => ((r as { content: { text: string }[] }).content ?? []).map((c) => c.text).join('\n');
const isError = (r: unknown): boolean => (r as { isError?: boolean }).isError === true;

/** What must never reach the client from a failed query or a failed open. */
const RAW = /Failed query|select |params:|SQLITE|no such table|\/tmp\/|engram-test-/;

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });

/** A POST of `initialize` with these headers (Host too: fetch cannot set it), answered with its status and body. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', fail);
    req.end(INITIALIZE);
  });
}

const errorMessageOf = (body: string): string => (JSON.parse(body) as { error: { message: string } }).error.message;

test('a tool call that fails inside the engine answers fixed words under [failed]; the cause goes to the engine log', async (t) => {
  const s = await serve(t);
  const client = await connect(t, s);
  // The index loses its tables: every query of a write or a recall now fails with SQL and its parameters.
  await s.engine.database.client.execute('DROP TABLE chunks');
  await s.engine.database.client.execute('DROP TABLE documents');

  const title = '家里路由器的管理密码';
  const wrote = await client.callTool({ name: 'write', arguments: { content: `[10:00] ${title}\n> 路由器管理页的密码写在路由器底部的标签上。` } });
  assert.ok(isError(wrote), textOf(wrote));
  assert.match(textOf(wrote), /^\[failed\] /);
  assert.doesNotMatch(textOf(wrote), RAW);
  assert.ok(!textOf(wrote).includes(title), `the memory's own words reached the client: ${textOf(wrote)}`);

  const recalled = await client.callTool({ name: 'recall', arguments: { message: '东京节点 443 端口' } });
  assert.ok(isError(recalled), textOf(recalled));
  assert.equal(textOf(recalled), textOf(wrote), 'one stable answer for every internal failure');

  // The same words through a JSON-RPC error (the recall prompt), never the driver's.
  await assert.rejects(client.getPrompt({ name: 'recall', arguments: { message: '东京节点 443 端口' } }), (e: Error) => {
    assert.doesNotMatch(e.message, RAW);
    assert.match(e.message, /\[failed\]/);
    return true;
  });

  // The log has what the client was not told, and never the token.
  const failures = s.logs.filter((l) => /"level":"error"/.test(l));
  assert.ok(failures.some((l) => l.includes('no such table: documents') && l.includes('write')), s.logs.join('\n'));
  assert.ok(failures.some((l) => l.includes('no such table: chunks') && l.includes('recall')), s.logs.join('\n'));
  assert.ok(!s.logs.some((l) => l.includes(s.token)), 'the token was logged');
});

test('errors the engine words for the person still reach the client as they are', async (t) => {
  const s = await serve(t);
  const client = await connect(t, s);
  const missing = await client.callTool({ name: 'read', arguments: { id: 'no-such-memory' } });
  assert.ok(isError(missing));
  assert.match(textOf(missing), /^\[not-found\] .*no-such-memory/);
  const badRange = await client.callTool({ name: 'search', arguments: { q: '端口 from:2026-05 to:2026-03' } });
  assert.match(textOf(badRange), /^\[invalid-arguments\] .*from/);
  const wrongType = await client.callTool({ name: 'read', arguments: { id: 5 } });
  assert.ok(isError(wrongType));
  assert.match(textOf(wrongType), /must be a string/);
  await assert.rejects(client.readResource({ uri: 'engram://memory/no-such-memory' }), /\[not-found\].*no-such-memory/);
  assert.deepEqual(s.logs.filter((l) => /"level":"error"/.test(l)), [], 'a user error is not an internal failure');
});

test('a request that fails before any tool runs answers 500 with fixed words, and the cause goes to the log', async (t) => {
  const s = await serve(t);
  // A dependency that throws while the request's MCP server is built: the engine's settings, here
  // failing as a settings file that cannot be read would (with its path).
  const unreadable = new Error(`EACCES: permission denied, open '/tmp/engram-test-secret/data/settings.json'`);
  Object.defineProperty(s.engine, 'config', { configurable: true, get: () => { throw unreadable; } });
  t.after(() => delete (s.engine as unknown as Record<string, unknown>).config);
  const answer = await post(s.url, { 'x-engram-token': s.token });
  assert.equal(answer.status, 500, answer.body);
  assert.doesNotMatch(answer.body, RAW);
  assert.match(errorMessageOf(answer.body), /^\[failed\] /);
  assert.ok(s.logs.some((l) => /"level":"error"/.test(l) && l.includes('settings.json')), s.logs.join('\n'));
  assert.ok(!s.logs.some((l) => l.includes(s.token)), 'the token was logged');
});

test('refusals say what was refused in fixed words, never the caller\'s Host or Origin', async (t) => {
  const s = await serve(t);
  const port = new URL(s.url).port;
  const cases = [
    { label: 'foreign Host', status: 421, headers: (name: string) => ({ host: `${name}:${port}`, 'x-engram-token': s.token }) },
    { label: 'foreign Origin', status: 403, headers: (name: string) => ({ origin: `http://${name}`, 'x-engram-token': s.token }) },
    { label: 'wrong token', status: 403, headers: (name: string) => ({ origin: `http://127.0.0.1:${port}`, 'x-engram-token': name }) },
  ];
  for (const c of cases) {
    const messages: string[] = [];
    for (const name of ['rebind-7f3a.example', '<script>alert(1)</script>']) {
      const answer = await post(s.url, c.headers(name));
      assert.equal(answer.status, c.status, `${c.label}: ${answer.body}`);
      assert.ok(!answer.body.includes('rebind-7f3a') && !answer.body.includes('script'), `${c.label} echoed the caller: ${answer.body}`);
      messages.push(errorMessageOf(answer.body));
    }
    assert.equal(messages[0], messages[1], `${c.label}: the words depend on what the caller sent`);
  }
});

test('clientFailure: an EngramError as it is; a locked or unreachable database under its code; anything else fixed words', async () => {
  const { clientFailure } = await import('../../src/errors.ts');
  const notFound = new EngramError('not-found', '没有这篇记忆 / no memory "x"');
  assert.deepEqual(clientFailure(notFound), { code: 'not-found', message: notFound.message });

  const sql = 'Failed query: select "text" from "chunks" where "id" = ?\nparams: 家里路由器的管理密码';
  const busy = clientFailure(new Error(sql, { cause: Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' }) }));
  assert.equal(busy.code, 'database-busy');
  const unreachable = clientFailure(new Error(sql, { cause: new DatabaseUnreachableError('https://user:pw@db.example/x?authToken=t0ken', new Error('connect ECONNREFUSED')) }));
  assert.equal(unreachable.code, 'database-unreachable');
  const internal = clientFailure(new Error(sql));
  assert.equal(internal.code, 'failed');
  for (const f of [busy, unreachable, internal]) {
    assert.doesNotMatch(f.message, RAW);
    assert.ok(!/路由器|pw@|t0ken|ECONNREFUSED/.test(f.message), f.message);
    assert.match(f.message, /^[\u4e00-\u9fff].* \/ [A-Z]/, 'Chinese first, then English');
  }
});
