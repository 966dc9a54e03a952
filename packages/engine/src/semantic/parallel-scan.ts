// Splits one int8 pre-scan across the calling thread and a few worker threads that share the
// WebAssembly memory. A single core streams ~5–7 GB/s here, so 100k × 512 int8 rows take ~9 ms on
// one thread; two halve that. Work is handed out in chunks from an atomic counter, so a worker
// that is slow to wake (busy machine) only costs the chunk it claimed, never the whole scan.
//
// Control words live in the first 64 bytes of the shared memory (Int32 indices below).
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { ScanKernels } from './simd-kernels.ts';

// node:worker_threads is loaded when a pool starts, not with this module: a command that never scans
// (`engram write`) would otherwise pay its load (~2.5 ms of a ~150 ms command).
const threads = () => createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

export const CONTROL_BYTES = 64;

const SEQ = 0;
const NEXT = 1;
const TOTAL = 2;
const BUSY = 3;
const ROWS = 4;
const PER = 5;
const QUERY = 6;
const CODES = 7;
const SCALE = 8;
const OUT = 9;
const STRIDE = 10;
const RETIRED = 11;

// Plain JavaScript run with `eval: true`, so nothing has to resolve a .ts file at run time (the
// engine also runs bundled inside the console). It mirrors `claimAndScan` below.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
workerData.port.on('message', (m) => {
  const scan = new WebAssembly.Instance(m.module, { env: { mem: m.memory } }).exports.scan_i8;
  const c = new Int32Array(m.memory.buffer, 0, 16);
  let seen = Atomics.load(c, ${SEQ});
  for (;;) {
    if (Atomics.load(c, ${RETIRED}) !== 0) break;
    Atomics.wait(c, ${SEQ}, seen);
    if (Atomics.load(c, ${RETIRED}) !== 0) break;
    seen = Atomics.load(c, ${SEQ});
    Atomics.add(c, ${BUSY}, 1);
    for (;;) {
      const k = Atomics.add(c, ${NEXT}, 1);
      if (k >= Atomics.load(c, ${TOTAL})) break;
      const rows = Atomics.load(c, ${ROWS}), per = Atomics.load(c, ${PER}), stride = Atomics.load(c, ${STRIDE});
      const r0 = k * per;
      if (r0 >= rows) break;
      scan(Atomics.load(c, ${QUERY}), Atomics.load(c, ${CODES}) + r0 * stride, Math.min(per, rows - r0), stride,
        Atomics.load(c, ${SCALE}) + r0 * 4, Atomics.load(c, ${OUT}) + r0 * 4);
    }
    if (Atomics.sub(c, ${BUSY}, 1) === 1) Atomics.notify(c, ${BUSY});
  }
});
`;

export interface ScanJob {
  query: number;
  codes: number;
  scale: number;
  out: number;
  stride: number;
  rows: number;
}

export class ScanPool {
  private readonly workers: { worker: Worker; port: MessagePort }[] = [];
  private kernels: ScanKernels | null = null;
  private ctrl: Int32Array | null = null;
  /** Set when a worker failed or stalled; the owner should stop using the pool. */
  broken = false;

  private constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const { MessageChannel, Worker } = threads();
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2 }, transferList: [port2] });
      worker.unref();
      port1.unref();
      // A worker that dies only loses its help; the calling thread claims every chunk itself.
      worker.on('error', () => {
        this.broken = true;
      });
      worker.on('exit', () => {
        this.broken = true;
      });
      this.workers.push({ worker, port: port1 });
    }
  }

  /** Helper threads for a scan (one fewer than the cores, at most `max`); null on a single core. */
  static create(max = 3): ScanPool | null {
    const count = Math.min(max, availableParallelism() - 1);
    if (count < 1) return null;
    try {
      return new ScanPool(count);
    } catch {
      return null;
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Points the workers at a new shared memory; the previous one is retired. */
  attach(kernels: ScanKernels): void {
    this.retire();
    this.kernels = kernels;
    this.ctrl = new Int32Array(kernels.memory.buffer, 0, 16);
    for (const { port } of this.workers) port.postMessage({ module: kernels.module, memory: kernels.memory });
  }

  /**
   * Runs the scan over all rows. Returns true when every row's score is written; false if a worker
   * held a chunk past `stallMs` (its rows may be stale: the caller must scan alone).
   */
  scan(job: ScanJob, chunkRows: number, stallMs = 2000): boolean {
    const c = this.ctrl;
    const kernels = this.kernels;
    if (!c || !kernels) throw new Error('scan pool has no memory attached');
    const per = Math.max(1, Math.floor(chunkRows));
    Atomics.store(c, ROWS, job.rows);
    Atomics.store(c, PER, per);
    Atomics.store(c, QUERY, job.query);
    Atomics.store(c, CODES, job.codes);
    Atomics.store(c, SCALE, job.scale);
    Atomics.store(c, OUT, job.out);
    Atomics.store(c, STRIDE, job.stride);
    Atomics.store(c, TOTAL, Math.ceil(job.rows / per));
    Atomics.store(c, NEXT, 0);
    Atomics.add(c, SEQ, 1);
    Atomics.notify(c, SEQ);
    for (;;) {
      const k = Atomics.add(c, NEXT, 1);
      if (k >= Atomics.load(c, TOTAL)) break;
      const r0 = k * per;
      kernels.scanI8(job.query, job.codes + r0 * job.stride, Math.min(per, job.rows - r0), job.stride, job.scale + r0 * 4, job.out + r0 * 4);
    }
    const deadline = performance.now() + stallMs;
    for (let busy = Atomics.load(c, BUSY); busy !== 0; busy = Atomics.load(c, BUSY)) {
      if (performance.now() > deadline) {
        this.broken = true;
        return false;
      }
      Atomics.wait(c, BUSY, busy, 5);
    }
    return true;
  }

  private retire(): void {
    if (!this.ctrl) return;
    Atomics.store(this.ctrl, RETIRED, 1);
    Atomics.add(this.ctrl, SEQ, 1);
    Atomics.notify(this.ctrl, SEQ);
    this.ctrl = null;
    this.kernels = null;
  }

  close(): void {
    this.retire();
    for (const { worker, port } of this.workers) {
      port.close();
      void worker.terminate();
    }
    this.workers.length = 0;
  }
}
