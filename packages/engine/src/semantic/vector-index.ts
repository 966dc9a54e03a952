// The in-memory search structure: every vector normalised in one contiguous Float32Array (so a dot
// product is the cosine), an int8 copy inside WebAssembly memory for a fast pre-scan, and an
// id ↔ row map. Removal swaps the last row into the hole so the rows stay dense.
//
// Search is exact, not approximate: the int8 pre-scan comes with a per-row error bound, so after
// re-scoring the best candidates exactly, every row whose approximate score plus its bound could
// still reach the current k-th exact score is re-scored too. Whatever the data looks like, the
// result equals a plain float scan; only the number of rows re-scored varies.
import { CONTROL_BYTES, ScanPool } from './parallel-scan.ts';
import { createScanKernels, I8_ROW_ALIGN, type ScanKernels } from './simd-kernels.ts';
import { TopK } from './topk.ts';

export interface VectorHit {
  id: string;
  score: number;
}

export interface SearchStats {
  /** 'quantised' = int8 pre-scan + exact re-score; 'exact' = plain float scan. */
  method: 'quantised' | 'exact' | 'subset';
  /** Rows scored in full precision. */
  rescored: number;
  /** Threads that shared the pre-scan (1 = this thread alone). */
  threads: number;
}

/** Scales v to unit length in place; returns false for a zero or non-finite vector. */
export function normalise(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  if (!(sum > 0) || !Number.isFinite(sum)) return false;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return true;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) * (a[i] as number);
    nb += (b[i] as number) * (b[i] as number);
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

// Largest query code: int8 rows × int16 query codes must not overflow the kernel's int32 lanes,
// Σ over dims/4 products of ≤127·QMAX per lane < 2³¹ holds up to 8192 dimensions.
const QUERY_MAX = 8191;
const MAX_KERNEL_DIMS = 8192;
/** Below this many rows a plain scan is as fast as the pre-scan machinery. */
const MIN_ROWS_FOR_PRESCAN = 512;
/** Below this many rows waking helper threads costs more than it saves. */
const MIN_ROWS_FOR_THREADS = 20_000;
const ROWS_PER_CHUNK = 4096;

export interface VectorIndexOptions {
  /** Use the WebAssembly int8 pre-scan when available (default true). */
  quantised?: boolean;
  /** Share large pre-scans with helper threads (default true; needs more than one core). */
  parallel?: boolean;
  initialCapacity?: number;
}

export class VectorIndex {
  readonly dims: number;
  /** Row stride of the int8 copy: a multiple of the kernel's step. */
  private readonly stride: number;
  private readonly useKernels: boolean;
  private parallel: boolean;
  private pool: ScanPool | null = null;
  private capacity = 0;
  private count = 0;
  private vectors = new Float32Array(0);
  private readonly ids: string[] = [];
  private readonly fingerprints: string[] = [];
  private readonly rowOf = new Map<string, number>();
  /** Per row: int8 quantisation step, and the L1 norm of the quantised row (for error bounds). */
  private scales = new Float32Array(0);
  /** Largest quantisation step ever stored (kept after removals: a looser bound stays correct). */
  private maxScale = 0;
  private kernels: ScanKernels | null = null;
  private layout = { query: 0, scale: 0, out: 0, codes: 0 };
  private codes = new Int8Array(0);
  private wasmScales = new Float32Array(0);
  private wasmOut = new Float32Array(0);
  private wasmQuery = new Int16Array(0);
  lastStats: SearchStats = { method: 'exact', rescored: 0, threads: 1 };

  constructor(dims: number, opts: VectorIndexOptions = {}) {
    if (!Number.isInteger(dims) || dims <= 0) throw new Error(`vector index needs a positive dimension, got ${dims}`);
    this.dims = dims;
    this.stride = Math.ceil(dims / I8_ROW_ALIGN) * I8_ROW_ALIGN;
    this.useKernels = opts.quantised !== false && dims <= MAX_KERNEL_DIMS;
    this.parallel = opts.parallel !== false;
    this.grow(Math.max(16, opts.initialCapacity ?? 0));
  }

