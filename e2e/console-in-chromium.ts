// One production console on a seeded diary and one Chromium, started before a describe block's tests
// and stopped after them: the fixture the console's browser tests share.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { seedDiary } from './fixtures.ts';
import { ensureBuild, freePort, startConsole, type RunningConsole } from './server.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const haveChromium = existsSync(CHROMIUM);
// Without Chromium the browser tests skip, except under CI: there they fail, as the real model's do
// (scripts/test-all.mjs), so a green CI has run the console in a real browser.
if (!haveChromium && process.env.CI) {
  throw new Error(`CI must run the browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium fonts-wqy-microhei, as .ci/run does; CHROMIUM_PATH names another)`);
}

export interface ConsoleEnv {
  ENGRAM_DIARY_DIR: string;
  ENGRAM_DATA_DIR: string;
  HOME: string;
}

export interface ConsoleInChromium {
  readonly env: ConsoleEnv;
  /** Set once the block's `before` ran. */
  readonly server: RunningConsole;
  readonly browser: Browser;
  /** How long the block's `before` spent building the console (0 when the build was fresh). */
  readonly buildMs: number;
  /** Stops the console and starts it again on the same port, `extra` added to its environment. */
  restart(extra?: ExtraEnv): Promise<RunningConsole>;
}

/** Variables for the console's environment only (e.g. ENGRAM_ALLOWED_ORIGINS, DSH_HOME). */
export type ExtraEnv = Record<string, string>;

/**
 * Registers the block's before / after hooks (call it inside `describe`): a fresh temp home named
 * after `name`, the seeded diary, then `prepare` (more files, folders for screenshots) before the
 * console starts (it may be async: e.g. memory stored through an engine of the test's own). What
 * `prepare` puts in `consoleEnv` is added to the console's environment (and kept across restarts).
 */
export function consoleInChromium(
  name: string,
  prepare: (env: ConsoleEnv, consoleEnv: ExtraEnv) => unknown = () => {},
  /**
   * `seed: false`: the diary starts empty (a block that writes its own corpus, e.g. thousands of memories).
   * `diaryEnv: false`: the diary is the default `<data>/diaries` and ENGRAM_DIARY_DIR is not set for the
   * console, so its diary root is a setting that can move (env would lock it).
   */
  { seed = true, diaryEnv = true }: { seed?: boolean; diaryEnv?: boolean } = {},
): ConsoleInChromium {
  const root = mkdtempSync(join(tmpdir(), `engram-e2e-${name}-`));
  const env: ConsoleEnv = { ENGRAM_DIARY_DIR: diaryEnv ? join(root, 'diary') : join(root, 'data', 'diaries'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  /** What the console is started with: `env`, less the diary folder when it is a setting. */
  const startEnv = (): Record<string, string> => {
    const { ENGRAM_DIARY_DIR, ...rest } = env;
    return { ...(diaryEnv ? { ENGRAM_DIARY_DIR } : {}), ...rest, ...extra };
  };
  let server: RunningConsole | null = null;
  let browser: Browser | null = null;
  let port = 0;
  const extra: ExtraEnv = {};
  let buildMs = 0;
  before(async () => {
    buildMs = ensureBuild((s) => console.log(`# ${s}`));
    mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
    if (seed) seedDiary(env.ENGRAM_DIARY_DIR);
    await prepare(env, extra);
    port = await freePort();
    try {
      server = await startConsole(startEnv(), port);
    } catch (e) {
      // Once, on a new port (another process may have taken this one since it was free), and said:
      // a start that fails twice fails the block with its reason.
      console.log(`# the console did not start, once more on a new port: ${(e as Error).message.replace(/\n/g, '\n# ')}`);
      port = await freePort();
      server = await startConsole(startEnv(), port);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
  });
  const started = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`${what} is not started: use it inside the block's tests`);
    return value;
  };
  return {
    env,
    get server() {
      return started(server, 'the console');
    },
    get browser() {
      return started(browser, 'Chromium');
    },
    get buildMs() {
      return buildMs;
    },
    async restart(more: ExtraEnv = {}) {
      await started(server, 'the console').stop();
      server = await startConsole({ ...startEnv(), ...more }, port);
      return server;
    },
  };
}
