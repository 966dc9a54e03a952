#!/usr/bin/env node
// `next start` bound to the console's address: HOST / PORT from the environment win, then
// `console.host` / `console.port` from the deploy config file (ENGRAM_CONFIG), then 127.0.0.1:3000.
// The console must not listen on every interface unless someone asks for it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const nextBin = createRequire(join(appDir, 'package.json')).resolve('next/dist/bin/next');

async function configured() {
  // Only a config file can move the address away from the defaults; skip loading the engine otherwise.
  if (!process.env.ENGRAM_CONFIG || (process.env.HOST && process.env.PORT)) return { host: '127.0.0.1', port: 3000 };
  const { register } = await import('tsx/esm/api');
  register();
  const { resolveBase } = await import('@engram/engine');
  return resolveBase({ env: process.env }).base.console;
}

const fromConfig = await configured();
const host = process.env.HOST || fromConfig.host;
const port = process.env.PORT || String(fromConfig.port);

// The proxy's DNS-rebinding guard reads HOST to know what the server is bound to.
const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', port], { cwd: appDir, stdio: 'inherit', env: { ...process.env, HOST: host } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
