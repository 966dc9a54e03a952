import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { REBUILD_ACTION, SemanticChannel, type SemanticSearchResult } from '../../src/semantic/channel.ts';
import { VectorStore, vectorBlob } from '../../src/semantic/vector-store.ts';
import { fakeEmbedding, startFakeEmbedder, type FakeEmbedder, type FaultMode, type FaultOptions } from './fake-embedder.ts';
import { CORPUS, captureLog, corpusChunks, embeddingConfig, fingerprintText, openClient, tempDbUrl } from './helpers.ts';

const KEY = 'sk-test-SECRET-0123456789';
const DIMS = 32;

let server: FakeEmbedder;
before(async () => {
  server = await startFakeEmbedder({ dims: DIMS, apiKey: KEY });
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  server.setFault('none');
  server.setSeed('');
  server.setLatency(0);
  server.reset();
});

function openaiConfig(over: Record<string, unknown> = {}, chunk: { size?: number; overlap?: number } = {}) {
  return embeddingConfig(
    { provider: 'openai', baseUrl: server.url, model: 'fake-embed-1', apiKey: KEY, dimensions: 0, batchSize: 4, concurrency: 2, minIntervalMs: 0, timeoutMs: 2000, maxRetries: 2, ...over },
    chunk,
  );
}

async function open(url: string, over: Record<string, unknown> = {}, chunk: { size?: number; overlap?: number } = {}, fetchImpl?: typeof fetch) {
  const client = openClient(url);
  const cfg = openaiConfig(over, chunk);
  const logs = captureLog();
  const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk, log: logs.log, backoffBaseMs: 5, queryTimeoutMs: 1000, fetchImpl });
  return { client, channel, logs, close: () => { channel.close(); client.close(); } };
}

const hitIds = (r: SemanticSearchResult) => (r.ran ? r.hits.map((h) => h.chunkId) : []);

