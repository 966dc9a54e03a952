// The tRPC procedures against a real engine on a real libSQL file in a temp dir; "restart" closes the
// engine and opens a new one on the same folders.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TRPCError } from '@trpc/server';
import { openEngine, type Engine } from '@engram/engine';
import { runtimeFor, type ConsoleRuntime } from '../src/server/engine.ts';
import { createCaller } from '../src/server/root.ts';
import { createContext } from '../src/server/trpc.ts';

const root = mkdtempSync(join(tmpdir(), 'engram-console-'));
const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };

const ORIGIN = 'http://127.0.0.1:3999';
let engine: Engine;
let runtime: ConsoleRuntime;

async function start(extraEnv: Record<string, string> = {}) {
  engine = await openEngine({ env: { ...env, ...extraEnv } });
  runtime = await runtimeFor(engine);
}

/** A caller that looks like the console page: same origin, token header. */
const browser = () => createCaller(createContext(runtime, { headers: new Headers({ host: '127.0.0.1:3999', origin: ORIGIN, 'x-engram-token': runtime.token }) }));
const anonymous = (h: Record<string, string>) => createCaller(createContext(runtime, { headers: new Headers({ host: '127.0.0.1:3999', ...h }) }));

async function rejects(p: Promise<unknown>, code: TRPCError['code']): Promise<TRPCError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof TRPCError, `expected a TRPCError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

// Twenty different days that share the word 日常 (not copies of one note: near-duplicates count
// once for rarity, and one fact noted twenty times is rightly recalled).
const ERRANDS = ['去邮局寄了包裹给外婆', '修好了阳台漏水的水龙头', '在公园跑步遇见老同学', '给猫咪剪了指甲还洗了澡', '去银行办理了信用卡挂失', '整理书架捐出二十本旧书', '学做红烧肉结果烧糊了锅', '陪女儿练习钢琴考级曲目', '洗车时发现后胎扎了钉子', '参加社区垃圾分类讲座', '换了卧室窗帘和床单被罩', '帮邻居搬运一台旧冰箱', '在菜市场买到新鲜的螃蟹', '给阳台的绿萝换盆施肥', '排队两小时办好护照续签', '看牙医补了两颗蛀牙', '把电脑系统重装了一遍', '去花鸟市场买了两条金鱼', '给父母视频通话聊家常', '清理冰箱里过期的调料'];

function seed(n: number) {
  for (let i = 0; i < n; i++) {
    mkdirSync(join(env.ENGRAM_DIARY_DIR, '杂记'), { recursive: true });
    writeFileSync(
      join(env.ENGRAM_DIARY_DIR, '杂记', `2026-09-${String(i + 1).padStart(2, '0')}-note-${i}.txt`),
      `[10:0${i % 10}] 普通的一天 ${i}\n\n> 记录第 ${i} 天。\n\n今天做了一些日常的事情,编号 ${i},天气${i % 2 ? '晴' : '雨'}。${ERRANDS[i % ERRANDS.length]},前后忙了大半天才弄完。\n\nTag: 日常, 编号${i}\n`,
    );
  }
}

describe('tRPC procedures over a real engine', () => {
  before(async () => {
    seed(20);
    await start();
  });
  after(() => engine.close());

  test('list and status agree on the corpus', async () => {
    const api = browser();
    const list = await api.memories.list({});
    const status = await api.index.status();
    assert.equal(list.length, status.documents);
    assert.ok(status.chunks >= status.documents);
    assert.equal(list.reduce((a, m) => a + m.chunks, 0), status.chunks);
  });

  test('create → read → recall finds it and explains why', async () => {
    const api = browser();
    const created = await api.memories.create({
      title: '量子纠缠实验记录',
      content: '[21:14] 量子纠缠实验记录\n\n> 贝尔不等式测试\n\n用纠缠光子对做了贝尔不等式测试,违背度 2.7。\n\nTag: 量子纠缠, 贝尔不等式',
    });
    assert.ok(created.docId);
    const list = await api.memories.list({});
    assert.ok(list.some((m) => m.docId === created.docId));
    const detail = await api.memories.read({ id: created.docId });
    assert.match(detail.raw, /贝尔不等式/);
    assert.match(detail.contentHash, /^[0-9a-f]{40}$/);

    const { result, injection } = await api.recall.run({ query: '量子纠缠 贝尔不等式' });
    const hit = result.hits.find((h) => h.docId === created.docId);
    assert.ok(hit, `hits: ${JSON.stringify(result.hits.map((h) => h.title))}; gate: ${JSON.stringify(result.explain.gate)}`);
    assert.ok(hit.matched.some((m) => m.idf > 0));
    assert.ok(result.tokens.length > 0);
    assert.ok(injection.includes('量子纠缠实验记录'), 'the injected text names the hit');
  });

  test('a query of words every memory has injects nothing, and the explanation says why', async () => {
    const { result, injection } = await browser().recall.run({ query: '日常' });
    assert.deepEqual(result.hits, []);
    assert.equal(injection.trim(), '');
    assert.equal(result.explain.gate.noDistinctiveTokens, true);
    assert.ok(result.explain.gate.removed > 0, 'the candidates were found, then gated out');
    assert.ok(result.explain.gate.removals.every((r) => r.detail.length > 0));
  });

  test('save re-indexes; a stale hash is a CONFLICT and the file stays as saved', async () => {
    const api = browser();
    const first = (await api.memories.list({})).find((m) => m.title.startsWith('普通的一天'));
    assert.ok(first);
    const detail = await api.memories.read({ id: first.docId });
    const edited = detail.raw.replace(/天气./, '天气多云,傍晚去看了萤火虫');
    const saved = await api.memories.save({ id: first.docId, raw: edited, expectedHash: detail.contentHash });
    assert.match(saved.raw, /萤火虫/);
    // Asked as a question: one everyday word alone (萤火虫) is small talk as a message (recall.minLoneWordInformation).
    const { result } = await api.recall.run({ query: '哪天去看了萤火虫？' });
    assert.ok(result.hits.some((h) => h.docId === first.docId), 'the edit is searchable at once');
    await rejects(api.memories.save({ id: first.docId, raw: `${edited}\nmore`, expectedHash: detail.contentHash }), 'CONFLICT');
    assert.equal((await api.memories.read({ id: first.docId })).raw, edited);
  });

  test('archive hides the memory from the default list but keeps it', async () => {
    const api = browser();
    const before = await api.memories.list({});
    const victim = before.at(-1)!;
    await api.memories.archive({ id: victim.docId });
    const visible = await api.memories.list({});
    const all = await api.memories.list({ includeArchived: true });
    assert.equal(visible.some((m) => m.docId === victim.docId), false);
    assert.ok(all.some((m) => m.archived));
    assert.equal(all.length, before.length);
    await rejects(api.memories.archive({ id: 'no-such-memory' }), 'NOT_FOUND');
  });

  test('bad input is a typed BAD_REQUEST naming the field, never a crash', async () => {
    const api = browser();
    const e = await rejects(api.memories.create({ content: '' }), 'BAD_REQUEST');
    assert.match(e.message, /content/);
    await rejects(api.recall.run({ query: '   ' }), 'BAD_REQUEST');
    await rejects(api.memories.read({ id: 'missing-id' }), 'NOT_FOUND');
    const invalid = await rejects(api.settings.save({ patch: { recall: { kMax: 999 } } }), 'BAD_REQUEST');
    assert.match(invalid.message, /kMax/);
  });

  test('mutations need the token and an allowed origin; queries do not', async () => {
    await rejects(anonymous({ origin: ORIGIN }).memories.create({ content: 'x' }), 'FORBIDDEN');
    await rejects(anonymous({ origin: 'http://evil.example', 'x-engram-token': runtime.token }).memories.create({ content: 'x' }), 'FORBIDDEN');
    await rejects(anonymous({ 'x-engram-token': 'wrong' }).settings.save({ patch: {} }), 'FORBIDDEN');
    await rejects(anonymous({}).index.rebuild({}), 'FORBIDDEN');
    assert.ok(Array.isArray(await anonymous({ origin: 'http://evil.example' }).memories.list({})));
  });

  test('rebuild reports the corpus it indexed', async () => {
    const report = await browser().index.rebuild({ full: true });
    const status = await browser().index.status();
    assert.equal(report.mode, 'full');
    assert.equal(report.documents, status.documents);
    assert.ok(status.builtAt);
  });

  test('a change of embedding fingerprint asks for confirmation and changes nothing until confirmed', async () => {
    const before = await browser().settings.get();
    const res = await browser().settings.save({ patch: { embedding: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'probe', dimensions: 8 } } });
    assert.equal(res.ok, false);
    assert.ok(!res.ok && res.requiresConfirmation && res.reasons.length > 0);
    const after = await browser().settings.get();
    assert.deepEqual(after.effective.embedding, before.effective.embedding);
    assert.deepEqual(after.overlay, before.overlay);
  });

  test('settings: save A → restart → save B keeps A; secrets come back masked and survive an echo', async () => {
    await browser().settings.save({ patch: { inject: { header: '首行说明 A' }, embedding: { apiKey: 'sk-real-secret' } } });
    engine.close();
    await start();
    const afterRestart = await browser().settings.get();
    assert.equal(afterRestart.effective.inject.header, '首行说明 A');
    assert.notEqual(afterRestart.effective.embedding.apiKey, 'sk-real-secret');
    assert.equal(JSON.stringify(afterRestart).includes('sk-real-secret'), false, 'the secret never leaves the server');

    // Save B, echoing the masked key back the way the UI does.
    await browser().settings.save({ patch: { recall: { kBase: 6 }, embedding: { apiKey: afterRestart.effective.embedding.apiKey } } });
    engine.close();
    await start();
    const view = await browser().settings.get();
    assert.equal(view.effective.inject.header, '首行说明 A');
    assert.equal(view.effective.recall.kBase, 6);
    assert.equal(engine.config.embedding.apiKey, 'sk-real-secret');
  });

  test('env wins over the overlay and is reported as locked', async () => {
    await browser().settings.save({ patch: { console: { allowedOrigins: ['http://127.0.0.1:7000'] } } });
    engine.close();
    await start({ ENGRAM_ALLOWED_ORIGINS: 'http://127.0.0.1:7860' });
    const view = await browser().settings.get();
    assert.deepEqual(view.effective.console.allowedOrigins, ['http://127.0.0.1:7860']);
    assert.ok(view.lockedByEnv.includes('console.allowedOrigins'));
    assert.deepEqual(runtime.allowedOrigins, ['http://127.0.0.1:7860']);
    const framed = anonymous({ origin: 'http://127.0.0.1:7860', 'x-engram-token': runtime.token });
    assert.equal((await framed.settings.save({ patch: { recall: { kMin: 2 } } })).ok, true);
  });

  test('system.health names the folders the engine opened', async () => {
    const h = await browser().system.health();
    assert.equal(h.ok, true);
    assert.equal(h.dataDir, env.ENGRAM_DATA_DIR);
    assert.equal(h.diaryDir, env.ENGRAM_DIARY_DIR);
  });
});

describe('engine capabilities the console offers by name', () => {
  let eng: Engine;
  let rt: ConsoleRuntime;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-console-opt-'));
    mkdirSync(join(dir, 'diary'));
    eng = await openEngine({ env: { ENGRAM_DIARY_DIR: join(dir, 'diary'), ENGRAM_DATA_DIR: join(dir, 'data'), HOME: dir } });
    rt = await runtimeFor(eng);
  });
  after(() => eng.close());
  const api = () => createCaller(createContext(rt, { headers: new Headers({ host: 'localhost', 'x-engram-token': rt.token }) }));

  test('the semantic-write preview parses blocks, or says the engine lacks it', async () => {
    const text = '回复正文\n<<<DailyNoteStart>>>\ncommand: create\ntitle: 预览测试\ntags: a, b\n\n[10:00] 预览测试的正文\n<<<DailyNoteEnd>>>\n';
    try {
      const preview = await api().settings.preview({ text });
      assert.equal(preview.blocks.length, 1);
      assert.equal(preview.blocks[0]!.title, '预览测试');
      assert.deepEqual(preview.errors, []);
    } catch (e) {
      assert.ok(e instanceof TRPCError && e.code === 'PRECONDITION_FAILED', String(e));
    }
  });

  test('the built-in guideline is text, or the engine says it lacks it', async () => {
    try {
      const { text } = await api().settings.builtinTemplate();
      assert.ok(text.length > 200);
    } catch (e) {
      assert.ok(e instanceof TRPCError && e.code === 'PRECONDITION_FAILED', String(e));
    }
  });
});
