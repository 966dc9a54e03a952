import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScanKernels } from '../../src/semantic/simd-kernels.ts';
import { TopK } from '../../src/semantic/topk.ts';
import { VectorIndex, normalise } from '../../src/semantic/vector-index.ts';

/** Seeded generator so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const gaussian = (r: () => number) => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
const randomVector = (r: () => number, dims: number) => Float32Array.from({ length: dims }, () => gaussian(r));

/** Vectors crowded around one direction: cosines in a narrow band, the hard case for quantised pre-filters. */
function narrowBand(r: () => number, dims: number, centre: Float32Array, spread: number) {
  const v = randomVector(r, dims);
  for (let i = 0; i < dims; i++) v[i] = (centre[i] as number) + spread * (v[i] as number);
  return v;
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

function assertSameResult(a: { id: string; score: number }[], b: { id: string; score: number }[]) {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    // Equal scores may swap places; scores must agree to float precision.
    assert.ok(Math.abs((a[i] as { score: number }).score - (b[i] as { score: number }).score) < 1e-5, `rank ${i}: ${a[i]?.score} vs ${b[i]?.score}`);
  }
  assert.deepEqual(new Set(ids(a)), new Set(ids(b)));
}

describe('TopK', () => {
  it('keeps the k best in descending order', () => {
    const t = new TopK(3);
    [5, 1, 9, 3, 7, 9.5, 0].forEach((s, i) => t.push(i, s));
    assert.deepEqual(t.scores, [9.5, 9, 7]);
    assert.deepEqual(t.items, [5, 2, 4]);
    assert.equal(t.threshold, 7);
  });
});

describe('SIMD kernels', () => {
  it('compute the same dot products as plain JavaScript', () => {
    const k = createScanKernels(4);
    assert.ok(k, 'WebAssembly SIMD is available on Node 20');
    const dims = 64;
    const rows = 10;
    const r = rng(1);
    const buf = k.memory.buffer;
    const q = new Float32Array(buf, 0, dims);
    const base = new Float32Array(buf, 1024, rows * dims);
    const out = new Float32Array(buf, 1024 + rows * dims * 4, rows);
    for (let i = 0; i < dims; i++) q[i] = gaussian(r);
    for (let i = 0; i < rows * dims; i++) base[i] = gaussian(r);
    k.scanF32(0, 1024, rows, dims, 1024 + rows * dims * 4);
    for (let row = 0; row < rows; row++) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += (q[j] as number) * (base[row * dims + j] as number);
      assert.ok(Math.abs(s - (out[row] as number)) < 1e-3);
    }
    // int8 rows × int16 query, scaled per row.
    const codes = new Int8Array(buf, 8192, rows * dims);
    const q16 = new Int16Array(buf, 0, dims);
    const scales = new Float32Array(buf, 16384, rows);
    for (let i = 0; i < rows * dims; i++) codes[i] = Math.round((r() - 0.5) * 254);
    for (let i = 0; i < dims; i++) q16[i] = Math.round((r() - 0.5) * 16000);
    for (let i = 0; i < rows; i++) scales[i] = 0.5 + i;
    k.scanI8(0, 8192, rows, dims, 16384, 20000);
    const outI = new Float32Array(buf, 20000, rows);
    for (let row = 0; row < rows; row++) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += (codes[row * dims + j] as number) * (q16[j] as number);
      assert.ok(Math.abs(s * (scales[row] as number) - (outI[row] as number)) <= Math.abs(s) * 1e-6 + 1e-3);
    }
  });
});

