// The local model inline (the caller's thread, the baseline) against the model in a worker thread and
// in a child process (semantic/worker-embedder.ts), each variant in a fresh child process, alternated,
// same run (RSS counts the bench process and its children, so the `process` worker's own too):
// - the longest event-loop stall of the calling thread (perf_hooks.monitorEventLoopDelay max) while
//   the model loads, during 50 query embeddings one after another, and while 8 chunk-sized texts
//   are embedded in one call (what a sync of new notes asks);
// - process RSS before the model, with it loaded (after the queries), and after idling — the worker
//   ended by its idle timer; inline, the model disposed (the most the inline embedder can give back) —
//   and, for the worker, after CYCLES idle → restart cycles (does ending workers leak?);
// - wall times: load, query p50, and (worker) the first query after idling, which starts it again.
//
// Both children run bundled by esbuild, without tsx, as the plugin's host.mjs does (through tsx the
// inline child held ~100 MB more: tsx's copies of the runtime's transformed sources).
// A third row, the noise floor: the longest stall while the calling thread does nothing for 1 s
// (on a shared machine the process is sometimes not scheduled for tens of ms).
//
//   node --expose-gc --import tsx packages/engine/bench/model-worker-rss.ts [M or a data dir with the model] [runs=3] [source|bundle]
//   (default: $ENGRAM_TEST_MODEL_DATA_DIR; `bundle`: the worker file of the packed plugin,
//   apps/plugin/bundle/lib/embed-worker.mjs after `npm run pack:plugin`, as the plugin runs it;
//   `source`: embed-worker.ts through tsx, which compiles it in each new worker)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { installedModel } from '../src/model/install.ts';
import type { Embedder } from '../src/semantic/embedder.ts';

type Variant = 'inline' | 'thread' | 'process';
interface Result {
  rssBefore: number;
  rssLoaded: number;
  rssIdle: number;
  rssCycles: number | null;
  loadStall: number;
  queryStall: number;
  docStall: number;
  loadMs: number;
  queryP50: number;
  restartMs: number | null;
  restartStall: number | null;
  floorStall: number;
}

const IDLE_MS = 2000;
const QUERIES = 50;
/** Idle → restart cycles of the worker before the last RSS reading. */
const CYCLES = 5;
/** RSS of this process and its child processes (the `process` worker), MB (Linux: /proc). */
function mb(): number {
  let kb = process.memoryUsage().rss / 1000;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      for (const pid of readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean)) {
        const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (m) kb += Number(m[1]) * 1.024;
      }
    }
  } catch {
    // not Linux, or a child that just ended
  }
  return Math.round(kb / 1000);
}
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Runs `fn` with the event-loop delay histogram on; returns its result and the longest stall in ms. */
async function stalls<T>(fn: () => Promise<T>): Promise<{ value: T; maxMs: number; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  await sleep(5); // the histogram samples on a timer: let it see the end of the last stall
  h.disable();
  return { value, maxMs: h.max / 1e6, ms };
}

async function child(variant: Variant, modelDir: string, entry: string | undefined): Promise<Result> {
  const { LocalEmbedder } = await import('../src/semantic/local-embedder.ts');
  const { WorkerEmbedder } = await import('../src/semantic/worker-embedder.ts');
  gc();
  await sleep(200);
  const rssBefore = mb();
  const floorStall = (await stalls(() => sleep(1000))).maxMs;
  const options = { model: 'bge-small-zh-v1.5', queryInstruction: '为这个句子生成表示以用于检索相关文章：' };
  const load = await stalls<Embedder>(() => (variant === 'inline' ? LocalEmbedder.load(modelDir, options) : WorkerEmbedder.load(modelDir, options, { isolation: variant, idleMs: IDLE_MS, ...(entry ? { entry } : {}) })));
  const e = load.value;
  const times: number[] = [];
  const queries = await stalls(async () => {
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      await e.embed([`第${i}次周会上定下的东京节点端口和防火墙规则是什么？`], { purpose: 'query' });
      times.push(performance.now() - t0);
    }
  });
  times.sort((a, b) => a - b);
  // What a sync of new notes asks: 8 chunk-sized texts (~450 tokens each) in one call.
  const docs = Array.from({ length: 8 }, (_, i) => `第${i}篇：${'今天整理了很多关于项目排期和会议安排的琐碎事项，大家讨论了下一季度的预算。'.repeat(12)}`);
  const docStall = (await stalls(() => e.embed(docs, { purpose: 'document' }))).maxMs;
  gc();
  const rssLoaded = mb();
  let restartMs: number | null = null;
  let restartStall: number | null = null;
  if (e instanceof WorkerEmbedder) {
    while (e.alive) await sleep(50);
    gc();
    await sleep(1000);
    const rssIdle = mb();
    const again = await stalls(() => e.embed(['东京节点现在用哪个端口？'], { purpose: 'query' }));
    restartMs = again.ms;
    restartStall = again.maxMs;
    // More idle → restart cycles, each with a sync's worth of chunks: whether ending workers leaks.
    for (let i = 0; i < CYCLES - 1; i++) {
      await e.embed(docs, { purpose: 'document' });
      while (e.alive) await sleep(50);
      if (i < CYCLES - 2) await e.embed(['东京节点现在用哪个端口？'], { purpose: 'query' });
    }
    gc();
    await sleep(1000);
    const rssCycles = mb();
    await e.dispose();
    return { rssBefore, rssLoaded, rssIdle, rssCycles, loadStall: load.maxMs, queryStall: queries.maxMs, docStall, loadMs: load.ms, queryP50: times[times.length >> 1] as number, restartMs, restartStall, floorStall };
  }
  await e.dispose?.();
  gc();
  await sleep(1000);
  return { rssBefore, rssLoaded, rssIdle: mb(), rssCycles: null, loadStall: load.maxMs, queryStall: queries.maxMs, docStall, loadMs: load.ms, queryP50: times[times.length >> 1] as number, restartMs, restartStall, floorStall };
}

