import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runBatches, type BatchResult } from '../../src/semantic/batch-runner.ts';
import { EmbeddingFault } from '../../src/semantic/embedding-fault.ts';
import { RequestPacer } from '../../src/semantic/pacer.ts';

const vec = (n: number) => Array.from({ length: n }, () => new Float32Array([1, 0]));

describe('runBatches', () => {
  it('retries retryable faults up to maxRetries, then gives the batch up and carries on', async () => {
    const calls = new Map<number, number>();
    const results: BatchResult[] = [];
    const ok = await runBatches(
      [['a'], ['b'], ['c']],
      async (texts) => {
        const i = texts[0]!.charCodeAt(0) - 97;
        calls.set(i, (calls.get(i) ?? 0) + 1);
        if (i === 1) throw new EmbeddingFault('server', 'HTTP 502');
        return vec(texts.length);
      },
      { pacer: new RequestPacer({ concurrency: 2, minIntervalMs: 0 }), maxRetries: 3, backoffBaseMs: 1, onResult: (r) => void results.push(r) },
    );
    assert.equal(ok, true);
    assert.deepEqual([...calls.entries()].sort(), [[0, 1], [1, 4], [2, 1]]);
    const failed = results.find((r) => r.index === 1)!;
    assert.equal(failed.vectors, undefined);
    assert.match(failed.error!, /HTTP 502 \(after 4 attempts\)/);
    assert.equal(results.filter((r) => r.vectors).length, 2);
  });

  it('does not retry faults that cannot get better', async () => {
    for (const kind of ['client', 'dimensions', 'unavailable'] as const) {
      let calls = 0;
      const results: BatchResult[] = [];
      await runBatches(
        [['x']],
        async () => {
          calls++;
          throw new EmbeddingFault(kind, kind);
        },
        { pacer: new RequestPacer({ concurrency: 1, minIntervalMs: 0 }), maxRetries: 5, onResult: (r) => void results.push(r) },
      );
      assert.equal(calls, 1, kind);
      assert.equal(results[0]?.attempts, 1);
    }
  });

  it('a 429 pauses every request, not just the batch that hit it', async () => {
    const pacer = new RequestPacer({ concurrency: 2, minIntervalMs: 0 });
    const starts: { batch: string; at: number }[] = [];
    let limited = false;
    await runBatches(
      [['a'], ['b'], ['c'], ['d']],
      async (texts) => {
        starts.push({ batch: texts[0]!, at: performance.now() });
        if (texts[0] === 'a' && !limited) {
          limited = true;
          throw new EmbeddingFault('rate-limit', 'HTTP 429', { retryAfterMs: 150 });
        }
        await new Promise((r) => setTimeout(r, 5));
        return vec(1);
      },
      { pacer, maxRetries: 2, onResult: () => {} },
    );
    const first429 = starts[0]!.at;
    // Requests that started after the 429 came back all waited out the pause.
    const later = starts.filter((s) => s.at > first429 + 1 && s.batch !== 'b');
    assert.ok(later.length >= 2);
    assert.ok(later.every((s) => s.at - first429 >= 145), JSON.stringify(starts.map((s) => [s.batch, Math.round(s.at - first429)])));
  });

  it('returns false when aborted, without throwing', async () => {
    const ac = new AbortController();
    let handled = 0;
    const ok = await runBatches(
      [['a'], ['b'], ['c']],
      async () => vec(1),
      {
        pacer: new RequestPacer({ concurrency: 1, minIntervalMs: 0 }),
        maxRetries: 0,
        signal: ac.signal,
        onResult: () => {
          handled++;
          ac.abort();
        },
      },
    );
    assert.equal(ok, false);
    assert.equal(handled, 1);
  });
});
