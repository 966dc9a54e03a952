// One engine per server process, opened from the environment through the engine's own config
// resolver. Kept on globalThis so every Next bundle (pages, route handlers, proxy) shares it.
import { ensureToken, normalizeOrigins, openEngine, stderrLogger, type Engine, type EngramConfig, type GuardPolicy } from '@engram/engine';

export interface ConsoleRuntime {
  engine: Engine;
  /** The per-install mutation token (from `<dataDir>/console-token`). */
  token: string;
  dataDir: string;
  /** Origins besides the console itself that may frame it and send mutations. */
  allowedOrigins: string[];
  /** Host names besides the loopback ones this console answers to. */
  allowedHosts: string[];
  /** Believe X-Forwarded-* from every request (a configured reverse proxy in front). */
  trustedProxy: boolean;
}

/**
 * Loudly, in the server log: a console that tokenizes differently from the index (jieba failed to
 * load in this build, or another tokenizer is configured) finds nothing the CLI and plugin wrote.
 */
async function warnOnTokenizerMismatch(engine: Engine): Promise<void> {
  try {
    const { tokenizer } = await engine.status();
    if (tokenizer.mismatch || tokenizer.fallbackReason) {
      console.error(
        `[engram-console] WARNING tokenizer: this console uses ${tokenizer.active} (configured ${tokenizer.configured}), the index was built with ${tokenizer.builtWith ?? 'nothing yet'}${tokenizer.fallbackReason ? `; ${tokenizer.fallbackReason}` : ''}`,
      );
    }
  } catch {
    // Status is advisory here; the page shows it too.
  }
}

/** The address `next start` listens on (scripts/start.mjs passes HOST through). */
export const bindHost = (): string => process.env.HOST || '127.0.0.1';

/** What the request guard checks this console's requests against. */
export function guardPolicy(runtime: ConsoleRuntime): GuardPolicy {
  return { token: runtime.token, allowedOrigins: runtime.allowedOrigins, allowedHosts: runtime.allowedHosts, trustedProxy: runtime.trustedProxy, bindHost: bindHost() };
}

function consoleAccess(effective: EngramConfig): Pick<ConsoleRuntime, 'allowedOrigins' | 'allowedHosts' | 'trustedProxy'> {
  return {
    allowedOrigins: normalizeOrigins(effective.console.allowedOrigins),
    allowedHosts: [...effective.console.allowedHosts],
    trustedProxy: effective.console.trustedProxy,
  };
}

interface Holder {
  runtime?: Promise<ConsoleRuntime>;
}

const KEY = Symbol.for('engram.console.runtime');
const holder = (): Holder => ((globalThis as Record<symbol, Holder>)[KEY] ??= {});

/** Builds the runtime for an already opened engine (tests use this with their own temp dirs). */
export async function runtimeFor(engine: Engine): Promise<ConsoleRuntime> {
  await warnOnTokenizerMismatch(engine);
  const settings = await engine.getSettings();
  const dataDir = settings.effective.dataDir;
  return { engine, dataDir, token: ensureToken(dataDir), ...consoleAccess(settings.effective) };
}

export function getRuntime(): Promise<ConsoleRuntime> {
  const h = holder();
  h.runtime ??= (async () => {
    const runtime = await runtimeFor(await openEngine({ env: process.env, log: stderrLogger('warn'), createDiaryDir: true, watch: true }));
    // The Library's list in the background, so the first Library load after a start does not build it.
    void import('./services.ts').then(({ servicesOf }) => servicesOf(runtime).library.warm()).catch(() => undefined);
    warmPage();
    return runtime;
  })().catch((e: unknown) => {
    h.runtime = undefined; // let the next request try again (e.g. after fixing the config file)
    throw e;
  });
  return h.runtime;
}

/**
 * Asks for the console's page once from this process: Next loads a page's server chunks on its first
 * request (≈ 2 s on a loaded 2-core machine), which the first person to open the console paid.
 * Production only (`next dev` compiles on demand anyway); the answer is thrown away.
 */
function warmPage(attempt = 0): void {
  const port = process.env.PORT;
  if (!port || process.env.NODE_ENV !== 'production') return;
  const bound = bindHost();
  const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound.includes(':') ? `[${bound}]` : bound;
  const base = (process.env.NEXT_PUBLIC_ENGRAM_BASE_PATH ?? '').replace(/\/+$/, '');
  fetch(`http://${host}:${port}${base}/`)
    .then((res) => res.body?.cancel())
    .catch(() => {
      // Not listening yet (the engine opened before the server was ready): try again shortly.
      if (attempt < 5) setTimeout(() => warmPage(attempt + 1), 1_000).unref();
    });
}

/** After a settings save: origins, hosts and the proxy setting may have changed. */
export async function refreshAllowedOrigins(runtime: ConsoleRuntime): Promise<void> {
  Object.assign(runtime, consoleAccess((await runtime.engine.getSettings()).effective));
}
