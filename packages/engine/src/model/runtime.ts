// Where the ONNX runtime (@huggingface/transformers + onnxruntime-node) comes from: the workspace's
// node_modules when the product was installed with it, else the user's model cache
// (`<cache>/runtime/<version>-<platform>-<arch>`), where `engram model install` puts it for installs
// that ship without it (the DSH plugin bundle), else `<dataDir>/runtime` from older versions.
// Loaded lazily: nothing here is imported until a local model is really used.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { arch, platform } from 'node:process';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { modelCacheRoot } from './cache.ts';
import { importAtRunTime } from './import-at-run-time.ts';
import { downloadResumable, RangeUnsupportedError } from './download.ts';
import { downloadsDirOf, integrityOf, sha256, systemNpm, type NpmClient } from './install.ts';
import { RUNTIME_PACKAGE } from './manifest.ts';
import { filesOfRange, inflateRange, rangeBytes, type PinnedRange, type RuntimePin } from './runtime-fetch.ts';
import { readTar } from './tar.ts';

export type Transformers = typeof import('@huggingface/transformers');

/** Where older versions installed the runtime: inside each data dir. */
export const runtimeDirOf = (dataDir: string) => join(resolve(dataDir), 'runtime');
/** Where the runtime is installed now: once per user and platform, in the model cache. */
export const cachedRuntimeDir = (cache: string = modelCacheRoot()) => join(cache, 'runtime', `${RUNTIME_PACKAGE.version}-${platform}-${arch}`);

export interface RuntimeLocation {
  where: 'workspace' | 'cache' | 'data-dir' | 'missing';
  /** The resolved entry file, when found. */
  path: string | null;
}

function resolveFrom(base: string): string | null {
  try {
    // Resolved by Node against a folder chosen at run time (workspace, model cache, data dir): a
    // bundler must leave it alone (the console's build warned "Can't resolve <dynamic>" on every start).
    return createRequire(base).resolve(/* webpackIgnore: true */ RUNTIME_PACKAGE.name);
  } catch {
    return null;
  }
}

