// A stand-in for src/semantic/embed-worker.ts that speaks the same protocol without a model, so
// worker-embedder.test.ts can make a worker hang, crash or fail on purpose. Plain JavaScript: it
// runs as a worker without any loader. Vectors: one per text, [text length, 1, 0, 0] (normalised by
// nothing: the main side only checks length, finiteness and non-zero).
import { parentPort, workerData } from 'node:worker_threads';

const port = parentPort;
if (workerData.options.model === 'fail-load') {
  port.postMessage({ type: 'failed', kind: 'unavailable', message: 'this model cannot load' });
} else {
  port.postMessage({ type: 'ready', dimensions: 4 });
}
port.on('message', (m) => {
  if (m.type === 'close') process.exit(0);
  if (m.type !== 'embed') return;
  const first = m.texts[0] ?? '';
  if (first === 'hang') return;
  if (first === 'crash') throw new Error('boom');
  if (first.startsWith('fault:')) return port.postMessage({ type: 'fault', id: m.id, kind: first.slice(6), message: `asked for ${first}` });
  const vectors = m.texts.map((t) => Float32Array.from([t.length, 1, 0, 0]));
  port.postMessage({ type: 'vectors', id: m.id, vectors }, vectors.map((v) => v.buffer));
});