describe('VectorIndex', () => {
  for (const dims of [8, 100, 384]) {
    it(`search equals the exact float scan (random vectors, ${dims} dims)`, () => {
      const r = rng(dims);
      const index = new VectorIndex(dims, { parallel: false });
      for (let i = 0; i < 3000; i++) index.upsert(`c${i}`, 'f', randomVector(r, dims));
      assert.equal(index.quantised, true);
      for (let q = 0; q < 20; q++) {
        const query = randomVector(r, dims);
        const got = index.search(query, 10);
        assert.equal(index.lastStats.method, 'quantised');
        assertSameResult(got, index.exactSearch(query, 10));
      }
      index.close();
    });
  }

  it('stays exact when all cosines crowd into a narrow band (re-scores more, never misses)', () => {
    const dims = 256;
    const r = rng(42);
    const centre = randomVector(r, dims);
    normalise(centre);
    const index = new VectorIndex(dims, { parallel: false });
    for (let i = 0; i < 4000; i++) index.upsert(`c${i}`, 'f', narrowBand(r, dims, centre, 0.02));
    for (let q = 0; q < 10; q++) {
      const query = narrowBand(r, dims, centre, 0.02);
      const got = index.search(query, 10);
      assertSameResult(got, index.exactSearch(query, 10));
      assert.ok(index.lastStats.rescored >= 10);
    }
  });

  it('finds the vector itself first, with cosine 1', () => {
    const r = rng(3);
    const index = new VectorIndex(32);
    const vs = Array.from({ length: 600 }, () => randomVector(r, 32));
    vs.forEach((v, i) => index.upsert(`c${i}`, 'f', v));
    const [top] = index.search(vs[123] as Float32Array, 1);
    assert.equal(top?.id, 'c123');
    assert.ok(Math.abs((top?.score ?? 0) - 1) < 1e-5);
  });

  it('swap-remove and replace keep ids, vectors and search consistent', () => {
    const r = rng(5);
    const dims = 48;
    const index = new VectorIndex(dims, { parallel: false });
    const live = new Map<string, Float32Array>();
    for (let i = 0; i < 2000; i++) {
      const v = randomVector(r, dims);
      index.upsert(`c${i}`, `f${i}`, v);
      live.set(`c${i}`, v);
    }
    for (let i = 0; i < 2000; i += 3) {
      assert.equal(index.remove(`c${i}`), true);
      live.delete(`c${i}`);
    }
    for (let i = 1; i < 2000; i += 7) {
      const v = randomVector(r, dims);
      index.upsert(`c${i}`, `g${i}`, v);
      live.set(`c${i}`, v);
    }
    assert.equal(index.remove('missing'), false);
    assert.equal(index.size, live.size);
    assert.deepEqual(new Set(index.idList()), new Set(live.keys()));
    // Every stored vector is the normalised input, under the right id.
    for (const [id, v] of live) {
      const n = Float32Array.from(v);
      normalise(n);
      const stored = index.vectorOf(id) as Float32Array;
      for (let j = 0; j < dims; j++) assert.ok(Math.abs((stored[j] as number) - (n[j] as number)) < 1e-6);
    }
    assert.equal(index.fingerprintOf('c8'), 'g8');
    assert.equal(index.fingerprintOf('c2'), 'f2');
    // A fresh index built from the surviving vectors answers the same.
    const fresh = new VectorIndex(dims, { parallel: false });
    for (const [id, v] of live) fresh.upsert(id, 'x', v);
    for (let q = 0; q < 10; q++) {
      const query = randomVector(r, dims);
      assertSameResult(index.search(query, 10), fresh.search(query, 10));
      assertSameResult(index.search(query, 10), index.exactSearch(query, 10));
    }
  });

  it('restricts results to allowed ids, small or large sets', () => {
    const r = rng(9);
    const dims = 40;
    const index = new VectorIndex(dims, { parallel: false });
    for (let i = 0; i < 3000; i++) index.upsert(`c${i}`, 'f', randomVector(r, dims));
    const small = new Set(['c1', 'c2', 'c3', 'c2999', 'nope']);
    const large = new Set(Array.from({ length: 2000 }, (_, i) => `c${i * 3 % 3000}`));
    const query = randomVector(r, dims);
    const a = index.search(query, 10, small);
    assert.equal(index.lastStats.method, 'subset');
    assert.equal(a.length, 4);
    assert.ok(a.every((h) => small.has(h.id)));
    assertSameResult(a, index.exactSearch(query, 10, small));
    const b = index.search(query, 10, large);
    assert.ok(b.every((h) => large.has(h.id)));
    assertSameResult(b, index.exactSearch(query, 10, large));
  });

  it('rejects wrong dimensions and ignores zero vectors', () => {
    const index = new VectorIndex(4);
    assert.throws(() => index.upsert('a', 'f', [1, 2, 3]), /3 dimensions/);
    assert.equal(index.upsert('z', 'f', [0, 0, 0, 0]), false);
    assert.equal(index.size, 0);
    assert.deepEqual(index.search([1, 0, 0, 0], 5), []);
  });

  it('shares large scans with a helper thread and still matches the exact scan', async () => {
    const r = rng(11);
    const dims = 32;
    const index = new VectorIndex(dims, { parallel: true });
    for (let i = 0; i < 25_000; i++) index.upsert(`c${i}`, 'f', randomVector(r, dims));
    for (let q = 0; q < 8; q++) {
      const query = randomVector(r, dims);
      assertSameResult(index.search(query, 10), index.exactSearch(query, 10));
      // Give the worker time to attach between queries; results must be right either way.
      await new Promise((res) => setTimeout(res, 20));
    }
    // Growing re-creates the shared memory: the worker must follow.
    for (let i = 25_000; i < 40_000; i++) index.upsert(`c${i}`, 'f', randomVector(r, dims));
    for (let q = 0; q < 4; q++) {
      const query = randomVector(r, dims);
      assertSameResult(index.search(query, 10), index.exactSearch(query, 10));
      await new Promise((res) => setTimeout(res, 20));
    }
    index.close();
  });
});
