// Is the console's production build (BUILD_ID in its dist folder) at least as new as every source it
// was built from? Shared by `npm start` (build once, then reuse) and the browser tests.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = join(appDir, '../..');

/** What a build depends on: the console's code and config, and the workspace packages it bundles. */
export const BUILD_SOURCES = ['apps/console/src', 'apps/console/next.config.ts', 'apps/console/package.json', 'apps/console/postcss.config.mjs', 'packages/engine/src', 'packages/db/src'];

export const distDirName = () => process.env.ENGRAM_CONSOLE_DIST || '.next';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when a build exists and no source changed after it. */
export function buildIsFresh(dist = distDirName()) {
  const buildId = join(appDir, dist, 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  return BUILD_SOURCES.every((s) => newestMtime(join(repoRoot, s)) <= built);
}
