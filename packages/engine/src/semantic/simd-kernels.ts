// Two dot-product scan kernels in WebAssembly SIMD, hand-assembled so there is no toolchain or
// binary blob to ship. A plain JavaScript loop manages ~0.6 G multiply-adds per second here, which
// is ~80 ms for 100k × 512; the int8 kernel reads a quarter of the bytes and does 16 lanes per step.
//
//   scan_i8(q, base, rows, dims, scale, out):  out[r] = float(Σ q16[j]·base8[r][j]) · scale[r]
//   scan_f32(q, base, rows, dims, out):        out[r] = Σ q[j]·base[r][j]
//
// Pointers are byte offsets into the imported memory. `dims` must be a positive multiple of 16 for
// scan_f32 and of I8_ROW_ALIGN for scan_i8, whose query is int16 codes (2·dims bytes). At 100k ×
// 512 the int8 scan is bound by memory bandwidth (51 MB per query, ~6 GB/s per core here), which
// is why parallel-scan.ts splits it across cores.

export interface ScanKernels {
  readonly memory: WebAssembly.Memory;
  readonly module: WebAssembly.Module;
  scanI8(q: number, base: number, rows: number, dims: number, scale: number, out: number): void;
  scanF32(q: number, base: number, rows: number, dims: number, out: number): void;
}

const uleb = (value: number): number[] => {
  const bytes: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0);
  return bytes;
};

const sleb = (value: number): number[] => {
  const bytes: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
};

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => vec([...Buffer.from(s, 'utf8')].map((b) => [b]));

const I32 = 0x7f;
const V128 = 0x7b;

// Instructions used by the kernels.
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...uleb(depth)],
  brIf: (depth: number) => [0x0d, ...uleb(depth)],
  get: (i: number) => [0x20, ...uleb(i)],
  set: (i: number) => [0x21, ...uleb(i)],
  i32: (n: number) => [0x41, ...sleb(n)],
  i32Add: [0x6a],
  i32Shl: [0x74],
  i32GeU: [0x4f],
  i32LtU: [0x49],
  f32Load: (offset = 0) => [0x2a, 2, ...uleb(offset)],
  f32Store: [0x38, 2, 0],
  f32Add: [0x92],
  f32Mul: [0x94],
  f32FromI32: [0xb2],
  simd: (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm],
};
const v128Load = (offset = 0) => op.simd(0x00, 4, ...uleb(offset));
/** Loads 8 int8 and sign-extends them to int16x8 in one instruction (pmovsxbw m64). */
const v128Load8x8S = (offset = 0) => op.simd(0x01, 3, ...uleb(offset));
const v128Zero = op.simd(0x0c, ...new Array(16).fill(0));
const i32x4Lane = (lane: number) => op.simd(0x1b, lane);
const f32x4Lane = (lane: number) => op.simd(0x1f, lane);
const i32x4Add = op.simd(0xae);
const i32x4DotI16 = op.simd(0xba);
const f32x4Add = op.simd(0xe4);
const f32x4Mul = op.simd(0xe6);

/** 16-byte steps per loop iteration; row strides are padded to a multiple of 16·UNROLL. */
export const I8_ROW_ALIGN = 32;
const UNROLL = I8_ROW_ALIGN / 16;

