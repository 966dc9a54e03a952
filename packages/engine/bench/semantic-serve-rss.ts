// Resident size of a long-lived serving process with the local model loaded (#14: ≤ 350 MB): the
// engine opened once as the plugin host and the console keep it (preload on, sync on open), then
// RECALLS hybrid recalls of CMRC questions (in-corpus and out-of-corpus, one at a time), WRITES
// memory writes (each embeds its chunk), and RECALLS more. VmRSS / VmHWM from /proc/self/status
// after each phase, plus node's heap and external memory.
//
//   # an index of the CMRC diaries, built by the compiled CLI in its own process:
//   HOME=D ENGRAM_EMBEDDING_PROVIDER=local ENGRAM_EMBEDDING_MODEL_DIR=<modelDir> \
//     node packages/engine/bin/engram.js index --diary-dir D/diaries --data-dir D/data
//   ENGRAM_EMBEDDING_PROVIDER=local ENGRAM_EMBEDDING_MODEL_DIR=<modelDir> \
//     node --import tsx packages/engine/bench/semantic-serve-rss.ts D [RECALLS=200] [WRITES=5]
//   ENGRAM_EMBEDDING_PROVIDER=none … the same without the model (lexical recall), for the model's share.
//
// The writes go to a copy of D (D-rss-<pid>, removed at the end), so D stays as indexed. The bench
// bundles itself with esbuild and runs the bundle in plain node (as the compiled CLI and the plugin
// bundle run), so tsx's compiler is not counted; ENGRAM_RSS_TSX=1 measures under tsx instead.
// ENGRAM_RSS_SESSION='{"enableCpuMemArena":false}' etc. passes onnxruntime session settings.
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function status(): { rss: number; hwm: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

const rows: string[] = [];
function sample(phase: string): void {
  const { rss, hwm } = status();
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  rows.push(`| ${phase} | ${rss.toFixed(1)} | ${hwm.toFixed(1)} | ${mb(m.heapUsed)} | ${mb(m.external)} | ${mb(m.arrayBuffers)} | ${(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6).toFixed(1)} |`);
}

async function measure(dir: string, recalls: number, writes: number): Promise<void> {
  sample('node started');
  const { openEngine } = await import('../src/engine.ts');
  // The CMRC questions without importing eval-cmrc.ts (its main block would run in the bundle).
  type P = { context: string; qas: { question: string }[] };
  const dataset = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/datasets/cmrc2018/cmrc2018_dev.json');
  const all = (JSON.parse(readFileSync(dataset, 'utf8')) as { data: { paragraphs: P[] }[] }).data.flatMap((a) => a.paragraphs);
  const indexed = all.filter((_, i) => i % 10 < 7);
  const held = all.filter((_, i) => i % 10 >= 7);
  const questions = [...indexed.flatMap((p) => p.qas.map((q) => q.question)), ...held.flatMap((p) => p.qas.map((q) => q.question))];
  // A fixed spread over the whole list (in-corpus first, out-of-corpus after), the same every run.
  const pick = (i: number) => questions[Math.floor((i * 7919) % questions.length)] as string;
  sample('engine code loaded');
  const env: Record<string, string | undefined> = { ...process.env, HOME: dir };
  delete env.ENGRAM_DIARY_DIR;
  delete env.ENGRAM_DATA_DIR;
  const session = process.env.ENGRAM_RSS_SESSION ? (JSON.parse(process.env.ENGRAM_RSS_SESSION) as Record<string, unknown>) : undefined;
  const engine = await openEngine({
    options: { diaryDir: join(dir, 'diaries'), dataDir: join(dir, 'data'), ...(session ? { embedding: { session } } : {}) },
    env,
  });
  sample('engine open (index loaded, sync on open)');
  let semantic = 0;
  const recallMany = async (n: number, from: number) => {
    for (let i = 0; i < n; i++) {
      const r = await engine.recall(pick(from + i), { k: 5 });
      if (r.explain.semantic?.ran) semantic++;
    }
  };
  await recallMany(1, 0);
  const st = engine.semantic?.status();
  // ENGRAM_EMBEDDING_PROVIDER=none: the same process without the model, for the model's share.
  if (process.env.ENGRAM_EMBEDDING_PROVIDER !== 'none' && st?.state !== 'ready') throw new Error(`semantic channel not ready: ${st?.reason ?? 'no channel'}`);
  sample('first recall (model loaded)');
  await recallMany(recalls, 1);
  sample(`after ${recalls} recalls`);
  for (const [i, p] of held.slice(0, writes).entries()) await engine.write({ title: `rss bench ${i}`, content: p.context, tags: ['bench'] });
  sample(`after ${writes} writes (each embeds its chunk)`);
  await recallMany(recalls, 1 + recalls);
  sample(`after ${recalls} more recalls`);
  (globalThis as { gc?: () => void }).gc?.();
  sample('after a full GC');
  const vectors = engine.semantic?.status().vectors ?? 0;
  engine.close();
  console.log(`${recalls * 2 + 1} recalls (${semantic} with the semantic channel), ${writes} writes, ${vectors} vectors, ${process.env.ENGRAM_RSS_TSX === '1' ? 'under tsx' : 'bundled, plain node'}${session ? `, session ${JSON.stringify(session)}` : ''}`);
  console.log('');
  console.log('| phase | VmRSS MB | VmHWM MB | heap used MB | external MB | array buffers MB | CPU s so far |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

const [dirArg, recallsArg, writesArg] = process.argv.slice(2);
if (process.env.ENGRAM_RSS_CHILD === '1' || process.env.ENGRAM_RSS_TSX === '1') {
  if (!dirArg) throw new Error('usage: semantic-serve-rss.ts DIR [RECALLS] [WRITES]');
  await measure(dirArg, Number(recallsArg ?? 200), Number(writesArg ?? 5));
} else {
  if (!dirArg) throw new Error('usage: semantic-serve-rss.ts DIR [RECALLS] [WRITES]');
  const src = resolve(dirArg);
  if (!existsSync(join(src, 'data'))) throw new Error(`${src}/data does not exist: index D first (see the header of this file)`);
  const work = `${src.replace(/\/$/, '')}-rss-${process.pid}`;
  cpSync(src, work, { recursive: true });
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(here, '../../..');
  const out = join(tmpdir(), `engram-rss-${process.pid}.mjs`);
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@libsql/client', 'libsql', '@node-rs/jieba', '@huggingface/transformers', 'onnxruntime-node', 'esbuild', 'tsx'],
    banner: { js: "import { createRequire as __c } from 'node:module';\nconst require = __c(import.meta.url);" },
    logLevel: 'warning',
  });
  // The bundle resolves its external packages from the repo's node_modules.
  const bundled = join(here, `.rss-${process.pid}.mjs`);
  cpSync(out, bundled);
  rmSync(out);
  try {
    const r = spawnSync(process.execPath, ['--expose-gc', bundled, work, recallsArg ?? '200', writesArg ?? '5'], {
      stdio: 'inherit',
      env: { ...process.env, ENGRAM_RSS_CHILD: '1', ENGRAM_MIGRATIONS_DIR: join(root, 'drizzle') },
    });
    process.exitCode = r.status ?? 1;
  } finally {
    rmSync(bundled, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
