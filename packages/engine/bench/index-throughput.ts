// `npm run bench:index`: full-index throughput of CMRC dev through the engine against the engine's
// lexical core in the same process (alternating, so a drifting machine hits both alike), where the
// engine's time goes, and the peak RSS of a large build run as a user runs it (the compiled CLI);
// beside each build the reference: SQLite FTS5 over jieba-cut text (fts5-peer.mjs), built from the
// same files in a process of its own. Then, on the large build: CLI `recall --only lexical` (the
// first after the build and later ones, FTS5's one-shot query beside them) and a long-lived engine's
// open as the console opens it.
//
//   ENGRAM_MODEL_CACHE=/tmp/no-models node --import tsx --expose-gc packages/engine/bench/index-throughput.ts
//     [--runs 3] [--rss-docs 50000] [--question Q] [--fts5-batch 500]
//     [--skip-cmrc] [--skip-in-process] [--skip-rss] [--skip-core-rss] [--skip-fts5] [--skip-recall] [--skip-open]
//
// "core" = what the in-memory index costs by itself: parse + chunk + tokenize (title, summary, tags,
// body) + LexicalIndex.add for every paragraph, from texts already in memory. "engine" = `engine.index({ full: true })` into a
// fresh data folder: list the folder, then a batch of files at a time read + parse, tokenize, write
// the rows to libSQL and add them to the lexical index; then the snapshot and the load after the
// pass. Both use the same warm tokenizer. Wall and CPU time are both reported: on a shared machine
// the CPU ratio is the steadier one.
//
// Engine against FTS5: each build is a whole process (the compiled `engram index` into a fresh data
// dir; `node fts5-peer.mjs build` into a fresh file), CPU seconds (user + system) and peak RSS by
// GNU time, so both pay their start, their jieba dictionary and their writes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openEngine } from '../src/engine.ts';
import { LexicalIndex } from '../src/lexical/bm25.ts';
import { documentRows, lexicalEntry } from '../src/index/rows.ts';
import { parseDiaryText } from '../src/diary/parse.ts';
import { createTokenizer } from '../src/text/tokenize.ts';
import { loadCmrc } from './lexical-cmrc.ts';
import { writeSyntheticDiaries } from './corpus.ts';

