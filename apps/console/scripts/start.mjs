#!/usr/bin/env node
// `npm start`: builds the console once (`next build`, only when the build is missing or older than its
// sources), then `next start` bound to the console's address: HOST / PORT from the environment win,
// then `console.host` / `console.port` from the deploy config file (ENGRAM_CONFIG), then 127.0.0.1:3000.
// The console must not listen on every interface unless someone asks for it.
// Next's telemetry is off unless NEXT_TELEMETRY_DISABLED is set to something else explicitly.
// `--no-build` skips the freshness check (a deploy that builds separately).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { appDir, buildIsFresh, distDirName } from './build-state.mjs';

const nextBin = createRequire(join(appDir, 'package.json')).resolve('next/dist/bin/next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? '1' };

async function configured() {
  // Only a config file can move the address away from the defaults; skip loading the engine otherwise.
  if (!process.env.ENGRAM_CONFIG || (process.env.HOST && process.env.PORT)) return { host: '127.0.0.1', port: 3000 };
  const { register } = await import('tsx/esm/api');
  register();
  const { resolveBase } = await import('@engram/engine');
  return resolveBase({ env: process.env }).base.console;
}

if (!process.argv.includes('--no-build') && !buildIsFresh()) {
  // Type errors are `npm run typecheck`'s business; starting needs the bundle (minutes less on 2 cores).
  console.log(`[engram-console] building the console into ${distDirName()} (sources changed or no build yet)…`);
  const built = spawnSync(process.execPath, [nextBin, 'build'], { cwd: appDir, stdio: 'inherit', env: { ENGRAM_SKIP_TYPECHECK: '1', ...env } });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const fromConfig = await configured();
const host = process.env.HOST || fromConfig.host;
const port = process.env.PORT || String(fromConfig.port);

// The proxy's DNS-rebinding guard reads HOST to know what the server is bound to.
const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', port], { cwd: appDir, stdio: 'inherit', env: { ...env, HOST: host } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
