// The local model (LocalEmbedder) run in a worker: a worker thread, or a child process. onnxruntime-node
// creates its session synchronously and runs through a binding on the thread that calls it: loaded
// in a host's main thread, the model held that thread's event loop for hundreds of ms at start, so no
// wait the host put on Engram was a hard cap. Here the worker loads the model and embeds; this thread
// only posts texts and receives vectors (a thread's are transferred, not copied), and never imports
// the ONNX runtime.
//
// Idling: after `idleMs` without an embed request the worker is asked to free the model and end
// (ended by force if it does not within CLOSE_GRACE_MS); the next request starts a fresh one, which
// loads the model again. A thread gives back only part of the memory (the runtime's library stays
// loaded, and glibc keeps freed heaps: docs/benchmarks.md); a process gives back all of it. A worker
// that dies answers its requests 'unavailable'; the next call starts a new one. Faults keep their
// kinds: timeout and aborted are decided here (the wall clock includes a restart), anything the
// worker reports comes back as the kind it had there.
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Embedder, EmbedOptions } from './embedder.ts';
import { validateVectors } from './embedder.ts';
import { EmbeddingFault, type FaultKind } from './embedding-fault.ts';
import { inspectModelDir, type LocalEmbedderOptions } from './local-embedder.ts';

/** The worker's entry file, without extension: `.ts` in the sources, `.mjs` in the plugin bundle (apps/plugin/scripts/pack.mjs). */
export const WORKER_FILE = 'embed-worker';
/**
 * Default idle time. Reloading the model costs ~0.5–1 s of one core in the worker (not the host's
 * thread) and the first query after it may answer lexically; ten minutes keeps it loaded through a
 * conversation and gives its memory back over a lunch break.
 */
export const DEFAULT_IDLE_MS = 10 * 60_000;
/** How long a worker asked to close may take to free the model before it is ended by force. */
const CLOSE_GRACE_MS = 5_000;

/** What the worker is started with (workerData). */
export interface WorkerStart {
  modelDir: string;
  options: Omit<LocalEmbedderOptions, 'runtime'>;
}
export type ToWorker =
  | { type: 'embed'; id: number; texts: string[]; purpose?: 'query' | 'document'; timeoutMs?: number }
  | { type: 'cancel'; id: number }
  | { type: 'close' };
export type FromWorker =
  | { type: 'ready'; dimensions: number }
  | { type: 'failed'; kind: FaultKind; message: string }
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'fault'; id: number; kind: FaultKind; message: string };

export interface WorkerEmbedderOptions {
  /**
   * `thread` (default): a worker thread. `process`: a child process of this Node — its memory goes
   * back to the system entirely when it ends (a thread's partly stays with the process's allocator,
   * see docs/benchmarks.md), at the cost of a second Node (~40 MB) while it runs.
   */
  isolation?: 'thread' | 'process';
  /** End the worker after this long without a request (default DEFAULT_IDLE_MS; 0 = never). */
  idleMs?: number;
  /** The worker entry to run (tests; default: found next to this module, see workerEntry). */
  entry?: string;
}

