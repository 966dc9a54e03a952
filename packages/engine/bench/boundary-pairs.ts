// Lexical-only recall on CMRC dev under each boundary-pair rule (recall/scoring.ts queryWeights) and
// specificity bar, per half (paragraph index parity, the halves of semantic-dump.ts / fit-gate.ts),
// one child process per rule (the rule is read once at start). A rule and bar are picked on one
// half and judged on the other.
//
//   nice -n 10 node --import tsx packages/engine/bench/boundary-pairs.ts
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngine } from '../src/engine.ts';
import { CHATTER_QUERIES, HELD_OUT_CHATTER } from './chatter.ts';
import { loadCmrc, splitCorpus, writeDiaries } from './eval-cmrc.ts';

interface HalfScore { r1: number; r5: number; inEmpty: number; ooc: number; chatter: number }

async function child(bar: number): Promise<HalfScore[]> {
  const paragraphs = loadCmrc();
  const halfOf = new Map(paragraphs.map((p, i) => [p.id, i % 2]));
  const { indexed, held } = splitCorpus(paragraphs);
  const work = mkdtempSync(join(tmpdir(), 'engram-pairs-'));
  const diaryDir = join(work, 'diaries');
  mkdirSync(diaryDir);
  const paths = writeDiaries(diaryDir, indexed);
  const engine = await openEngine({
    options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding: { provider: 'none' }, recall: { minSpecificity: bar } },
    env: { HOME: work },
    syncOnOpen: false,
    now: () => new Date('2026-11-01T00:00:00'),
  });
  try {
    await engine.index({ full: true });
    const acc = [0, 1].map(() => ({ n: 0, r1: 0, r5: 0, inEmpty: 0, ooc: 0, oocN: 0, chat: 0, chatN: 0 }));
    for (const p of indexed) {
      const a = acc[halfOf.get(p.id) as number]!;
      for (const q of p.qas) {
        const r = await engine.recall(q.question, { k: 5, only: 'lexical' });
        const at = r.hits.findIndex((h) => h.path === paths.get(p.id));
        a.n++;
        if (at === 0) a.r1++;
        if (at >= 0 && at < 5) a.r5++;
        if (r.hits.length === 0) a.inEmpty++;
      }
    }
    for (const p of held) {
      const a = acc[halfOf.get(p.id) as number]!;
      for (const q of p.qas) {
        a.oocN++;
        if ((await engine.recall(q.question, { k: 5, only: 'lexical' })).hits.length === 0) a.ooc++;
      }
    }
    const chatter = [...CHATTER_QUERIES, ...HELD_OUT_CHATTER];
    for (let i = 0; i < chatter.length; i++) {
      const a = acc[i % 2]!;
      a.chatN++;
      if ((await engine.recall(chatter[i] as string, { k: 5, only: 'lexical' })).hits.length === 0) a.chat++;
    }
    return acc.map((a) => ({ r1: a.r1 / a.n, r5: a.r5 / a.n, inEmpty: a.inEmpty / a.n, ooc: a.ooc / a.oocN, chatter: a.chat / a.chatN }));
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.env.PAIRS_CHILD) {
  console.log(JSON.stringify(await child(Number(process.env.PAIRS_CHILD))));
  process.exit(0);
}

const variants: { rule: string; bar: number }[] = [
  { rule: 'keep', bar: 1.05 },
  { rule: 'function', bar: 1.05 },
  { rule: 'function', bar: 1.1 },
  { rule: 'all', bar: 1.05 },
  { rule: 'all', bar: 1.1 },
];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log('| rule, specificity bar | half | R@1 | R@5 | in-corpus → nothing | out-of-corpus → nothing | chatter → nothing |');
console.log('|---|---|---|---|---|---|---|');
for (const v of variants) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, PAIRS_CHILD: String(v.bar), ENGRAM_EVAL_BOUNDARY_PAIRS: v.rule },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const halves = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as HalfScore[];
  halves.forEach((h, i) => console.log(`| ${v.rule}, ${v.bar} | ${i} | ${h.r1.toFixed(3)} | ${h.r5.toFixed(3)} | ${pct(h.inEmpty)} | ${pct(h.ooc)} | ${pct(h.chatter)} |`));
}
