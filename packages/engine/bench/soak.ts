// Soak: 10,000 recalls and 1,000 writes against one engine, with the semantic channel on (a local
// fake embeddings server) — RSS and heap sampled after a GC every 250 operations. The live corpus
// is held steady (each write past the first 100 archives the oldest soak entry), so memory should
// stay flat; growth would be a leak. Prints the curve as a markdown table and a JSON summary.
//
//   node --import tsx --expose-gc packages/engine/bench/soak.ts [recalls=10000] [writes=1000]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { startFakeEmbedder } from '../test/semantic/fake-embedder.ts';
import { syntheticQueries, writeSyntheticDiaries } from './corpus.ts';

const recalls = Number(process.argv[2] ?? 10_000);
const writes = Number(process.argv[3] ?? 1_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('run with --expose-gc for comparable samples');

const work = mkdtempSync(join(tmpdir(), 'engram-soak-'));
const diaryDir = join(work, 'diaries');
mkdirSync(diaryDir);
writeSyntheticDiaries(diaryDir, 400, 1300);
const embedder = await startFakeEmbedder({ dims: 256 });
const engine = await openEngine({
  options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false }, embedding: { provider: 'openai', baseUrl: embedder.url, model: 'soak', dimensions: 256, minIntervalMs: 0, batchSize: 32 } },
  env: { HOME: work },
});
const queries = syntheticQueries(200);

interface Sample {
  ops: number;
  recalls: number;
  writes: number;
  rssMb: number;
  heapMb: number;
  externalMb: number;
  docs: number;
  p50Ms: number;
  p99Ms: number;
}
const samples: Sample[] = [];
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
let window: number[] = [];
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100 : 0;
};
let done = { recalls: 0, writes: 0 };
const written: string[] = [];
const sample = async () => {
  gc?.();
  const m = process.memoryUsage();
  const docs = (await engine.status()).documents;
  samples.push({ ops: done.recalls + done.writes, ...done, rssMb: mb(m.rss), heapMb: mb(m.heapUsed), externalMb: mb(m.external + m.arrayBuffers), docs, p50Ms: pct(window, 50), p99Ms: pct(window, 99) });
  window = [];
};

await sample();
const every = Math.max(1, Math.round(recalls / Math.max(1, writes)));
const started = performance.now();
while (done.recalls < recalls || done.writes < writes) {
  if (done.recalls < recalls) {
    const t = performance.now();
    await engine.recall(queries[done.recalls % queries.length]!);
    window.push(performance.now() - t);
    done.recalls++;
  }
  if (done.writes < writes && (done.recalls % every === 0 || done.recalls >= recalls)) {
    const r = await engine.write({ title: `浸泡测试 ${done.writes}`, content: `第 ${done.writes} 次浸泡写入。${'填充正文,'.repeat(40)}`, tags: ['浸泡'] });
    written.push(r.docId);
    if (written.length > 100) await engine.forget(written.shift()!);
    done.writes++;
  }
  if ((done.recalls + done.writes) % 250 === 0) await sample();
}
await sample();
const seconds = (performance.now() - started) / 1000;
engine.close();
await embedder.close();
rmSync(work, { recursive: true, force: true });

console.log('| ops | recalls | writes | live docs | RSS MB | heap MB | external MB | recall p50 ms | p99 ms |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const step = Math.max(1, Math.floor(samples.length / 24));
for (const [i, s] of samples.entries()) {
  if (i % step === 0 || i === samples.length - 1) console.log(`| ${s.ops} | ${s.recalls} | ${s.writes} | ${s.docs} | ${s.rssMb} | ${s.heapMb} | ${s.externalMb} | ${s.p50Ms} | ${s.p99Ms} |`);
}
const warm = samples[Math.min(samples.length - 1, Math.floor(samples.length / 10))]!;
const last = samples.at(-1)!;
const peak = Math.max(...samples.map((s) => s.rssMb));
console.log(JSON.stringify({ recalls: done.recalls, writes: done.writes, seconds: Math.round(seconds), rssStartMb: samples[0]!.rssMb, rssAfterWarmupMb: warm.rssMb, rssEndMb: last.rssMb, rssPeakMb: peak, heapAfterWarmupMb: warm.heapMb, heapEndMb: last.heapMb, embedderRequests: embedder.requests }));
