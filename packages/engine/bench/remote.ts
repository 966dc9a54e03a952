// Remote libSQL vs embedded: the same synthetic corpus indexed into a file database and into a real
// sqld server on 127.0.0.1, then the same queries and writes against each, in one run.
//   node --import tsx packages/engine/bench/remote.ts [docs=300] [queries=200] [writes=10]
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { startSqld } from '../../db/test/sqld.ts';
import { syntheticQueries, writeSyntheticDiaries } from './corpus.ts';

const [docs = 300, queries = 200, writes = 10] = process.argv.slice(2).map(Number);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function measure(label: string, databaseUrl: string | undefined) {
  const root = mkdtempSync(join(tmpdir(), 'engram-remote-bench-'));
  const diaryDir = join(root, 'diaries');
  mkdirSync(diaryDir);
  writeSyntheticDiaries(diaryDir, docs, 1300);
  const options: Record<string, unknown> = { diaryDir, dataDir: join(root, 'data') };
  if (databaseUrl) options.databaseUrl = databaseUrl;
  let t = performance.now();
  const engine = await openEngine({ options, env: { HOME: root }, syncOnOpen: false });
  const openMs = performance.now() - t;
  t = performance.now();
  const report = await engine.index({ full: true });
  const indexS = (performance.now() - t) / 1000;
  const qs = syntheticQueries(queries);
  for (const q of qs.slice(0, 20)) await engine.recall(q); // warm-up
  const recallMs: number[] = [];
  for (const q of qs) {
    t = performance.now();
    await engine.recall(q);
    recallMs.push(performance.now() - t);
  }
  const writeMs: number[] = [];
  for (let i = 0; i < writes; i++) {
    t = performance.now();
    await engine.write({ title: `基准写入 ${label} ${i}`, content: `第 ${i} 条基准写入:${qs[i]} ${qs[i + 1]} 这一段用来测写入延迟,包括重新索引这一条。` });
    writeMs.push(performance.now() - t);
  }
  engine.close();
  return { label, chunks: report.chunks, openMs, indexS, recallP50: pct(recallMs, 0.5), recallP95: pct(recallMs, 0.95), writeP50: pct(writeMs, 0.5), writeMax: Math.max(...writeMs) };
}

const server = await startSqld();
try {
  const embedded = await measure('embedded', undefined);
  const remote = await measure('remote', server.url);
  const f = (n: number, d = 2) => n.toFixed(d);
  console.log(`| mode | chunks | open ms | full index s | recall p50 ms | recall p95 ms | write p50 ms | write max ms |`);
  console.log(`|---|---|---|---|---|---|---|---|`);
  for (const r of [embedded, remote])
    console.log(`| ${r.label} | ${r.chunks} | ${f(r.openMs, 0)} | ${f(r.indexS, 1)} | ${f(r.recallP50)} | ${f(r.recallP95)} | ${f(r.writeP50, 0)} | ${f(r.writeMax, 0)} |`);
  console.log(`| remote / embedded | | ${f(remote.openMs / embedded.openMs)} | ${f(remote.indexS / embedded.indexS)} | ${f(remote.recallP50 / embedded.recallP50)} | ${f(remote.recallP95 / embedded.recallP95)} | ${f(remote.writeP50 / embedded.writeP50)} | |`);
} finally {
  await server.stop();
}
