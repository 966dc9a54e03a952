// One tokenizer everywhere (#13 item 11): a memory written by the engine (as the CLI and the plugin
// write it, with jieba) must be found by the production console on the same data, and the console
// must report jieba — not fall back to 1-/2-grams and re-stamp the index. Before the fix, Turbopack
// turned `require.resolve('@node-rs/jieba/package.json')` into a module number: the console ran
// `gram`, re-tokenised the whole index, and the CLI's memory was not found from the console.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openEngine } from '../packages/engine/src/engine.ts';
import { seedDiary } from './fixtures.ts';
import { ensureBuild, freePort, startConsole, type RunningConsole } from './server.ts';

const MEMORY = { title: '冰川钻探样本编号', content: '第七号冰芯的氧同位素比值异常偏高,需要复测。', tags: ['冰芯', '同位素'] };
const QUERY = '冰芯 氧同位素 复测';

interface TokenizerStatus {
  configured: string;
  active: string;
  fallbackReason: string | null;
  builtWith: string | null;
  mismatch: boolean;
}

describe('the production console uses the same tokenizer as the engine', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-e2e-tok-'));
  const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  let server: RunningConsole | null = null;
  let builtWith = '';

  before(async () => {
    ensureBuild((s) => console.log(`# ${s}`));
    mkdirSync(env.ENGRAM_DIARY_DIR, { recursive: true });
    seedDiary(env.ENGRAM_DIARY_DIR);
    // The CLI's and the plugin's side: the engine in this (plain node) process.
    const engine = await openEngine({ env });
    try {
      await engine.write(MEMORY);
      const s = await engine.status();
      assert.equal(s.tokenizer.active, 'jieba', 'jieba loads in plain node');
      // The manifest records the tokenizer with its terms version (text/tokenizer-check.ts): jieba+termsN.
      builtWith = s.tokenizer.builtWith ?? '';
      assert.match(builtWith, /^jieba\b/);
      assert.ok((await engine.recall(QUERY)).hits.some((h) => h.title === MEMORY.title), 'the engine itself finds the memory');
    } finally {
      engine.close();
    }
    server = await startConsole(env, await freePort());
  });
  after(async () => server?.stop());

  const query = async <T>(path: string, input?: unknown): Promise<T> => {
    const url = `${server!.url}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
    const res = await fetch(url);
    const body = (await res.json()) as { result?: { data: T }; error?: unknown };
    assert.equal(res.status, 200, JSON.stringify(body).slice(0, 500));
    return body.result!.data;
  };

  test('the console reports jieba, built with jieba, no mismatch', async () => {
    const status = await query<{ tokenizer: TokenizerStatus; warnings: string[] }>('index.status');
    assert.deepEqual(
      { active: status.tokenizer.active, builtWith: status.tokenizer.builtWith, mismatch: status.tokenizer.mismatch, fallback: status.tokenizer.fallbackReason },
      { active: 'jieba', builtWith: builtWith, mismatch: false, fallback: null },
      server!.output().slice(-2000),
    );
  });

  test('the console finds the memory the engine wrote', async () => {
    const { result } = await query<{ result: { hits: { title: string }[] } }>('recall.run', { query: QUERY });
    assert.ok(result.hits.some((h) => h.title === MEMORY.title), `hits: ${result.hits.map((h) => h.title).join(', ')}`);
  });

  test('after the console ran, the engine still finds it (the index was not re-stamped)', async () => {
    const engine = await openEngine({ env, syncOnOpen: false });
    try {
      const s = await engine.status();
      assert.equal(s.tokenizer.builtWith, builtWith);
      assert.equal(s.tokenizer.mismatch, false);
      assert.ok((await engine.recall(QUERY)).hits.some((h) => h.title === MEMORY.title));
    } finally {
      engine.close();
    }
  });
});
