// Whether an idle-able worker thread would give the model's memory back: a worker imports the
// runtime, loads the model and embeds once; the process RSS is read before, while it is loaded and
// after the worker is terminated. (The runtime's native library and the allocator's arenas stay in
// the process, so a thread returns only part of it; a child process would return all.)
//
//   ENGRAM_TEST_MODEL_DATA_DIR=<data dir with the model> node --expose-gc --import tsx packages/engine/bench/model-worker-rss.ts
import { basename, dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { installedModel } from '../src/model/install.ts';

const found = installedModel(process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? '');
if (!found) throw new Error('set ENGRAM_TEST_MODEL_DATA_DIR to a data dir with the model');
const rss = () => Math.round(process.memoryUsage().rss / 1e6);
const rows: [string, number][] = [['before', rss()]];
const worker = new Worker(
  `const { parentPort } = require('node:worker_threads');
  (async () => {
    const t = await import('@huggingface/transformers');
    t.env.allowRemoteModels = false;
    t.env.localModelPath = ${JSON.stringify(`${dirname(found.dir)}/`)};
    const tok = await t.AutoTokenizer.from_pretrained(${JSON.stringify(basename(found.dir))}, { local_files_only: true });
    const m = await t.AutoModel.from_pretrained(${JSON.stringify(basename(found.dir))}, { dtype: 'q8', local_files_only: true, device: 'cpu' });
    await m(tok('东京节点改用八四四三端口，防火墙规则已经更新。'.repeat(12), { truncation: true }));
    parentPort.postMessage('ready');
  })();`,
  { eval: true },
);
await new Promise((ok) => worker.once('message', ok));
rows.push(['model loaded in a worker, one embedding', rss()]);
await worker.terminate();
(globalThis as { gc?: () => void }).gc?.();
await new Promise((ok) => setTimeout(ok, 500));
rows.push(['worker terminated', rss()]);
console.log('| process RSS | MB |\n|---|---|');
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