const flag = { type: 'boolean', default: false } as const;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'rss-docs': { type: 'string', default: '50000' },
    question: { type: 'string' },
    'fts5-batch': { type: 'string', default: '500' },
    'skip-rss': flag,
    'skip-cmrc': flag,
    'skip-in-process': flag,
    'skip-core-rss': flag,
    'skip-fts5': flag,
    'skip-recall': flag,
    'skip-open': flag,
  },
});
const runs = Number(values.runs);
const LEXICAL = { k1: 1.2, b: 0.75, fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 }, singleCharWeight: 0.15 };
const CHUNK = { size: 800, overlap: 120 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits = 0) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(digits)} / **${median(xs).toFixed(digits)}** / ${s[s.length - 1]!.toFixed(digits)}`;
};

/** CMRC dev paragraphs as diary files (title: the paragraph's first words). */
function writeCmrcDiaries(dir: string): number {
  const paragraphs = loadCmrc().paragraphs;
  paragraphs.forEach((p, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    const title = p.context.slice(0, 18).replace(/\s+/g, ' ');
    writeFileSync(join(dir, `2026-10-${day}-p${i}.txt`), `[09:00] ${title}\n\n${p.context}\n\nTag: cmrc, 基准\n`);
  });
  return paragraphs.length;
}

/** CPU seconds of this process since `c0` (user + system; libSQL and file reads run on this thread too). */
const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};

function coreRun(texts: { path: string; raw: string }[], tokenizer: ReturnType<typeof createTokenizer>): { seconds: number; cpu: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const index = new LexicalIndex(LEXICAL);
  for (const f of texts) {
    const parsed = parseDiaryText(f.raw, { root: 'diary', path: f.path, mtimeMs: 0, size: f.raw.length, archiveFolder: 'archive', requireTag: false, timePrefix: true });
    const { doc, chunks } = documentRows(parsed, f.path, tokenizer, CHUNK, '2026-12-01T00:00:00.000Z');
    for (const c of chunks) index.add(lexicalEntry({ chunkId: c.id, docId: c.docId, tokens: c.tokens }, { titleTokens: doc.titleTokens ?? '', summaryTokens: doc.summaryTokens ?? '', tagTokens: doc.tagTokens ?? '' }));
  }
  index.finishBulkAdd();
  return { seconds: (performance.now() - t0) / 1000, cpu: cpuSince(c0) };
}

async function engineRun(diaryDir: string, work: string) {
  const dataDir = join(work, `data-${Math.random().toString(36).slice(2)}`);
  const engine = await openEngine({ options: { diaryDir, dataDir, diary: { requireTag: false } }, env: { HOME: work }, syncOnOpen: false, preload: false });
  const phases = new Map<string, number>();
  let phase = 'scan';
  let since = performance.now();
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await engine.index({
      full: true,
      onProgress: (p) => {
        if (p.phase === phase) return;
        const now = performance.now();
        phases.set(phase, (phases.get(phase) ?? 0) + now - since);
        phase = p.phase;
        since = now;
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSince(c0);
    phases.set(`${phase} (manifest, lexical load + snapshot)`, performance.now() - since);
    return { seconds, cpu, phases };
  } finally {
    engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const work = mkdtempSync(join(tmpdir(), 'engram-bench-index-'));
const bin = new URL('../bin/engram.js', import.meta.url).pathname;
const peer = new URL('./fts5-peer.mjs', import.meta.url).pathname;
const question = values.question ?? loadCmrc().questions[0]!.question;
const fts5Batch = values['fts5-batch']!;
const needsCli = !values['skip-rss'] || (!values['skip-cmrc'] && !values['skip-fts5']);
if (needsCli) {
  if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time');
  spawnSync(process.execPath, [bin, '--version'], { stdio: 'ignore' }); // a stale build is rebuilt here, not inside a timed run
}

interface Timed { wall: number; cpu: number; mb: number; stdout: string }
/** One process under GNU time: wall s, CPU s (user + system, children included), peak RSS MB. */
function timed(args: string[]): Timed {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...args], { encoding: 'utf8', env: { ...process.env, HOME: work }, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { wall: wall!, cpu: user! + sys!, mb: kb! / 1024, stdout: r.stdout };
}
const cliBuild = (diaryDir: string, dataDir: string) => timed([process.execPath, bin, 'index', '--diary-dir', diaryDir, '--data-dir', dataDir, '--json']);
function peerBuild(diaryDir: string, dbFile: string, docs: number): Timed {
  const t = timed([process.execPath, peer, 'build', diaryDir, dbFile, fts5Batch]);
  const built = (JSON.parse(t.stdout) as { docs: number }).docs;
  if (built !== docs) throw new Error(`FTS5 peer built ${built} documents, expected ${docs}`);
  return t;
}
const fmt = (x: number, digits = 0) => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Engine build vs FTS5 build, one row each and the engine / FTS5 ratios (docs per CPU-s: higher is better; RSS: lower is). */
function buildTable(docs: number, engine: Timed[], fts5: Timed[]) {
  const med = (ts: Timed[], f: (t: Timed) => number) => median(ts.map(f));
  const row = (name: string, ts: Timed[]) => `| ${name} | ${fmt(med(ts, (t) => docs / t.cpu))} | ${med(ts, (t) => t.wall).toFixed(2)} | ${med(ts, (t) => t.cpu).toFixed(2)} | ${fmt(med(ts, (t) => docs / t.wall))} | ${med(ts, (t) => t.mb).toFixed(0)} |`;
  console.log('| build (one process each, GNU time) | docs per CPU-s | wall s | CPU s | docs/s (wall) | peak RSS MB |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('compiled `engram index` (full, fresh data dir)', engine));
  console.log(row(`SQLite FTS5 + jieba (@libsql/client file, ${fts5Batch} rows per transaction)`, fts5));
  const cpuRatio = med(engine, (t) => docs / t.cpu) / med(fts5, (t) => docs / t.cpu);
  const rssRatio = med(engine, (t) => t.mb) / med(fts5, (t) => t.mb);
  console.log(`| **engine / FTS5** | **${cpuRatio.toFixed(2)}** (≥ 1 wanted) | ${(med(engine, (t) => t.wall) / med(fts5, (t) => t.wall)).toFixed(2)} | ${(med(engine, (t) => t.cpu) / med(fts5, (t) => t.cpu)).toFixed(2)} | | **${rssRatio.toFixed(2)}** (≤ 1 wanted) |`);
}

if (!values['skip-cmrc']) {
  const diaryDir = join(work, 'cmrc');
  mkdirSync(diaryDir);
  const docs = writeCmrcDiaries(diaryDir);
  if (!values['skip-in-process']) {
    const { readdirSync, readFileSync } = await import('node:fs');
    const texts = readdirSync(diaryDir).sort().map((path) => ({ path, raw: readFileSync(join(diaryDir, path), 'utf8') }));
    const tokenizer = createTokenizer({ kind: 'auto' });
    for (const t of texts.slice(0, 100)) tokenizer.tokenize(t.raw); // builds jieba's dictionary before any timing

    const core: number[] = [];
    const engine: number[] = [];
    const coreCpu: number[] = [];
    const engineCpu: number[] = [];
    const phaseRuns: Map<string, number>[] = [];
    coreRun(texts, tokenizer); // warm-up (JIT), not counted
    for (let i = 0; i < runs; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      const c = coreRun(texts, tokenizer);
      core.push(docs / c.seconds);
      coreCpu.push(docs / c.cpu);
      (globalThis as { gc?: () => void }).gc?.();
      const e = await engineRun(diaryDir, work);
      engine.push(docs / e.seconds);
      engineCpu.push(docs / e.cpu);
      phaseRuns.push(e.phases);
    }
    const ratios = engine.map((e, i) => e / core[i]!);
    const cpuRatios = engineCpu.map((e, i) => e / coreCpu[i]!);

    console.log(`\nCMRC dev, ${docs} paragraphs as diary files, ${runs} runs each, alternating (min / median / max)\n`);
    console.log('| path | docs/s (wall) | ratio engine / core, wall (pair by pair) | docs per CPU second | ratio, CPU |');
    console.log('|---|---|---|---|---|');
    console.log(`| lexical core (parse + chunk + tokenize + BM25 add) | ${range(core)} | | ${range(coreCpu)} | |`);
    console.log(`| engine \`index --full\` (scan + rows to libSQL + lexical load + snapshot) | ${range(engine)} | ${range(ratios, 2)} | ${range(engineCpu)} | ${range(cpuRatios, 2)} |`);
    console.log('\nWhere the engine run spends its time (median ms per phase):\n');
    console.log('| phase | ms |');
    console.log('|---|---|');
    const PHASE_NAMES: Record<string, string> = { scan: 'scan (list the folder, read the index manifest)', store: 'store, streamed a batch at a time (read + parse + chunk + tokenize + rows to libSQL + lexical add)' };
    for (const name of phaseRuns[0]!.keys()) console.log(`| ${PHASE_NAMES[name] ?? name} | ${median(phaseRuns.map((p) => p.get(name) ?? 0)).toFixed(0)} |`);
  }
  if (!values['skip-fts5']) {
    const engine: Timed[] = [];
    const fts5: Timed[] = [];
    for (let i = 0; i < runs; i++) {
      engine.push(cliBuild(diaryDir, join(work, `cmrc-data-${i}`)));
      fts5.push(peerBuild(diaryDir, join(work, `cmrc-fts5-${i}.db`), docs));
      rmSync(join(work, `cmrc-data-${i}`), { recursive: true, force: true });
      rmSync(join(work, `cmrc-fts5-${i}.db`), { force: true });
    }
    console.log(`\nCMRC dev ×1, ${docs} diary files: whole-process builds, ${runs} runs each, alternating (medians)\n`);
    buildTable(docs, engine, fts5);
  }
}

