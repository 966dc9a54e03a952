// `engram serve`: runs the console (apps/console) in production mode through its start script, which
// builds it first if needed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngramError, errorMessage } from '../errors.ts';

export interface ServeOptions {
  port?: string;
  host?: string;
  diaryDir?: string;
  dataDir?: string;
  switchDiaryDir?: boolean;
  /** The options every command takes: the console reads them as their variables. */
  config?: string;
  databaseUrl?: string;
  legacyDir?: string;
}

/** The console's environment: the flags become the variables the console reads. */
function consoleEnv(opts: ServeOptions): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (opts.port) env.PORT = opts.port;
  if (opts.host) env.HOST = opts.host;
  if (opts.diaryDir) env.ENGRAM_DIARY_DIR = resolve(opts.diaryDir);
  if (opts.dataDir) env.ENGRAM_DATA_DIR = resolve(opts.dataDir);
  if (opts.switchDiaryDir) env.ENGRAM_SWITCH_DIARY_DIR = '1';
  if (opts.config) env.ENGRAM_CONFIG = resolve(opts.config);
  if (opts.databaseUrl) env.ENGRAM_DATABASE_URL = opts.databaseUrl;
  if (opts.legacyDir) env.ENGRAM_LEGACY_DIR = resolve(opts.legacyDir);
  return env;
}

/**
 * Opens the data the console will open, as it will (so a refusal — another diary folder, an invalid
 * config — is said here, in the terminal, before a build and a server start for a page that fails).
 */
async function checkOpens(env: NodeJS.ProcessEnv): Promise<void> {
  const { openEngine } = await import('../engine.ts');
  const engine = await openEngine({ env, createDiaryDir: true, syncOnOpen: false, preload: false });
  await engine.closeBeforeExit();
}

export async function serveConsole(opts: ServeOptions): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const consoleDir = resolve(here, '../../../../apps/console');
  if (!existsSync(join(consoleDir, 'package.json'))) throw new EngramError('console-missing', `console app not found at ${consoleDir}`);
  const env = consoleEnv(opts);
  await checkOpens(env);
  // The console's start script builds when the build is missing or stale (with a progress line) and
  // prints the start block; run directly, without npm's own lines around it.
  await new Promise<void>((ok, fail) => {
    const child = spawn(process.execPath, [join(consoleDir, 'scripts/start.mjs')], { cwd: consoleDir, env, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.on('error', (e) => fail(new EngramError('console-failed', `could not start the console: ${errorMessage(e)}`)));
    child.on('exit', (code) => (code === 0 ? ok() : fail(new EngramError('console-failed', `the console exited with ${code}`))));
  });
}
