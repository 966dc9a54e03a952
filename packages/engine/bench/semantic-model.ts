// The local model's costs on this machine: indexing throughput and RSS by token budget and
// threads (length-bucketed batches vs. padding to the longest), query embedding latency, and the
// resident size of a process with the model loaded. Prints a markdown table.
//
//   nice -n 10 node --import tsx --expose-gc packages/engine/bench/semantic-model.ts MODEL_DIR [CHUNKS]
//
// Texts: CMRC dev paragraphs cut like the indexer cuts them (800 characters).
import { LocalEmbedder } from '../src/semantic/local-embedder.ts';
import { loadCmrc } from './eval-cmrc.ts';

const [modelDir, countArg] = process.argv.slice(2);
if (!modelDir) throw new Error('usage: semantic-model.ts MODEL_DIR [CHUNKS]');
const count = Number(countArg ?? 200);
const texts = loadCmrc()
  .flatMap((p) => {
    const out: string[] = [];
    for (let i = 0; i < p.context.length; i += 680) out.push(p.context.slice(i, i + 800));
    return out;
  })
  .slice(0, count);
const questions = loadCmrc().flatMap((p) => p.qas.map((q) => q.question)).slice(0, 200);

const mb = (n: number) => Math.round(n / 1e6);
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);

interface Row { setting: string; chunksPerS: number; peakRss: number; windows: number }
const rows: Row[] = [];
async function run(setting: string, opts: { threads: number; batchTokens: number; batch: number; sorted: boolean }) {
  const e = await LocalEmbedder.load(modelDir as string, { model: 'bge-small-zh-v1.5', threads: opts.threads, batchTokens: opts.batchTokens });
  const input = opts.sorted ? [...texts].sort((a, b) => b.length - a.length) : texts;
  (globalThis as { gc?: () => void }).gc?.();
  peak = process.memoryUsage().rss;
  const t0 = performance.now();
  for (let i = 0; i < input.length; i += opts.batch) await e.embed(input.slice(i, i + opts.batch));
  const s = (performance.now() - t0) / 1000;
  rows.push({ setting, chunksPerS: input.length / s, peakRss: peak, windows: e.windowedTexts });
  await e.dispose();
}

const threads = Number(process.env.THREADS ?? 2);
await run(`batch 16, budget 4096 tokens, ${threads} threads`, { threads, batchTokens: 4096, batch: 16, sorted: true });
await run(`batch 16, budget 8192 tokens (= no bucketing at 512), ${threads} threads`, { threads, batchTokens: 8192, batch: 16, sorted: false });
await run(`batch 64, budget 2048 tokens, ${threads} threads`, { threads, batchTokens: 2048, batch: 64, sorted: true });
await run(`batch 64, budget 4096 tokens, 1 thread`, { threads: 1, batchTokens: 4096, batch: 64, sorted: true });

// Queries: one at a time, as recall does.
const q = await LocalEmbedder.load(modelDir, { model: 'bge-small-zh-v1.5', threads });
const times: number[] = [];
for (const text of questions) {
  const t = performance.now();
  await q.embed([text], { purpose: 'query' });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
(globalThis as { gc?: () => void }).gc?.();
await new Promise((r) => setTimeout(r, 200));
const resident = process.memoryUsage().rss;
clearInterval(sampler);

console.log(`| setting (${texts.length} chunks of ≤ 800 chars) | chunks/s | peak RSS MB | texts over 512 tokens (windowed) |`);
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.setting} | ${r.chunksPerS.toFixed(1)} | ${mb(r.peakRss)} | ${r.windows} |`);
console.log('');
console.log(`query embedding (${times.length} CMRC questions, one at a time): p50 ${times[Math.floor(times.length / 2)]?.toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)]?.toFixed(2)} ms`);
console.log(`resident RSS with the model loaded (after the runs above, gc): ${mb(resident)} MB`);
