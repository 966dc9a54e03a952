// Run as a child process by worker-embedder.test.ts: embeds through one path and prints whether this
// (main) thread loaded the ONNX runtime. A child, so nothing loaded by another test counts.
//   node --import tsx main-thread-runtime.fixture.ts <modelDir> <embedder|engine>-<main|thread|process> <tmp root>
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { configSchema } from '../../src/config/schema.ts';
import { openEngine } from '../../src/engine.ts';
import { createEmbedder } from '../../src/semantic/embedder-factory.ts';
import { seedCorpus } from '../engine/helpers.ts';

const [modelDir, mode, root] = process.argv.slice(2) as [string, string, string];
const [kind, where] = mode.split('-') as ['embedder' | 'engine', 'main' | 'thread' | 'process'];
const placement = where === 'main' ? {} : { thread: 'worker' as const, isolation: where };
const embedding = configSchema.parse({ embedding: { provider: 'local', modelDir } }).embedding;
let dims = 0;
let hits = 0;
if (kind === 'engine') {
  const diaryDir = join(root, 'diaries');
  seedCorpus(diaryDir);
  const engine = await openEngine({
    options: { diaryDir, dataDir: join(root, 'data'), embedding: { provider: 'local', modelDir } },
    env: { HOME: root },
    model: { load: 'at-open', ...placement, idleMs: 0 },
  });
  await engine.vectorsSettled(); // the open embeds in the background
  const status = engine.semantic?.status();
  dims = status?.dimensions ?? 0;
  const found = await engine.semantic!.search('东京节点端口', 3);
  hits = found.ran ? found.hits.length : 0;
  await engine.close();
} else {
  const e = await createEmbedder(embedding, undefined, { model: placement });
  dims = (await e.embed(['记忆向量检索']))[0]!.length;
  await e.dispose?.();
}
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /onnxruntime-node|@huggingface[\\/]transformers/.test(k));
// The native library is per process: loaded by this thread or a worker thread, not by a child process.
const nativeInProcess = (process.report.getReport() as { sharedObjects: string[] }).sharedObjects.some((s) => /onnxruntime/.test(s));
console.log(JSON.stringify({ dims, hits, runtimeInMainThread: loaded.length > 0, nativeInProcess }));
