import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startFakeEmbedder } from '../semantic/fake-embedder.ts';
import { openTestEngine, seedCorpus, tempDirs } from './helpers.ts';
import { tokenizerIndexKey } from '../../src/text/tokenizer-check.ts';
import { recallText } from '../../src/cli/output.ts';

// The fake embedder's cosines live on another scale than a real model's: thresholds are per model.
const embedding = (url: string) => ({
  embedding: { provider: 'openai', baseUrl: url, model: 'fake-bigram', dimensions: 64, minIntervalMs: 0, timeoutMs: 1500, maxRetries: 1 },
  recall: { minSemantic: 0.3 },
});

test('hybrid recall: both channels score, the explanation says so; a dead endpoint degrades to lexical', async () => {
  const server = await startFakeEmbedder({ dims: 64, apiKey: 'sk-test-hybrid' });
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, { env: { HOME: dirs.root, ENGRAM_EMBEDDING_KEY: 'sk-test-hybrid' } }, embedding(server.url));
  try {
    await engine.vectorsSettled(); // the open embeds in the background
    const status = await engine.status();
    assert.equal(status.semantic.state, 'ready', status.semantic.reason ?? '');
    assert.equal(status.vectors, status.chunks, 'every chunk has a vector');
    const r = await engine.recall('数据库迁移之前的备份保留几份');
    assert.equal(r.explain.semantic.ran, true);
    assert.equal(r.hits[0]?.title, '数据库备份策略');
    assert.ok(r.hits[0]!.channels.semantic && r.hits[0]!.channels.lexical, 'found by both channels');
    assert.ok(r.hits.every((h) => h.channels.semantic === null || h.channels.semantic.score >= engine.config.recall.minSemantic));
    assert.equal((await engine.recall('好的,继续')).hits.length, 0);

    const lexicalOnly = await engine.recall('数据库迁移之前的备份保留几份', { only: 'lexical' });
    assert.equal(lexicalOnly.explain.semantic.ran, false);
    assert.match(lexicalOnly.explain.semantic.skipped ?? '', /only=lexical/);

    const modes = ['server-error', 'hang', 'malformed', 'wrong-dims', 'reset'] as const;
    for (const [i, mode] of modes.entries()) {
      server.setFault(mode);
      // A new query text each time: query vectors are cached, and a cached one would not meet the fault.
      const degraded = await engine.recall(`数据库迁移之前的备份保留几份${'？'.repeat(i + 1)}`);
      assert.equal(degraded.explain.semantic.ran, false, mode);
      assert.ok(degraded.explain.semantic.skipped, `${mode}: a reason is given`);
      assert.equal(degraded.hits[0]?.title, '数据库备份策略', `${mode}: lexical still answers`);
      assert.ok(!degraded.explain.gate.byGate['semantic-required'], `${mode}: semantic gates are skipped when the channel did not run`);
      assert.ok(!JSON.stringify(degraded).includes('sk-test-hybrid'), 'no secret in the explanation');
    }
    server.setFault('none');
  } finally {
    engine.close();
    await server.close();
  }
});

test('writes made while the endpoint is down are indexed lexically and say so', async () => {
  const server = await startFakeEmbedder({ dims: 64 });
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, embedding(server.url));
  try {
    server.setFault('server-error');
    const w = await engine.write({ content: '[09:00] 端点宕机时写入\n\n> 端点宕机也要能写。\n\n代号 omega-9 的记录。\n\nTag: omega-9' });
    assert.equal((await engine.recall('omega-9 记录', { only: 'lexical' })).hits[0]?.docId, w.docId);
    const report = await engine.index({ full: true });
    assert.ok(report.semantic.degradedBatches > 0, 'the build finishes and reports degraded batches');
  } finally {
    engine.close();
    await server.close();
  }
});

async function startFakeJudge(mode: { fail?: boolean }) {
  // Says "yes" with high probability when the statement's query and memory share a 2-char word.
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (mode.fail) {
        res.writeHead(503).end('down');
        return;
      }
      const content = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
      const query = /用户的话「(.*?)」/s.exec(content)?.[1] ?? '';
      const memory = content.split('记忆:\n')[1] ?? '';
      const pairs = [...query].map((c, i) => query.slice(i, i + 2)).filter((p) => p.length === 2 && !/[\s,。]/.test(p));
      const related = pairs.some((p) => memory.includes(p));
      const yes = related ? Math.log(0.95) : Math.log(0.1);
      const no = related ? Math.log(0.05) : Math.log(0.9);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ choices: [{ message: { content: related ? '是' : '否' }, logprobs: { content: [{ token: related ? '是' : '否', top_logprobs: [{ token: '是', logprob: yes }, { token: '否', logprob: no }] }] } }] }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((r) => server.close(r)) };
}

test('the relevance judge drops candidates it rates irrelevant, never adds, and failing leaves the result as it was', async () => {
  const mode: { fail?: boolean } = {};
  const judge = await startFakeJudge(mode);
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { judge: { enabled: true, baseUrl: judge.url, model: 'judge' }, recall: { minCoverage: 0 } });
  try {
    const query = '东京节点 443 端口和川菜馆';
    const without = await openTestEngine(dirs, { syncOnOpen: false }, { recall: { minCoverage: 0 } });
    const plain = await without.recall(query);
    without.close();
    const judged = await engine.recall(query);
    assert.equal(judged.explain.judge?.applied, true);
    const plainIds = new Set(plain.hits.map((h) => h.docId));
    assert.ok(judged.hits.every((h) => plainIds.has(h.docId)), 'the judge never adds');
    mode.fail = true;
    const failed = await engine.recall(query);
    assert.equal(failed.explain.judge?.applied, false);
    assert.match(failed.explain.judge?.reason ?? '', /503|judge/);
    assert.deepEqual(failed.hits.map((h) => h.docId), plain.hits.map((h) => h.docId), 'a failing judge leaves the result as it was');
  } finally {
    engine.close();
    await judge.close();
  }
});