/** This module's folder: the sources' semantic/, or the bundle's lib/ (where pack.mjs puts the worker file). */
function moduleDir(): string | null {
  try {
    // Not `new URL('./…', import.meta.url)`: bundlers treat that form as an asset import (see text/jieba.ts).
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
}

/** The worker's entry beside this module: the bundle's .mjs, else the source .ts (run under tsx); null when neither exists. */
export function workerEntry(dir: string | null = moduleDir()): string | null {
  if (!dir) return null;
  for (const ext of ['.mjs', '.ts']) {
    const file = join(dir, WORKER_FILE + ext);
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * How to start a worker on an entry file. The bundle's .mjs runs as it is. A .ts source (tests,
 * development) runs through tsx, registered inside the worker from the entry's own node_modules:
 * Node 20 does not apply a parent's `--import tsx` hooks to a worker's entry. The worker gets no
 * other flags: a host's may not be valid in a worker, and test preloads must not run twice.
 */
export function workerLaunch(entry: string): { script: string; eval: boolean } {
  if (!entry.endsWith('.ts')) return { script: entry, eval: false };
  const script = `const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const tsx = join(dirname(createRequire(${JSON.stringify(entry)}).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
import(pathToFileURL(tsx).href).then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return { script, eval: true };
}

/** A child process gets its WorkerStart as JSON in this variable (a thread gets it as workerData). */
export const START_ENV = 'ENGRAM_EMBED_WORKER_START';

/** A started worker, thread or child process, seen one way. */
interface Carrier {
  post(m: ToWorker): void;
  ref(): void;
  unref(): void;
  kill(): void;
  /** Settles once when it has ended, with why. */
  readonly exited: Promise<{ code: number | null; error: Error | null }>;
}

function threadCarrier(entry: string, start: WorkerStart, onMessage: (m: FromWorker) => void): Carrier {
  const launch = workerLaunch(entry);
  const worker = new Worker(launch.script, { eval: launch.eval, workerData: start, execArgv: [] });
  let error: Error | null = null;
  worker.on('message', onMessage);
  worker.on('error', (e) => {
    error = e;
  });
  const exited = new Promise<{ code: number | null; error: Error | null }>((ok) => worker.once('exit', (code) => ok({ code, error })));
  return {
    post: (m) => worker.postMessage(m),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    kill: () => void worker.terminate(),
    exited,
  };
}

function processCarrier(entry: string, start: WorkerStart, onMessage: (m: FromWorker) => void): Carrier {
  // A .ts entry (tests, development) runs through tsx's loader, found from the entry's own node_modules.
  const execArgv = entry.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(entry).resolve('tsx')).href] : [];
  const child = fork(entry, [], { execArgv, serialization: 'advanced', env: { ...process.env, [START_ENV]: JSON.stringify(start) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let error: Error | null = null;
  child.on('message', (m) => onMessage(m as FromWorker));
  const exited = new Promise<{ code: number | null; error: Error | null }>((ok) => {
    child.once('exit', (code) => ok({ code, error }));
    child.on('error', (e) => {
      error = e;
      if (child.pid === undefined) ok({ code: null, error }); // never started: no exit event follows
    });
  });
  const channel = () => (child as unknown as { channel?: { ref(): void; unref(): void } | null }).channel;
  return {
    post: (m) => {
      if (child.connected) child.send(m);
    },
    ref: () => {
      child.ref();
      channel()?.ref();
    },
    unref: () => {
      child.unref();
      channel()?.unref();
    },
    kill: () => void child.kill('SIGKILL'),
    exited,
  };
}

interface Running {
  /** null when nothing could be started (ready has then failed with the reason). */
  worker: Carrier | null;
  /** Settles when the worker has loaded the model (or could not). */
  ready: Promise<void>;
  /** Set when this side ended it (idle, dispose, failed load): its exit is not a crash. */
  closing: boolean;
}

interface Pending {
  run: Running;
  resolve: (vectors: Float32Array[]) => void;
  reject: (fault: EmbeddingFault) => void;
}

export class WorkerEmbedder implements Embedder {
  readonly provider = 'local' as const;
  readonly remote = false;
  readonly quantised: boolean;
  readonly model: string;
  readonly endpoint: string;
  readonly idleMs: number;
  /** Workers started so far (status, tests). */
  starts = 0;
  private dims: number | null = null;
  private running: Running | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  private readonly start: WorkerStart;
  private readonly entry: string | null;
  private readonly isolation: 'thread' | 'process';

  private constructor(dir: string, dtype: string, options: Omit<LocalEmbedderOptions, 'runtime'>, opts: WorkerEmbedderOptions) {
    this.model = options.model;
    this.endpoint = dir;
    this.quantised = dtype === 'q8' || dtype === 'int8';
    this.idleMs = Math.max(0, opts.idleMs ?? DEFAULT_IDLE_MS);
    this.start = { modelDir: dir, options };
    this.entry = opts.entry ?? workerEntry();
    this.isolation = opts.isolation ?? 'thread';
  }

  get dimensions(): number | null {
    return this.dims;
  }

  /** Whether a worker (and so the model) is in memory now. */
  get alive(): boolean {
    return this.running !== null;
  }

  /** Starts a worker and waits until it has loaded the model (learning its dimension); throws EmbeddingFault. */
  static async load(modelDir: string, options: Omit<LocalEmbedderOptions, 'runtime'>, opts: WorkerEmbedderOptions = {}): Promise<WorkerEmbedder> {
    const layout = inspectModelDir(modelDir); // cheap checks with a reason a person can act on, before any thread starts
    const { runtime: _ignored, ...cloneable } = options as LocalEmbedderOptions;
    const embedder = new WorkerEmbedder(layout.dir, layout.dtype, cloneable, opts);
    try {
      await embedder.launch().ready;
    } catch (e) {
      await embedder.dispose();
      throw e;
    }
    embedder.settle();
    return embedder;
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    if (opts.signal?.aborted) throw new EmbeddingFault('aborted', 'cancelled');
    if (this.disposed) throw new EmbeddingFault('unavailable', 'the local model was closed');
    const deadline = opts.timeoutMs ? performance.now() + opts.timeoutMs : Infinity;
    try {
      const vectors = await this.request(this.launch(), texts, opts, deadline);
      return validateVectors(vectors, texts.length, this.dims, 'local model');
    } finally {
      this.settle();
    }
  }

  /** Frees the model and ends the worker (waits for it, up to CLOSE_GRACE_MS). */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.clearIdle();
    const run = this.running;
    if (run) await this.retire(run, true);
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new EmbeddingFault('unavailable', 'the local model was closed'));
    }
  }

  /** The running worker, or a new one. */
  private launch(): Running {
    this.clearIdle();
    if (this.running) return this.running;
    let settleReady!: (fault?: EmbeddingFault) => void;
    const ready = new Promise<void>((ok, fail) => {
      settleReady = (fault) => (fault ? fail(fault) : ok());
    });
    ready.catch(() => undefined); // observed by every request; an idle failure must not be "unhandled"
    if (!this.entry || !existsSync(this.entry)) {
      settleReady(new EmbeddingFault('unavailable', `the embedding worker's file (${this.entry ?? `${WORKER_FILE}.mjs or .ts`}) is not next to ${moduleDir() ?? 'the engine'}`));
      return { worker: null, ready, closing: true };
    }
    let run: Running | null = null;
    const onMessage = (m: FromWorker) => {
      if (!run) return;
      if (m.type === 'ready') {
        this.dims ??= m.dimensions;
        settleReady();
      } else if (m.type === 'failed') {
        settleReady(new EmbeddingFault(m.kind, m.message));
        void this.retire(run);
      } else {
        const p = this.pending.get(m.id);
        if (!p) return; // timed out or cancelled here: its answer is dropped
        this.pending.delete(m.id);
        if (m.type === 'vectors') p.resolve(m.vectors);
        else p.reject(new EmbeddingFault(m.kind, m.message));
      }
    };
    let worker: Carrier;
    try {
      worker = (this.isolation === 'process' ? processCarrier : threadCarrier)(this.entry, this.start, onMessage);
    } catch (e) {
      settleReady(new EmbeddingFault('unavailable', `the embedding worker could not start: ${(e as Error).message}`));
      return { worker: null, ready, closing: true };
    }
    this.starts++;
    const started: Running = { worker, ready, closing: false };
    run = started;
    this.running = started;
    void worker.exited.then(({ code, error }) => {
      if (this.running === started) this.running = null;
      const reason = started.closing ? 'the embedding worker was stopped' : `the embedding worker stopped (exit code ${code}${error ? `: ${error.message}` : ''})`;
      settleReady(new EmbeddingFault('unavailable', reason));
      for (const [id, p] of this.pending) {
        if (p.run !== started) continue;
        this.pending.delete(id);
        p.reject(new EmbeddingFault('unavailable', reason));
      }
    });
    return started;
  }

  /** One request to a worker, bounded by the caller's deadline and signal (which include a restart's load). */
  private request(run: Running, texts: string[], opts: EmbedOptions, deadline: number): Promise<Float32Array[]> {
    return new Promise<Float32Array[]>((resolve, reject) => {
      const id = this.nextId++;
      let sent = false;
      let done = false;
      let timer: NodeJS.Timeout | null = null;
      const signal = opts.signal;
      const finish = (fault: EmbeddingFault | null, vectors?: Float32Array[]) => {
        if (done) return;
        done = true;
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        if (fault) reject(fault);
        else resolve(vectors as Float32Array[]);
      };
      // The worker stops between sub-batches when told; its late answer is dropped (no pending entry).
      const cancel = (fault: EmbeddingFault) => {
        if (sent && this.pending.has(id)) run.worker?.post({ type: 'cancel', id });
        finish(fault);
      };
      const onAbort = () => cancel(new EmbeddingFault('aborted', 'cancelled'));
      if (Number.isFinite(deadline)) {
        timer = setTimeout(() => cancel(new EmbeddingFault('timeout', `local embedding exceeded ${opts.timeoutMs} ms`)), Math.max(0, deadline - performance.now()));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { run, resolve: (v) => finish(null, v), reject: (f) => finish(f) });
      run.worker?.ref(); // an answer is awaited: the process must not exit under it
      run.ready.then(
        () => {
          if (done) return;
          const left = deadline - performance.now();
          const msg: ToWorker = { type: 'embed', id, texts, ...(opts.purpose ? { purpose: opts.purpose } : {}), ...(Number.isFinite(left) ? { timeoutMs: Math.max(1, Math.ceil(left)) } : {}) };
          run.worker?.post(msg);
          sent = true;
        },
        (fault: EmbeddingFault) => finish(fault),
      );
    });
  }

  /** After a request (or the first load): with nothing in flight, the worker stops holding the process open and the idle clock starts. */
  private settle(): void {
    const run = this.running;
    if (!run || this.pending.size > 0 || this.disposed) return;
    run.worker?.unref();
    this.clearIdle();
    if (this.idleMs <= 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.running === run && this.pending.size === 0) void this.retire(run);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /**
   * Asks a worker to free the model and end; ends it by force after CLOSE_GRACE_MS. Resolves when it
   * has exited. `hold`: the process stays up until then (dispose is awaited; an idle close is not).
   */
  private retire(run: Running, hold = false): Promise<void> {
    if (this.running === run) this.running = null;
    const worker = run.worker;
    if (!worker) return Promise.resolve();
    if (hold) worker.ref();
    if (!run.closing) {
      run.closing = true;
      try {
        worker.post({ type: 'close' });
      } catch {
        // the channel is already closed: the exit is on its way
      }
      const force = setTimeout(() => worker.kill(), CLOSE_GRACE_MS);
      force.unref();
      void worker.exited.then(() => clearTimeout(force));
    }
    return worker.exited.then(() => undefined);
  }
}
