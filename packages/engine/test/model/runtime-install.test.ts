// The ONNX runtime is installed for this platform only: of an all-platform tarball just the byte
// ranges holding this platform's files are fetched (entering the gzip stream at a pinned deflate
// block boundary with its window), every file checked against its pinned hash; an interrupted
// download resumes; a registry that ignores byte ranges gets the whole tarball, checked by its
// integrity. The tarball here is made by the test, with sync-flush points as its block boundaries.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { constants, crc32, deflateRawSync, gunzipSync } from 'node:zlib';
import type { NpmClient } from '../../src/model/install.ts';
import { DEFLATE_WINDOW, rangeBytes, type PinnedRange, type RuntimePin } from '../../src/model/runtime-fetch.ts';
import { cachedRuntimeDir, installRuntime, locateRuntime, type RuntimeTarball } from '../../src/model/runtime.ts';
import { integrityOf, tarGz } from '../semantic/model-fixture.ts';

const roots: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-runtime-'));
  roots.push(d);
  return d;
};
after(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

/** One entry of an uncompressed tar: the fixture's writer, without its gzip and end blocks. */
function tarEntry(path: string, data: Buffer): Buffer {
  return gunzipSync(tarGz([{ path, data }])).subarray(0, 512 + Math.ceil(data.length / 512) * 512);
}

/** Deflates parts, each ending on a byte at a block boundary (sync flush) and referring back into the earlier ones (dictionary). */
function deflateInParts(parts: Buffer[]): { body: Buffer; starts: number[] } {
  const out: Buffer[] = [];
  const starts: number[] = [];
  let size = 0;
  let seen = Buffer.alloc(0);
  for (const p of parts) {
    starts.push(size);
    const chunk = deflateRawSync(p, { finishFlush: constants.Z_SYNC_FLUSH, ...(seen.length > 0 ? { dictionary: seen.subarray(-DEFLATE_WINDOW) } : {}) });
    out.push(chunk);
    size += chunk.length;
    seen = Buffer.concat([seen, p]).subarray(-DEFLATE_WINDOW);
  }
  out.push(deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  return { body: Buffer.concat(out), starts };
}

/** An all-platform package tarball and the pin for it, made the way pin-runtime.ts makes one. */
async function platformTarball() {
  // Files of one platform repeat much of another's, so the deflate stream refers back across platforms (the window matters).
  const shared = randomBytes(20_000);
  const files: [string, Buffer][] = [
    ['package/bin/napi-v6/linux/arm64/libort.so', Buffer.concat([shared, randomBytes(150_000)])],
    ['package/bin/napi-v6/linux/x64/libort.so', Buffer.concat([shared, randomBytes(120_000), shared])],
    ['package/bin/napi-v6/win32/x64/ort.dll', randomBytes(300_000)],
    ['package/dist/index.js', Buffer.from('module.exports = { binding: require(`../bin/napi-v6/${process.platform}/${process.arch}/libort.so`.length) };')],
    ['package/package.json', Buffer.from('{ "name": "fake-ort", "version": "1.0.0", "main": "dist/index.js" }')],
  ];
  const parts = files.map(([p, d]) => tarEntry(p, d));
  parts.push(Buffer.alloc(1024));
  const tar = Buffer.concat(parts);
  const { body, starts } = deflateInParts(parts);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(tar), 0);
  trailer.writeUInt32LE(tar.length % 2 ** 32, 4);
  const gz = Buffer.concat([header, body, trailer]);
  const offsets: number[] = [];
  parts.reduce((at, p) => (offsets.push(at), at + p.length), 0);
  const wanted = (path: string) => path === 'package/package.json' || path.startsWith('package/dist/') || path.startsWith('package/bin/napi-v6/linux/x64/');
  const ranges: PinnedRange[] = [];
  files.forEach(([path, data], i) => {
    if (!wanted(path)) return;
    const out = offsets[i] as number;
    const from = header.length + (starts[i] as number);
    const to = header.length + (i + 1 < starts.length ? (starts[i + 1] as number) : body.length) - 1;
    const file = { path: path.replace(/^package\//, ''), offset: out + 512, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
    const last = ranges.at(-1);
    if (last && last.to + 1 === from) {
      last.to = to;
      last.files.push(file);
      return;
    }
    const window = tar.subarray(Math.max(0, out - DEFLATE_WINDOW), out);
    ranges.push({ from, to, out, window: deflateRawSync(window).toString('base64'), files: [file] });
  });
  const pin: RuntimePin = { name: 'fake-ort', version: '1.0.0', integrity: integrityOf(gz), bytes: gz.length, platforms: { 'linux-x64': ranges } };
  return { gz, pin, files: new Map(files) };
}

/** Serves files with HTTP Range (unless `ranges` is off); can drop the connection `cutAfter` bytes into one response, or alter a byte. */
async function registry(routes: Map<string, Buffer>, opts: { ranges?: boolean; cutAfter?: number } = {}) {
  const seen: { url: string; range: string | null; bytes: number }[] = [];
  let cut = opts.cutAfter ?? 0;
  const server = createServer((req, res) => {
    const body = routes.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    const range = opts.ranges === false ? null : (req.headers.range ?? null);
    const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    const from = m ? Number(m[1]) : 0;
    const to = m && m[2] ? Math.min(Number(m[2]), body.length - 1) : body.length - 1;
    const part = body.subarray(from, to + 1);
    res.writeHead(m ? 206 : 200, { 'content-length': part.length, ...(m ? { 'content-range': `bytes ${from}-${to}/${body.length}` } : {}) });
    if (cut > 0 && part.length > cut) {
      seen.push({ url: req.url ?? '', range, bytes: cut });
      res.write(part.subarray(0, cut), () => res.destroy());
      cut = 0;
      return;
    }
    seen.push({ url: req.url ?? '', range, bytes: part.length });
    res.end(part);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

const npmFor = (base: string, integrities: Record<string, string>): NpmClient => ({
  view: async (spec) => {
    const name = spec.slice(0, spec.lastIndexOf('@'));
    return { tarball: `${base}/${name.replace('/', '_')}.tgz`, integrity: integrities[name] ?? 'sha512-unknown' };
  },
  pack: async () => {
    throw new Error('not used');
  },
});

async function fixture() {
  const ort = await platformTarball();
  // A stand-in for transformers.js: what locating the runtime looks for.
  const common = tarGz([
    { path: 'package/package.json', data: Buffer.from('{ "name": "@huggingface/transformers", "version": "0.0.0-test", "main": "index.js" }') },
    { path: 'package/index.js', data: Buffer.from('module.exports = {};') },
  ]);
  const tarballs: RuntimeTarball[] = [{ name: '@huggingface/transformers', version: '0.0.0-test', integrity: integrityOf(common), bytes: common.length, keep: () => true }];
  const routes = new Map([
    ['/fake-ort.tgz', ort.gz],
    ['/@huggingface_transformers.tgz', common],
  ]);
  const integrities = { 'fake-ort': ort.pin.integrity, '@huggingface/transformers': integrityOf(common) };
  return { ...ort, common, tarballs, routes, integrities };
}

describe('ONNX runtime install, this platform only', () => {
  it('fetches only the pinned byte ranges of the all-platform tarball, checks every file, installs them in the cache', async () => {
    const f = await fixture();
    const server = await registry(f.routes);
    try {
      const cache = tempDir();
      const progress: [number, number][] = [];
      const r = await installRuntime(null, { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, f.integrities), onProgress: (d, t) => progress.push([d, t]) });
      assert.equal(r.route, 'ranges');
      const ortBytes = server.seen.filter((s) => s.url === '/fake-ort.tgz').reduce((n, s) => n + s.bytes, 0);
      assert.equal(ortBytes, rangeBytes(f.pin.platforms['linux-x64'] as PinnedRange[]));
      assert.ok(ortBytes < f.gz.length / 2, `fetched ${ortBytes} of ${f.gz.length} bytes`);
      assert.equal(r.downloadedBytes, ortBytes + f.common.length);
      const root = join(cachedRuntimeDir(cache), 'node_modules', 'fake-ort');
      assert.deepEqual(readFileSync(join(root, 'bin/napi-v6/linux/x64/libort.so')), f.files.get('package/bin/napi-v6/linux/x64/libort.so'));
      assert.ok(existsSync(join(root, 'package.json')) && existsSync(join(root, 'dist/index.js')));
      assert.equal(existsSync(join(root, 'bin/napi-v6/win32')), false, 'no other platform');
      assert.equal(existsSync(join(root, 'bin/napi-v6/linux/arm64')), false, 'no other architecture');
      assert.ok(existsSync(join(cachedRuntimeDir(cache), 'node_modules', 'sharp', 'index.js')), 'the text-only stand-in for sharp');
      const last = progress.at(-1) as [number, number];
      assert.equal(last[0], last[1], 'progress reaches its announced total');
      // Installed once: a second call (another data dir) fetches nothing.
      const before = server.seen.length;
      const again = await installRuntime(tempDir(), { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, f.integrities) });
      assert.equal(again.alreadyInstalled, true);
      assert.equal(server.seen.length, before);
      assert.equal(locateRuntime(tempDir(), { workspace: false, cache }).where, 'cache');
    } finally {
      await server.close();
    }
  });

  it('refuses bytes that do not match a pinned hash, and installs nothing', async () => {
    const f = await fixture();
    const range = (f.pin.platforms['linux-x64'] as PinnedRange[])[0] as PinnedRange;
    const bad = Buffer.from(f.gz);
    const at = range.from + Math.floor((range.to - range.from) / 2);
    bad[at] = (bad[at] as number) ^ 0xff;
    const server = await registry(new Map([...f.routes, ['/fake-ort.tgz', bad]]));
    try {
      const cache = tempDir();
      await assert.rejects(installRuntime(null, { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, f.integrities) }), /failed verification|invalid|SHA-256/);
      assert.equal(existsSync(cachedRuntimeDir(cache)), false);
      // The registry naming another integrity for the tarball: refused before any byte of it is fetched.
      const seen = server.seen.filter((s) => s.url === '/fake-ort.tgz').length;
      await assert.rejects(installRuntime(null, { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, { ...f.integrities, 'fake-ort': 'sha512-other' }) }), /not the pinned one/);
      assert.equal(server.seen.filter((s) => s.url === '/fake-ort.tgz').length, seen);
    } finally {
      await server.close();
    }
  });

  it('resumes an interrupted range where it stopped', async () => {
    const f = await fixture();
    const first = (f.pin.platforms['linux-x64'] as PinnedRange[])[0] as PinnedRange;
    const cutAfter = Math.floor((first.to - first.from) / 2);
    // The small whole tarball comes first and is not cut; the cut hits the first range.
    const server = await registry(f.routes, { cutAfter: Math.max(cutAfter, f.common.length + 1) });
    try {
      const cache = tempDir();
      const opts = { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, f.integrities) };
      await assert.rejects(installRuntime(null, opts));
      const r = await installRuntime(null, opts);
      const asked = server.seen.filter((s) => s.url === '/fake-ort.tgz').map((s) => /^bytes=(\d+)-(\d+)$/.exec(s.range ?? '')?.slice(1).map(Number) ?? []);
      assert.deepEqual(asked[0], [first.from, first.to]);
      const [from, to] = asked[1] as number[];
      assert.ok((from as number) > first.from && to === first.to, `the second request asks for the rest only: ${JSON.stringify(asked)}`);
      assert.equal(r.route, 'ranges');
      assert.ok(r.downloadedBytes < rangeBytes(f.pin.platforms['linux-x64'] as PinnedRange[]) + f.common.length, 'what arrived before the cut is not fetched again');
    } finally {
      await server.close();
    }
  });

  it('a registry that ignores byte ranges: the whole tarball, checked by its integrity, this platform\'s files kept', async () => {
    const f = await fixture();
    const server = await registry(f.routes, { ranges: false });
    try {
      const cache = tempDir();
      const r = await installRuntime(null, { cache, pin: f.pin, platformKey: 'linux-x64', tarballs: f.tarballs, npm: npmFor(server.base, f.integrities) });
      assert.equal(r.route, 'whole');
      const root = join(cachedRuntimeDir(cache), 'node_modules', 'fake-ort');
      assert.deepEqual(readFileSync(join(root, 'bin/napi-v6/linux/x64/libort.so')), f.files.get('package/bin/napi-v6/linux/x64/libort.so'));
      assert.equal(existsSync(join(root, 'bin/napi-v6/win32')), false);
    } finally {
      await server.close();
    }
  });
});
