// One engine per server process, opened from the environment through the engine's own config
// resolver. Kept on globalThis so every Next bundle (pages, route handlers, proxy) shares it.
import { openEngine, stderrLogger, type Engine } from '@engram/engine';
import { normalizeOrigins } from './security.ts';
import { ensureToken } from '@engram/engine';

export interface ConsoleRuntime {
  engine: Engine;
  /** The per-install mutation token (from `<dataDir>/console-token`). */
  token: string;
  dataDir: string;
  /** Origins besides the console itself that may frame it and send mutations. */
  allowedOrigins: string[];
}

interface Holder {
  runtime?: Promise<ConsoleRuntime>;
}

const KEY = Symbol.for('engram.console.runtime');
const holder = (): Holder => ((globalThis as Record<symbol, Holder>)[KEY] ??= {});

export async function allowedOriginsOf(engine: Engine): Promise<string[]> {
  const settings = await engine.getSettings();
  return normalizeOrigins(settings.effective.console.allowedOrigins);
}

/** Builds the runtime for an already opened engine (tests use this with their own temp dirs). */
export async function runtimeFor(engine: Engine): Promise<ConsoleRuntime> {
  const settings = await engine.getSettings();
  const dataDir = settings.effective.dataDir;
  return { engine, dataDir, token: ensureToken(dataDir), allowedOrigins: normalizeOrigins(settings.effective.console.allowedOrigins) };
}

export function getRuntime(): Promise<ConsoleRuntime> {
  const h = holder();
  h.runtime ??= (async () => runtimeFor(await openEngine({ env: process.env, log: stderrLogger('warn'), createDiaryDir: true })))().catch((e: unknown) => {
    h.runtime = undefined; // let the next request try again (e.g. after fixing the config file)
    throw e;
  });
  return h.runtime;
}

/** After a settings save: origins may have changed. */
export async function refreshAllowedOrigins(runtime: ConsoleRuntime): Promise<void> {
  runtime.allowedOrigins = await allowedOriginsOf(runtime.engine);
}

/** The allowed origins if the engine is already open, without opening it. */
export async function peekAllowedOrigins(): Promise<string[] | null> {
  const pending = holder().runtime;
  if (!pending) return null;
  try {
    return (await pending).allowedOrigins;
  } catch {
    return null;
  }
}
