// One model cache per user, shared by every data dir and every program (CLI, console, plugin): the
// model and the ONNX runtime are installed once, not once per data dir. Where it is, first match:
// an explicit path (the `embedding.modelCache` setting), $ENGRAM_MODEL_CACHE, then the platform's
// cache folder ($XDG_CACHE_HOME or ~/.cache on Linux and macOS, %LOCALAPPDATA% on Windows) + engram/models.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface CacheLocationInput {
  /** The `embedding.modelCache` setting ('' = not set). */
  configured?: string;
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  home?: string;
}

/** The folder that holds the installed models (`<root>/<org>/<name>`) and runtimes (`<root>/runtime/…`). */
export function modelCacheRoot(input: CacheLocationInput = {}): string {
  const env = input.env ?? process.env;
  const configured = input.configured?.trim();
  if (configured) return resolve(configured);
  const fromEnv = env.ENGRAM_MODEL_CACHE?.trim();
  if (fromEnv) return resolve(fromEnv);
  // The environment the engine was given decides, HOME included (as for every other path it resolves).
  const home = input.home ?? (env.HOME?.trim() || homedir());
  const platform = input.platform ?? process.platform;
  const base = platform === 'win32' ? env.LOCALAPPDATA?.trim() || join(home, 'AppData', 'Local') : env.XDG_CACHE_HOME?.trim() || join(home, '.cache');
  return join(base, 'engram', 'models');
}
