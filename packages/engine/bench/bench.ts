// `npm run bench`: engine-level index throughput, recall latency and RSS at several corpus sizes,
// plus the lexical-index and vector-search micro benchmarks. Each size runs in its own process so
// RSS is that size's alone. Prints markdown tables (copied into docs/benchmarks.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngine } from '../src/engine.ts';
import { syntheticQueries, writeSyntheticDiaries } from './corpus.ts';

interface EngineRow {
  chunks: number;
  docs: number;
  indexSeconds: number;
  chunksPerSecond: number;
  p50: number;
  p95: number;
  rssMb: number;
  /** After idling past V8's allocation-rate window and one full GC (what a quiet long-lived process settles to). */
  settledRssMb: number;
  baselineRssMb: number;
}

const SETTLE_MS = 6000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Process 1: write the corpus and build the index (throughput). */
async function buildSize(work: string, targetChunks: number) {
  const diaryDir = join(work, 'diaries');
  mkdirSync(diaryDir);
  // ~2 chunks per document at the default 800/120 chunking.
  const docs = Math.max(1, Math.round(targetChunks / 2));
  writeSyntheticDiaries(diaryDir, docs, 1300);
  const engine = await openEngine({ options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false }, embedding: { provider: 'none' } }, env: { HOME: work }, syncOnOpen: false });
  try {
    const t0 = performance.now();
    const report = await engine.index({ full: true });
    return { chunks: report.chunks, docs: report.documents, indexSeconds: (performance.now() - t0) / 1000 };
  } finally {
    engine.close();
  }
}

/**
 * Process 2: open the built index as the console or the plugin would, then query (latency, RSS).
 * The queries come from the parent, so this process's RSS holds the engine and not the CMRC set.
 */
async function querySize(work: string, built: { chunks: number; docs: number; indexSeconds: number }, queries: string[]): Promise<EngineRow> {
  const baselineRssMb = process.memoryUsage().rss / 2 ** 20;
  const engine = await openEngine({ options: { diaryDir: join(work, 'diaries'), dataDir: join(work, 'data'), diary: { requireTag: false }, embedding: { provider: 'none' } }, env: { HOME: work }, syncOnOpen: false });
  try {
    const { chunks, docs, indexSeconds } = built;
    for (const q of queries.slice(0, 20)) await engine.recall(q); // warm-up
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await engine.recall(q);
      times.push(performance.now() - t);
    }
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const rssMb = process.memoryUsage().rss / 2 ** 20;
    // V8 gives back an enlarged young generation only at a full GC after ~5 s of low allocation.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    gc?.();
    return {
      chunks,
      docs,
      indexSeconds,
      chunksPerSecond: chunks / indexSeconds,
      p50: pct(times, 50),
      p95: pct(times, 95),
      rssMb,
      settledRssMb: process.memoryUsage().rss / 2 ** 20,
      baselineRssMb,
    };
  } finally {
    engine.close();
  }
}

function engineTable(rows: EngineRow[]): string {
  return [
    '| chunks | docs | index s | chunks/s | recall p50 ms | recall p95 ms | RSS serving MB | RSS settled MB | RSS of the bare process MB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.chunks} | ${r.docs} | ${r.indexSeconds.toFixed(1)} | ${r.chunksPerSecond.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.rssMb.toFixed(0)} | ${r.settledRssMb.toFixed(0)} | ${r.baselineRssMb.toFixed(0)} |`,
    ),
  ].join('\n');
}

const self = fileURLToPath(import.meta.url);

const runChild = (args: string[]) => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', self, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) {
    console.error(child.stderr);
    process.exit(1);
  }
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as unknown;
};

if (process.argv[2] === '--build') {
  process.stdout.write(`${JSON.stringify(await buildSize(process.argv[3]!, Number(process.argv[4])))}\n`);
} else if (process.argv[2] === '--query') {
  const queries = JSON.parse(readFileSync(process.argv[5]!, 'utf8')) as string[];
  process.stdout.write(`${JSON.stringify(await querySize(process.argv[3]!, JSON.parse(process.argv[4]!), queries))}\n`);
} else {
  const sizes = (process.env.ENGRAM_BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const rows: EngineRow[] = [];
  for (const size of sizes) {
    const work = mkdtempSync(join(tmpdir(), 'engram-bench-'));
    try {
      const built = runChild(['--build', work, String(size)]);
      const queryFile = join(work, 'queries.json');
      writeFileSync(queryFile, JSON.stringify(syntheticQueries(300)));
      rows.push(runChild(['--query', work, JSON.stringify(built), queryFile]) as EngineRow);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    console.error(`size ${size} done`);
  }
  console.log('## Engine: full index + lexical recall (provider none)\n');
  console.log(engineTable(rows));
  // The lexical bench runs at the engine's sizes; the vector bench keeps its own defaults.
  for (const [name, file, fn, arg] of [
    ['Lexical index (BM25F, in memory)', './lexical.ts', 'runLexicalBench', sizes],
    ['Vector search (512 dims)', './vectors.ts', 'runVectorBench', {}],
  ] as const) {
    if (process.env.ENGRAM_BENCH_ONLY_ENGINE) break;
    try {
      const mod = (await import(file)) as Record<string, unknown>;
      const run = mod[fn] as ((arg: unknown) => Promise<unknown> | unknown) | undefined;
      const fmt = mod.formatBenchTable as ((rows: unknown) => string) | undefined;
      if (!run) continue;
      const out = await run(arg);
      console.log(`\n## ${name}\n`);
      console.log(fmt ? fmt(out) : JSON.stringify(out, null, 2));
    } catch (e) {
      console.log(`\n## ${name}\n\nnot run: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
