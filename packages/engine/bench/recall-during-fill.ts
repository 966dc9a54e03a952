// Recall while the vectors fill in: a long-lived engine opened over notes it has never indexed (a
// folder synced in, a new machine) indexes them lexically at once and embeds them in the background.
// How long does a recall take meanwhile, when its question's embedding shares the model with the
// fill? CMRC dev's 848 paragraphs as diaries, the installed model, a recall with a new question every
// 300 ms until the fill ends, then recalls on the idle engine for comparison; the model in this
// thread (as the console runs it) and in a child process (as the plugin runs it).
//
//   node --import tsx packages/engine/bench/recall-during-fill.ts [main|process]…
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { modelDirOf } from '../src/model/install.ts';
import { loadCmrc, writeDiaries } from './eval-cmrc.ts';
import { modelDataDir } from './growth.ts';

const model = modelDataDir();
if (!model) throw new Error('the model is not installed (engram model install)');
const placements = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['main', 'process'];
const paragraphs = loadCmrc();
const questions = paragraphs.flatMap((p) => p.qas.map((q) => q.question));
const work = mkdtempSync(join(tmpdir(), 'engram-fill-'));
const diaryDir = join(work, 'diaries');
mkdirSync(diaryDir);
writeDiaries(diaryDir, paragraphs);

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? NaN;
console.log(`| model runs in | fill, s | recalls during the fill | p50 ms | p90 ms | max ms | idle engine p50 ms |`);
console.log('|---|---|---|---|---|---|---|');
let asked = 0;
for (const placement of placements) {
  const dataDir = join(work, `data-${placement}`);
  const engine = await openEngine({
    options: { diaryDir, dataDir, diary: { requireTag: false, timePrefix: true }, embedding: { provider: 'local', modelDir: modelDirOf(model) } },
    env: { HOME: work },
    ...(placement === 'process' ? { model: { load: 'on-demand', thread: 'worker', isolation: 'process' } as const } : {}),
  });
  try {
    const t0 = performance.now();
    const settled = engine.vectorsSettled().then(() => true);
    const during: number[] = [];
    let partial = 0;
    // A new question each time: a repeated one would come from the query-embedding cache.
    while (!(await Promise.race([settled, new Promise<false>((res) => setTimeout(() => res(false), 300))]))) {
      const s = performance.now();
      const r = await engine.recall(questions[asked++ % questions.length] as string, { k: 5 });
      during.push(performance.now() - s);
      if (r.explain.semantic.partial) partial++;
    }
    const fill = (performance.now() - t0) / 1000;
    const idle: number[] = [];
    for (let i = 0; i < 16; i++) {
      const s = performance.now();
      await engine.recall(questions[asked++ % questions.length] as string, { k: 5 });
      idle.push(performance.now() - s);
    }
    const f = (x: number) => x.toFixed(0);
    console.log(`| ${placement === 'process' ? 'a child process (the plugin)' : 'this thread (the console)'} | ${fill.toFixed(1)} | ${during.length} (${partial} with vectors partly filled) | ${f(quantile(during, 0.5))} | ${f(quantile(during, 0.9))} | ${f(Math.max(...during))} | ${f(quantile(idle, 0.5))} |`);
  } finally {
    engine.close();
  }
}
rmSync(work, { recursive: true, force: true });
