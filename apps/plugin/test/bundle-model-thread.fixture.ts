// Run by pack.test.ts in a child process: the packed plugin in the simulated host with a local
// model; prints whether the model was loaded somewhere — the runtime's native library in this
// process (a worker thread, or inline), or a forked embed-worker process — and whether the host's own
// thread loaded the runtime (its module registry). A child, so nothing another test loaded counts.
//   node --import tsx bundle-model-thread.fixture.ts <bundle lib dir> <model dir>
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHost } from '@engram/dsh-sim';
import { makeCorpus, NO_MODEL_INSTALL } from './helpers.ts';

const [lib, modelDir] = process.argv.slice(2) as [string, string];
const mod = await import(pathToFileURL(join(lib, 'host.mjs')).href);
const corpus = makeCorpus();
const host = createHost();
await host.load(mod, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, embedding: { provider: 'local', modelDir }, ...NO_MODEL_INSTALL });
const session = host.createSession();
await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
await host.settle();
const nativeLoaded = () => (process.report.getReport() as { sharedObjects: string[] }).sharedObjects.some((s) => /onnxruntime/.test(s));
const workerProcess = () =>
  readdirSync('/proc/self/task').some((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .some((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embed-worker')),
  );
const modelLoaded = () => nativeLoaded() || workerProcess();
// The model opens in the background at plugin start: wait for it (bounded), wherever it runs.
for (let i = 0; i < 300 && !modelLoaded(); i++) await new Promise((ok) => setTimeout(ok, 20));
const inHostThread = Object.keys(createRequire(import.meta.url).cache).some((k) => /onnxruntime-node/.test(k));
const loaded = modelLoaded();
await host.close();
corpus.cleanup();
console.log(JSON.stringify({ modelLoaded: loaded, inHostThread }));
