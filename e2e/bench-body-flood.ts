// Memory of the production console under a flood of large unauthenticated POSTs (#13 item 6).
// `node --import tsx e2e/bench-body-flood.ts [concurrent=40] [MB=10]` (uses the console build in
// ENGRAM_CONSOLE_DIST, default .next; build it first). Prints the server's RSS idle and at peak per
// attack, and the ratio to idle measured in the same run.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDiary } from './fixtures.ts';
import { freePort, startConsole } from './server.ts';

const concurrent = Number(process.argv[2] ?? 40);
const mb = Number(process.argv[3] ?? 10);

function descendants(pid: number): number[] {
  let out: number[] = [];
  try {
    for (const tid of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)) out = [...out, tid, ...descendants(tid)];
  } catch {
    /* gone */
  }
  return out;
}
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const serverRss = (root: number) => Math.max(...descendants(root).map((p) => { try { return rssMb(p); } catch { return 0; } }), 0);

/** Sends one POST with a body of `bytes`, as fast as the server reads it; resolves when the socket closes. */
function post(port: number, path: string, bytes: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let status = '';
    s.on('data', (d) => (status ||= d.toString('latin1').split('\r\n')[0]!));
    s.on('error', () => resolve(status || 'reset'));
    s.on('close', () => resolve(status || 'closed'));
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nConnection: close\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`}\r\n\r\n`;
    s.write(head);
    const piece = Buffer.alloc(256 * 1024, 0x78);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(piece.length, bytes - sent);
        sent += n;
        const data = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n);
        if (!s.write(data)) return void s.once('drain', pump);
      }
      s.end(chunked ? '0\r\n\r\n' : undefined);
    };
    pump();
  });
}

const root = mkdtempSync(join(tmpdir(), 'engram-bench-flood-'));
const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
seedDiary(env.ENGRAM_DIARY_DIR);
const port = await freePort();
const server = await startConsole(env, port);
try {
  await fetch(`${server.url}/`); // open the engine
  await fetch(`${server.url}/api/trpc/index.status`);
  await new Promise((r) => setTimeout(r, 1500));
  const idle = serverRss(server.child.pid!);
  const rows: string[] = [];
  for (const [name, path, chunked] of [
    ['tRPC, Content-Length', '/api/trpc/memories.create', false],
    ['tRPC, chunked', '/api/trpc/memories.create', true],
    ['page, Content-Length', '/', false],
  ] as const) {
    let peak = serverRss(server.child.pid!);
    const timer = setInterval(() => (peak = Math.max(peak, serverRss(server.child.pid!))), 50);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: concurrent }, () => post(port, path, mb * 1024 * 1024, chunked)));
    clearInterval(timer);
    const counts = Object.entries(statuses.reduce<Record<string, number>>((m, s) => ((m[s.replace('HTTP/1.1 ', '')] = (m[s.replace('HTTP/1.1 ', '')] ?? 0) + 1), m), {})).map(([k, v]) => `${v}× ${k}`).join(', ');
    rows.push(`| ${name} | ${concurrent} × ${mb} MB | ${idle.toFixed(0)} | ${peak.toFixed(0)} | ${(peak / idle).toFixed(2)} | ${Date.now() - started} | ${counts} |`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log('| attack | requests | idle RSS MB | peak RSS MB | peak ÷ idle | ms | answers |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const r of rows) console.log(r);
} finally {
  await server.stop();
}