test('test connection embeds a probe with draft settings and never leaks the key', async () => {
  const server = await startFakeEmbedder({ dims: 32, apiKey: 'sk-probe-key' });
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  try {
    const ok = await engine.testEmbedding({ provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'sk-probe-key' });
    assert.deepEqual([ok.ok, ok.dimensions], [true, 32]);
    const bad = await engine.testEmbedding({ provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'sk-wrong-key' });
    assert.equal(bad.ok, false);
    assert.ok(!JSON.stringify(bad).includes('sk-wrong-key'));
    assert.equal((await engine.testEmbedding({ provider: 'none' })).ok, false);
  } finally {
    engine.close();
    await server.close();
  }
});

test('changing the tokenizer re-tokenizes without re-embedding a single chunk', async () => {
  const server = await startFakeEmbedder({ dims: 64 });
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, embedding(server.url));
  try {
    await engine.vectorsSettled(); // the open embeds in the background
    const embeddedBefore = server.inputs;
    assert.ok(embeddedBefore > 0);
    await engine.saveSettings({ recall: { tokenizer: 'gram' } });
    assert.equal(engine.tokenizer.engine, 'gram');
    assert.equal((await engine.status()).tokenizer.builtWith, tokenizerIndexKey({ engine: 'gram' }), 'the stored tokens follow the new tokenizer');
    assert.equal(server.inputs, embeddedBefore, 'no chunk was sent to the embedder again');
    assert.equal((await engine.recall('数据库迁移之前的备份保留几份', { only: 'lexical' })).hits[0]?.title, '数据库备份策略');
  } finally {
    engine.close();
    await server.close();
  }
});

/** What the query gate read for each question, on the seed corpus with the gate always on. */
async function queryGateFeatures(questions: string[]) {
  const server = await startFakeEmbedder({ dims: 64 });
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs, {}, { ...embedding(server.url), recall: { minSemantic: 0.3, hybridGate: { queryGate: 'on' } } });
  try {
    await engine.vectorsSettled();
    const features = [];
    for (const q of questions) features.push((await engine.recall(q)).explain.gate.queryGate?.features);
    return features;
  } finally {
    engine.close();
    await server.close();
  }
}

test('the query gate explains what it read, the longest stretch of the question a note repeats among it', async () => {
  // 每次迁移之前复制数据库文件 is written in the backup note word for word; the paraphrase shares only words.
  const [verbatim, paraphrase] = await queryGateFeatures(['每次迁移之前复制数据库文件吗', '搬迁资料库以前要不要拷贝数据库']);
  assert.ok(verbatim && paraphrase, 'the gate judged both');
  assert.equal(verbatim.spanShare, Math.round((13 / 14) * 1000) / 1000, '13 of the question\'s 14 characters in a row');
  assert.ok(paraphrase.spanShare < verbatim.spanShare);
  assert.ok(verbatim.maxPhrase >= paraphrase.maxPhrase);
});

test('the query gate reads how much of the question one sentence of a note holds', async () => {
  // The Tokyo note: 起因是 nginx 占用了 443 端口。停掉 nginx 之后由 sing-box 监听 443,并把时区调整为 UTC+9。
  const [together, apart] = await queryGateFeatures(['停掉 nginx 之后时区调整成了什么', '起因和时区调整是什么']);
  assert.ok(together && apart, 'the gate judged both');
  assert.equal(together.sentenceShare, 1, 'every weighted word of the question in the second sentence');
  assert.ok(apart.sentenceShare < together.sentenceShare, `起因 is in the first sentence, 时区调整 in the second (${apart.sentenceShare})`);
  assert.ok(apart.maxCoverage > apart.sentenceShare, 'the note as a whole covers more of it than any one sentence');
});

test('hybrid recall: a note the question names by its title is kept below the hybrid bar, and the explanation says why', async () => {
  const server = await startFakeEmbedder({ dims: 64, apiKey: 'sk-test-named' });
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  // A bar no evidence reaches: every candidate the hybrid gate judges goes, unless the question names it.
  const strict = { ...embedding(server.url), recall: { minSemantic: 0.3, hybridGate: { threshold: 1.01, veto: 1.01 } } };
  const engine = await openTestEngine(dirs, { env: { HOME: dirs.root, ENGRAM_EMBEDDING_KEY: 'sk-test-named' } }, strict);
  try {
    await engine.vectorsSettled();
    const named = await engine.recall('《数据库备份策略》里保留几份？');
    assert.equal(named.explain.semantic.ran, true);
    assert.deepEqual(named.hits.map((h) => h.title), ['数据库备份策略']);
    assert.deepEqual(named.explain.gate.namedByQuery?.map((n) => n.title), ['数据库备份策略']);
    assert.ok(named.explain.gate.byGate.hybrid! > 0, 'the others still go');
    assert.match(named.explain.stages.find((s) => s.name === 'gate')?.note ?? '', /names their title \(数据库备份策略\)/);
    // The CLI says it too.
    assert.match(recallText(named), /^kept by name: 数据库备份策略 \(p [\d.]+ below the bar 1\.01/m);
    // The same question without the name: nothing passes the bar.
    const unnamed = await engine.recall('数据库的备份里保留几份？');
    assert.equal(unnamed.hits.length, 0);
    assert.equal(unnamed.explain.gate.namedByQuery, undefined);
  } finally {
    engine.close();
    await server.close();
  }
});
