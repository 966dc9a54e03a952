// The console (apps/console) is its own server. The plugin knows where it is, can tell whether it
// answers, can start it when it does not, and shares its install token (<dataDir>/console-token),
// which guards the plugin's own mutating route.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { ensureToken, normalizeOrigins } from '@engram/engine';
import type { HostLogger } from '../core/host-types.ts';

export { TOKEN_FILE as CONSOLE_TOKEN_FILE } from '@engram/engine';

/** The console's token file: read it, or create it in the console's format when missing. */
export const ensureConsoleToken = (dataDir: string): string => ensureToken(dataDir);

/** Whether something answers HTTP at `url` (any status counts: the server is up). */
export function probe(url: string, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const req = request(target, { method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
    req.end();
  });
}

type Env = Record<string, string | undefined>;

export interface ConsoleEnvInput {
  /** The host process's environment (the console inherits it). */
  base: Env;
  /** Where the console must listen: HOST and PORT come from it. */
  url: string;
  diaryDir?: string;
  dataDir?: string;
  /** Origins that may frame the console directly (the plugin's console.allowedOrigins, the DSH page). */
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[];
  /** The base path the console must serve under (proxy mode), '' for none. */
  basePath: string;
}

/** The build folder of a console built for `basePath` (next.config reads ENGRAM_CONSOLE_DIST). */
export const consoleDistFor = (basePath: string): string => `.next${basePath.replace(/[^\w]+/g, '-').replace(/-+$/, '')}`;

const listOf = (value: string | undefined): string[] => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

/**
 * The environment of a console the plugin starts: the plugin's own settings, which the console's
 * resolver reads from these variables (environment beats config files there, so nothing the user
 * set in the plugin row is lost on the way): address, folders, who may frame it, its base path.
 */
export function consoleEnv(input: ConsoleEnvInput): Env {
  const target = new URL(input.url);
  const env: Env = { ...input.base, HOST: target.hostname, PORT: target.port || (target.protocol === 'https:' ? '443' : '80') };
  if (input.diaryDir) env.ENGRAM_DIARY_DIR = input.diaryDir;
  if (input.dataDir) env.ENGRAM_DATA_DIR = input.dataDir;
  const origins = normalizeOrigins([...listOf(input.base.ENGRAM_ALLOWED_ORIGINS), ...input.allowedOrigins]);
  if (origins.length > 0) env.ENGRAM_ALLOWED_ORIGINS = origins.join(',');
  const hosts = [...new Set([...listOf(input.base.ENGRAM_ALLOWED_HOSTS), ...input.allowedHosts])];
  if (hosts.length > 0) env.ENGRAM_ALLOWED_HOSTS = hosts.join(',');
  if (input.basePath) {
    env.ENGRAM_CONSOLE_BASE_PATH = input.basePath;
    env.ENGRAM_CONSOLE_DIST = input.base.ENGRAM_CONSOLE_DIST || consoleDistFor(input.basePath);
  }
  return env;
}

export interface ConsoleLinkOptions {
  url: string;
  token: () => string;
  command: string | string[];
  /** The console's environment, computed when it is started (see consoleEnv). */
  env: () => Env;
  log: HostLogger;
}

export type StartOutcome =
  | { ok: true; state: 'running' | 'started'; pid?: number }
  | { ok: false; state: 'no-command' | 'failed'; message: string };

export class ConsoleLink {
  private child: ChildProcess | null = null;
  private lastExit: string | null = null;

  constructor(private readonly options: ConsoleLinkOptions) {}

  get url(): string {
    return this.options.url;
  }

  token(): string {
    return this.options.token();
  }

  reachable(): Promise<boolean> {
    return probe(this.options.url);
  }

  /** pid of a console this plugin started and that still runs. */
  get startedPid(): number | null {
    return this.child && this.child.exitCode === null && this.child.signalCode === null ? (this.child.pid ?? null) : null;
  }

  /** Whether a console.command is configured, so start() can do something. */
  get startable(): boolean {
    const command = this.options.command;
    return !(command === '' || (Array.isArray(command) && command.length === 0));
  }

  get lastExitReason(): string | null {
    return this.lastExit;
  }

  async start(): Promise<StartOutcome> {
    if (await this.reachable()) return { ok: true, state: 'running' };
    if (this.startedPid !== null) return { ok: true, state: 'started', pid: this.startedPid };
    const command = this.options.command;
    if (!this.startable) {
      return { ok: false, state: 'no-command', message: '完整控制台没有在运行,插件也没有配置启动它的 console.command;侧栏里用的是插件内置的简易视图 / the full console is not running and no console.command is configured; the sidebar shows the plugin\'s light view' };
    }
    const env = this.options.env();
    try {
      const child = Array.isArray(command)
        ? spawn(command[0]!, command.slice(1), { env, stdio: 'ignore', detached: true })
        : spawn(command, { env, stdio: 'ignore', shell: true, detached: true });
      this.child = child;
      child.on('exit', (code, signal) => {
        this.lastExit = `console process exited (${signal ?? code})`;
        this.options.log.info(this.lastExit);
      });
      child.on('error', (error) => {
        this.lastExit = `console process failed: ${error.message}`;
        this.options.log.warn(this.lastExit);
      });
      this.options.log.info(`starting the console: ${Array.isArray(command) ? command.join(' ') : command} (pid ${child.pid ?? '?'})`);
      return { ok: true, state: 'started', ...(child.pid !== undefined ? { pid: child.pid } : {}) };
    } catch (error) {
      return { ok: false, state: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Stops a console this plugin started (when the plugin unloads). */
  stop(): void {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    // Its own process group (detached), so a shell wrapper and what it started stop together.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
}
