// The local provider against the real model (bge-small-zh-v1.5, installed with `engram model
// install`). CI installs it (.ci/run, cached by its pinned hash) and sets ENGRAM_TEST_MODEL_DATA_DIR;
// elsewhere these tests are skipped unless that variable points at a data dir holding the model.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { installModel, installedModel, modelDirOf } from '../../src/model/install.ts';
import { EmbeddingFault } from '../../src/semantic/embedding-fault.ts';
import { fingerprintOf } from '../../src/semantic/fingerprint.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';
import { cosine } from '../../src/semantic/vector-index.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
// What these tests install goes to their own model cache, never one a later test (or the user) reads.
process.env.ENGRAM_MODEL_CACHE = mkdtempSync(join(tmpdir(), 'engram-real-model-cache-'));
after(() => rmSync(process.env.ENGRAM_MODEL_CACHE as string, { recursive: true, force: true }));
const available = Boolean(source && installedModel(source));
if (!available && process.env.CI) throw new Error('CI must run the real-model tests: set ENGRAM_TEST_MODEL_DATA_DIR to a data dir with the model (.ci/run does)');
const skip = available ? false : 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR; .ci/run installs it)';

describe('local provider with bge-small-zh-v1.5', { skip }, () => {
  let dir: string;
  let e: LocalEmbedder;
  before(async () => {
    dir = modelDirOf(source as string);
    e = await LocalEmbedder.load(dir, { model: 'bge-small-zh-v1.5', threads: 2 });
  });
  after(async () => e?.dispose());

  it('pools with [CLS], as BGE is trained, and records it in the fingerprint', () => {
    assert.equal(e.pooling, 'cls');
    assert.equal(e.dimensions, 512);
    assert.equal(e.maxTokens, 512);
    const fp = fingerprintOf(configSchema.parse({ embedding: { provider: 'local', modelDir: dir } }).embedding, { size: 800, overlap: 120 });
    assert.equal(fp.pooling, 'cls');
    const mean = fingerprintOf(configSchema.parse({ embedding: { provider: 'local', modelDir: dir, pooling: 'mean' } }).embedding, { size: 800, overlap: 120 });
    assert.equal(mean.pooling, 'mean');
  });

  it('puts a paraphrase nearer than an unrelated text', async () => {
    const [q, para, other] = await e.embed(['猫把花盆从窗台上碰掉了', '我们家的猫把窗台上的植物打翻了', '东京节点的 443 端口被防火墙封了']);
    assert.ok(cosine(q!, para!) > cosine(q!, other!) + 0.1, `${cosine(q!, para!)} vs ${cosine(q!, other!)}`);
  });

  it('embeds a text over 512 tokens in windows, so its tail counts', async () => {
    const filler = '今天整理了很多关于项目排期和会议安排的琐碎事项，大家讨论了下一季度的预算。'.repeat(20);
    const tail = '最后确认东京节点改用八四四三端口，防火墙规则已经更新。';
    const long = filler + tail;
    const windows = e.windowsOf(long);
    assert.ok(windows.length >= 2, `windows: ${windows.length}`);
    assert.ok(windows.every((w) => w.length <= 512));
    const head = filler.slice(0, 505);
    const [vLong, vHead, vQuery] = await e.embed([long, head, '东京节点现在用哪个端口']);
    assert.ok(cosine(vQuery!, vLong!) > cosine(vQuery!, vHead!), 'the windowed vector carries the tail the truncated one drops');
  });

  it('honours the timeout and the abort signal', async () => {
    const texts = Array.from({ length: 48 }, (_, i) => `第 ${i} 段：${'很长的一段记忆文本，用来让一次嵌入花上一点时间。'.repeat(30)}`);
    await assert.rejects(e.embed(texts, { timeoutMs: 5 }), (err: unknown) => err instanceof EmbeddingFault && err.kind === 'timeout');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 5);
    await assert.rejects(e.embed(texts, { signal: ac.signal }), (err: unknown) => err instanceof EmbeddingFault && err.kind === 'aborted');
  });

  it('adds the query instruction to queries only', async () => {
    const withInstruction = await LocalEmbedder.load(dir, { model: 'bge-small-zh-v1.5', queryInstruction: '为这个句子生成表示以用于检索相关文章：' });
    try {
      const [doc] = await withInstruction.embed(['端口处置']);
      const [query] = await withInstruction.embed(['端口处置'], { purpose: 'query' });
      const [plain] = await e.embed(['端口处置'], { purpose: 'query' });
      assert.ok(cosine(doc!, plain!) > 0.9999, 'documents never get the instruction');
      assert.ok(cosine(query!, plain!) < 0.999, 'queries do');
    } finally {
      await withInstruction.dispose();
    }
  });
});

describe('engine with provider auto and the installed model', { skip }, () => {
  const roots: string[] = [];
  after(() => {
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it('installs --from the folder, recalls semantically by default, and a new memory embeds only itself', async () => {
    const dirs = tempDirs();
    roots.push(dirs.root);
    await installModel({ dataDir: dirs.dataDir, from: modelDirOf(source as string) });
    seedCorpus(dirs.diaryDir);
    const engine = await openTestEngine(dirs);
    try {
      await engine.vectorsSettled(); // the open embeds in the background
      const st = await engine.status();
      assert.equal(st.semantic.state, 'ready', st.semantic.reason ?? '');
      assert.equal(st.semantic.provider, 'local');
      const before = st.vectors;
      assert.ok(before >= 5);
      const r = await engine.recall('东京节点的 443 端口后来怎么处理的');
      assert.equal(r.explain.semantic.ran, true);
      assert.ok(r.explain.semantic.background && r.explain.semantic.background.std > 0);
      assert.equal(r.hits[0]?.title, '东京节点 443 端口处置');
      assert.ok(r.hits[0]?.evidence && r.hits[0].evidence.z > 1, 'the evidence is reported with the hit');
      const w = await engine.write({ title: '新的一条记忆', content: '周三下午和设计师确认了登录页的配色方案。', tags: ['设计'] });
      assert.equal(w.semanticIndexed, true);
      await engine.vectorsSettled(); // embedded after the write's lock is released
      assert.equal((await engine.status()).vectors, before + 1, 'one memory written = one chunk embedded');
    } finally {
      engine.close();
    }
  });

  it('without the model, auto is lexical with the reason; a fresh data dir never crashes', async () => {
    const dirs = tempDirs();
    roots.push(dirs.root);
    seedCorpus(dirs.diaryDir);
    // A user whose model cache is empty (the test above filled this file's own).
    const shared = process.env.ENGRAM_MODEL_CACHE;
    process.env.ENGRAM_MODEL_CACHE = join(dirs.root, 'empty-model-cache');
    const engine = await openTestEngine(dirs);
    process.env.ENGRAM_MODEL_CACHE = shared;
    try {
      const st = await engine.status();
      assert.equal(st.semantic.state, 'off');
      assert.match(st.semantic.reason ?? '', /no local embedding model installed/);
      assert.ok((await engine.recall('东京节点的 443 端口')).hits.length > 0);
    } finally {
      engine.close();
    }
  });
});

void mkdtempSync;
void tmpdir;
void join;
