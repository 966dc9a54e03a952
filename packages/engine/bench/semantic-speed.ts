// Where the local model's indexing time and memory go: one fresh process per setting (so peak RSS
// is that setting's own high-water mark, VmHWM), embedding the CMRC dev chunks exactly as the index
// embeds them (800/120 chunks, the title line in front). Prints a markdown table with wall-clock
// chunks/s, CPU seconds per chunk (user+sys of all threads: what a machine shared with other
// work cannot hide) and the chunks/s that CPU time allows on 2 idle cores.
//
//   flock /tmp/bench.lock node --import tsx packages/engine/bench/semantic-speed.ts MODEL_DIR [CHUNKS] [SET]
//
// SET: 'sweep' (default: batch sizes, threads, session options), 'floor' (the model alone on one
// input of N tokens, no tokenizer, no pooling: the cost no batching or bucketing can remove),
// 'summary' (chunks with and without the body's first 160 characters embedded again as a fallback
// summary, as the index embedded them before it left such summaries out), 'sessions' (two onnxruntime sessions of one
// thread each, running at once, against one session of 1 or 2 threads).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embeddedText } from '../src/semantic/context.ts';
import { LocalEmbedder, type SessionSettings } from '../src/semantic/local-embedder.ts';
import { chunkText } from '../src/text/chunk.ts';
import { summaryFromBody } from '../src/diary/parse.ts';
import { loadCmrc, titleOf } from './eval-cmrc.ts';

interface Setting {
  name: string;
  threads: number;
  batchTokens: number;
  maxRows: number;
  session?: SessionSettings;
  /** Put the body's first 160 characters in front as a summary line (the old fallback). */
  fallbackSummary?: boolean;
  /** Sessions (embedders) in the process, each taking every Nth batch, all running at once. */
  sessions?: number;
}

interface Result {
  chunks: number;
  tokens: number;
  wallS: number;
  cpuS: number;
  hwmMb: number;
  rssAfterMb: number;
  loadMb: number;
}

const [modelDir, countArg, setArg] = process.argv.slice(2);
if (!modelDir) throw new Error('usage: semantic-speed.ts MODEL_DIR [CHUNKS] [sweep|floor]');

function texts(count: number, fallbackSummary = false): string[] {
  return loadCmrc()
    .flatMap((p) => chunkText(p.context, { size: 800, overlap: 120 }).map((c) => embeddedText(fallbackSummary ? `${titleOf(p.context)}\n${summaryFromBody(p.context)}` : titleOf(p.context), c.text)))
    .slice(0, count);
}

