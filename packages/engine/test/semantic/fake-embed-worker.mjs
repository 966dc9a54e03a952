// A stand-in for src/semantic/embed-worker.ts that speaks the same protocol without a model, as a
// worker thread or a forked process, so worker-embedder.test.ts can make a worker hang, crash or
// fail on purpose. Plain JavaScript: it runs without any loader. Vectors: one per text,
// [text length, 1, 0, 0] (the main side checks only length, finiteness and non-zero).
import { parentPort, workerData } from 'node:worker_threads';

const start = parentPort ? workerData : JSON.parse(process.env.ENGRAM_EMBED_WORKER_START);
const post = (m, transfer) => (parentPort ? parentPort.postMessage(m, transfer) : process.send(m));
const listen = (fn) => (parentPort ? parentPort.on('message', fn) : process.on('message', fn));
if (!parentPort) process.on('disconnect', () => process.exit(0));

if (start.options.model === 'fail-load') post({ type: 'failed', kind: 'unavailable', message: 'this model cannot load' });
else post({ type: 'ready', dimensions: 4 });
listen((m) => {
  if (m.type === 'close') process.exit(0);
  if (m.type !== 'embed') return;
  const first = m.texts[0] ?? '';
  if (first === 'hang') return;
  if (first === 'crash') process.exit(3);
  if (first.startsWith('fault:')) return post({ type: 'fault', id: m.id, kind: first.slice(6), message: `asked for ${first}` });
  const vectors = m.texts.map((t) => Float32Array.from([t.length, 1, 0, 0]));
  post({ type: 'vectors', id: m.id, vectors }, vectors.map((v) => v.buffer));
});