if (!values['skip-rss']) {
  // The large build, as a user runs it: the compiled CLI in its own process, measured by GNU time.
  const n = Number(values['rss-docs']);
  const big = join(work, 'big');
  const bigData = join(work, 'big-data');
  mkdirSync(big);
  writeSyntheticDiaries(big, n, 600);
  const step = (what: string) => process.stderr.write(`[bench:index] ${what}\n`);
  step(`engram index, ${n} documents`);
  const cli = cliBuild(big, bigData);
  // Recall right after the build (nothing else has opened its data dir), then later ones.
  const recall = () => timed([process.execPath, bin, 'recall', question, '--only', 'lexical', '--diary-dir', big, '--data-dir', bigData]);
  const recalls: Timed[] = [];
  if (!values['skip-recall']) {
    step('CLI recalls');
    for (let i = 0; i < 4; i++) recalls.push(recall());
  }
  let fts5: Timed | null = null;
  const queries: Timed[] = [];
  if (!values['skip-fts5']) {
    step('FTS5 peer build');
    fts5 = peerBuild(big, join(work, 'big-fts5.db'), n);
    if (!values['skip-recall']) for (let i = 0; i < 4; i++) queries.push(timed([process.execPath, peer, 'query', join(work, 'big-fts5.db'), question]));
  }
  // More builds, alternating with the peer's: one build's peak moves by ±10 MB with the machine's
  // load (GC timing), as much as the difference being measured.
  const clis: Timed[] = [cli];
  const peers: Timed[] = fts5 ? [fts5] : [];
  for (let i = 1; i < runs; i++) {
    step(`builds ${i + 1} of ${runs}`);
    clis.push(cliBuild(big, join(work, 'big-data-again')));
    rmSync(join(work, 'big-data-again'), { recursive: true, force: true });
    if (!fts5) continue;
    peers.push(peerBuild(big, join(work, 'big-fts5-again.db'), n));
    rmSync(join(work, 'big-fts5-again.db'), { force: true });
  }
  let coreOnly: Timed | null = null;
  if (!values['skip-core-rss']) {
    step('lexical core alone');
    const coreScript = `
      import { readdirSync, readFileSync } from 'node:fs';
      import { join } from 'node:path';
      const { LexicalIndex } = await import(${JSON.stringify(new URL('../src/lexical/bm25.ts', import.meta.url).href)});
      const { createTokenizer } = await import(${JSON.stringify(new URL('../src/text/tokenize.ts', import.meta.url).href)});
      const tokenizer = createTokenizer({ kind: 'auto' });
      const index = new LexicalIndex(${JSON.stringify(LEXICAL)});
      const files = readdirSync(${JSON.stringify(big)}, { recursive: true }).filter((f) => String(f).endsWith('.txt'));
      for (const f of files) index.add({ chunkId: String(f), docId: String(f), fields: { title: [], summary: [], tags: [], body: tokenizer.tokenize(readFileSync(join(${JSON.stringify(big)}, String(f)), 'utf8')) } });
      index.finishBulkAdd();`;
    coreOnly = timed([process.execPath, '--import', 'tsx', '--input-type=module', '-e', coreScript]);
  }
  let open: { importMs: number; openMs: number; recallMs: number; hits: number; rssMb: number; peakMb: number; cpu: number } | null = null;
  if (!values['skip-open']) {
    step('long-lived engine open');
    // As the console opens it (apps/console/src/server/engine.ts): preload and sync on open (the
    // defaults), watching the folder; then one lexical recall. Under tsx: the module load is
    // reported apart from the open.
    const openScript = `
      const t0 = performance.now();
      const { openEngine } = await import(${JSON.stringify(new URL('../src/engine.ts', import.meta.url).href)});
      const t1 = performance.now();
      const c1 = process.cpuUsage();
      const engine = await openEngine({ env: { HOME: ${JSON.stringify(work)}, ENGRAM_DIARY_DIR: ${JSON.stringify(big)}, ENGRAM_DATA_DIR: ${JSON.stringify(bigData)}, ENGRAM_MODEL_CACHE: process.env.ENGRAM_MODEL_CACHE ?? '/tmp/no-models' }, log: () => {}, createDiaryDir: true, watch: true });
      const t2 = performance.now();
      const r = await engine.recall(${JSON.stringify(question)}, { only: 'lexical' });
      const t3 = performance.now();
      const c = process.cpuUsage(c1);
      const rssMb = process.memoryUsage().rss / 1048576;
      engine.close();
      console.log(JSON.stringify({ importMs: t1 - t0, openMs: t2 - t1, recallMs: t3 - t2, hits: r.hits.length, rssMb, peakMb: process.resourceUsage().maxRSS / 1024, cpu: (c.user + c.system) / 1e6 }));
      process.exit(0);`;
    open = JSON.parse(timed([process.execPath, '--import', 'tsx', '--input-type=module', '-e', openScript]).stdout.trim().split('\n').pop()!);
  }

  console.log(`\nFull build of ${n} synthetic diaries (~600 characters each), one process each, GNU time, medians of ${clis.length} alternating (peak RSS: min / median / max):\n`);
  console.log('| process | wall s | CPU s | docs/s (wall) | docs per CPU-s | peak RSS MB |');
  console.log('|---|---|---|---|---|---|');
  const med = (ts: Timed[], f: (t: Timed) => number) => median(ts.map(f));
  const rssRange = (ts: Timed[]) => (ts.length === 1 ? ts[0]!.mb.toFixed(0) : range(ts.map((t) => t.mb)));
  const row = (name: string, ts: Timed[]) =>
    `| ${name} | ${med(ts, (t) => t.wall).toFixed(1)} | ${med(ts, (t) => t.cpu).toFixed(1)} | ${fmt(n / med(ts, (t) => t.wall))} | ${fmt(n / med(ts, (t) => t.cpu))} | ${rssRange(ts)} |`;
  console.log(row('compiled `engram index` (full)', clis));
  if (peers.length > 0) console.log(row(`SQLite FTS5 + jieba (${fts5Batch} rows per transaction)`, peers));
  if (peers.length > 0) {
    const ratio = (f: (t: Timed) => number) => med(clis, f) / med(peers, f);
    console.log(`| **engine / FTS5** | ${ratio((t) => t.wall).toFixed(2)} | ${ratio((t) => t.cpu).toFixed(2)} | | **${(1 / ratio((t) => t.cpu)).toFixed(2)}** (≥ 1 wanted) | **${ratio((t) => t.mb).toFixed(2)}** (≤ 1 wanted) |`);
  }
  if (coreOnly) console.log(row('lexical core alone (tokenize + add, under tsx)', [coreOnly]));

  if (recalls.length > 0) {
    console.log(`\nOne-shot queries on the ${n}-document build, each a process of its own (\`${question}\`):\n`);
    console.log('| query | wall s | CPU s | peak RSS MB | FTS5 + jieba query process: wall s | CPU s | peak RSS MB |');
    console.log('|---|---|---|---|---|---|---|');
    recalls.forEach((r, i) => {
      const q = queries[i];
      const name = i === 0 ? 'first CLI `recall --only lexical` after the build (≤ 2 s wanted)' : `later CLI recall ${i} (≤ 1 s wanted)`;
      console.log(`| ${name} | ${r.wall.toFixed(2)} | ${r.cpu.toFixed(2)} | ${r.mb.toFixed(0)} | ${q ? q.wall.toFixed(2) : ''} | ${q ? q.cpu.toFixed(2) : ''} | ${q ? q.mb.toFixed(0) : ''} |`);
    });
  }
  if (open) {
    console.log(`\nA long-lived engine on the ${n}-document build (openEngine as the console opens it: preload, sync on open, watch; under tsx):\n`);
    console.log('| module load ms | open ms (≤ 2,000 wanted) | first recall ms | open + recall CPU s | RSS after MB (≤ 400 wanted) | peak RSS MB | hits |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(`| ${fmt(open.importMs)} | **${fmt(open.openMs)}** | ${fmt(open.recallMs)} | ${open.cpu.toFixed(2)} | **${open.rssMb.toFixed(0)}** | ${open.peakMb.toFixed(0)} | ${open.hits} |`);
  }
}
rmSync(work, { recursive: true, force: true });