const statusMb = (key: string): number => {
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

async function child(s: Setting, count: number): Promise<Result> {
  const input = texts(count, s.fallbackSummary);
  const n = Math.max(1, s.sessions ?? 1);
  const es: LocalEmbedder[] = [];
  for (let k = 0; k < n; k++) es.push(await LocalEmbedder.load(modelDir as string, { model: 'bge-small-zh-v1.5', threads: s.threads, batchTokens: s.batchTokens, maxRows: s.maxRows, session: s.session }));
  const e = es[0] as LocalEmbedder;
  const loadMb = statusMb('VmRSS');
  const tokens = input.reduce((n, t) => n + e.windowsOf(t).reduce((m, w) => m + w.length, 0), 0);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // The indexer hands the embedder batches of 64 chunks (semantic/batch-runner.ts); with several
  // sessions, batch i goes to session i mod n and the sessions run at the same time.
  const size = n > 1 ? 16 : 64;
  await Promise.all(
    es.map(async (emb, k) => {
      for (let i = k * size; i < input.length; i += n * size) await emb.embed(input.slice(i, i + size));
    }),
  );
  const wallS = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { chunks: input.length, tokens, wallS, cpuS: (c.user + c.system) / 1e6, hwmMb: statusMb('VmHWM'), rssAfterMb: statusMb('VmRSS'), loadMb };
}

/** The model's own cost for one input of n tokens, batch 1, median of runs (CPU ms and wall ms). */
async function floor(threads: number): Promise<string[]> {
  const { InferenceSession, Tensor } = (await import('onnxruntime-node')) as unknown as {
    InferenceSession: { create(path: string, o: object): Promise<{ run(feeds: object): Promise<unknown> }> };
    Tensor: new (type: string, data: BigInt64Array, dims: number[]) => unknown;
  };
  const session = await InferenceSession.create(`${modelDir}/onnx/model_quantized.onnx`, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
  const out: string[] = [];
  for (const n of [16, 64, 128, 256, 384, 512]) {
    for (const rows of [1, 8]) {
      const ids = new BigInt64Array(rows * n).fill(100n);
      const feeds = { input_ids: new Tensor('int64', ids, [rows, n]), attention_mask: new Tensor('int64', new BigInt64Array(rows * n).fill(1n), [rows, n]), token_type_ids: new Tensor('int64', new BigInt64Array(rows * n), [rows, n]) };
      await session.run(feeds);
      const cpu: number[] = [];
      const wall: number[] = [];
      const runs = n >= 256 && rows > 1 ? 4 : 12;
      for (let i = 0; i < runs; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await session.run(feeds);
        wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] as number;
      const cpuPerRow = med(cpu) / rows;
      out.push(`| ${threads} | ${n} | ${rows} | ${med(wall).toFixed(1)} | ${med(cpu).toFixed(1)} | ${(cpuPerRow / n * 1000).toFixed(1)} | ${(2000 / cpuPerRow).toFixed(1)} |`);
    }
  }
  return out;
}

/** Queries one at a time, as recall embeds them: wall and CPU ms per query (median, p95). */
async function queries(s: Setting): Promise<string> {
  const qs = loadCmrc().flatMap((p) => p.qas.map((q) => q.question)).slice(0, 200);
  const e = await LocalEmbedder.load(modelDir as string, { model: 'bge-small-zh-v1.5', threads: s.threads, session: s.session });
  for (const q of qs.slice(0, 10)) await e.embed([q], { purpose: 'query' });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const q of qs) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await e.embed([q], { purpose: 'query' });
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const at = (a: number[], f: number) => [...a].sort((x, y) => x - y)[Math.floor(a.length * f)] as number;
  const toks = qs.reduce((n, q) => n + (e.windowsOf(q)[0]?.length ?? 0), 0) / qs.length;
  return `| ${s.name} | ${qs.length} | ${toks.toFixed(0)} | ${at(wall, 0.5).toFixed(2)} | ${at(wall, 0.95).toFixed(2)} | ${at(cpu, 0.5).toFixed(2)} | ${at(cpu, 0.95).toFixed(2)} |`;
}

const here = fileURLToPath(import.meta.url);
if (process.env.SPEED_CHILD) {
  const s = JSON.parse(process.env.SPEED_CHILD) as Setting | { floor: number } | { query: Setting };
  if ('floor' in s) for (const line of await floor(s.floor)) console.log(line);
  else if ('query' in s) console.log(await queries(s.query));
  else console.log(JSON.stringify(await child(s, Number(countArg ?? 200))));
  process.exit(0);
}

const run = (payload: object): string => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', here, modelDir, countArg ?? '200'], {
    env: { ...process.env, SPEED_CHILD: JSON.stringify(payload) },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return r.stdout.trim();
};

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
if (setArg === 'floor') {
  console.log('| threads | tokens | rows | wall ms (median) | CPU ms | CPU µs per token | chunks/s 2 idle cores allow at this length |');
  console.log('|---|---|---|---|---|---|---|');
  for (const t of [1, 2]) {
    console.log(run({ floor: t }));
    console.log(`<!-- load ${load()} -->`);
  }
} else if (setArg === 'query') {
  console.log('| setting | queries | tokens/query | wall ms p50 | wall ms p95 | CPU ms p50 | CPU ms p95 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const q of [
    { name: '2 threads, spinning (onnxruntime default)', threads: 2, batchTokens: 0, maxRows: 0 },
    { name: '2 threads, no spinning', threads: 2, batchTokens: 0, maxRows: 0, session: { allowSpinning: false } },
    { name: '1 thread', threads: 1, batchTokens: 0, maxRows: 0 },
  ] as Setting[]) {
    console.log(`${run({ query: q })} <!-- load ${load()} -->`);
  }
} else if (setArg === 'summary' || setArg === 'sessions') {
  const base = { threads: 0, batchTokens: 512, maxRows: 16 };
  const sets: Setting[] =
    setArg === 'summary'
      ? [
          { name: 'title + body (now)', ...base },
          { name: 'title + fallback summary + body (before)', ...base, fallbackSummary: true },
          { name: 'title + body (now), again', ...base },
          { name: 'title + fallback summary + body (before), again', ...base, fallbackSummary: true },
        ]
      : [
          { name: '1 session, threads = runtime default', ...base },
          { name: '1 session, 2 threads', ...base, threads: 2 },
          { name: '1 session, 1 thread', ...base, threads: 1 },
          { name: '2 sessions × 1 thread, at once', ...base, threads: 1, sessions: 2 },
          { name: '1 session, 2 threads, again', ...base, threads: 2 },
          { name: '2 sessions × 1 thread, at once, again', ...base, threads: 1, sessions: 2 },
        ];
  console.log('| setting | chunks | tokens/chunk | chunks/s (wall) | CPU s per chunk | chunks/s 2 idle cores allow | peak RSS MB (VmHWM) | RSS after load MB | load avg |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const s of sets) {
    const before = load();
    const r = JSON.parse(run(s)) as Result;
    console.log(`| ${s.name} | ${r.chunks} | ${(r.tokens / r.chunks).toFixed(0)} | ${(r.chunks / r.wallS).toFixed(1)} | ${(r.cpuS / r.chunks).toFixed(3)} | ${((2 * r.chunks) / r.cpuS).toFixed(1)} | ${r.hwmMb.toFixed(0)} | ${r.loadMb.toFixed(0)} | ${before} |`);
  }
} else {
  const arenaOff: SessionSettings = { enableCpuMemArena: false, enableMemPattern: false };
  const sweep: Setting[] = (process.env.SPEED_SETTINGS ? (JSON.parse(process.env.SPEED_SETTINGS) as Setting[]) : null) ?? [
    { name: 'old default: budget 4096, rows ≤ 256, arena on, 2 threads', threads: 2, batchTokens: 4096, maxRows: 256 },
    { name: 'batch 1', threads: 2, batchTokens: 512, maxRows: 1 },
    { name: 'batch 4 (budget 2048)', threads: 2, batchTokens: 2048, maxRows: 4 },
    { name: 'batch 8 (budget 4096)', threads: 2, batchTokens: 4096, maxRows: 8 },
    { name: 'batch 16 (budget 8192)', threads: 2, batchTokens: 8192, maxRows: 16 },
    { name: 'batch 4, arena + mem pattern off', threads: 2, batchTokens: 2048, maxRows: 4, session: arenaOff },
    { name: 'batch 8, arena + mem pattern off', threads: 2, batchTokens: 4096, maxRows: 8, session: arenaOff },
    { name: 'batch 4, arena off, graph opt basic', threads: 2, batchTokens: 2048, maxRows: 4, session: { ...arenaOff, graphOptimizationLevel: 'basic' } },
    { name: 'batch 4, arena off, 1 thread', threads: 1, batchTokens: 2048, maxRows: 4, session: arenaOff },
    { name: 'batch 4, arena off, no spinning', threads: 2, batchTokens: 2048, maxRows: 4, session: { ...arenaOff, allowSpinning: false } },
    { name: 'batch 1, arena off, no spinning', threads: 2, batchTokens: 512, maxRows: 1, session: { ...arenaOff, allowSpinning: false } },
  ];
  console.log('| setting | chunks | tokens/chunk | chunks/s (wall) | CPU s per chunk | chunks/s 2 idle cores allow | peak RSS MB (VmHWM) | RSS after load MB | load avg |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const s of sweep) {
    const before = load();
    const r = JSON.parse(run(s)) as Result;
    console.log(
      `| ${s.name} | ${r.chunks} | ${(r.tokens / r.chunks).toFixed(0)} | ${(r.chunks / r.wallS).toFixed(1)} | ${(r.cpuS / r.chunks).toFixed(3)} | ${((2 * r.chunks) / r.cpuS).toFixed(1)} | ${r.hwmMb.toFixed(0)} | ${r.loadMb.toFixed(0)} | ${before} |`,
    );
  }
}
