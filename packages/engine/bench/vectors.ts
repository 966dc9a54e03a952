// Vector search benchmark: the in-memory index (int8 WebAssembly pre-scan + exact re-score, with
// and without a helper thread), the plain float scan, SQL `vector_distance_cos`, and optionally
// libSQL's own `libsql_vector_idx`, on random normalised vectors stored in a temp libSQL file.
//
//   node --import tsx --expose-gc packages/engine/bench/vectors.ts [--sizes=10000,100000] [--dims=512]
//        [--queries=50] [--sql-queries=10] [--libsql-index=10000]
//
// recall@10 is measured against the exact float scan over the same vectors.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { VectorIndex, type VectorHit } from '../src/semantic/vector-index.ts';
import { VectorStore, vectorBlob } from '../src/semantic/vector-store.ts';

export interface VectorBenchRow {
  rows: number;
  dims: number;
  method: string;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  recallAt10: number;
  /** Extra facts: build/load time, sizes, memory. */
  note: string;
}

export interface VectorBenchOptions {
  sizes?: number[];
  dims?: number;
  queries?: number;
  /** Queries for the (slow) SQL scan at sizes above 20k. */
  sqlQueries?: number;
  /** Build libsql_vector_idx at this size (0 = skip; it takes minutes and hundreds of MB). */
  libsqlIndexRows?: number;
  log?: (line: string) => void;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomUnit(r: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let n = 0;
  for (let i = 0; i < dims; i++) {
    const g = Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
    v[i] = g;
    n += g * g;
  }
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < dims; i++) v[i] = (v[i] as number) * inv;
  return v;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const mb = (bytes: number) => Math.round(bytes / 1e6);
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function recall(got: { id: string }[], exact: { id: string }[]): number {
  const want = new Set(exact.map((h) => h.id));
  return exact.length === 0 ? 1 : got.filter((h) => want.has(h.id)).length / exact.length;
}

async function timeQueries<T extends { id: string }>(
  queries: Float32Array[],
  exact: VectorHit[][],
  run: (q: Float32Array) => Promise<T[]> | T[],
): Promise<{ p50: number; p95: number; recall: number }> {
  await run(queries[0] as Float32Array); // warm-up (JIT, caches, helper thread start)
  const times: number[] = [];
  let rec = 0;
  for (let i = 0; i < queries.length; i++) {
    const t = performance.now();
    const hits = await run(queries[i] as Float32Array);
    times.push(performance.now() - t);
    rec += recall(hits, exact[i] as VectorHit[]);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), recall: rec / queries.length };
}

async function fillDatabase(client: Client, vectors: Float32Array[], dims: number): Promise<number> {
  const store = new VectorStore(client);
  await store.ensureMeta();
  await store.createTable(dims);
  const t = performance.now();
  for (let i = 0; i < vectors.length; i += 1000) {
    await store.upsertMany(vectors.slice(i, i + 1000).map((vector, j) => ({ id: `c${i + j}`, fingerprint: 'f', vector })));
  }
  return performance.now() - t;
}

/** Loads a vector table into a VectorIndex, as SemanticChannel.open does; returns the process's memory. */
async function loadProbe(file: string, dims: number): Promise<{ rssMB: number; loadMs: number; vectors: number }> {
  const client = createClient({ url: `file:${file}` });
  const t = performance.now();
  const index = new VectorIndex(dims, { parallel: false });
  await new VectorStore(client).loadAll((row) => index.upsert(row.id, row.fingerprint, row.vector));
  const loadMs = performance.now() - t;
  client.close();
  gc();
  return { rssMB: mb(process.memoryUsage().rss), loadMs: Math.round(loadMs), vectors: index.size };
}

