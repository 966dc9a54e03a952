// Settings saves that once escaped (#13 items 4, 5, 7, 10): moving the diary root without saying so,
// folder values that leave the diary root, keys sent to an endpoint they were not saved for, patches
// nested deep enough to overflow the stack or store junk, and lists without caps.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEngine, type Engine } from '../../src/engine.ts';
import { isEngramError } from '../../src/errors.ts';

function dirs() {
  const root = mkdtempSync(join(tmpdir(), 'engram-settings-guard-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  return { root, dataDir };
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string } | 'saved'> {
  try {
    const r = (await p) as { ok?: boolean; requiresConfirmation?: boolean; reasons?: string[] };
    if (r && r.ok === false) return { code: 'requires-confirmation', message: (r.reasons ?? []).join('; ') };
    return 'saved';
  } catch (e) {
    if (isEngramError(e)) return { code: e.code, message: e.message };
    throw e;
  }
}

const nested = (depth: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
};

describe('diary root and folders (item 4)', () => {
  const d = dirs();
  // The README default: no ENGRAM_DIARY_DIR, the diaries live under the data folder.
  const env = { ENGRAM_DATA_DIR: d.dataDir, HOME: d.root };
  let engine: Engine;
  after(() => engine?.close());

  test('a system directory is never accepted as the diary root, confirmed or not', async () => {
    engine = await openEngine({ env, createDiaryDir: true });
    for (const dir of ['/etc', '/', '/usr/lib', '/proc', d.root.replace(/\/[^/]+$/, '') === '' ? '/' : '/bin']) {
      const r = await refusal(engine.saveSettings({ diaryDir: dir }, { confirmDiaryDir: dir } as never));
      assert.notEqual(r, 'saved', dir);
      assert.equal((await engine.getSettings()).effective.diaryDir.startsWith('/etc'), false);
    }
  });

  test('another diary root needs a confirmation that names it', async () => {
    const other = join(d.root, 'elsewhere');
    mkdirSync(other);
    const unconfirmed = await refusal(engine.saveSettings({ diaryDir: other }));
    assert.notEqual(unconfirmed, 'saved');
    assert.ok(typeof unconfirmed === 'object' && unconfirmed.message.includes(other), JSON.stringify(unconfirmed));
    const wrongName = await refusal(engine.saveSettings({ diaryDir: other }, { confirmDiaryDir: join(d.root, 'x') } as never));
    assert.notEqual(wrongName, 'saved');
    assert.notEqual((await engine.getSettings()).effective.diaryDir, other);
    const confirmed = await refusal(engine.saveSettings({ diaryDir: other }, { confirmDiaryDir: other } as never));
    assert.equal(confirmed, 'saved');
    assert.equal((await engine.getSettings()).effective.diaryDir, other);
  });

  test('folder values must be relative paths inside the diary root', async () => {
    for (const bad of ['../outside', '/etc', 'a/../../b', '..', 'C:\\Windows', 'a\0b', '\\\\server\\share']) {
      for (const key of ['folder', 'archiveFolder']) {
        const r = await refusal(engine.saveSettings({ diary: { [key]: bad } }));
        assert.ok(r !== 'saved' && r.code !== 'requires-confirmation', `${key}=${JSON.stringify(bad)} was saved`);
      }
    }
    assert.equal(await refusal(engine.saveSettings({ diary: { folder: '工作/周报', archiveFolder: '已整理' } })), 'saved');
    // A write still works afterwards.
    await engine.write({ title: '文件夹检查', content: '文件夹设置之后写入仍然正常。', tags: ['检查'] });
  });
});

describe('payload shape (items 7 and 10)', () => {
  const d = dirs();
  const env = { ENGRAM_DATA_DIR: d.dataDir, HOME: d.root };
  let engine: Engine;
  after(() => engine?.close());

  test('a patch nested 10,000 deep is a bad-input refusal, not a stack overflow', async () => {
    engine = await openEngine({ env, createDiaryDir: true });
    const r = await refusal(engine.saveSettings({ recall: nested(10_000) }));
    assert.ok(r !== 'saved' && r.code === 'bad-input', JSON.stringify(r).slice(0, 200));
  });

  test('unknown keys (deep or shallow) are refused with their path, and nothing is stored', async () => {
    const deep = await refusal(engine.saveSettings({ recall: nested(1000) }));
    assert.ok(deep !== 'saved' && deep.code === 'bad-input' && /nested deeper/.test(deep.message), JSON.stringify(deep).slice(0, 200));
    for (const p of [{ recall: { n: nested(2) } }, { junk: 1 }, { recall: { notAKey: 2 } }, { runtime: { memories: [], extra: true } }]) {
      const r = await refusal(engine.saveSettings(p));
      assert.ok(r !== 'saved' && r.code === 'bad-input' && /unknown setting/.test(r.message), JSON.stringify(r).slice(0, 200));
    }
    assert.deepEqual(Object.keys((await engine.getSettings()).overlay).filter((k) => k === 'junk'), []);
    assert.equal(JSON.stringify((await engine.getSettings()).overlay).includes('notAKey'), false);
  });

  test('junk already in the overlay is dropped on the next save', async () => {
    // Plant junk the way an older build stored it: straight in the overlay row.
    (engine as unknown as { overlay: Record<string, unknown> }).overlay = { recall: { kBase: 7, junkKey: nested(50) }, oldJunk: 1 };
    assert.equal(await refusal(engine.saveSettings({ recall: { kMax: 9 } })), 'saved');
    const overlay = (await engine.getSettings()).overlay as Record<string, Record<string, unknown>>;
    assert.equal(overlay.recall?.kBase, 7);
    assert.equal(overlay.recall?.kMax, 9);
    assert.equal('junkKey' in (overlay.recall ?? {}), false);
    assert.equal('oldJunk' in overlay, false);
    // Naming junk with null (what a "remove" button sends) is accepted, not refused as unknown.
    (engine as unknown as { overlay: Record<string, unknown> }).overlay = { oldJunk: nested(20) };
    assert.equal(await refusal(engine.saveSettings({ oldJunk: null })), 'saved');
    assert.equal('oldJunk' in (await engine.getSettings()).overlay, false);
  });

  test('lists and prompt texts are capped with a clear message', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ text: `记忆 ${i}`, critical: false }));
    const r = await refusal(engine.saveSettings({ runtime: { memories: many } }));
    assert.ok(r !== 'saved' && /runtime\.memories/.test(r.message), JSON.stringify(r).slice(0, 300));
    for (const p of [
      { runtime: { memories: [{ text: 'x'.repeat(100_000) }] } },
      { inject: { header: 'x'.repeat(100_000) } },
      { runtime: { intro: 'x'.repeat(100_000) } },
      { diary: { templateText: 'x'.repeat(1_000_000) } },
      { recall: { userDict: Array.from({ length: 200_000 }, (_, i) => `词${i}`) } },
      { aliases: Array.from({ length: 50_000 }, (_, i) => [`a${i}`, `b${i}`]) },
      { compaction: { header: 'x'.repeat(100_000) } },
      { console: { allowedOrigins: Array.from({ length: 10_000 }, (_, i) => `http://h${i}.example`) } },
    ]) {
      const res = await refusal(engine.saveSettings(p));
      assert.notEqual(res, 'saved', JSON.stringify(p).slice(0, 80));
    }
    assert.equal(await refusal(engine.saveSettings({ runtime: { memories: [{ text: '用户喜欢简洁的回答', critical: true }] } })), 'saved');
  });
});