function modelDirOf(arg: string): string {
  if (existsSync(join(arg, 'config.json'))) return arg;
  const found = installedModel(arg);
  if (!found) throw new Error(`no model in ${arg}: pass the model folder (M) or a data dir with the model`);
  return found.dir;
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const r = await child(args[1] as Variant, args[2] as string, args[3]);
  console.log(JSON.stringify(r));
} else {
  const modelDir = modelDirOf(args[0] ?? process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? '');
  const runs = Number(args[1] ?? 3);
  const entry = args[2] === 'bundle' ? join(import.meta.dirname, '../../../apps/plugin/bundle/lib/embed-worker.mjs') : undefined;
  if (entry && !existsSync(entry)) throw new Error(`${entry} is missing: run npm run pack:plugin`);
  // Inside the workspace, so the bundled child finds the runtime in node_modules as the engine does.
  const outDir = join(import.meta.dirname, '../../../node_modules/.cache/engram-bench');
  mkdirSync(outDir, { recursive: true });
  const childFile = join(outDir, 'model-worker-rss.mjs');
  const { build } = await import('esbuild');
  await build({
    entryPoints: [import.meta.filename],
    outfile: childFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-common', 'sharp', '@libsql/client', 'libsql', '@node-rs/jieba', 'esbuild'],
    banner: { js: "import { createRequire as __benchRequire } from 'node:module';\nconst require = __benchRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The source worker entry by default (its path is lost in the bundle: given explicitly).
  const workerFile = entry ?? join(import.meta.dirname, '../src/semantic/embed-worker.ts');
  const results: Record<Variant, Result[]> = { inline: [], thread: [], process: [] };
  const load0 = loadavg()[0] as number;
  for (let i = 0; i < runs; i++) {
    for (const variant of ['inline', 'thread', 'process'] as const) {
      const res = spawnSync(process.execPath, ['--expose-gc', childFile, '--child', variant, modelDir, workerFile], { encoding: 'utf8' });
      if (res.status !== 0) throw new Error(`${variant} run failed:\n${res.stderr}`);
      results[variant].push(JSON.parse(res.stdout.trim().split('\n').pop() as string) as Result);
    }
  }
  const median = (v: Variant, k: keyof Result): number | null => {
    const xs = results[v].map((r) => r[k]).filter((x): x is number => x !== null).sort((a, b) => a - b);
    return xs.length ? (xs[xs.length >> 1] as number) : null;
  };
  const fmt = (x: number | null, digits = 0) => (x === null ? '—' : x.toFixed(digits));
  const ratio = (v: Variant, k: keyof Result) => {
    const a = median('inline', k);
    const b = median(v, k);
    return a && b !== null ? `${(b / a).toFixed(2)}×` : '—';
  };
  console.log(`model ${modelDir}, worker entry ${entry ?? 'embed-worker.ts (source, through tsx)'}, ${runs} runs per variant (medians), load ${load0.toFixed(1)} → ${(loadavg()[0] as number).toFixed(1)}\n`);
  console.log(`| calling thread | longest stall, model load | longest stall, 50 queries | longest stall, 8 chunks | RSS before model | RSS loaded | RSS after idling | after ${CYCLES} idle cycles | load wall | query p50 | first query after idling |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const v of ['inline', 'thread', 'process'] as const) {
    console.log(
      `| ${v === 'inline' ? 'inline (baseline; "after idling" = disposed)' : `${v === 'thread' ? 'worker thread' : 'child process'} (ended after ${IDLE_MS / 1000} s idle)`} | ${fmt(median(v, 'loadStall'))} ms | ${fmt(median(v, 'queryStall'), 1)} ms | ${fmt(median(v, 'docStall'), 1)} ms | ${fmt(median(v, 'rssBefore'))} MB | ${fmt(median(v, 'rssLoaded'))} MB | ${fmt(median(v, 'rssIdle'))} MB | ${v !== 'inline' ? `${fmt(median(v, 'rssCycles'))} MB` : '—'} | ${fmt(median(v, 'loadMs'))} ms | ${fmt(median(v, 'queryP50'), 1)} ms | ${v !== 'inline' ? `${fmt(median(v, 'restartMs'))} ms (stall ${fmt(median(v, 'restartStall'), 1)} ms)` : '—'} |`,
    );
  }
  console.log(`| nothing running, 1 s (noise floor) | | ${fmt(median('inline', 'floorStall'), 1)} ms | | | | | | | | |`);
  for (const v of ['thread', 'process'] as const)
    console.log(`| ${v} ÷ inline | ${ratio(v, 'loadStall')} | ${ratio(v, 'queryStall')} | ${ratio(v, 'docStall')} | | ${ratio(v, 'rssLoaded')} | ${ratio(v, 'rssIdle')} | | ${ratio(v, 'loadMs')} | ${ratio(v, 'queryP50')} | |`);
}
