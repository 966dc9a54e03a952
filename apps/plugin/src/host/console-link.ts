// The console (apps/console) is its own server. The plugin knows where it is, can tell whether it
// answers, can start it when it does not, and shares its install token (<dataDir>/console-token),
// which guards the plugin's own mutating route.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { ensureToken } from '@engram/engine';
import type { HostLogger } from './host-types.ts';

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

export interface ConsoleLinkOptions {
  url: string;
  token: () => string;
  command: string | string[];
  env: Record<string, string | undefined>;
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

  get lastExitReason(): string | null {
    return this.lastExit;
  }

  async start(): Promise<StartOutcome> {
    if (await this.reachable()) return { ok: true, state: 'running' };
    if (this.startedPid !== null) return { ok: true, state: 'started', pid: this.startedPid };
    const command = this.options.command;
    if (command === '' || (Array.isArray(command) && command.length === 0)) {
      return { ok: false, state: 'no-command', message: 'the console is not running and no console.command is configured to start it (e.g. "engram serve")' };
    }
    const target = new URL(this.options.url);
    const env = { ...this.options.env, HOST: target.hostname, PORT: target.port || (target.protocol === 'https:' ? '443' : '80') };
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