function scanI8Body(): number[] {
  // params: 0 q, 1 base, 2 rows, 3 dims, 4 scale, 5 out
  // locals: 6 r, 7 p (data cursor, runs through all rows), 8 qj (query cursor), 9 rowEnd, 10..11 acc
  // Each 16-byte step is two load8x8_s (8 int8 → int16x8 in one instruction) and two pmaddwd.
  const [q, base, rows, dims, scale, out, r, p, qj, rowEnd, acc0, acc1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const block = (k: number) => [
    ...op.get(acc0), ...op.get(p), ...v128Load8x8S(16 * k), ...op.get(qj), ...v128Load(32 * k), ...i32x4DotI16, ...i32x4Add, ...op.set(acc0),
    ...op.get(acc1), ...op.get(p), ...v128Load8x8S(16 * k + 8), ...op.get(qj), ...v128Load(32 * k + 16), ...i32x4DotI16, ...i32x4Add, ...op.set(acc1),
  ];
  const code = [
    ...op.get(base), ...op.set(p),
    ...op.block, ...op.loop,
    ...op.get(r), ...op.get(rows), ...op.i32GeU, ...op.brIf(1),
    ...v128Zero, ...op.set(acc0), ...v128Zero, ...op.set(acc1),
    ...op.get(q), ...op.set(qj), ...op.get(p), ...op.get(dims), ...op.i32Add, ...op.set(rowEnd),
    ...op.loop,
    ...Array.from({ length: UNROLL }, (_, k) => block(k)).flat(),
    ...op.get(p), ...op.i32(16 * UNROLL), ...op.i32Add, ...op.set(p),
    ...op.get(qj), ...op.i32(32 * UNROLL), ...op.i32Add, ...op.set(qj),
    ...op.get(p), ...op.get(rowEnd), ...op.i32LtU, ...op.brIf(0),
    ...op.end,
    ...op.get(acc0), ...op.get(acc1), ...i32x4Add, ...op.set(acc0),
    // out[r] = float(lane sum) * scale[r]
    ...op.get(out), ...op.get(r), ...op.i32(2), ...op.i32Shl, ...op.i32Add,
    ...op.get(acc0), ...i32x4Lane(0), ...op.get(acc0), ...i32x4Lane(1), ...op.i32Add,
    ...op.get(acc0), ...i32x4Lane(2), ...op.i32Add, ...op.get(acc0), ...i32x4Lane(3), ...op.i32Add,
    ...op.f32FromI32,
    ...op.get(scale), ...op.get(r), ...op.i32(2), ...op.i32Shl, ...op.i32Add, ...op.f32Load(),
    ...op.f32Mul, ...op.f32Store,
    ...op.get(r), ...op.i32(1), ...op.i32Add, ...op.set(r),
    ...op.br(0),
    ...op.end, ...op.end,
    ...op.end,
  ];
  return [...vec([[4, I32], [2, V128]]), ...code];
}

function scanF32Body(): number[] {
  // params: 0 q, 1 base, 2 rows, 3 dims, 4 out; locals: 5 r, 6 j (bytes), 7 p, 8 rowBytes, 9..12 acc
  const [q, base, rows, dims, out, r, j, p, rowBytes, a0, a1, a2, a3] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const accs = [a0, a1, a2, a3];
  const step = accs.flatMap((a, k) => [
    ...op.get(a),
    ...op.get(p), ...op.get(j), ...op.i32Add, ...v128Load(16 * k),
    ...op.get(q), ...op.get(j), ...op.i32Add, ...v128Load(16 * k),
    ...f32x4Mul, ...f32x4Add, ...op.set(a),
  ]);
  const code = [
    ...op.get(base), ...op.set(p),
    ...op.get(dims), ...op.i32(2), ...op.i32Shl, ...op.set(rowBytes),
    ...op.block, ...op.loop,
    ...op.get(r), ...op.get(rows), ...op.i32GeU, ...op.brIf(1),
    ...accs.flatMap((a) => [...v128Zero, ...op.set(a)]), ...op.i32(0), ...op.set(j),
    ...op.loop,
    ...step,
    ...op.get(j), ...op.i32(64), ...op.i32Add, ...op.set(j),
    ...op.get(j), ...op.get(rowBytes), ...op.i32LtU, ...op.brIf(0),
    ...op.end,
    ...op.get(a0), ...op.get(a1), ...f32x4Add, ...op.get(a2), ...op.get(a3), ...f32x4Add, ...f32x4Add, ...op.set(a0),
    ...op.get(out), ...op.get(r), ...op.i32(2), ...op.i32Shl, ...op.i32Add,
    ...op.get(a0), ...f32x4Lane(0), ...op.get(a0), ...f32x4Lane(1), ...op.f32Add,
    ...op.get(a0), ...f32x4Lane(2), ...op.get(a0), ...f32x4Lane(3), ...op.f32Add, ...op.f32Add,
    ...op.f32Store,
    ...op.get(p), ...op.get(rowBytes), ...op.i32Add, ...op.set(p),
    ...op.get(r), ...op.i32(1), ...op.i32Add, ...op.set(r),
    ...op.br(0),
    ...op.end, ...op.end,
    ...op.end,
  ];
  return [...vec([[4, I32], [4, V128]]), ...code];
}

export function kernelModuleBytes(shared = false): Uint8Array<ArrayBuffer> {
  const types = section(1, vec([
    [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])],
    [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])],
  ]));
  // A shared memory must declare a maximum; 65536 pages is the whole 32-bit address space.
  const limits = shared ? [0x03, ...uleb(1), ...uleb(65536)] : [0x00, ...uleb(1)];
  const imports = section(2, vec([[...name('env'), ...name('mem'), 0x02, ...limits]]));
  const funcs = section(3, vec([[0], [1]]));
  const exportsSec = section(7, vec([[...name('scan_i8'), 0x00, 0], [...name('scan_f32'), 0x00, 1]]));
  const bodies = [scanI8Body(), scanF32Body()].map((b) => [...uleb(b.length), ...b]);
  const code = section(10, vec(bodies));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exportsSec, ...code]);
}

const compiled = new Map<boolean, WebAssembly.Module | null>();

/** The compiled kernel module (cached), or null where WebAssembly SIMD (or threads, if shared) is unavailable. */
export function kernelModule(shared = false): WebAssembly.Module | null {
  if (!compiled.has(shared)) {
    let mod: WebAssembly.Module | null = null;
    try {
      const bytes = kernelModuleBytes(shared);
      if (WebAssembly.validate(bytes)) mod = new WebAssembly.Module(bytes);
    } catch {
      mod = null;
    }
    compiled.set(shared, mod);
  }
  return compiled.get(shared) ?? null;
}

/** A kernel instance over a fresh memory of `pages` 64 KiB pages; null without WebAssembly SIMD. */
export function createScanKernels(pages = 1, shared = false): ScanKernels | null {
  const mod = kernelModule(shared);
  if (!mod) return null;
  const memory = shared
    ? new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })
    : new WebAssembly.Memory({ initial: pages });
  const instance = new WebAssembly.Instance(mod, { env: { mem: memory } });
  const ex = instance.exports as Record<string, (...args: number[]) => void>;
  const scanI8 = ex.scan_i8!;
  const scanF32 = ex.scan_f32!;
  return {
    memory,
    module: mod,
    scanI8: (q, base, rows, dims, scale, out) => scanI8(q, base, rows, dims, scale, out),
    scanF32: (q, base, rows, dims, out) => scanF32(q, base, rows, dims, out),
  };
}
