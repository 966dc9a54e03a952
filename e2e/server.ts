// Builds the console when its production build is missing or older than its sources, and runs
// `next start` (through the console's own start script) on a free port with temp data folders.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsFresh as freshBuild, distDirName } from '../apps/console/scripts/build-state.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const consoleDir = join(repoRoot, 'apps/console');

/** The build folder under test: `.next`, or ENGRAM_CONSOLE_DIST (another build folder beside it). */
export const distDir = distDirName();

export const buildIsFresh = (): boolean => freshBuild(distDir);

/**
 * Runs `next build` unless a fresh production build is already there. Returns the build time or 0.
 * `dist` and `basePath` build another variant (the plugin proxy's console under /engram/console).
 */
export function ensureBuild(log: (s: string) => void, variant: { dist?: string; basePath?: string; timeoutMs?: number } = {}): number {
  const dist = variant.dist ?? distDir;
  if (process.env.ENGRAM_E2E_REUSE_BUILD === '1' && existsSync(join(consoleDir, dist, 'BUILD_ID'))) return 0;
  if (freshBuild(dist)) return 0;
  const started = Date.now();
  log('building the console (next build)…');
  // Type errors are the typecheck's business; the browser tests need the bundle.
  const res = spawnSync(process.execPath, [join(repoRoot, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: consoleDir,
    env: { ...process.env, ENGRAM_CONSOLE_DIST: dist, ...(variant.basePath ? { ENGRAM_CONSOLE_BASE_PATH: variant.basePath } : {}), ENGRAM_SKIP_TYPECHECK: '1', NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    // A build on a loaded 2-core machine took over 4 minutes once; a killed build fails every browser test.
    timeout: variant.timeoutMs ?? 600_000,
  });
  if (res.status !== 0) throw new Error(`next build failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
  // `npm start` shows a build's warnings to the person starting (apps/console/scripts/build-console.mjs):
  // a clean checkout's build has none.
  if (/\bwarning\b/i.test(res.stdout + res.stderr)) throw new Error(`next build warned:\n${res.stdout}\n${res.stderr}`);
  return Date.now() - started;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** One GET with a short deadline, told as its status and time, or why it failed. */
async function probe(url: string): Promise<string> {
  const started = Date.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.text()).slice(0, 300);
    return `${res.status} in ${Date.now() - started} ms: ${body}`;
  } catch (e) {
    return `no answer after ${Date.now() - started} ms (${(e as Error).message})`;
  }
}

export interface RunningConsole {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the production server and resolves when Next says it is ready — deliberately without an
 * HTTP probe, so the first page load is a cold one (engine not yet opened).
 */
export async function startConsole(env: Record<string, string>, port: number): Promise<RunningConsole> {
  // --no-build: ensureBuild above decided about the build (and ENGRAM_E2E_REUSE_BUILD may keep an older one).
  const child = spawn(process.execPath, [join(consoleDir, 'scripts/start.mjs'), '--no-build'], {
    cwd: consoleDir,
    env: { ...process.env, ...env, ENGRAM_CONSOLE_DIST: distDir, PORT: String(port), HOST: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid!, 'SIGTERM'); // the start script and the next server it spawned
    } catch {
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };

  await new Promise<void>((resolve, reject) => {
    // Said with what the server answers at that moment: whether Next is up and the engine opens
    // tells a slow start from a stuck one (the start script hides Next's own banner).
    const deadline = setTimeout(() => {
      void probe(`http://127.0.0.1:${port}/api/trpc/system.health`).then((answer) => reject(new Error(`console did not become ready in 60 s (system.health: ${answer}):\n${out}`)));
    }, 60_000);
    const check = () => {
      if (/console ready|Ready in|✓ Ready/.test(out)) {
        clearTimeout(deadline);
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`console exited with ${code}:\n${out}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => out, stop };
}
