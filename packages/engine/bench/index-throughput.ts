// `npm run bench:index`: full-index throughput of CMRC dev through the engine against the engine's
// lexical core in the same process (alternating, so a drifting machine hits both alike), where the
// engine's time goes, and the peak RSS of a large build run as a user runs it (the compiled CLI).
//
//   node --import tsx --expose-gc packages/engine/bench/index-throughput.ts [--runs 3] [--rss-docs 50000] [--skip-rss] [--skip-cmrc] [--skip-core-rss]
//
// "core" = what the in-memory index costs by itself: parse + chunk + tokenize (title, summary, tags,
// body) + LexicalIndex.add for every paragraph, from texts already in memory. "engine" = `engine.index({ full: true })` into a
// fresh data folder: list the folder, then a batch of files at a time read + parse, tokenize, write
// the rows to libSQL and add them to the lexical index; then the snapshot and the load after the
// pass. Both use the same warm tokenizer. Wall and CPU time are both reported: on a shared machine
// the CPU ratio is the steadier one.
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

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'rss-docs': { type: 'string', default: '50000' }, 'skip-rss': { type: 'boolean', default: false }, 'skip-cmrc': { type: 'boolean', default: false }, 'skip-core-rss': { type: 'boolean', default: false } } });
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
if (!values['skip-cmrc']) {
  const diaryDir = join(work, 'cmrc');
  mkdirSync(diaryDir);
  const docs = writeCmrcDiaries(diaryDir);
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

if (!values['skip-rss']) {
  // Peak RSS of a large full build, as a user runs it: the compiled CLI in its own process, measured by GNU time.
  const n = Number(values['rss-docs']);
  const big = join(work, 'big');
  mkdirSync(big);
  writeSyntheticDiaries(big, n, 600);
  const bin = new URL('../bin/engram.js', import.meta.url).pathname;
  if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time');
  const timed = (args: string[]) => {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...args], { encoding: 'utf8', env: { ...process.env, HOME: work }, maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr.slice(-2000)}`);
    const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    return { wall: wall!, cpu: user! + sys!, mb: kb! / 1024 };
  };
  spawnSync(process.execPath, [bin, '--version'], { stdio: 'ignore' }); // a stale build is rebuilt here, not inside the timed run
  const cli = timed([process.execPath, bin, 'index', '--diary-dir', big, '--data-dir', join(work, 'big-data'), '--json']);
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
  console.log(`\nPeak RSS of a full build of ${n} synthetic diaries (~600 characters each), one process each, GNU time:\n`);
  console.log('| process | wall s | CPU s | docs/s (wall) | peak RSS MB |');
  console.log('|---|---|---|---|---|');
  console.log(`| compiled \`engram index\` (full) | ${cli.wall.toFixed(1)} | ${cli.cpu.toFixed(1)} | ${(n / cli.wall).toFixed(0)} | **${cli.mb.toFixed(0)}** |`);
  if (!values['skip-core-rss']) {
    const coreOnly = timed([process.execPath, '--import', 'tsx', '--input-type=module', '-e', coreScript]);
    console.log(`| lexical core alone (tokenize + add, under tsx) | ${coreOnly.wall.toFixed(1)} | ${coreOnly.cpu.toFixed(1)} | ${(n / coreOnly.wall).toFixed(0)} | ${coreOnly.mb.toFixed(0)} |`);
  }
}
rmSync(work, { recursive: true, force: true });
