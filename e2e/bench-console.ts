// Console Library benchmark in Chromium against the production build, at N memories (default 5,000):
// first rows after navigation (cold = first load after a server start, warm = reload), DOM size,
// longest main-thread task, and the time from a keystroke in the search box to the filtered list.
// Baseline in the same run: the whole-list endpoint the Library used before (`memories.list`) against
// one page of the paged one (`memories.page`), over HTTP.
//   npm run bench:console            (ENGRAM_BENCH_MEMORIES=3520 for another size; ENGRAM_CONSOLE_DIST for the build dir)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { seedBulkDiary } from './bulk.ts';
import { ensureBuild, freePort, repoRoot, startConsole, type RunningConsole } from './server.ts';

const N = Number(process.env.ENGRAM_BENCH_MEMORIES ?? 5000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = mkdtempSync(join(tmpdir(), 'engram-bench-console-'));
const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const max = (xs: number[]) => Math.max(...xs);
const min = (xs: number[]) => Math.min(...xs);

async function timeFetch(url: string, body?: unknown): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const input = body === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(body))}`;
  const res = await fetch(`${url}${input}`);
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, bytes: text.length };
}

let server: RunningConsole | null = null;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  const buildMs = ensureBuild((s) => console.log(`# ${s}`));
  seedBulkDiary(env.ENGRAM_DIARY_DIR, N);
  const port = await freePort();
  server = await startConsole(env, port);
  // The first start indexes N files; let that finish (not part of the Library's numbers), then restart
  // so the measured first load is a real cold start of a server with an index.
  await timeFetch(`${server.url}/api/trpc/index.status`);
  await server.stop();
  server = await startConsole(env, port);

  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  // tsx keeps function names with a `__name` helper that page.evaluate'd code would otherwise lack.
  await page.addInitScript('window.__name = (f) => f;');
  await page.addInitScript(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask', buffered: true });
  });
  // The Library is named in the address: people start on 「我的 agent 会看到什么」.
  const load = async (how: 'goto' | 'reload') => {
    const started = Date.now();
    if (how === 'goto') await page.goto(`${server!.url}/#library`);
    else await page.reload();
    await page.getByTestId('memory-row').first().waitFor();
    return Date.now() - started;
  };
  const cold = await load('goto');
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) warm.push(await load('reload'));
  // A navigation from a browser with nothing cached (a new context), the server already warm: the
  // Library's first rows, and the landing page (「我的 agent 会看到什么」) ready to type in.
  const fresh = async (hash: string, ready: string) => {
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const p = await ctx.newPage();
    const started = Date.now();
    await p.goto(`${server!.url}/${hash}`);
    await p.getByTestId(ready).first().waitFor();
    const ms = Date.now() - started;
    await ctx.close();
    return ms;
  };
  const coldNav: number[] = [];
  const landing: number[] = [];
  for (let i = 0; i < 3; i++) {
    coldNav.push(await fresh('#library', 'memory-row'));
    landing.push(await fresh('', 'agent-query'));
  }
  const dom = await page.evaluate(() => ({
    nodes: document.getElementsByTagName('*').length,
    rows: document.querySelectorAll('[data-testid="memory-row"]').length,
    longest: Math.max(0, ...(window as unknown as { __long: number[] }).__long),
  }));

  // Keystroke → filtered list: each character narrows the result (count text changes).
  await page.evaluate(() => {
    const w = window as unknown as { __keys: number[]; __lat: number[] };
    w.__keys = [];
    w.__lat = [];
    const count = () => document.querySelector('[data-testid="library-count"]')?.textContent ?? '';
    let last = count();
    document.addEventListener('keydown', () => w.__keys.push(performance.now()), true);
    // The typed text on screen: the frame after the input event (rAF, then the task after the paint).
    const e = window as unknown as { __echo: number[]; __long: number[] };
    e.__echo = [];
    e.__long = [];
    document.addEventListener(
      'input',
      () => {
        const t0 = w.__keys.at(-1)!;
        requestAnimationFrame(() => setTimeout(() => e.__echo.push(performance.now() - t0), 0));
      },
      true,
    );
    new MutationObserver(() => {
      const now = count();
      const stale = document.querySelector('[data-testid="library-list"]')?.getAttribute('data-stale') === 'true';
      if (now !== last && !stale && w.__keys.length > w.__lat.length) {
        last = now;
        w.__lat.push(performance.now() - w.__keys[w.__lat.length]!);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const search = page.getByTestId('library-search');
  await search.click();
  // Each character narrows the result and each Backspace widens it again, so the count text changes
  // on every keystroke.
  const keys = ['1', '9', '8', '7', 'Backspace', 'Backspace', 'Backspace', 'Backspace'];
  for (let i = 0; i < keys.length; i++) {
    await page.keyboard.press(keys[i]!);
    await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length >= n, i + 1, { timeout: 10_000 });
  }
  const keyLatency = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
  const typing = await page.evaluate(() => {
    const w = window as unknown as { __echo: number[]; __long: number[] };
    const out = { echo: w.__echo, longest: Math.max(0, ...w.__long) };
    w.__echo = [];
    return out;
  });
  // Baseline in the same run: the same keys in the plainest input of the app (the message box of
  // 「我的 agent 会看到什么」, which starts no search while typing).
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-query').click();
  for (const key of keys) {
    const before = await page.evaluate(() => (window as unknown as { __echo: number[] }).__echo.length);
    await page.keyboard.press(key);
    await page.waitForFunction((n) => (window as unknown as { __echo: number[] }).__echo.length > n, before, { timeout: 10_000 });
  }
  const plainEcho = await page.evaluate(() => (window as unknown as { __echo: number[] }).__echo);

  // Baseline over HTTP, same server: the whole list (old Library) vs one page (new).
  const listTimes: number[] = [];
  const pageTimes: number[] = [];
  const searchTimes: number[] = [];
  let listBytes = 0;
  let pageBytes = 0;
  for (let i = 0; i < 7; i++) {
    const l = await timeFetch(`${server.url}/api/trpc/memories.list`);
    const p = await timeFetch(`${server.url}/api/trpc/memories.page`, { limit: 100 });
    const s = await timeFetch(`${server.url}/api/trpc/memories.page`, { query: `第${100 + i}`, limit: 100 });
    listTimes.push(l.ms);
    pageTimes.push(p.ms);
    searchTimes.push(s.ms);
    listBytes = l.bytes;
    pageBytes = p.bytes;
  }
  await context.close();

  const rows = [
    ['memories', String(N)],
    ['first rows, cold (first load after a start)', `${cold} ms`],
    ['first rows, warm (median of 3 reloads)', `${median(warm)} ms`],
    ['first rows, new browser context, empty cache (median of 3)', `${median(coldNav)} ms`],
    ['landing page ready to type, new browser context (median of 3)', `${median(landing)} ms`],
    ['DOM elements after load', String(dom.nodes)],
    ['memory rows in the DOM', String(dom.rows)],
    ['longest main-thread task during load', `${Math.round(dom.longest)} ms`],
    [`keystroke → typed text on screen (min / median / max of ${typing.echo.length})`, `${Math.round(min(typing.echo))} / ${Math.round(median(typing.echo))} / ${Math.round(max(typing.echo))} ms`],
    [`baseline: keystroke → text on screen in the message box (min / median / max of ${plainEcho.length})`, `${Math.round(min(plainEcho))} / ${Math.round(median(plainEcho))} / ${Math.round(max(plainEcho))} ms`],
    ['Library search box vs message box, median', `${(median(typing.echo) / median(plainEcho)).toFixed(2)}×`],
    ['longest main-thread task while typing in the Library', `${Math.round(typing.longest)} ms`],
    [`keystroke → filtered list, after the 150 ms typing pause (min / median / max of ${keyLatency.length})`, `${Math.round(min(keyLatency))} / ${Math.round(median(keyLatency))} / ${Math.round(max(keyLatency))} ms`],
    ['HTTP memories.list (whole list, old Library), median of 7', `${Math.round(median(listTimes))} ms, ${Math.round(listBytes / 1024)} KB`],
    ['HTTP memories.page (first 100), median of 7', `${Math.round(median(pageTimes))} ms, ${Math.round(pageBytes / 1024)} KB`],
    ['HTTP memories.page with a search, median of 7', `${Math.round(median(searchTimes))} ms`],
    ['page vs whole list: time / bytes', `${(median(pageTimes) / median(listTimes)).toFixed(2)}× / ${(pageBytes / listBytes).toFixed(3)}×`],
  ];
  const width = Math.max(...rows.map((r) => r[0]!.length));
  console.log(`\nConsole Library benchmark (Chromium ${browser.version()}, production build${buildMs ? `, built in ${Math.round(buildMs / 1000)} s` : ''})`);
  for (const [k, v] of rows) console.log(`  ${k!.padEnd(width)}  ${v}`);
  mkdirSync(join(repoRoot, 'e2e/artifacts'), { recursive: true });
  writeFileSync(
    join(repoRoot, 'e2e/artifacts/bench-console.json'),
    `${JSON.stringify({ n: N, cold, warm, coldNav, landing, dom, keyLatency, typing, plainEcho, listTimes, pageTimes, searchTimes, listBytes, pageBytes, measuredAt: new Date().toISOString() }, null, 2)}\n`,
  );
} finally {
  await browser.close().catch(() => {});
  await server?.stop();
}