describe('keys go only to the endpoint they were saved for (item 5)', () => {
  /** A catcher: records every Authorization header it receives. */
  async function catcher() {
    const got: string[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      got.push(String(req.headers.authorization ?? ''));
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    return { got, url: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  test('testEmbedding with another base URL does not reuse the saved key; saving a new baseUrl drops env keys', async () => {
    const d = dirs();
    const trap = await catcher();
    const env = {
      ENGRAM_DATA_DIR: d.dataDir,
      HOME: d.root,
      ENGRAM_EMBEDDING_KEY: 'sk-planted-embedding-key',
      ENGRAM_JUDGE_KEY: 'sk-planted-judge-key',
    };
    const cfgFile = join(d.root, 'engram.json');
    writeFileSync(cfgFile, JSON.stringify({ embedding: { provider: 'none', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, judge: { baseUrl: 'http://127.0.0.1:9/v1', model: 'j' } }));
    const engine = await openEngine({ env: { ...env, ENGRAM_CONFIG: cfgFile }, createDiaryDir: true });
    try {
      const probe = await engine.testEmbedding({ provider: 'openai', baseUrl: trap.url, model: 'm', apiKey: '••••••••' });
      assert.equal(probe.ok, false);
      const probe2 = await engine.testEmbedding({ provider: 'openai', baseUrl: trap.url, model: 'm' });
      assert.equal(probe2.ok, false);
      await engine.saveSettings({ embedding: { baseUrl: trap.url }, judge: { baseUrl: trap.url, enabled: true } }, { confirm: 'save-only' });
      const eff = (engine as unknown as { config: { embedding: { apiKey: string }; judge: { apiKey: string } } }).config;
      assert.equal(eff.embedding.apiKey, '', 'the env embedding key follows a new base URL');
      assert.equal(eff.judge.apiKey, '', 'the env judge key follows a new base URL');
      await engine.recall('测试 查询 关键词', {}).catch(() => undefined);
      await engine.testEmbedding({}).catch(() => undefined);
      for (const h of trap.got) assert.equal(/sk-planted/.test(h), false, `catcher received ${h}`);
      // A key typed again for the new endpoint is used there.
      const typed = await engine.testEmbedding({ provider: 'openai', baseUrl: trap.url, model: 'm', apiKey: 'sk-typed-for-trap' });
      assert.equal(typed.ok, false);
      assert.ok(trap.got.some((h) => h.includes('sk-typed-for-trap')), 'a freshly typed key reaches the endpoint it was typed for');
      assert.equal(trap.got.some((h) => /sk-planted/.test(h)), false);
      // Moving back to the deploy base URL uses the deploy key again.
      await engine.saveSettings({ embedding: { baseUrl: 'http://127.0.0.1:9/v1' }, judge: { baseUrl: 'http://127.0.0.1:9/v1' } }, { confirm: 'save-only' });
      const back = (engine as unknown as { config: { embedding: { apiKey: string } } }).config;
      assert.equal(back.embedding.apiKey, 'sk-planted-embedding-key');
    } finally {
      engine.close();
      await trap.close();
    }
    assert.ok(readFileSync(cfgFile, 'utf8').length > 0);
  });
});

describe('a user name or password in an endpoint URL', () => {
  const d = dirs();
  const secret = 'hunter2-pw';
  const env = { ENGRAM_DATA_DIR: d.dataDir, HOME: d.root, ENGRAM_JUDGE_BASE_URL: `https://me:${secret}@judge.example/v1` };
  let engine: Engine;
  after(() => engine?.close());

  test('is never shown in Settings, and a save that brings one is refused with where the key goes', async () => {
    engine = await openEngine({ env, createDiaryDir: true });
    const shown = JSON.stringify(await engine.getSettings());
    assert.ok(!shown.includes(secret), shown);
    assert.match(shown, /judge\.example\/v1/, 'the rest of the address is shown');
    const r = await refusal(engine.saveSettings({ embedding: { provider: 'openai', baseUrl: 'https://u:p@emb.example/v1', model: 'm' } }));
    assert.ok(typeof r === 'object' && r.code === 'bad-input' && /embedding\.apiKey/.test(r.message), JSON.stringify(r));
    assert.ok(!JSON.stringify(await engine.getSettings()).includes('emb.example'), 'nothing saved');
  });
});