describe('semantic channel over an OpenAI-compatible endpoint', () => {
  it('embeds, searches by meaning of shared words, and reuses unchanged vectors', async () => {
    const url = tempDbUrl();
    const { channel, close } = await open(url);
    assert.equal(channel.status().state, 'ready');
    const chunks = corpusChunks();
    const progress: number[] = [];
    const first = await channel.sync(chunks, { mode: 'full', onProgress: (done) => progress.push(done) });
    assert.equal(first.embedded, chunks.length);
    assert.equal(first.degradedBatches.length, 0);
    assert.equal(progress.at(-1), chunks.length);
    assert.equal(server.requests, Math.ceil(chunks.length / 4));
    assert.ok(server.log.every((l) => l.auth === `Bearer ${KEY}` && l.model === 'fake-embed-1'));

    const r = await channel.search('coffee at the cafe', 3);
    assert.ok(r.ran);
    assert.equal(r.hits[0]?.chunkId, 'd1#0');
    assert.deepEqual(r.hits.map((h) => h.rank), [1, 2, 3]);
    assert.ok(r.hits[0]!.score > r.hits[1]!.score);
    const zh = await channel.search('天气晴朗', 1);
    assert.ok(zh.ran && zh.hits[0]?.chunkId === 'd4#0');

    const before = server.requests;
    const second = await channel.sync(chunks, { mode: 'full' });
    assert.deepEqual([second.embedded, second.reused, second.removed], [0, chunks.length, 0]);
    assert.equal(server.requests, before);
    const st = channel.status();
    assert.equal(st.vectors, chunks.length);
    assert.equal(st.dimensions, DIMS);
    assert.equal(st.storedFingerprint?.dimensions, DIMS);
    close();
  });

  it('embeds a text shared by several chunks once, and copies vectors to renamed chunks', async () => {
    const { channel, close } = await open(tempDbUrl());
    const text = 'exactly the same paragraph';
    const r1 = await channel.sync(
      [
        { id: 'a#0', text, fingerprint: fingerprintText(text) },
        { id: 'b#0', text, fingerprint: fingerprintText(text) },
      ],
      { mode: 'full' },
    );
    assert.equal(r1.embedded, 2);
    assert.equal(server.inputs, 1);
    // The document moved: new chunk id, same text → no request.
    const r2 = await channel.sync([{ id: 'c#0', text, fingerprint: fingerprintText(text) }], { mode: 'full' });
    assert.deepEqual([r2.embedded, r2.reused, r2.removed], [0, 1, 2]);
    assert.equal(server.inputs, 1);
    close();
  });

  it('paces requests: at most `concurrency` in flight, starts at least minIntervalMs apart', async () => {
    server.setLatency(60);
    // Request starts are measured where the pacer controls them: at the client.
    const starts: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: typeof fetch = async (input, init) => {
      starts.push(performance.now());
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const { channel, close } = await open(tempDbUrl(), { batchSize: 2, concurrency: 2, minIntervalMs: 40 }, {}, counting);
    const chunks = corpusChunks();
    const r = await channel.sync(chunks, { mode: 'full' });
    assert.equal(r.embedded, chunks.length);
    assert.equal(server.requests, 5);
    assert.equal(starts.length, 5);
    assert.ok(maxInFlight <= 2 && server.maxConcurrent <= 2, `max in flight ${maxInFlight}`);
    // The start interval itself is checked against the pacer's own clock in pacer.test.ts: measured
    // here, at fetch time, the gaps depend on how busy the machine is (a timed assertion).
    close();
  });

  it('keeps the in-memory index equal to the table through incremental changes', async () => {
    const url = tempDbUrl();
    const { channel, client, close } = await open(url);
    const chunks = corpusChunks();
    await channel.sync(chunks, { mode: 'full' });
    // d2 deleted, d3 re-chunked (one chunk changed, one gone), a chunk removed by id, d6 added.
    const changed = { id: 'd3#0', text: 'Rewrote the vector index with int8 quantised pre-scan', fingerprint: fingerprintText('Rewrote the vector index with int8 quantised pre-scan') };
    const added = { id: 'd6#0', text: 'Bought a new coffee grinder', fingerprint: fingerprintText('Bought a new coffee grinder') };
    const r = await channel.sync([changed, added], { mode: 'incremental', removedDocIds: ['d2'], changedDocIds: ['d3', 'd6'], removedIds: ['d5#1'] });
    assert.equal(r.embedded, 2);
    assert.equal(r.removed, 4); // d2#0, d2#1, d3#1, d5#1
    await channel.remove(['d4#1']);

    const expected = new Set(['d1#0', 'd1#1', 'd3#0', 'd4#0', 'd5#0', 'd6#0']);
    const rows = await client.execute('SELECT chunk_id FROM vectors');
    assert.deepEqual(new Set(rows.rows.map((x) => String(x.chunk_id))), expected);
    assert.equal(channel.status().vectors, expected.size);

    const fresh = await open(url);
    assert.equal(fresh.channel.status().vectors, expected.size);
    for (const q of ['coffee grinder', 'vector index quantised', 'train to Hangzhou', '天气', 'cat and dog']) {
      const a = await channel.search(q, 10);
      const b = await fresh.channel.search(q, 10);
      assert.ok(a.ran && b.ran);
      assert.deepEqual(hitIds(a), hitIds(b));
      assert.ok(hitIds(a).every((id) => expected.has(id)));
    }
    fresh.close();
    close();
  });

  it('orders results like SQL vector_distance_cos over the same table (the oracle)', async () => {
    const { channel, client, close } = await open(tempDbUrl());
    const many = Array.from({ length: 120 }, (_, i) => `note ${i}: ${CORPUS[i % CORPUS.length]!.text} ${i % 7 === 0 ? 'coffee' : ''} ${i % 5 === 0 ? 'vector' : ''}`);
    await channel.sync(many.map((text, i) => ({ id: `n${i}#0`, text, fingerprint: fingerprintText(text) })), { mode: 'full' });
    for (const q of ['coffee vector', 'cat plant window', 'note 42', '下雨 日记']) {
      const r = await channel.search(q, 10);
      assert.ok(r.ran);
      const sql = await client.execute({
        sql: 'SELECT chunk_id, 1 - vector_distance_cos(vec, ?) AS cos FROM vectors ORDER BY vector_distance_cos(vec, ?) ASC LIMIT 10',
        args: [vectorBlob(fakeEmbedding(q, DIMS)), vectorBlob(fakeEmbedding(q, DIMS))],
      });
      assert.deepEqual(hitIds(r), sql.rows.map((x) => String(x.chunk_id)));
      r.hits.forEach((h, i) => assert.ok(Math.abs(h.score - Number(sql.rows[i]?.cos)) < 1e-4));
    }
    close();
  });

  it('restricts search to allowed chunk ids', async () => {
    const { channel, close } = await open(tempDbUrl());
    await channel.sync(corpusChunks(), { mode: 'full' });
    const allowed = new Set(['d2#0', 'd5#1']);
    const r = await channel.search('coffee', 10, { allowedChunkIds: allowed });
    assert.ok(r.ran);
    assert.deepEqual(new Set(hitIds(r)), allowed);
    close();
  });

  describe('every fault degrades: sync finishes and reports, search says why, nothing throws', () => {
    const faults: { mode: FaultMode; opts?: FaultOptions; over?: Record<string, unknown> }[] = [
      { mode: 'rate-limit', opts: { retryAfter: '0' } },
      { mode: 'rate-limit', opts: { header: 'x-ratelimit-reset', retryAfter: '10ms' } },
      { mode: 'server-error' },
      { mode: 'hang', over: { timeoutMs: 300, maxRetries: 1 } },
      { mode: 'wrong-dims' },
      { mode: 'malformed' },
      { mode: 'reset' },
      { mode: 'unauthorized' },
    ];
    for (const f of faults) {
      it(`${f.mode}${f.opts?.header ? ` (${f.opts.header})` : ''}`, async () => {
        const { channel, logs, close } = await open(tempDbUrl(), { maxRetries: 1, ...f.over });
        const good = corpusChunks().slice(0, 4);
        assert.equal((await channel.sync(good, { mode: 'full' })).embedded, 4);
        server.setFault(f.mode, f.opts);
        const extra = ['alpha beta', 'gamma delta', 'epsilon zeta', 'eta theta', 'iota kappa', 'lambda mu'].map((text, i) => ({
          id: `x${i}#0`,
          text,
          fingerprint: fingerprintText(text),
        }));
        const r = await channel.sync([...good, ...extra], { mode: 'full' });
        assert.equal(r.embedded, 0);
        assert.equal(r.reused, 4);
        assert.equal(r.degradedBatches.length, 2);
        assert.deepEqual(r.degradedBatches.map((b) => b.size).sort(), [2, 4]);
        assert.ok(r.degradedBatches.every((b) => b.reason.length > 0));
        const s = await channel.search('a query nobody cached', 5);
        assert.equal(s.ran, false);
        assert.ok(!s.ran && s.skipped.length > 0);
        const st = channel.status();
        assert.equal(st.state, 'ready'); // a fault is not a mismatch: the old vectors stay valid
        assert.equal(st.degradedBatches, 2);
        assert.ok(st.lastError);
        const everything = JSON.stringify([r, s, st, logs.lines]);
        assert.ok(!everything.includes(KEY), 'the API key leaked into a result, status or log line');
        // The endpoint recovers: the next sync fills the gaps.
        server.setFault('none');
        const again = await channel.sync([...good, ...extra], { mode: 'full' });
        assert.equal(again.embedded, extra.length);
        assert.equal((await channel.search('gamma delta', 1)).ran, true);
        close();
      });
    }
  });

  it('waits as long as Retry-After says, then succeeds', async () => {
    const { channel, close } = await open(tempDbUrl());
    server.setFault('rate-limit', { times: 1, retryAfter: '1' });
    const r = await channel.sync(corpusChunks().slice(0, 4), { mode: 'full' });
    assert.equal(r.embedded, 4);
    assert.equal(r.degradedBatches.length, 0);
    const [limited, retried] = server.log;
    assert.equal(limited?.outcome, 'rate-limit');
    assert.equal(retried?.outcome, 'ok');
    assert.ok(retried!.at - limited!.at >= 950, `retried after ${retried!.at - limited!.at} ms`);
    close();
  });

  it('gives a batch up when the server asks for a wait longer than the limit', async () => {
    const client = openClient();
    const cfg = openaiConfig({ maxRetries: 3 });
    const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk, maxRetryWaitMs: 500 });
    server.setFault('rate-limit', { retryAfter: '3600' });
    const r = await channel.sync(corpusChunks().slice(0, 2), { mode: 'full' });
    assert.equal(r.degradedBatches.length, 1);
    assert.match(r.degradedBatches[0]!.reason, /3600 s/);
    assert.equal(server.requests, 1);
    channel.close();
    client.close();
  });

  it('retries 500s with backoff and recovers', async () => {
    const { channel, close } = await open(tempDbUrl());
    server.setFault('server-error', { times: 2 });
    const r = await channel.sync(corpusChunks().slice(0, 4), { mode: 'full' });
    assert.equal(r.embedded, 4);
    assert.deepEqual(server.log.map((l) => l.outcome), ['server-error', 'server-error', 'ok']);
    close();
  });

  it('stops cleanly when aborted', async () => {
    server.setLatency(50);
    const { channel, close } = await open(tempDbUrl(), { batchSize: 1, concurrency: 1 });
    const ac = new AbortController();
    const r = await channel.sync(corpusChunks(), {
      mode: 'full',
      signal: ac.signal,
      onProgress: (done) => {
        if (done >= 2) ac.abort();
      },
    });
    assert.equal(r.aborted, true);
    assert.ok(r.embedded >= 2 && r.embedded < CORPUS.length);
    // What was saved stays usable.
    assert.equal((await channel.search('coffee', 1)).ran, true);
    close();
  });

  it('a query that hangs is cut off by the short query timeout', async () => {
    const { channel, close } = await open(tempDbUrl());
    await channel.sync(corpusChunks(), { mode: 'full' });
    server.setFault('hang');
    const r = await channel.search('something new', 5);
    assert.equal(r.ran, false);
    assert.match(!r.ran ? r.skipped : '', /within 1000 ms/);
    close();
  });

  it('reports "no vectors indexed yet" instead of an empty hit list', async () => {
    const { channel, close } = await open(tempDbUrl());
    const r = await channel.search('anything', 5);
    assert.deepEqual(r, { ran: false, skipped: 'no vectors indexed yet' });
    close();
  });
});

