#!/usr/bin/env node
// The `engram` command. Runs the compiled CLI (dist/cli/, built by `npm install` through the root
// `prepare` script, or `npm run build:cli`).
// - Build older than a source file it was built from (a checkout being edited): rebuilt first
//   (about a second, once), so the command never runs stale code.
// - Build missing, or the rebuild impossible: the TypeScript source runs through tsx, with a note on
//   stderr, because that start costs seconds instead of milliseconds.
// - The compiled CLI (one CommonJS file) is compiled with a V8 code cache kept per command in
//   dist/cli/cache/: written by a command's first successful run (and again when V8 refuses it, e.g.
//   after a Node upgrade), it holds the code that command ran, so its next runs skip compiling it.
//   Best effort: an unwritable folder only means compiling as without it.
// node:crypto and node:child_process are loaded only when needed (a changed mtime, a rebuild):
// compiling them is a third of what `engram --version` costs on top of node's own start.
// A CommonJS script (bin/package.json): an ES module entry starts node's ES module loader, a few
// milliseconds of every command that the compiled CLI (itself CommonJS) never needs.
'use strict';
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');

const engineDir = join(__dirname, '..');
const compiled = join(engineDir, 'dist/cli/main.cjs');
const buildScript = join(engineDir, 'scripts/build-cli.mjs');

/** null when the compiled CLI matches its sources; otherwise why not ('missing' or 'stale: …'). */
function buildState() {
  let build;
  try {
    build = JSON.parse(readFileSync(join(engineDir, 'dist/cli/build.json'), 'utf8'));
    statSync(compiled);
  } catch {
    return 'missing';
  }
  // Paths, not URLs: a URL per source cost more than the ~200 stats themselves.
  const root = `${engineDir}/`;
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
    require('node:child_process').execFileSync(process.execPath, [buildScript, '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
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

/**
 * A compiled file's exports, compiled with the code cache `cacheName` (dist/cli/cache/<name>.<size>-<mtime>.v8).
 * `saveCache()` writes the cache when there was none or V8 refused it. The file is ASCII (the build
 * makes it so), read as latin1: the same string without decoding UTF-8.
 * The file's size and mtime are in the cache's name because V8 checks a cache against the length of
 * the source only: a command still running from a build that a rebuild has since replaced writes
 * its cache under its own build's name, never one the new build would read.
 */
function compile(file, cacheName, load) {
  const { size, mtimeMs } = statSync(file);
  const cacheFile = join(dirname(file), 'cache', `${cacheName}.${size}-${Math.round(mtimeMs)}.v8`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const { Script } = require('node:vm');
  // __engramImport: the bundle's import() of a file named at run time; __engramLoad: a library built
  // into a file of its own (both: see scripts/build-cli.mjs).
  const source = `(function (exports, require, module, __filename, __dirname, __engramImport, __engramLoad) {${readFileSync(file, 'latin1')}\n})`;
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), (specifier) => import(specifier), load);
  const saveCache = () => {
    if (cachedData !== undefined && !script.cachedDataRejected) return;
    const tmp = `${cacheFile}.tmp-${process.pid}`;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true });
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      rmSync(tmp, { force: true });
    }
  };
  return { exports: module.exports, saveCache };
}

/** The compiled CLI, with the code cache of this command (by its name; anything else shares one), and its libraries' caches. */
function loadCompiled(command) {
  const name = /^[a-z][a-z-]{0,30}$/.test(command ?? '') ? command : 'other';
  const file = compiled;
  const saves = [];
  const libs = new Map();
  const load = (lib) => {
    if (!libs.has(lib)) {
      const compiledLib = compile(join(dirname(file), `lib-${lib}.cjs`), `${name}.${lib}`);
      saves.push(compiledLib.saveCache);
      libs.set(lib, compiledLib.exports);
    }
    return libs.get(lib);
  };
  const cli = compile(file, name, load);
  saves.unshift(cli.saveCache);
  return { main: cli.exports.main, saveCache: () => saves.forEach((save) => save()) };
}

async function run() {
  let state = process.env.ENGRAM_CLI_SOURCE === '1' ? 'ENGRAM_CLI_SOURCE=1' : buildState();
  if (state?.startsWith('stale') && rebuild()) state = buildState();
  let main;
  let saveCache = () => {};
  if (state === null) ({ main, saveCache } = loadCompiled(process.argv[2]));
  else {
    const why = state === 'missing' ? 'the compiled CLI is missing (run npm run build:cli)' : state.startsWith('stale') ? `the compiled CLI is out of date (${state.slice(7)}) and could not be rebuilt` : state;
    process.stderr.write(`engram: ${why}; running the TypeScript source through tsx (slower start)\n`);
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import('../src/cli/main.ts'));
  }
  process.exitCode = await main(process.argv.slice(2));
  // Only a run that did its work: a usage error compiles little, and a typo must not leave a cache file.
  if (process.exitCode === 0) saveCache();
}

// What escapes main ends the command as an uncaught error would (its stack on stderr, exit code 1).
run().catch((error) => {
  process.exitCode = 1;
  throw error;
});
