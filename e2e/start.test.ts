// What a person sees when the production console starts (scripts/start.mjs): one block with the
// address, the diary and data folders, the model and how to stop — not Next's banner — and a build
// without warnings (a clean checkout's build has none: the last one was the model runtime's import).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openEngine } from '@engram/engine';
import { ensureBuild, freePort, startConsole, type RunningConsole } from './server.ts';

describe('npm start', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-e2e-start-'));
  const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  let server: RunningConsole | null = null;

  before(async () => {
    ensureBuild((s) => console.log(`# ${s}`));
    mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
    server = await startConsole(env, await freePort());
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('prints one block: address, folders, model, how to stop', async () => {
    const out = server!.output();
    assert.match(out, new RegExp(`地址 url +http://127\\.0\\.0\\.1:${server!.port}\\n`));
    assert.ok(out.includes(`日记 diary   ${env.ENGRAM_DIARY_DIR}\n`), out);
    assert.ok(out.includes(`数据 data    ${env.ENGRAM_DATA_DIR}\n`), out);
    // The test's own model cache is empty (scripts/test-isolation.mjs): recall is lexical, and the line says how to add the model.
    assert.match(out, /模型 model +\S+ 未安装：只用关键词召回；安装：npx engram model install/);
    assert.match(out, /停止 stop +Ctrl\+C/);
    assert.doesNotMatch(out, /▲ Next\.js|- Local:|✓ Ready in/, "Next's banner is held back");
    const page = await fetch(server!.url);
    assert.equal(page.status, 200);
  });
});

describe('npm start after the diary folder was moved from Settings', { timeout: 300_000 }, () => {
  // The move lives in the data dir's settings, which the engine reads and the config file does not:
  // the block names the folder the running engine opened.
  const root = mkdtempSync(join(tmpdir(), 'engram-e2e-start-moved-'));
  const env = { ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  const moved = join(root, 'moved-diary');
  let server: RunningConsole | null = null;

  before(async () => {
    ensureBuild((s) => console.log(`# ${s}`));
    mkdirSync(moved, { recursive: true });
    const engine = await openEngine({ env, createDiaryDir: true });
    try {
      const saved = await engine.saveSettings({ diaryDir: moved }, { confirmDiaryDir: moved });
      assert.equal(saved.ok, true, JSON.stringify(saved));
    } finally {
      await engine.close();
    }
    server = await startConsole(env, await freePort());
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test("the block's diary folder is the moved one", () => {
    const out = server!.output();
    assert.ok(out.includes(`日记 diary   ${moved}\n`), out);
    assert.ok(out.includes(`数据 data    ${env.ENGRAM_DATA_DIR}\n`), out);
  });
});
