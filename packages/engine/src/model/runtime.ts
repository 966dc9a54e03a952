// Where the ONNX runtime (@huggingface/transformers + onnxruntime-node) comes from: the workspace's
// node_modules when the product was installed with it, else `<dataDir>/runtime`, where
// `engram model install` puts it for installs that ship without it (the DSH plugin bundle).
// Loaded lazily: nothing here is imported until a local model is really used.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { arch, platform } from 'node:process';
import { pathToFileURL } from 'node:url';
import { RUNTIME_PACKAGE } from './manifest.ts';

export type Transformers = typeof import('@huggingface/transformers');

export const runtimeDirOf = (dataDir: string) => join(resolve(dataDir), 'runtime');

export interface RuntimeLocation {
  where: 'workspace' | 'data-dir' | 'missing';
  /** The resolved entry file, when found. */
  path: string | null;
}

function resolveFrom(base: string): string | null {
  try {
    return createRequire(base).resolve(RUNTIME_PACKAGE.name);
  } catch {
    return null;
  }
}

/** Finds the runtime without loading it. */
export function locateRuntime(dataDir: string | null, opts: { workspace?: boolean } = {}): RuntimeLocation {
  if (opts.workspace !== false) {
    const p = resolveFrom(import.meta.url);
    if (p) return { where: 'workspace', path: p };
  }
  if (dataDir) {
    const p = resolveFrom(join(runtimeDirOf(dataDir), 'package.json'));
    if (p) return { where: 'data-dir', path: p };
  }
  return { where: 'missing', path: null };
}

let cached: Promise<Transformers> | null = null;

/** Imports the runtime (once per process); throws with a reason a person can act on. */
export function loadRuntime(dataDir: string | null, opts: { workspace?: boolean } = {}): Promise<Transformers> {
  if (cached) return cached;
  const attempt = (async () => {
    const loc = locateRuntime(dataDir, opts);
    if (!loc.path) {
      throw new Error(
        `the ONNX runtime (${RUNTIME_PACKAGE.name}) is not installed${dataDir ? ` in the workspace or under ${runtimeDirOf(dataDir)}` : ''}: run \`engram model install\``,
      );
    }
    try {
      return loc.where === 'workspace' ? ((await import('@huggingface/transformers')) as Transformers) : ((await import(pathToFileURL(loc.path).href)) as Transformers);
    } catch (e) {
      throw new Error(`the ONNX runtime at ${loc.path} could not be loaded: ${(e as Error).message}`);
    }
  })();
  cached = attempt;
  attempt.catch(() => {
    if (cached === attempt) cached = null;
  });
  return attempt;
}

/** Test hook: forget the loaded runtime. */
export function forgetRuntime(): void {
  cached = null;
}

/**
 * Installs the pinned runtime under `<dataDir>/runtime` with the user's npm. Install scripts are
 * skipped: onnxruntime-node's postinstall only fetches GPU providers; its CPU binaries ship in the
 * package. Binaries for other platforms are removed afterwards (≈ 200 MB of the ≈ 475 MB).
 */
export async function installRuntime(dataDir: string, opts: { signal?: AbortSignal } = {}): Promise<{ dir: string; where: RuntimeLocation['where'] }> {
  const dir = runtimeDirOf(dataDir);
  await mkdir(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) await writeFile(join(dir, 'package.json'), '{ "name": "engram-runtime", "private": true }\n');
  await new Promise<void>((ok, fail) => {
    execFile(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--save-exact', '--prefix', dir, `${RUNTIME_PACKAGE.name}@${RUNTIME_PACKAGE.version}`],
      { signal: opts.signal, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } },
      (err, _out, stderr) => (err ? fail(new Error(`npm install of the ONNX runtime failed: ${(stderr || err.message).trim().split('\n').slice(-3).join(' ')}`)) : ok()),
    );
  });
  await pruneForeignBinaries(dir);
  const loc = locateRuntime(dataDir, { workspace: false });
  return { dir, where: loc.where };
}

/** onnxruntime-node ships every platform's binaries; keep this machine's. */
async function pruneForeignBinaries(dir: string): Promise<void> {
  const bin = join(dir, 'node_modules', 'onnxruntime-node', 'bin');
  if (!existsSync(bin)) return;
  for (const napi of readdirSync(bin)) {
    const napiDir = join(bin, napi);
    for (const os of safeList(napiDir)) {
      if (os !== platform) {
        await rm(join(napiDir, os), { recursive: true, force: true });
        continue;
      }
      for (const cpu of safeList(join(napiDir, os))) if (cpu !== arch) await rm(join(napiDir, os, cpu), { recursive: true, force: true });
    }
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
