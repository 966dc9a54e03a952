// When an engine opened over new notes is ready (#31 item 2: indexing with the model runs in the
// background). Each run writes 300 CMRC dev paragraphs as new diary notes into a fresh data dir
// and opens an engine over them as the plugin does (model on demand, in a child process) in a
// fresh Node process: `ready` is startEngine → `ready` resolved; `settled` is when the vectors are
// all filled in (engine.vectorsSettled, where the engine has it). The baseline in the same run is
// the same open without a model (embedding.provider none), alternated with the model variant.
//
//   node --import tsx packages/engine/bench/open-ready.ts [runs=3] [notes=300] [engine dirs=packages/engine]
//   (engine dirs, comma-separated: other checkouts' packages/engine too — e.g. the commit before a
//   change, `git archive <commit> packages/engine packages/db | tar -x -C /tmp/before` with
//   node_modules linked — each measured in every run, alternated)
//
// The model comes from the user's model cache (~/.cache/engram/models or $ENGRAM_MODEL_CACHE).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCmrc } from './lexical-cmrc.ts';

interface ChildResult {
  readyMs: number;
  settledMs: number | null;
  lexicalHits: number;
  vectorsAtReady: number;
  vectors: number;
  chunks: number;
}

const here = fileURLToPath(new URL('.', import.meta.url));

async function child(engineDir: string, root: string, variant: 'model' | 'none'): Promise<void> {
  const { startEngine } = (await import(pathToFileURL(join(engineDir, 'src', 'engine.ts')).href)) as typeof import('../src/engine.ts');
  const t0 = performance.now();
  const opening = await startEngine({
    options: { diaryDir: join(root, 'diaries'), dataDir: join(root, 'data'), embedding: { provider: variant === 'model' ? 'auto' : 'none' } },
    env: process.env,
    model: { load: 'on-demand', thread: 'worker', isolation: 'process' },
  });
  const engine = await opening.ready;
  const readyMs = performance.now() - t0;
  const vectorsAtReady = (await engine.status()).vectors;
  const lexicalHits = (await engine.recall(loadCmrc().questions[0]?.question ?? '', { only: 'lexical' })).hits.length;
  const settle = (engine as { vectorsSettled?: () => Promise<void> }).vectorsSettled;
  let settledMs: number | null = null;
  if (variant === 'model' && settle) {
    await settle.call(engine);
    settledMs = performance.now() - t0;
  }
  const status = await engine.status();
  await engine.closeBeforeExit();
  const out: ChildResult = { readyMs, settledMs, lexicalHits, vectorsAtReady, vectors: status.vectors, chunks: status.chunks };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function writeNotes(root: string, notes: number): void {
  const dir = join(root, 'diaries');
  mkdirSync(dir, { recursive: true });
  loadCmrc()
    .paragraphs.slice(0, notes)
    .forEach((p, i) => {
      const day = String((i % 28) + 1).padStart(2, '0');
      writeFileSync(join(dir, `2026-10-${day}-p${i}.txt`), `[09:00] ${p.context.slice(0, 18).replace(/\s+/g, ' ')}\n\n${p.context}\n\nTag: cmrc, 基准\n`);
    });
}

function runOne(engineDir: string, variant: 'model' | 'none', notes: number): ChildResult {
  const root = mkdtempSync(join(tmpdir(), 'engram-open-ready-'));
  try {
    writeNotes(root, notes);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'open-ready.ts'), '--child', engineDir, root, variant], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
      env: process.env,
    });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) throw new Error(`child failed (${r.status}): ${r.stderr.slice(-2000)}`);
    return JSON.parse(line) as ChildResult;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1] as string, args[2] as string, args[3] as 'model' | 'none');
  const runs = Number(args[0] ?? 3);
  const notes = Number(args[1] ?? 300);
  const engineDirs = (args[2] ?? join(here, '..')).split(',').map((d) => resolve(d));
  const model = engineDirs.map(() => [] as ChildResult[]);
  const none: ChildResult[] = [];
  const load: number[] = [];
  for (let i = 0; i < runs; i++) {
    load.push(loadavg()[0] as number);
    none.push(runOne(engineDirs[0] as string, 'none', notes));
    engineDirs.forEach((dir, e) => {
      const r = runOne(dir, 'model', notes);
      model[e]!.push(r);
      console.error(`run ${i + 1} ${dir}: none ready ${none[i]!.readyMs.toFixed(0)} ms; model ready ${r.readyMs.toFixed(0)} ms, settled ${r.settledMs?.toFixed(0) ?? '-'} ms (vectors ${r.vectorsAtReady} at ready, ${r.vectors}/${r.chunks} at the end; lexical hits ${r.lexicalHits})`);
    });
  }
  const s = (xs: number[]) => (median(xs) / 1000).toFixed(2);
  const base = median(none.map((r) => r.readyMs));
  console.log(`\n${notes} new notes; ${runs} runs, medians; 1-min load average at each run's start: ${load.map((l) => l.toFixed(2)).join(', ')} (${cpus().length} CPUs)\n`);
  console.log('| open | ready after (s) | ratio to no model | vectors at ready | all vectors in (s) | lexical hits at ready |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| no model (baseline, ${engineDirs[0]}) | ${s(none.map((r) => r.readyMs))} | 1.00 | - | - | ${median(none.map((r) => r.lexicalHits))} |`);
  engineDirs.forEach((dir, e) => {
    const rs = model[e] as ChildResult[];
    const settled = rs.map((r) => r.settledMs).filter((x): x is number => x !== null);
    console.log(
      `| model (on demand, process worker), ${dir} | ${s(rs.map((r) => r.readyMs))} | ${(median(rs.map((r) => r.readyMs)) / base).toFixed(2)} | ${median(rs.map((r) => r.vectorsAtReady))} of ${median(rs.map((r) => r.chunks))} | ${settled.length ? s(settled) : '(at ready)'} | ${median(rs.map((r) => r.lexicalHits))} |`,
    );
  });
}

await main();
