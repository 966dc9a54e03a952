// `npm start`'s own output (scripts/start-info.mjs, scripts/build-console.mjs): one block in place of
// Next's banner, and a build that says what it does instead of printing its route table.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { buildWithProgress, BUILD_NOTE } from '../scripts/build-console.mjs';
import { consoleUrl, engineFolders, isNextBanner, isNextReady, modelLine, startBlock, warmUp, type StartModel } from '../scripts/start-info.mjs';

const installed: StartModel = { provider: 'auto', id: 'BAAI/bge-small-zh-v1.5', installed: true, runtime: 'workspace' };

test('the block names the address, both folders, the model and how to stop', () => {
  const lines = startBlock({ host: '127.0.0.1', port: '3000', diaryDir: '/d/diaries', dataDir: '/d/data', model: installed });
  assert.equal(lines.length, 6);
  assert.match(lines[1]!, /http:\/\/127\.0\.0\.1:3000$/);
  assert.match(lines[2]!, /\/d\/diaries$/);
  assert.match(lines[3]!, /\/d\/data$/);
  assert.match(lines[4]!, /已安装：语义 \+ 关键词召回/);
  assert.match(lines[5]!, /Ctrl\+C/);
});

/** A stand-in for the running console: answers its health query with `answer` (status, body). */
async function fakeConsole(t: { after(fn: () => unknown): void }, status: number, body: unknown): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

test("the block's folders are the ones the running engine opened, asked from its health query", async (t) => {
  // The engine's diary folder differs from the config's (moved from Settings: only the engine reads that).
  const c = await fakeConsole(t, 200, { result: { data: { ok: true, diaryDir: '/moved/diaries', dataDir: '/d/data' } } });
  const folders = await engineFolders(c.url);
  assert.deepEqual(folders, { diaryDir: '/moved/diaries', dataDir: '/d/data' });
  assert.deepEqual(c.asked, ['/api/trpc/system.health']);
  const lines = startBlock({ host: '127.0.0.1', port: '3000', ...folders!, model: installed });
  assert.match(lines[2]!, /\/moved\/diaries$/);
});

test('a console whose engine does not answer its folders gives null (the caller shows the config\'s)', async (t) => {
  const failing = await fakeConsole(t, 500, { error: { message: 'config broken' } });
  assert.equal(await engineFolders(failing.url), null);
  const older = await fakeConsole(t, 200, { result: { data: { ok: true, dataDir: '/d/data' } } });
  assert.equal(await engineFolders(older.url), null, 'a health answer without the diary folder is not half-used');
  assert.equal(await engineFolders('http://127.0.0.1:1'), null, 'nothing listening');
});

test('a wildcard bind is opened through the loopback address and says it listens everywhere', () => {
  assert.deepEqual(consoleUrl('0.0.0.0', 8080), { url: 'http://127.0.0.1:8080', wildcard: true });
  assert.deepEqual(consoleUrl('::1', 3000), { url: 'http://[::1]:3000', wildcard: false });
  assert.match(startBlock({ host: '0.0.0.0', port: 8080, diaryDir: 'd', dataDir: 'e', model: installed })[1]!, /监听所有网卡 0\.0\.0\.0/);
});

test('the model line says what recall uses and, when something is missing, the command that adds it', () => {
  assert.match(modelLine({ ...installed, installed: false }), /未安装：只用关键词召回；安装：npx engram model install/);
  assert.match(modelLine({ ...installed, runtime: 'missing' }), /--runtime yes/);
  assert.match(modelLine({ ...installed, provider: 'none' }), /只用关键词召回/);
  assert.match(modelLine({ ...installed, provider: 'openai', endpoint: 'https://emb.example' }), /https:\/\/emb\.example/);
  assert.match(modelLine({ ...installed, provider: 'local', modelDir: '/m' }), /本地模型 \/m/);
});

test("Next's banner is held back; its other lines (errors, the engine's warnings) pass", () => {
  for (const line of ['▲ Next.js 16.4.6', '- Local:         http://127.0.0.1:3000', '- Network:       http://127.0.0.1:3000', '✓ Ready in 84ms', '✓ Running next.config.ts took 31ms']) {
    assert.equal(isNextBanner(line, false), true, line);
  }
  assert.equal(isNextBanner('', false), true);
  assert.equal(isNextBanner('', true), false, 'after the block a blank line belongs to whatever prints it');
  assert.equal(isNextBanner('[engram-console] WARNING tokenizer: …', true), false);
  assert.equal(isNextBanner('Error: listen EADDRINUSE: address already in use 127.0.0.1:3000', false), false);
  assert.equal(isNextReady('✓ Ready in 84ms'), true);
  // Coloured, as Next prints it when FORCE_COLOR is set (the test runner sets it for its children).
  assert.equal(isNextReady('\u001b[32m\u001b[1m✓\u001b[22m\u001b[39m Ready in 228ms'), true);
  assert.equal(isNextBanner('\u001b[1m\u001b[38;2;173;127;168m▲ Next.js 16.4.6\u001b[39m\u001b[22m', false), true);
  assert.equal(isNextReady('✓ Running next.config.ts took 31ms'), false);
});

function sink(isTTY = false) {
  let text = '';
  return { out: { isTTY, write: (s: string) => ((text += s), true) }, text: () => text };
}

test("a build that succeeds shows the progress note and its time, not Next's output", async () => {
  const s = sink();
  const r = await buildWithProgress({ command: process.execPath, args: ['-e', 'console.log("Route (app) ┌ ƒ /")'], out: s.out });
  assert.equal(r.code, 0);
  assert.ok(s.text().startsWith(BUILD_NOTE), s.text());
  assert.match(s.text(), /控制台已构建，用时 \d+ s/);
  assert.doesNotMatch(s.text(), /Route \(app\)/);
});

test('on a terminal the note counts the seconds in place', async () => {
  const s = sink(true);
  await buildWithProgress({ command: process.execPath, args: ['-e', 'setTimeout(() => {}, 400)'], out: s.out, tickMs: 20 });
  assert.match(s.text(), /\r.*… \d+ s/);
  assert.equal(s.text().split('\n').length, 3, 'one progress line (rewritten), one result line');
});

test('a failed build shows everything it said; a build that warns shows its warning', async () => {
  const failed = sink();
  const r = await buildWithProgress({ command: process.execPath, args: ['-e', 'console.error("Type error: x"); process.exit(3)'], out: failed.out });
  assert.equal(r.code, 3);
  assert.match(failed.text(), /构建失败（退出码 3）[\s\S]*Type error: x/);

  const warned = sink();
  await buildWithProgress({ command: process.execPath, args: ['-e', 'console.log("Turbopack build encountered 1 warning:\\nModule not found")'], out: warned.out });
  assert.match(warned.text(), /报告了警告[\s\S]*Module not found/);
});

test('before "ready", the start asks the server once for the page and the Library\'s first rows; a server that fails or is gone only makes it say so', async (t) => {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(req.url === '/' || req.url?.startsWith('/api/trpc/memories.page?') ? 200 : 404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  assert.equal(await warmUp(url), true);
  assert.deepEqual(asked.map((u) => u.split('?')[0]).sort(), ['/', '/api/trpc/memories.page']);
  assert.deepEqual(JSON.parse(decodeURIComponent(asked.find((u) => u.includes('?'))!.split('input=')[1]!)), { limit: 100 }, 'the first page, as the Library asks it');
  assert.equal(await warmUp(`${url}/base-that-404s`), false);
  assert.equal(await warmUp('http://127.0.0.1:1'), false, 'nothing listening: false, no throw');
});