describe('fingerprint protection', () => {
  it('a changed model at start-up turns the channel off with the reason and the rebuild action', async () => {
    const url = tempDbUrl();
    const a = await open(url);
    await a.channel.sync(corpusChunks(), { mode: 'full' });
    a.close();

    const b = await open(url, { model: 'fake-embed-2' });
    const st = b.channel.status();
    assert.equal(st.state, 'mismatch');
    assert.match(st.reason ?? '', /model changed: fake-embed-1 → fake-embed-2/);
    assert.equal(st.action, REBUILD_ACTION);
    assert.equal(st.vectors, CORPUS.length);
    assert.equal(st.storedFingerprint?.model, 'fake-embed-1');
    assert.equal(st.fingerprint?.model, 'fake-embed-2');
    const before = server.requests;
    const s = await b.channel.search('coffee', 5);
    assert.equal(s.ran, false);
    assert.match(!s.ran ? s.skipped : '', /model changed/);
    const r = await b.channel.sync(corpusChunks(), { mode: 'full' });
    assert.equal(r.embedded, 0);
    assert.match(r.skipped ?? '', /model changed/);
    assert.equal(server.requests, before, 'no embedding in the wrong space');

    // Rebuild: old vectors are backed up first, then everything is re-embedded with the new model.
    const gate = await b.channel.prepareRebuild();
    assert.equal(gate.reset, true);
    assert.match(gate.reasons.join(), /model changed/);
    assert.equal(b.channel.status().state, 'ready');
    const backups = await new VectorStore(b.client).backups();
    assert.equal(backups.length, 1);
    assert.equal(backups[0]?.rows, CORPUS.length);
    assert.equal(backups[0]?.fingerprint?.model, 'fake-embed-1');
    const rebuilt = await b.channel.sync(corpusChunks(), { mode: 'full' });
    assert.equal(rebuilt.embedded, CORPUS.length);
    assert.equal(b.channel.status().storedFingerprint?.model, 'fake-embed-2');
    assert.equal((await b.channel.search('coffee', 1)).ran, true);
    b.close();
  });

  it('changed dimensions or endpoint are fatal; changed chunk parameters only advise', async () => {
    const url = tempDbUrl();
    const a = await open(url, { dimensions: DIMS });
    await a.channel.sync(corpusChunks(), { mode: 'full' });
    a.close();

    const dims = await open(url, { dimensions: 16 });
    assert.equal(dims.channel.status().state, 'mismatch');
    assert.match(dims.channel.status().reason ?? '', /dimensions changed: 32 → 16/);
    dims.close();

    const endpoint = await open(url, { dimensions: DIMS, baseUrl: server.url.replace('127.0.0.1', 'localhost') });
    assert.equal(endpoint.channel.status().state, 'mismatch');
    assert.match(endpoint.channel.status().reason ?? '', /endpoint changed/);
    endpoint.close();

    const chunked = await open(url, { dimensions: DIMS }, { size: 500, overlap: 50 });
    const st = chunked.channel.status();
    assert.equal(st.state, 'ready');
    assert.equal(st.advice.length, 1);
    assert.match(st.advice[0]!, /chunk parameters changed/);
    assert.equal((await chunked.channel.search('coffee', 1)).ran, true);
    // A complete full sync means the vectors belong to the new chunking: the advice goes away.
    await chunked.channel.sync(corpusChunks(), { mode: 'full' });
    assert.deepEqual(chunked.channel.status().advice, []);
    assert.equal(chunked.channel.status().storedFingerprint?.chunkSize, 500);
    chunked.close();
  });

  it('the rebuild gate keeps reusable vectors', async () => {
    const { channel, client, close } = await open(tempDbUrl());
    await channel.sync(corpusChunks(), { mode: 'full' });
    const gate = await channel.prepareRebuild();
    assert.deepEqual(gate, { reset: false, reasons: [], advise: [] });
    const before = server.requests;
    const r = await channel.sync(corpusChunks(), { mode: 'full' });
    assert.equal(r.reused, CORPUS.length);
    assert.equal(server.requests, before);
    assert.equal((await new VectorStore(client).backups()).length, 0);
    assert.equal((await channel.prepareRebuild({ force: true })).reset, true);
    assert.equal((await new VectorStore(client).backups()).length, 1);
    close();
  });

  it('the settings-save gate: compare a proposed config with the stored fingerprint without opening a channel', async () => {
    const url = tempDbUrl();
    const a = await open(url);
    assert.equal(await SemanticChannel.storedFingerprint(a.client), null);
    await a.channel.sync(corpusChunks().slice(0, 2), { mode: 'full' });
    const stored = await SemanticChannel.storedFingerprint(a.client);
    assert.equal(stored?.dimensions, DIMS);
    const same = openaiConfig();
    assert.equal(SemanticChannel.compare(stored, SemanticChannel.fingerprintFor(same.embedding, same.chunk)).fatal, false);
    const other = openaiConfig({ model: 'bigger-model', dimensions: 64 });
    const cmp = SemanticChannel.compare(stored, SemanticChannel.fingerprintFor(other.embedding, other.chunk));
    assert.equal(cmp.fatal, true);
    assert.equal(cmp.reasons.length, 2);
    const gate = await SemanticChannel.checkSettings(a.client, { embedding: other.embedding, chunk: { size: 500, overlap: 0 } });
    assert.equal(gate.requiresConfirmation, true);
    assert.equal(gate.advise.length, 1);
    const chunkOnly = await SemanticChannel.checkSettings(a.client, { embedding: same.embedding, chunk: { size: 500, overlap: 0 } });
    assert.equal(chunkOnly.requiresConfirmation, false);
    assert.equal(chunkOnly.advise.length, 1);
    a.close();
  });

  it('stored vectors without a fingerprint are not trusted', async () => {
    const url = tempDbUrl();
    const a = await open(url);
    await a.channel.sync(corpusChunks().slice(0, 2), { mode: 'full' });
    await a.client.execute("DELETE FROM vector_meta WHERE key = 'fingerprint'");
    a.close();
    const b = await open(url);
    assert.equal(b.channel.status().state, 'mismatch');
    assert.match(b.channel.status().reason ?? '', /no recorded fingerprint/);
    b.close();
  });

  it('rebuilds keep only the two newest backups', async () => {
    const { channel, client, close } = await open(tempDbUrl());
    for (let i = 0; i < 3; i++) {
      await channel.sync(corpusChunks().slice(0, i + 1), { mode: 'full' });
      await channel.resetForRebuild();
    }
    const backups = await new VectorStore(client).backups();
    assert.deepEqual(backups.map((b) => b.rows), [2, 3]);
    close();
  });
});

