// The embedding worker's entry (started by worker-embedder.ts, never imported): loads the local
// model here — a worker thread, or a child process — and answers embed requests, so the ONNX runtime
// (its synchronous session creation and its runs) never occupies the host's event loop. Vectors are
// transferred back to a thread, sent over IPC to a process.
import { parentPort, workerData } from 'node:worker_threads';
import { EmbeddingFault, type FaultKind } from './embedding-fault.ts';
import { LocalEmbedder } from './local-embedder.ts';
import { START_ENV, type FromWorker, type ToWorker, type WorkerStart } from './worker-embedder.ts';

const port = parentPort;
const send = process.send?.bind(process);
if (!port && !send) throw new Error(`${import.meta.url} runs only as a worker thread or a forked process (see worker-embedder.ts)`);
const start = (port ? workerData : JSON.parse(process.env[START_ENV] ?? 'null')) as WorkerStart;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []): void => {
  if (port) port.postMessage(m, transfer);
  // Not once the host is gone: process.send would throw ERR_IPC_CHANNEL_CLOSED, uncaught, onto the
  // host's stderr (which this process shares). Node marks the channel closed a tick before it emits
  // 'disconnect' (the exit below), so an answer that finishes in between goes nowhere, quietly.
  else if (process.connected) send?.(m);
};
const listen = (fn: (m: ToWorker) => void) => (port ? port.on('message', fn) : process.on('message', fn as (m: unknown) => void));
// A process whose parent is gone (the host crashed or was killed) ends too. A parent gone before this
// line ran (killed while this file was still loading) had its 'disconnect' emitted to no listener:
// that shows only as a channel already closed, and the model is not loaded for nobody (it went on to
// load, then reported "ready" into the closed channel: the error above).
if (!port) {
  process.on('disconnect', () => process.exit(0));
  if (!process.connected) process.exit(0);
}
const faultOf = (e: unknown): { kind: FaultKind; message: string } =>
  e instanceof EmbeddingFault ? { kind: e.kind, message: e.message } : { kind: 'unavailable', message: `local model failed: ${e instanceof Error ? e.message : String(e)}` };

let embedder: LocalEmbedder | null = null;
const loaded = LocalEmbedder.load(start.modelDir, start.options).then((e) => {
  embedder = e;
  return e;
});
loaded.then(
  (e) => post({ type: 'ready', dimensions: e.dimensions ?? 0 }),
  (e: unknown) => post({ type: 'failed', ...faultOf(e) }),
);

const cancels = new Map<number, AbortController>();
const inflight = new Set<Promise<void>>();
let closing = false;

function embed(m: Extract<ToWorker, { type: 'embed' }>): void {
  const ctl = new AbortController();
  cancels.set(m.id, ctl);
  const job = loaded
    .then((e) => e.embed(m.texts, { signal: ctl.signal, ...(m.timeoutMs ? { timeoutMs: m.timeoutMs } : {}), ...(m.purpose ? { purpose: m.purpose } : {}) }))
    .then(
      // Each vector owns its buffer (local-embedder.ts builds every one with map): moved, not copied.
      (vectors) => post({ type: 'vectors', id: m.id, vectors }, [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))]),
      (e: unknown) => post({ type: 'fault', id: m.id, ...faultOf(e) }),
    )
    .finally(() => {
      cancels.delete(m.id);
      inflight.delete(job);
    });
  inflight.add(job);
}

/** Frees the model's session once the runs in flight have stopped, then ends this thread or process. */
async function close(): Promise<void> {
  if (closing) return;
  closing = true;
  for (const c of cancels.values()) c.abort();
  await Promise.allSettled([...inflight]);
  await loaded.catch(() => undefined);
  await embedder?.dispose();
  process.exit(0); // in a thread: ends this thread only
}

listen((m: ToWorker) => {
  if (m.type === 'embed') {
    if (closing) post({ type: 'fault', id: m.id, kind: 'unavailable', message: 'the embedding worker is closing' });
    else embed(m);
  } else if (m.type === 'cancel') cancels.get(m.id)?.abort();
  else void close();
});