  get size(): number {
    return this.count;
  }

  /** Whether the WebAssembly pre-scan is active (false: plain float scan). */
  get quantised(): boolean {
    return this.kernels !== null;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  fingerprintOf(id: string): string | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.fingerprints[row];
  }

  idList(): string[] {
    return this.ids.slice(0, this.count);
  }

  /** A copy of the stored (normalised) vector. */
  vectorOf(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    return this.vectors.slice(row * this.dims, (row + 1) * this.dims);
  }

  /** Inserts or replaces; the vector is normalised on the way in. Returns false for a zero vector. */
  upsert(id: string, fingerprint: string, vector: ArrayLike<number>): boolean {
    if (vector.length !== this.dims) throw new Error(`vector for ${id} has ${vector.length} dimensions, index has ${this.dims}`);
    let sum = 0;
    for (let j = 0; j < this.dims; j++) sum += (vector[j] as number) * (vector[j] as number);
    if (!(sum > 0) || !Number.isFinite(sum)) return false;
    const inv = 1 / Math.sqrt(sum);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      if (this.count === this.capacity) this.grow(Math.ceil(this.capacity * 1.5) + 16);
      row = this.count++;
      this.rowOf.set(id, row);
    }
    this.ids[row] = id;
    this.fingerprints[row] = fingerprint;
    const base = row * this.dims;
    for (let j = 0; j < this.dims; j++) this.vectors[base + j] = (vector[j] as number) * inv;
    this.quantiseRow(row);
    return true;
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    const last = this.count - 1;
    if (row !== last) {
      const lastId = this.ids[last] as string;
      this.ids[row] = lastId;
      this.fingerprints[row] = this.fingerprints[last] as string;
      this.vectors.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.scales[row] = this.scales[last] as number;
      if (this.kernels) {
        this.codes.copyWithin(row * this.stride, last * this.stride, (last + 1) * this.stride);
        this.wasmScales[row] = this.wasmScales[last] as number;
      }
      this.rowOf.set(lastId, row);
    }
    this.rowOf.delete(id);
    this.ids.length = last;
    this.fingerprints.length = last;
    this.count = last;
    return true;
  }

  clear(): void {
    this.maxScale = 0;
    this.rowOf.clear();
    this.ids.length = 0;
    this.fingerprints.length = 0;
    this.count = 0;
  }

  /** Exact top-k by cosine. `allowed` restricts the candidate rows. */
  search(query: ArrayLike<number>, k: number, allowed?: ReadonlySet<string>): VectorHit[] {
    const q = this.prepareQuery(query);
    if (!q || k <= 0 || this.count === 0) {
      this.lastStats = { method: 'exact', rescored: 0, threads: 1 };
      return [];
    }
    if (allowed && allowed.size * 8 < this.count) return this.searchSubset(q, k, allowed);
    if (!this.kernels || this.count < MIN_ROWS_FOR_PRESCAN) return this.scanAll(q, k, allowed);
    return this.searchQuantised(q, k, allowed);
  }

  /** The plain full-precision scan: the correctness oracle for `search`. */
  exactSearch(query: ArrayLike<number>, k: number, allowed?: ReadonlySet<string>): VectorHit[] {
    const q = this.prepareQuery(query);
    if (!q || k <= 0) return [];
    return this.scanAll(q, k, allowed);
  }

  private prepareQuery(query: ArrayLike<number>): Float32Array | null {
    if (query.length !== this.dims) throw new Error(`query has ${query.length} dimensions, index has ${this.dims}`);
    const q = Float32Array.from(query);
    return normalise(q) ? q : null;
  }

  private dot(q: Float32Array, row: number): number {
    const v = this.vectors;
    const d = this.dims;
    let b = row * d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j + 3 < d; j += 4, b += 4) {
      s0 += (v[b] as number) * (q[j] as number);
      s1 += (v[b + 1] as number) * (q[j + 1] as number);
      s2 += (v[b + 2] as number) * (q[j + 2] as number);
      s3 += (v[b + 3] as number) * (q[j + 3] as number);
    }
    for (; j < d; j++, b++) s0 += (v[b] as number) * (q[j] as number);
    return s0 + s1 + s2 + s3;
  }

  private hits(top: TopK): VectorHit[] {
    return top.items.map((row, i) => ({ id: this.ids[row] as string, score: top.scores[i] as number }));
  }

  private scanAll(q: Float32Array, k: number, allowed?: ReadonlySet<string>): VectorHit[] {
    const top = new TopK(k);
    for (let r = 0; r < this.count; r++) {
      const s = this.dot(q, r);
      if (s > top.threshold && (!allowed || allowed.has(this.ids[r] as string))) top.push(r, s);
    }
    this.lastStats = { method: 'exact', rescored: this.count, threads: 1 };
    return this.hits(top);
  }

  private searchSubset(q: Float32Array, k: number, allowed: ReadonlySet<string>): VectorHit[] {
    const top = new TopK(k);
    let scored = 0;
    for (const id of allowed) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      top.push(row, this.dot(q, row));
      scored++;
    }
    this.lastStats = { method: 'subset', rescored: scored, threads: 1 };
    return this.hits(top);
  }

  private searchQuantised(q: Float32Array, k: number, allowed?: ReadonlySet<string>): VectorHit[] {
    const n = this.count;
    // Quantise the query to int16 codes; its rounding error is ~1/8191 of the largest component.
    let qMax = 0;
    let qL1 = 0;
    for (let j = 0; j < this.dims; j++) {
      const a = Math.abs(q[j] as number);
      qL1 += a;
      if (a > qMax) qMax = a;
    }
    const qStep = qMax / QUERY_MAX;
    const qCodes = this.wasmQuery;
    qCodes.fill(0);
    for (let j = 0; j < this.dims; j++) qCodes[j] = Math.round((q[j] as number) / qStep);
    const threads = this.prescan(n);
    const approx = this.wasmOut;
    const scales = this.scales;

    // |x·q − x̂·q̂| ≤ ‖x − x̂‖∞‖q‖₁ + ‖x̂‖₁‖q − q̂‖∞, with ‖x − x̂‖∞ ≤ step/2, ‖q − q̂‖∞ ≤ qStep/2 and
    // ‖x̂‖₁ ≤ ‖x‖₁ + d·step/2 ≤ √d + d/254 (unit x, step ≤ 1/127); 1e-5 covers float rounding.
    const queryTerm = (Math.sqrt(this.dims) + this.dims / 254) * qStep * 0.5 + 1e-5;
    const halfQL1 = 0.5 * qL1;

    // 1. The k best rows by approximate score (in units of qStep), scored exactly.
    const byApprox = new TopK(k);
    let cut = -Infinity;
    for (let r = 0; r < n; r++) {
      const a = approx[r] as number;
      if (a <= cut || (allowed && !allowed.has(this.ids[r] as string))) continue;
      byApprox.push(r, a);
      cut = byApprox.threshold;
    }
    const top = new TopK(k);
    const seen = new Set<number>(byApprox.items);
    for (const r of byApprox.items) top.push(r, this.dot(q, r));
    let rescored = seen.size;

    // 2. Any other row that might still beat the k-th exact score gets scored exactly too. The
    // first test uses the largest bound of any row, so most rows cost one multiply and compare.
    const maxBound = this.maxScale * halfQL1 + queryTerm;
    let floor = (top.threshold - maxBound) / qStep;
    for (let r = 0; r < n; r++) {
      const a = approx[r] as number;
      if (a < floor) continue;
      if (a * qStep + (scales[r] as number) * halfQL1 + queryTerm < top.threshold) continue;
      if (seen.has(r) || (allowed && !allowed.has(this.ids[r] as string))) continue;
      top.push(r, this.dot(q, r));
      rescored++;
      floor = (top.threshold - maxBound) / qStep;
    }
    this.lastStats = { method: 'quantised', rescored, threads };
    return this.hits(top);
  }

  /** Fills the approximate scores; returns how many threads shared the work. */
  private prescan(rows: number): number {
    const kernels = this.kernels as ScanKernels;
    const { query, codes, scale, out } = this.layout;
    if (this.parallel && rows >= MIN_ROWS_FOR_THREADS && kernels.memory.buffer instanceof SharedArrayBuffer) {
      if (!this.pool) {
        this.pool = ScanPool.create();
        if (this.pool) this.pool.attach(kernels);
        else this.parallel = false;
      }
      if (this.pool && !this.pool.broken) {
        const chunk = Math.max(ROWS_PER_CHUNK, Math.ceil(rows / 32));
        if (this.pool.scan({ query, codes, scale, out, stride: this.stride, rows }, chunk)) return 1 + this.pool.size;
      }
      if (this.pool?.broken) {
        this.pool.close();
        this.pool = null;
        this.parallel = false;
      }
    }
    kernels.scanI8(query, codes, rows, this.stride, scale, out);
    return 1;
  }

  /** Stops helper threads; the index stays usable (single-threaded). */
  close(): void {
    this.pool?.close();
    this.pool = null;
    this.parallel = false;
  }

  private quantiseRow(row: number): void {
    const d = this.dims;
    const base = row * d;
    let max = 0;
    for (let j = 0; j < d; j++) {
      const a = Math.abs(this.vectors[base + j] as number);
      if (a > max) max = a;
    }
    const step = max / 127;
    this.scales[row] = step;
    if (step > this.maxScale) this.maxScale = step;
    if (!this.kernels) return;
    this.wasmScales[row] = step;
    const off = row * this.stride;
    for (let j = 0; j < d; j++) this.codes[off + j] = step > 0 ? Math.round((this.vectors[base + j] as number) / step) : 0;
    for (let j = d; j < this.stride; j++) this.codes[off + j] = 0;
  }

  private grow(capacity: number): void {
    const vectors = new Float32Array(capacity * this.dims);
    vectors.set(this.vectors.subarray(0, this.count * this.dims));
    this.vectors = vectors;
    const scales = new Float32Array(capacity);
    scales.set(this.scales.subarray(0, this.count));
    this.scales = scales;
    this.capacity = capacity;
    if (this.useKernels) this.growKernels(capacity);
  }

  /** A new WebAssembly instance sized for `capacity` rows; the int8 rows are copied across. */
  private growKernels(capacity: number): void {
    const align = (n: number) => Math.ceil(n / 64) * 64;
    const query = CONTROL_BYTES;
    const scale = align(query + this.stride * 2);
    const out = align(scale + capacity * 4);
    const codes = align(out + capacity * 4);
    const bytes = codes + capacity * this.stride;
    let kernels: ScanKernels | null;
    try {
      const pages = Math.ceil(bytes / 65536);
      kernels = (this.parallel ? createScanKernels(pages, true) : null) ?? createScanKernels(pages, false);
    } catch {
      kernels = null; // e.g. beyond the 4 GiB WebAssembly limit: fall back to the float scan
    }
    const old = this.kernels ? { codes: this.codes, scales: this.wasmScales } : null;
    this.kernels = kernels;
    if (!kernels) {
      this.close();
      return;
    }
    if (this.pool) this.pool.attach(kernels);
    const buf = kernels.memory.buffer;
    this.layout = { query, scale, out, codes };
    this.wasmQuery = new Int16Array(buf, query, this.stride);
    this.wasmScales = new Float32Array(buf, scale, capacity);
    this.wasmOut = new Float32Array(buf, out, capacity);
    this.codes = new Int8Array(buf, codes, capacity * this.stride);
    if (old) {
      this.codes.set(old.codes.subarray(0, this.count * this.stride));
      this.wasmScales.set(old.scales.subarray(0, this.count));
    } else {
      for (let r = 0; r < this.count; r++) this.quantiseRow(r);
    }
  }
}