/** Finds the runtime without loading it. */
export function locateRuntime(dataDir: string | null, opts: { workspace?: boolean; cache?: string } = {}): RuntimeLocation {
  if (opts.workspace !== false) {
    const p = resolveFrom(import.meta.url);
    if (p) return { where: 'workspace', path: p };
  }
  const cached = resolveFrom(join(cachedRuntimeDir(opts.cache), 'package.json'));
  if (cached) return { where: 'cache', path: cached };
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
        `the ONNX runtime (${RUNTIME_PACKAGE.name}) is not installed in the workspace or under ${cachedRuntimeDir()}${dataDir ? ` or ${runtimeDirOf(dataDir)}` : ''}: run \`engram model install\``,
      );
    }
    try {
      if (loc.where === 'workspace') return (await import('@huggingface/transformers')) as Transformers;
      // A runtime in the model cache is a file chosen at run time: Node's own import loads it.
      return (await importAtRunTime(pathToFileURL(loc.path).href)) as Transformers;
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

export interface RuntimeInstallOptions {
  signal?: AbortSignal;
  /** The model cache (default: modelCacheRoot()). */
  cache?: string;
  npm?: NpmClient;
  fetchImpl?: typeof fetch;
  /** Bytes downloaded so far and the bytes the whole runtime download takes. */
  onProgress?: (done: number, total: number) => void;
  /** Test hook: the pin to use instead of runtime-pin.ts. */
  pin?: RuntimePin;
  /** Test hook: the platform key (`linux-x64`) instead of this machine's. */
  platformKey?: string;
  /** Test hook: the whole tarballs instead of RUNTIME_TARBALLS. */
  tarballs?: readonly RuntimeTarball[];
}

export interface RuntimeTarball {
  name: string;
  version: string;
  integrity: string;
  bytes: number;
  /** Which of the package's files (path inside `package/`) the runtime keeps. */
  keep: (path: string) => boolean;
}

export interface RuntimeInstallReport {
  dir: string;
  where: RuntimeLocation['where'];
  /** A runtime was already in the cache: nothing was fetched. */
  alreadyInstalled: boolean;
  /** Bytes that came over the network. */
  downloadedBytes: number;
  /** Bytes of the files written. */
  storedBytes: number;
  /** 'ranges' = only this platform's parts of onnxruntime-node; 'whole' = its whole tarball (the registry refused byte ranges). */
  route: 'ranges' | 'whole' | 'none';
}

/** The small packages the runtime needs whole, pinned by the registry's integrity. */
export const RUNTIME_TARBALLS: readonly RuntimeTarball[] = [
  {
    name: '@huggingface/transformers',
    version: RUNTIME_PACKAGE.version,
    integrity: 'sha512-V3+dqf3iWlRYJ9I9GreM3zGQd0lAXnnoPeddmkOQYWAEE4l/+Fi6p7tx/qVUJlKQgLXGim2W76rTOzz+eC0i7g==',
    bytes: 2_273_070,
    /** Node only: the web builds and type files are not needed. */
    keep: (p: string) => p === 'package.json' || /^dist\/transformers\.node\.(c|m)js$/.test(p) || p === 'LICENSE',
  },
  {
    name: 'onnxruntime-common',
    version: '1.30.0',
    integrity: 'sha512-7fdVWjAID1dVhH/G8qK3APARunV4VkBFoCQAP7qp4Wkab0mrorvmc+sqiT+mKXOzDqdjN5j+/Z9nb4gzNPWcyA==',
    bytes: 66_795,
    keep: (p: string) => !p.endsWith('.map') && !p.startsWith('lib/'),
  },
];

/**
 * transformers.js imports sharp (images) when it loads; Engram embeds text only. This stands in for
 * it, so ~20 MB of image libraries are not downloaded; calling it says why.
 */
const SHARP_STUB = {
  'package.json': '{ "name": "sharp", "version": "0.0.0-engram-text-only", "main": "index.js" }\n',
  'index.js': "module.exports = function sharp() { throw new Error('Engram\\'s ONNX runtime is installed for text only: image processing (sharp) is not included'); };\n",
};

const speck = (name: string, version: string) => `${name}@${version}`;

/** The registry's tarball URL for a pinned package, refused unless its integrity is the pinned one. */
async function pinnedTarball(npm: NpmClient, name: string, version: string, integrity: string, signal?: AbortSignal): Promise<string> {
  const dist = await npm.view(speck(name, version), signal);
  if (dist.integrity !== integrity) throw new Error(`the registry's ${speck(name, version)} has integrity ${dist.integrity}, not the pinned one: refusing it`);
  return dist.tarball;
}

/**
 * Installs the pinned runtime into the user's model cache, for this platform only: transformers.js
 * and onnxruntime-common whole (small, integrity-checked), and of onnxruntime-node's all-platform
 * tarball only the byte ranges holding this platform's files (runtime-pin.ts), each file checked
 * against its pinned SHA-256. Interrupted downloads resume. When the registry refuses byte ranges,
 * the whole onnxruntime-node tarball is downloaded instead (checked by its integrity) and only this
 * platform's files are kept. Platforms without a pin fall back to `npm install` (older route).
 */
export async function installRuntime(dataDir: string | null, opts: RuntimeInstallOptions = {}): Promise<RuntimeInstallReport> {
  const cache = opts.cache ?? modelCacheRoot();
  const dir = cachedRuntimeDir(cache);
  const key = opts.platformKey ?? `${platform}-${arch}`;
  const pin = opts.pin ?? (await import('./runtime-pin.ts')).ONNXRUNTIME_NODE_PIN;
  const marker = `${pin.name}@${pin.version} ${key}`;
  if (readMarker(dir) === marker) return { dir, where: locateRuntime(dataDir, { workspace: false, cache }).where, alreadyInstalled: true, downloadedBytes: 0, storedBytes: 0, route: 'none' };
  const ranges = pin.platforms[key];
  if (!ranges) return npmInstallRuntime(dir, opts);
  const npm = opts.npm ?? systemNpm;
  const downloads = downloadsDirOf(cache);
  const tarballs = opts.tarballs ?? RUNTIME_TARBALLS;
  const total = tarballs.reduce((n, t) => n + t.bytes, 0) + rangeBytes(ranges);
  let downloaded = 0;
  let planned = total;
  const progress = (n: number) => opts.onProgress?.(downloaded + n, planned);
  const files = new Map<string, Buffer>();

  for (const t of tarballs) {
    const url = await pinnedTarball(npm, t.name, t.version, t.integrity, opts.signal);
    const part = join(downloads, `${t.name.replace(/[@/]/g, '_')}-${t.version}.tgz`);
    const got = await downloadResumable(url, part, { fetchImpl: opts.fetchImpl, signal: opts.signal, onBytes: (n) => progress(n) });
    downloaded += got.downloaded;
    const tarball = await readFile(part);
    await rm(part, { force: true });
    if (integrityOf(tarball) !== t.integrity) throw new Error(`the downloaded ${speck(t.name, t.version)} does not match its pinned integrity`);
    for (const e of readTar(gunzipSync(tarball), 'package/')) if (t.keep(e.path)) files.set(`node_modules/${t.name}/${e.path}`, e.data);
  }

  const ortUrl = await pinnedTarball(npm, pin.name, pin.version, pin.integrity, opts.signal);
  let route: RuntimeInstallReport['route'] = 'ranges';
  try {
    for (const r of ranges) {
      const part = join(downloads, `${pin.name}-${pin.version}-${r.from}-${r.to}.part`);
      const got = await downloadResumable(ortUrl, part, { fetchImpl: opts.fetchImpl, signal: opts.signal, range: { from: r.from, to: r.to }, onBytes: (n) => progress(n) });
      downloaded += got.downloaded;
      const compressed = await readFile(part);
      let inside: Map<string, Buffer>;
      try {
        inside = filesOfRange(r, inflateRange(compressed, r));
      } catch (e) {
        await rm(part, { force: true });
        throw new Error(`the ${speck(pin.name, pin.version)} bytes ${r.from}-${r.to} failed verification: ${(e as Error).message}`);
      }
      for (const [p, data] of inside) files.set(`node_modules/${pin.name}/${p}`, data);
      await rm(part, { force: true });
    }
  } catch (e) {
    if (!(e instanceof RangeUnsupportedError)) throw e;
    route = 'whole';
    planned = downloaded + pin.bytes;
    for (const [p, data] of await wholeTarballFiles(ortUrl, pin, ranges, downloads, opts, (n) => progress(n), (n) => (downloaded += n))) files.set(`node_modules/${pin.name}/${p}`, data);
  }
  for (const [p, text] of Object.entries(SHARP_STUB)) files.set(`node_modules/sharp/${p}`, Buffer.from(text));
  files.set('package.json', Buffer.from(`${JSON.stringify({ name: 'engram-runtime', private: true, dependencies: { [RUNTIME_PACKAGE.name]: RUNTIME_PACKAGE.version } }, null, 2)}\n`));
  files.set(RUNTIME_MARKER, Buffer.from(`${marker}\n`));

  // Written whole beside the destination, then renamed into place: a reader sees no runtime or all of it.
  const staging = join(dirname(dir), `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  let stored = 0;
  try {
    for (const [p, data] of files) {
      await mkdir(dirname(join(staging, p)), { recursive: true });
      await writeFile(join(staging, p), data);
      stored += data.length;
    }
    if (existsSync(dir)) await rename(dir, `${dir}.replaced-${Date.now()}`);
    await rename(staging, dir);
  } catch (e) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw new Error(`could not write the ONNX runtime under ${dir}: ${(e as Error).message}`);
  }
  const loc = locateRuntime(dataDir, { workspace: false, cache });
  return { dir, where: loc.where, alreadyInstalled: false, downloadedBytes: downloaded, storedBytes: stored, route };
}

/** The registry refused byte ranges: the whole tarball (resumable, integrity-checked), keeping this platform's pinned files. */
async function wholeTarballFiles(
  url: string,
  pin: RuntimePin,
  ranges: PinnedRange[],
  downloads: string,
  opts: RuntimeInstallOptions,
  progress: (n: number) => void,
  count: (n: number) => void,
): Promise<Map<string, Buffer>> {
  const part = join(downloads, `${pin.name}-${pin.version}.tgz`);
  const got = await downloadResumable(url, part, { fetchImpl: opts.fetchImpl, signal: opts.signal, onBytes: progress });
  count(got.downloaded);
  const tarball = await readFile(part);
  await rm(part, { force: true });
  if (integrityOf(tarball) !== pin.integrity) throw new Error(`the downloaded ${speck(pin.name, pin.version)} does not match its pinned integrity`);
  const wanted = new Map(ranges.flatMap((r) => r.files).map((f) => [f.path, f.sha256]));
  const out = new Map<string, Buffer>();
  for (const e of readTar(gunzipSync(tarball), 'package/')) {
    const hash = wanted.get(e.path);
    if (hash === undefined) continue;
    if (sha256(e.data) !== hash) throw new Error(`${e.path} in ${speck(pin.name, pin.version)} does not match its pinned SHA-256`);
    out.set(e.path, e.data);
  }
  return out;
}

/** Bytes installing the runtime downloads on this platform (the pinned ranges and the small tarballs); null without a pin. */
export async function runtimeDownloadBytes(platformKey = `${platform}-${arch}`): Promise<number | null> {
  const ranges = (await import('./runtime-pin.ts')).ONNXRUNTIME_NODE_PIN.platforms[platformKey];
  return ranges ? rangeBytes(ranges) + RUNTIME_TARBALLS.reduce((n, t) => n + t.bytes, 0) : null;
}

/** Written last into an installed runtime: what it was installed from, for which platform. */
const RUNTIME_MARKER = 'engram-runtime.txt';

function readMarker(dir: string): string | null {
  try {
    return readFileSync(join(dir, RUNTIME_MARKER), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Platforms without a pin: `npm install` into the cache (every platform's binaries arrive; others are removed after). */
async function npmInstallRuntime(dir: string, opts: RuntimeInstallOptions): Promise<RuntimeInstallReport> {
  await mkdir(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) await writeFile(join(dir, 'package.json'), '{ "name": "engram-runtime", "private": true }\n');
  // Imported here: every engine open reads this module, and node:child_process brings net and dgram.
  const { execFile } = await import('node:child_process');
  await new Promise<void>((ok, fail) => {
    execFile(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--save-exact', '--prefix', dir, `${RUNTIME_PACKAGE.name}@${RUNTIME_PACKAGE.version}`],
      { signal: opts.signal, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } },
      (err, _out, stderr) => (err ? fail(new Error(`npm install of the ONNX runtime failed: ${(stderr || err.message).trim().split('\n').slice(-3).join(' ')}`)) : ok()),
    );
  });
  await pruneForeignBinaries(dir);
  return { dir, where: 'cache', alreadyInstalled: false, downloadedBytes: 0, storedBytes: 0, route: 'whole' };
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
