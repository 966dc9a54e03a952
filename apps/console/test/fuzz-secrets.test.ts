// Secrets never leave the server: the production console runs with an embedding key, a judge key
// and a database token planted in its environment, against local endpoints that echo the key back
// in their 401 errors; every page, API answer (headers and body), the rebuild stream, the server's
// own stdout/stderr and the files in its data folder are searched for the planted values. Every
// answer also carries the CSP with frame-ancestors. Needs the console's production build (the
// browser e2e builds it too; whichever runs first pays for it).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ensureBuild, freePort, startConsole, type RunningConsole } from '../../../e2e/server.ts';
import { startFlakyEndpoints, type FlakyServer } from '../../../packages/engine/test/reliability/flaky-endpoints.ts';

const PLANTED = {
  embedding: 'sk-planted-EMBED-7f3a9c1e5b2d4f6a8c0e',
  judge: 'sk-planted-JUDGE-1b2c3d4e5f6a7b8c9d0e',
  database: 'planted-DBTOKEN-9e8d7c6b5a4f3e2d1c0b',
};

const root = mkdtempSync(join(tmpdir(), 'engram-secrets-'));
const dataDir = join(root, 'data');
const diaryDir = join(root, 'diary');
let endpoints: FlakyServer;
let server: RunningConsole | null = null;
const seen: { what: string; text: string }[] = [];

before(async () => {
  ensureBuild((s) => console.log(`# ${s}`));
  endpoints = await startFlakyEndpoints({ dims: 32, seed: 7, weights: { ok: 3, 'unauthorized-echo': 2, 'server-error': 1 } });
  mkdirSync(diaryDir, { recursive: true });
  for (let i = 0; i < 12; i++) {
    writeFileSync(join(diaryDir, `2026-10-${String(i + 1).padStart(2, '0')}-s-${i}.txt`), `[09:00] 密钥测试日记 ${i}\n\n> 第 ${i} 篇。\n\n东京节点的端口处置记录,编号 ${i},这一行足够长可以作为锚点使用。\n\nTag: 东京节点, 编号${i}\n`);
  }
  const configFile = join(root, 'engram.json');
  writeFileSync(configFile, JSON.stringify({ judge: { enabled: true, timeoutMs: 500 }, embedding: { batchSize: 2, maxRetries: 0, minIntervalMs: 0, timeoutMs: 1000 } }));
  server = await startConsole(
    {
      ENGRAM_CONFIG: configFile,
      ENGRAM_DIARY_DIR: diaryDir,
      ENGRAM_DATA_DIR: dataDir,
      HOME: root,
      ENGRAM_EMBEDDING_PROVIDER: 'openai',
      ENGRAM_EMBEDDING_BASE_URL: endpoints.url,
      ENGRAM_EMBEDDING_MODEL: 'echo-embed',
      ENGRAM_EMBEDDING_DIMENSIONS: '32',
      ENGRAM_EMBEDDING_KEY: PLANTED.embedding,
      ENGRAM_JUDGE_BASE_URL: endpoints.url,
      ENGRAM_JUDGE_MODEL: 'echo-judge',
      ENGRAM_JUDGE_KEY: PLANTED.judge,
      ENGRAM_DATABASE_AUTH_TOKEN: PLANTED.database,
    },
    await freePort(),
  );
});

after(async () => {
  await server?.stop();
  await endpoints?.close();
});

async function call(what: string, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${server!.url}${path}`, init);
  const body = await res.clone().text();
  seen.push({ what: `${what} ${res.status}`, text: `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${body}` });
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'self'/, `${what}: no CSP frame-ancestors`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
  return res;
}

test('no planted secret in any answer, header, stream, log line or data file', { timeout: 240_000 }, async () => {
  await call('page', '/');
  const token = readFileSync(join(dataDir, 'console-token'), 'utf8').trim();
  const json = { 'content-type': 'application/json', origin: server!.url, 'x-engram-token': token };
  const q = (p: string, input?: unknown) => call(`GET ${p}`, `/api/trpc/${p}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`);
  const m = (p: string, input: unknown, headers: Record<string, string> = json) => call(`POST ${p}`, `/api/trpc/${p}`, { method: 'POST', headers, body: JSON.stringify(input) });

  // The rebuild embeds through endpoints that answer 401 with the key in the message.
  const rebuild = await call('rebuild stream', '/api/index/rebuild', { method: 'POST', headers: json, body: JSON.stringify({ full: true }) });
  assert.equal(rebuild.status, 200);
  for (const p of ['settings.get', 'index.status', 'memories.list', 'system.health', 'settings.builtinTemplate']) await q(p);
  for (let i = 0; i < 12; i++) await q('recall.run', { query: `东京节点 端口 编号 ${i}` });
  const list = (await (await q('memories.list')).json()) as { result: { data: { docId: string }[] } };
  const id = list.result.data[0]!.docId;
  await q('memories.read', { id });
  await m('memories.create', { title: '新写的一篇', content: '经由控制台写入。' });
  await m('memories.edit', { id, target: '不存在的锚点文字不存在的锚点文字', replacement: 'x' });
  await m('settings.save', { patch: { embedding: { apiKey: '••••••••' }, judge: { apiKey: '••••••••' }, inject: { header: '保存一次' } } });
  await m('settings.testEmbedding', { embedding: { apiKey: '••••••••' } });
  await m('settings.testEmbedding', {});
  await m('index.integrity', {});
  await m('index.rebuild', { full: false });
  await m('memories.create', { content: '' });
  await m('memories.create', { title: 'x', content: 'y' }, { 'content-type': 'application/json', origin: 'http://evil.example', 'x-engram-token': token });
  await q('recall.run', { query: 'x'.repeat(5000) });
  await q('memories.read', { id: '../../etc/passwd' });
  await call('unknown route', '/api/trpc/no.such');
  await call('not found page', '/definitely-not-here');

  await server!.stop();
  seen.push({ what: 'server stdout+stderr', text: server!.output() });
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  for (const file of walk(dataDir)) seen.push({ what: `data file ${file}`, text: readFileSync(file).toString('latin1') + readFileSync(file).toString('utf8') });

  const leaks = seen.flatMap(({ what, text }) => Object.entries(PLANTED).filter(([, v]) => text.includes(v)).map(([k]) => `${k} key in ${what}`));
  assert.deepEqual(leaks, []);
  // The endpoints really did echo the key, so the redaction was exercised.
  assert.ok((endpoints.counts['embed:unauthorized-echo'] ?? 0) > 0, JSON.stringify(endpoints.counts));
  console.log(`# secrets: ${seen.length} outputs searched, endpoint outcomes ${JSON.stringify(endpoints.counts)}`);
});
