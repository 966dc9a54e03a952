// A user who installed only the bundle has no console to run: the sidebar must still show their
// memories. The plugin serves its own light view; the console proxy sends a page navigation there
// while the console is down; client-config tells the pane where it is and whether a start can work.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { CLIENT_CONFIG_PATH, CONSOLE_START_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { recentOrder } from '../../../packages/engine/src/memory-index.ts';
import { VIEW_PATH } from '../src/host/routes/light-view.ts';
import { iframeSrc, describeSource } from '../src/client/source.ts';
import { loadPlugin } from './helpers.ts';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

test('without a running console the plugin serves a light view of the memories, same site only', async (t) => {
  const { host } = await loadPlugin(t, { config: { console: { url: `http://127.0.0.1:${await closedPort()}` } } });
  const base = await host.listen();

  const config = (await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { reachable: boolean; startable: boolean; viewPath: string; token: string };
  assert.equal(config.reachable, false);
  assert.equal(config.startable, false, 'no console.command: a start cannot work');
  assert.equal(config.viewPath, VIEW_PATH);
  const frame = iframeSrc('direct', { consoleUrl: 'http://127.0.0.1:1', proxyPath: '/engram/console/', ...config });
  assert.equal(frame, VIEW_PATH, 'the pane frames the light view, not a dead console');
  assert.match(describeSource('direct', { consoleUrl: 'http://127.0.0.1:1', proxyPath: '/engram/console/', ...config }), /简易视图/);

  const page = await fetch(`${base}${VIEW_PATH}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /完整控制台没有在运行/);
  const csp = page.headers.get('content-security-policy') ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce && html.includes(`<script nonce="${nonce}">`), 'the page’s only script is bound to the CSP nonce');
  assert.doesNotMatch(html, new RegExp(config.token), 'the page carries no token');

  const list = (await (await fetch(`${base}${VIEW_PATH}/api/list`)).json()) as { mode: string; total: number; items: { docId: string; title: string; date: string }[] };
  assert.equal(list.mode, 'recent');
  assert.equal(list.total, 12);
  assert.deepEqual(list.items.map((i) => i.date), [...list.items.map((i) => i.date)].sort().reverse(), 'newest first');

  const found = (await (await fetch(`${base}${VIEW_PATH}/api/list?q=${encodeURIComponent('服务器备份怎么做')}`)).json()) as { mode: string; items: { docId: string; title: string }[] };
  assert.equal(found.mode, 'recall');
  assert.equal(found.items[0]?.title, '服务器备份策略');
  // A search box is never small talk: 进度 (a word about the conversation in a message) searched alone finds its note.
  const progress = (await (await fetch(`${base}${VIEW_PATH}/api/list?q=${encodeURIComponent('进度')}`)).json()) as { items: { title: string }[] };
  assert.equal(progress.items[0]?.title, '日语学习进度');
  const read = (await (await fetch(`${base}${VIEW_PATH}/api/read?id=${found.items[0]!.docId}`)).json()) as { raw: string };
  assert.match(read.raw, /凌晨三点做增量备份/);
  assert.equal((await fetch(`${base}${VIEW_PATH}/api/read?id=nope`)).status, 404);

  // Memory text is personal: a foreign page and a rebinding host get nothing.
  assert.equal((await fetch(`${base}${VIEW_PATH}/api/list`, { headers: { origin: 'http://evil.example' } })).status, 403);
  assert.equal((await fetch(`${base}${VIEW_PATH}`, { headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);

  // A navigation to the proxied console while it is down lands on the light view.
  const nav = await fetch(`${base}/engram/console/`, { headers: { accept: 'text/html' }, redirect: 'manual' });
  assert.equal(nav.status, 302);
  assert.match(nav.headers.get('location') ?? '', new RegExp(`^${VIEW_PATH}`));
  const api = await fetch(`${base}/engram/console/api/trpc/x`);
  assert.equal(api.status, 502, 'an API call still gets an error it can read');

  // The start button explains itself in Chinese, without suggesting a command the user does not have.
  const start = await fetch(`${base}${CONSOLE_START_PATH}`, { method: 'POST', headers: { [TOKEN_HEADER]: config.token, origin: base } });
  assert.equal(start.status, 501);
  const why = ((await start.json()) as { message: string }).message;
  assert.match(why, /简易视图/);
  assert.doesNotMatch(why, /engram serve/);
  await host.settle();
});

test('the recent list\'s order: pinned first, then newest date, then newest change, then path', () => {
  const items = [
    { id: 'a', date: '2026-01-01', pinned: false, mtimeMs: 1, path: 'a' },
    { id: 'b', date: '2026-03-01', pinned: false, mtimeMs: 1, path: 'b' },
    { id: 'c', date: '2025-01-01', pinned: true, mtimeMs: 1, path: 'c' },
    { id: 'd', date: '2026-03-01', pinned: false, mtimeMs: 5, path: 'd' },
    { id: 'e', date: '2026-03-01', pinned: false, mtimeMs: 1, path: 'a-e' },
  ];
  assert.deepEqual([...items].sort(recentOrder).map((i) => i.id), ['c', 'd', 'e', 'b', 'a']);
});
