// Remote mode end to end: the engine's database is a real libSQL server (sqld) started here.
// index → recall → write → recall; then the server goes away: recall answers from the last state,
// a write keeps its file and says the index is behind; the server comes back: the write is indexed.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startSqld, type SqldServer } from '../../../db/test/sqld.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

let server: SqldServer;
before(async () => {
  server = await startSqld();
});
after(async () => {
  await server?.stop();
});

test('remote libSQL: index, recall, write, recall; unreachable server keeps recall and the file; back again, it catches up', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { databaseUrl: server.url });
  try {
    assert.equal(engine.database.filePath, null, 'the database is the server, not a file');
    assert.equal(existsSync(join(dirs.dataDir, 'engram.db')), false, 'no embedded database was created');
    const status = await engine.status();
    assert.equal(status.documents, 5);
    assert.equal(status.databaseUrl, server.url);

    const first = await engine.recall('东京节点 443 端口');
    assert.equal(first.hits[0]?.path, '2026-10-20-tokyo-1a2b3c4d.txt');
    assert.ok(first.hits[0]!.text.includes('443'), 'chunk text comes from the server');

    const w = await engine.write({ title: '大阪节点迁移', content: '大阪节点从 Vultr 迁移到 Linode,带宽提升到 1Gbps,迁移窗口在周二凌晨。', tags: ['大阪节点', '迁移'] });
    const second = await engine.recall('大阪节点 迁移 Linode');
    assert.equal(second.hits[0]?.docId, w.docId);

    // A second engine with another diary folder (another machine) reads the server: it sees the
    // owner's write, does not sync its own (empty) folder into it, and refuses to write.
    const reader = await openTestEngine(tempDirs(), {}, { databaseUrl: server.url });
    try {
      assert.match(reader.indexOwner ?? '', /:/);
      assert.equal((await reader.status()).documents, 6, 'opening did not remove the owner\'s rows');
      assert.equal((await reader.recall('大阪节点 迁移 Linode')).hits[0]?.docId, w.docId);
      await assert.rejects(reader.write({ title: '别处', content: '另一台机器上的写入,应当被拒绝并说明原因。' }), /indexed by/);
    } finally {
      reader.close();
    }
    assert.equal((await engine.status()).documents, 6);

    await server.stop({ remove: false });
    const offline = await engine.recall('东京节点 443 端口');
    assert.equal(offline.hits[0]?.path, '2026-10-20-tokyo-1a2b3c4d.txt', 'recall answers from the last state');
    assert.deepEqual(offline.hits.map((h) => h.text), first.hits.map((h) => h.text), 'texts cut from the files match the indexed ones');
    assert.match(engine.live.unreachable ?? '', /unreachable/);

    const files = () => readdirSync(dirs.diaryDir).filter((f) => f.endsWith('.txt')).length;
    const before = files();
    await assert.rejects(
      engine.write({ title: '名古屋节点', content: '名古屋节点的防火墙规则改为只放行 443 与 22 端口,其余全部拒绝。', tags: ['名古屋节点'] }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'database-unreachable');
        assert.match(e.message, /is saved in the diary folder/);
        assert.match(e.message, new RegExp(`unreachable at ${server.url.replace(/[.]/g, '\\.')}`));
        return true;
      },
    );
    assert.equal(files(), before + 1, 'the memory is on disk');
    const saved = readdirSync(dirs.diaryDir).find((f) => f.includes('名古屋'));
    assert.ok(saved && readFileSync(join(dirs.diaryDir, saved), 'utf8').includes('防火墙规则'));

    await server.restart();
    // The next write indexes the one that waited, too.
    await engine.write({ title: '福冈节点', content: '福冈节点的证书改由 acme.sh 自动续期,每六十天一次,续期日志写入 /var/log/acme。', tags: ['福冈节点'] });
    const back = await engine.recall('名古屋节点 防火墙');
    assert.ok(back.hits.some((h) => h.path === saved), `the write made while the server was down is indexed: ${JSON.stringify(back.hits.map((h) => h.path))}`);
    assert.equal(engine.live.unreachable, null);
    assert.equal(engine.pendingIndexPaths.size, 0);
  } finally {
    engine.close();
  }
});

test('a token written into the database URL never leaves the engine: settings and status show the URL without it', async () => {
  // libSQL reads an auth token from the URL (?authToken=…, the form Turso hands out); the settings
  // view and the status go to the browser (Settings, Index) and into bug reports.
  const planted = 'planted-URLTOKEN-5c4b3a29';
  const at = new URL(server.url);
  const engine = await openTestEngine(tempDirs(), {}, { databaseUrl: `http://${at.host}/?authToken=${planted}` });
  try {
    const shown = JSON.stringify({ settings: engine.getSettings(), status: await engine.status() });
    assert.ok(!shown.includes(planted), 'the planted token is shown');
    assert.equal(engine.getSettings().effective.databaseUrl, `http://${at.host}/`);
    assert.equal((await engine.status()).databaseUrl, `http://${at.host}/`);
  } finally {
    engine.close();
  }
});
