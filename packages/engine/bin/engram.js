#!/usr/bin/env node
// The `engram` command. Runs the compiled CLI (dist/cli/, built by `npm install` through the root
// `prepare` script, or `npm run build:cli`).
// - Build older than a source file it was built from (a checkout being edited): rebuilt first
//   (about a second, once), so the command never runs stale code.
// - Build missing, or the rebuild impossible: the TypeScript source runs through tsx, with a note on
//   stderr, because that start costs seconds instead of milliseconds.
// node:crypto and node:child_process are loaded only when needed (a changed mtime, a rebuild):
// compiling them is a third of what `engram --version` costs on top of node's own start.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

const engineDir = new URL('..', import.meta.url);
const compiled = new URL('dist/cli/main.mjs', engineDir);
const buildScript = new URL('scripts/build-cli.mjs', engineDir);

/** null when the compiled CLI matches its sources; otherwise why not ('missing' or 'stale: …'). */
function buildState() {
  let build;
  try {
    build = JSON.parse(readFileSync(new URL('dist/cli/build.json', engineDir), 'utf8'));
    statSync(compiled);
  } catch {
    return 'missing';
  }
  // Paths, not URLs: a URL per source cost more than the ~200 stats themselves.
  const root = fileURLToPath(engineDir);
  for (const { file, mtimeMs, sha1 } of build.sources) {
    const path = root + file;
    let now;
    try {
      now = statSync(path).mtimeMs;
    } catch {
      return `stale: ${file} is gone`;
    }
    // A new mtime with the same bytes (a checkout, a touch) is not a change.
    if (now !== mtimeMs && require('node:crypto').createHash('sha1').update(readFileSync(path)).digest('hex') !== sha1) return `stale: ${file} changed`;
  }
  return null;
}

function rebuild() {
  if (!existsSync(buildScript)) return false;
  try {
    require('node:child_process').execFileSync(process.execPath, [fileURLToPath(buildScript), '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
    return true;
  } catch {
    return false;
  }
}

// `engram status | head`: once the reader has gone, stop quietly like other Unix tools (no EPIPE
// stack trace). Commands print after their work is committed, so nothing is left half done.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

let state = process.env.ENGRAM_CLI_SOURCE === '1' ? 'ENGRAM_CLI_SOURCE=1' : buildState();
if (state?.startsWith('stale') && rebuild()) state = buildState();
let main;
if (state === null) ({ main } = await import(compiled.href));
else {
  const why = state === 'missing' ? 'the compiled CLI is missing (run npm run build:cli)' : state.startsWith('stale') ? `the compiled CLI is out of date (${state.slice(7)}) and could not be rebuilt` : state;
  process.stderr.write(`engram: ${why}; running the TypeScript source through tsx (slower start)\n`);
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
