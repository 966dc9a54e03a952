#!/usr/bin/env node
// `npm start`: builds the console once (`next build`, only when the build is missing or older than its
// sources), then `next start` bound to the console's address: HOST / PORT from the environment win,
// then `console.host` / `console.port` from the deploy config file (ENGRAM_CONFIG), then 127.0.0.1:3000.
// The console must not listen on every interface unless someone asks for it.
// Next's telemetry is off unless NEXT_TELEMETRY_DISABLED is set to something else explicitly.
// Prints one short block when the console answers (start-info.mjs) in place of Next's banner, with the
// folders the running console's engine opened (its health query), not those of the config file.
// `--no-build` skips the freshness check (a deploy that builds separately, the browser tests).
// `--install-model` first installs the embedding model once per user (the root `npm start`): a failed
// install leaves recall lexical, and the block says so.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildWithProgress } from './build-console.mjs';
import { appDir, buildIsFresh, repoRoot } from './build-state.mjs';
import { consoleUrl, engineFolders, isNextBanner, isNextReady, startBlock, warmUp } from './start-info.mjs';

const nextBin = createRequire(join(appDir, 'package.json')).resolve('next/dist/bin/next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? '1' };
const args = process.argv.slice(2);

/**
 * What the config file and environment say, through the engine's own resolver: the address, and the
 * folders to show should the running engine not answer. `model(dataDir)` reads the model's state
 * in the data dir the engine actually uses.
 */
async function describeStart() {
  const { register } = await import('tsx/esm/api');
  register();
  const { resolveBase, installedModel, locateRuntime, DEFAULT_MODEL } = await import('@engram/engine');
  const { base } = resolveBase({ env: process.env });
  const e = base.embedding;
  return {
    console: base.console,
    diaryDir: base.diaryDir,
    dataDir: base.dataDir,
    model: (dataDir) => ({ provider: e.provider, id: DEFAULT_MODEL.id, installed: installedModel(dataDir) !== null, runtime: locateRuntime(dataDir).where, endpoint: e.baseUrl, modelDir: e.modelDir }),
  };
}

function fail(message) {
  console.error(`engram: ${message}`);
  process.exit(1);
}

if (args.includes('--install-model')) {
  // The CLI's lines are the block's model line now; its errors and (on a terminal) its download
  // progress still reach the person starting.
  spawnSync(process.execPath, [join(repoRoot, 'packages/engine/bin/engram.js'), 'model', 'install'], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

// A broken config file or environment is said here, before a build and a server that cannot open it.
const facts = describeStart();
facts.catch(() => undefined); // handled where awaited

if (!args.includes('--no-build') && !buildIsFresh()) {
  // Type errors are `npm run typecheck`'s business; starting needs the bundle (minutes less on 2 cores).
  const built = await buildWithProgress({ command: process.execPath, args: [nextBin, 'build'], cwd: appDir, env: { ENGRAM_SKIP_TYPECHECK: '1', ...env } });
  if (built.code !== 0) process.exit(built.code);
}

// Only a config file can move the address away from the defaults: without one, Next starts while the
// facts for the block are still being read.
const known = !process.env.ENGRAM_CONFIG || (process.env.HOST && process.env.PORT);
let host = process.env.HOST || '127.0.0.1';
let port = process.env.PORT || '3000';
if (!known) {
  const f = await facts.catch((e) => fail(e.message));
  host = process.env.HOST || f.console.host;
  port = process.env.PORT || String(f.console.port);
}

// The proxy's DNS-rebinding guard reads HOST to know what the server is bound to.
const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', port], { cwd: appDir, stdio: ['ignore', 'pipe', 'inherit'], env: { ...env, HOST: host } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Lines are handled in order: the block waits for its facts, and what Next says after it waits too.
let ready = false;
let printed = Promise.resolve();
const handle = async (line) => {
  if (isNextReady(line)) {
    ready = true;
    const f = await facts.catch((e) => {
      child.kill('SIGTERM');
      fail(e.message);
    });
    const base = (process.env.NEXT_PUBLIC_ENGRAM_BASE_PATH ?? '').replace(/\/+$/, '');
    const { diaryDir, dataDir } = (await engineFolders(`${consoleUrl(host, port).url}${base}`)) ?? f;
    await warmUp(`${consoleUrl(host, port).url}${base}`);
    console.log(startBlock({ host, port, diaryDir, dataDir, model: f.model(dataDir) }).join('\n'));
  } else if (!isNextBanner(line, ready)) console.log(line);
};
createInterface({ input: child.stdout }).on('line', (line) => (printed = printed.then(() => handle(line))));