describe('integrity check', () => {
  it('passes with a stable embedder and fails when the model behind the endpoint changes', async () => {
    const { channel, close } = await open(tempDbUrl());
    const chunks = corpusChunks();
    await channel.sync(chunks, { mode: 'full' });
    const sample = chunks.slice(0, 5).map((c) => ({ id: c.id, text: c.text }));
    const ok = await channel.integrityCheck(sample);
    assert.equal(ok.ok, true);
    assert.equal(ok.checked, 5);
    assert.ok(ok.minCos >= 0.999);
    server.setSeed('a different model');
    const bad = await channel.integrityCheck(sample);
    assert.equal(bad.ok, false);
    assert.equal(bad.failures.length, 5);
    assert.ok(bad.minCos < 0.999);
    close();
  });
});

describe('configuration problems', () => {
  it('an empty base URL is an error status, not an exception', async () => {
    const client = openClient();
    const cfg = openaiConfig({ baseUrl: '' });
    const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk });
    assert.equal(channel.status().state, 'error');
    assert.match(channel.status().reason ?? '', /baseUrl is empty/);
    assert.equal((await channel.search('x', 3)).ran, false);
    const r = await channel.sync(corpusChunks(), { mode: 'full' });
    assert.equal(r.embedded, 0);
    assert.ok(r.skipped);
    channel.close();
    client.close();
  });

  it('provider none: off, lexical-only, and stored vectors are left alone', async () => {
    const url = tempDbUrl();
    const a = await open(url);
    await a.channel.sync(corpusChunks(), { mode: 'full' });
    a.close();
    const client = openClient(url);
    const cfg = embeddingConfig({ provider: 'none' });
    const channel = await SemanticChannel.open({ client, embedding: cfg.embedding, chunk: cfg.chunk });
    const st = channel.status();
    assert.equal(st.state, 'off');
    assert.equal(st.reason, 'embedding provider is none');
    assert.equal(st.vectors, CORPUS.length);
    assert.deepEqual(await channel.search('coffee', 5), { ran: false, skipped: 'embedding provider is none' });
    const r = await channel.sync(corpusChunks(), { mode: 'full' });
    assert.equal(r.skipped, 'embedding provider is none');
    await channel.resetForRebuild();
    assert.equal(await new VectorStore(client).count(), CORPUS.length);
    channel.close();
    client.close();
  });
});