/** RSS of a fresh process that holds just the loaded index (the bench process carries its own garbage). */
function probeInChild(file: string, dims: number): { rssMB: number; loadMs: number; vectors: number } | null {
  try {
    const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), `--rss-probe=${file}`, `--dims=${dims}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return JSON.parse(out.trim().split('\n').pop() as string);
  } catch {
    return null;
  }
}

export async function runVectorBench(opts: VectorBenchOptions = {}): Promise<VectorBenchRow[]> {
  const sizes = opts.sizes ?? [10_000, 100_000];
  const dims = opts.dims ?? 512;
  const nQueries = opts.queries ?? 50;
  const log = opts.log ?? (() => {});
  const rows: VectorBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'engram-vbench-'));
  try {
    for (const n of sizes) {
      const r = rng(n);
      const vectors = Array.from({ length: n }, () => randomUnit(r, dims));
      const queries = Array.from({ length: nQueries }, () => randomUnit(r, dims));
      const file = join(dir, `v${n}.db`);
      const client = createClient({ url: `file:${file}` });
      await client.execute('PRAGMA journal_mode = WAL');
      const insertMs = await fillDatabase(client, vectors, dims);
      log(`${n} × ${dims}: inserted into libSQL in ${Math.round(insertMs)} ms`);
      vectors.length = 0; // from here on the vectors come from the database, as in the engine
      gc();
      const rssBefore = process.memoryUsage().rss;

      // Load like SemanticChannel.open does.
      const tLoad = performance.now();
      const index = new VectorIndex(dims, { parallel: true, initialCapacity: n });
      await new VectorStore(client).loadAll((row) => index.upsert(row.id, row.fingerprint, row.vector));
      const loadMs = performance.now() - tLoad;
      gc();
      const rssAfter = process.memoryUsage().rss;
      log(`${n} × ${dims}: loaded into memory in ${Math.round(loadMs)} ms, RSS ${mb(rssAfter)} MB (+${mb(rssAfter - rssBefore)} MB)`);

      const exact = queries.map((q) => index.exactSearch(q, 10));
      const probe = probeInChild(file, dims);
      const memNote = probe
        ? `fresh process: load ${probe.loadMs} ms, RSS ${probe.rssMB} MB; index +${mb(rssAfter - rssBefore)} MB`
        : `load ${Math.round(loadMs)} ms; index +${mb(rssAfter - rssBefore)} MB`;

      const threaded = await timeQueries(queries, exact, async (q) => {
        const hits = index.search(q, 10);
        return hits;
      });
      let rescored = 0;
      for (const q of queries) {
        index.search(q, 10);
        rescored += index.lastStats.rescored;
      }
      const threads = index.lastStats.threads;
      rows.push({ rows: n, dims, method: `memory int8+exact, ${threads} thread${threads > 1 ? 's' : ''} (default)`, queries: nQueries, p50Ms: round(threaded.p50), p95Ms: round(threaded.p95), recallAt10: round(threaded.recall, 3), note: `${memNote}; avg ${Math.round(rescored / nQueries)} rows re-scored` });
      log(`  memory int8+exact, ${threads} thread(s): p50 ${round(threaded.p50)} ms`);
      index.close(); // single-threaded from here on
      if (threads > 1) {
        const single = await timeQueries(queries, exact, (q) => index.search(q, 10));
        rows.push({ rows: n, dims, method: 'memory int8+exact, 1 thread', queries: nQueries, p50Ms: round(single.p50), p95Ms: round(single.p95), recallAt10: round(single.recall, 3), note: '' });
        log(`  memory int8+exact, 1 thread: p50 ${round(single.p50)} ms`);
      }

      const plainQueries = queries.slice(0, Math.min(nQueries, n > 20_000 ? 20 : nQueries));
      const plain = await timeQueries(plainQueries, exact, (q) => index.exactSearch(q, 10));
      rows.push({ rows: n, dims, method: 'memory float scan (JS, oracle)', queries: plainQueries.length, p50Ms: round(plain.p50), p95Ms: round(plain.p95), recallAt10: round(plain.recall, 3), note: '' });
      log(`  memory float scan: p50 ${round(plain.p50)} ms`);

      const sqlQueries = queries.slice(0, n > 20_000 ? Math.min(nQueries, opts.sqlQueries ?? 10) : nQueries);
      const sql = await timeQueries(sqlQueries, exact, async (q) => {
        const res = await client.execute({
          sql: 'SELECT chunk_id FROM vectors ORDER BY vector_distance_cos(vec, ?) ASC LIMIT 10',
          args: [vectorBlob(q)],
        });
        return res.rows.map((row) => ({ id: String(row.chunk_id) }));
      });
      rows.push({ rows: n, dims, method: 'SQL vector_distance_cos', queries: sqlQueries.length, p50Ms: round(sql.p50), p95Ms: round(sql.p95), recallAt10: round(sql.recall, 3), note: `db file ${mb(statSync(file).size)} MB` });
      log(`  SQL vector_distance_cos: p50 ${round(sql.p50)} ms`);

      if (opts.libsqlIndexRows && n === opts.libsqlIndexRows) {
        const tBuild = performance.now();
        const before = statSync(file).size;
        await client.execute("CREATE INDEX vectors_ann ON vectors (libsql_vector_idx(vec, 'metric=cosine', 'compress_neighbors=float8'))");
        const buildMs = performance.now() - tBuild;
        await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
        const grown = statSync(file).size - before;
        const ann = await timeQueries(queries, exact, async (q) => {
          const res = await client.execute({
            sql: "SELECT v.chunk_id FROM vector_top_k('vectors_ann', ?, 10) AS t JOIN vectors AS v ON v.rowid = t.id",
            args: [vectorBlob(q)],
          });
          return res.rows.map((row) => ({ id: String(row.chunk_id) }));
        });
        rows.push({ rows: n, dims, method: 'libsql_vector_idx (float8 neighbours)', queries: nQueries, p50Ms: round(ann.p50), p95Ms: round(ann.p95), recallAt10: round(ann.recall, 3), note: `build ${round(buildMs / 1000, 1)} s, +${mb(grown)} MB on disk` });
        log(`  libsql_vector_idx: build ${round(buildMs / 1000, 1)} s, p50 ${round(ann.p50)} ms`);
      }
      client.close();
      gc();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

function printTable(rows: VectorBenchRow[]): void {
  const header = ['rows × dims', 'method', 'queries', 'p50 ms', 'p95 ms', 'recall@10', 'notes'];
  const lines = rows.map((r) => [`${r.rows} × ${r.dims}`, r.method, String(r.queries), String(r.p50Ms), String(r.p95Ms), String(r.recallAt10), r.note]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const probeFile = arg('rss-probe');
  if (probeFile) {
    console.log(JSON.stringify(await loadProbe(probeFile, Number(arg('dims') ?? 512))));
    process.exit(0);
  }
  const rows = await runVectorBench({
    sizes: arg('sizes')?.split(',').map(Number),
    dims: arg('dims') ? Number(arg('dims')) : undefined,
    queries: arg('queries') ? Number(arg('queries')) : undefined,
    sqlQueries: arg('sql-queries') ? Number(arg('sql-queries')) : undefined,
    libsqlIndexRows: arg('libsql-index') ? Number(arg('libsql-index')) : 0,
    log: (line) => console.error(line),
  });
  printTable(rows);
}
