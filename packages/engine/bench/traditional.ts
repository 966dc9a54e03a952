// Traditional and simplified Chinese in one memory: the small growth store (CMRC 2018 dev's first 256
// paragraphs, 181 notes) with its notes and its questions each written in simplified Chinese or
// converted to traditional (OpenCC through opencc-js, the Taiwan standard by default), asked in every
// pairing. Cells: R@5 / answerable → nothing / out-of-corpus → nothing, both halves, lexical alone and
// with the model when it is installed. Character conversion only: a traditional writer's own words
// (軟體 for 软件) are not what OpenCC's character tables make, so this measures the script, not the
// vocabulary.
//
//   node --import tsx packages/engine/bench/traditional.ts
//   TRADITIONAL_VARIANT=hk …          Hong Kong characters instead of Taiwan's
//   ENGRAM_TEST_MODEL_DATA_DIR=…      the model's data dir (as bench:growth), else lexical alone
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { modelDirOf } from '../src/model/install.ts';
import { buildStore, GROWTH_STORES } from './growth-data.ts';
import { growthSets } from './growth-sets.ts';
import { fileOf, modelDataDir } from './growth.ts';

type Script = 'simplified' | 'traditional';
const variant = process.env.TRADITIONAL_VARIANT ?? 'tw';
const OpenCC = createRequire(import.meta.url)('opencc-js') as { Converter: (o: { from: string; to: string }) => (text: string) => string };
const toTraditional = OpenCC.Converter({ from: 'cn', to: variant });
const written = (script: Script, text: string) => (script === 'traditional' ? toTraditional(text) : text);

const [set] = (await growthSets()).filter((s) => s.language === 'zh');
const store = buildStore(set!, GROWTH_STORES.find((s) => s.name === 'small')!);
const model = modelDataDir();

async function run(notes: Script, questions: Script, withModel: boolean): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'engram-traditional-'));
  const groupOfPath = new Map<string, string>();
  for (let i = 0; i < 20; i++) mkdirSync(join(work, 'diaries', `f${i}`), { recursive: true });
  store.notes.forEach((n, i) => {
    writeFileSync(join(work, 'diaries', fileOf(n, i)), `[09:00] ${written(notes, n.title)}\n\n${written(notes, n.text)}\n`);
    groupOfPath.set(fileOf(n, i), n.group ?? n.id);
  });
  const embedding = withModel && model ? { provider: 'local', modelDir: modelDirOf(model) } : { provider: 'none' };
  const engine = await openEngine({
    options: { diaryDir: join(work, 'diaries'), dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding },
    env: { HOME: work },
    syncOnOpen: false,
    now: () => new Date('2026-11-01T00:00:00'),
  });
  try {
    await engine.index({ full: true });
    if (withModel && engine.semantic?.status().state !== 'ready') throw new Error(`semantic channel not ready: ${engine.semantic?.status().reason}`);
    const cells: string[] = [];
    for (const half of [0, 1] as const) {
      const asked = store.asked.filter((a) => a.half === half);
      let hit = 0;
      let nothing = 0;
      for (const a of asked) {
        const r = await engine.recall(written(questions, a.q), { k: 5 });
        if (r.hits.length === 0) nothing++;
        if (r.hits.some((h) => a.groups.includes(groupOfPath.get(h.path) ?? ''))) hit++;
      }
      const absent = store.absent.filter((a) => a.half === half);
      let absentNothing = 0;
      for (const a of absent) if ((await engine.recall(written(questions, a.q), { k: 5 })).hits.length === 0) absentNothing++;
      const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
      cells.push(`${(hit / asked.length).toFixed(3)} / ${pct(nothing, asked.length)} / ${pct(absentNothing, absent.length)}`);
    }
    return cells;
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

console.log(`traditional: ${store.notes.length} notes, ${store.asked.length} questions, ${store.absent.length} out of corpus; traditional = OpenCC cn → ${variant}\n`);
console.log('| notes | questions | mode | tuning half | held out |');
console.log('|---|---|---|---|---|');
const modes = model ? [false, true] : [false];
for (const withModel of modes)
  for (const [notes, questions] of [['simplified', 'simplified'], ['simplified', 'traditional'], ['traditional', 'traditional'], ['traditional', 'simplified']] as const) {
    const [tuning, held] = await run(notes, questions, withModel);
    console.log(`| ${notes} | ${questions} | ${withModel ? 'with the model' : 'lexical alone'} | ${tuning} | ${held} |`);
  }
