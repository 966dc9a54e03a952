// English check: hybrid vs lexical on memories written for this project (bench/data/english-memories.ts).
// One engine, one index; each query answered lexical-only and hybrid. Also with the memory's title,
// summary and tags left out of what is embedded (embedding.withMetadata: false), to measure that.
//
//   ENGRAM_EMBEDDING_PROVIDER=local ENGRAM_EMBEDDING_MODEL_DIR=<model> node --import tsx packages/engine/bench/english-check.ts
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { DAY_CHATTER } from './data/english/chatter.ts';
import { ENGLISH_CHATTER, ENGLISH_MEMORIES, ENGLISH_OUT_OF_CORPUS } from './data/english-memories.ts';

/** ENGRAM_EVAL_OPTIONS: JSON merged into the engine options (e.g. a recall.hybridGate setting). */
const extra = process.env.ENGRAM_EVAL_OPTIONS ? (JSON.parse(process.env.ENGRAM_EVAL_OPTIONS) as Record<string, unknown>) : {};

async function run(withMetadata: boolean) {
  const work = mkdtempSync(join(tmpdir(), 'engram-en-'));
  const diaryDir = join(work, 'diaries');
  mkdirSync(diaryDir);
  ENGLISH_MEMORIES.forEach((m, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    writeFileSync(join(diaryDir, `2026-10-${day}-mem${i}.txt`), `[10:00] ${m.title}\n\n> ${m.summary}\n\n${m.body}\n\nTag: ${m.tags.join(', ')}\n`);
  });
  const env: Record<string, string> = { HOME: work };
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('ENGRAM_EMBEDDING_') && v) env[k] = v;
  const engine = await openEngine({ options: { ...extra, diaryDir, dataDir: join(work, 'data'), embedding: { withMetadata } }, env, syncOnOpen: false, now: () => new Date('2026-11-01T00:00:00') });
  try {
    await engine.index({ full: true });
    if (engine.semantic?.status().state !== 'ready') throw new Error(`semantic not ready: ${engine.semantic?.status().reason}`);
    const out = { lexical: { hit5: 0, says: 0, ooc: 0, chat: 0, day: 0 }, hybrid: { hit5: 0, says: 0, ooc: 0, chat: 0, day: 0 }, n: 0 };
    for (const [i, m] of ENGLISH_MEMORIES.entries()) {
      for (const q of m.questions) {
        out.n++;
        for (const mode of ['lexical', 'hybrid'] as const) {
          const r = await engine.recall(q, { k: 5, only: mode === 'lexical' ? 'lexical' : undefined });
          if (r.hits.some((h) => h.path.includes(`-mem${i}.txt`))) out[mode].hit5++;
        }
      }
    }
    // A statement in passing that a memory bears on (EnglishMemory.says): its memory among the top 5.
    for (const [i, m] of ENGLISH_MEMORIES.entries())
      for (const mode of ['lexical', 'hybrid'] as const)
        if ((await engine.recall(m.says, { k: 5, only: mode === 'lexical' ? 'lexical' : undefined })).hits.some((h) => h.path.includes(`-mem${i}.txt`))) out[mode].says++;
    for (const [list, key] of [[ENGLISH_OUT_OF_CORPUS, 'ooc'], [ENGLISH_CHATTER, 'chat'], [DAY_CHATTER, 'day']] as const)
      for (const q of list)
        for (const mode of ['lexical', 'hybrid'] as const) if ((await engine.recall(q, { only: mode === 'lexical' ? 'lexical' : undefined })).hits.length === 0) out[mode][key]++;
    return out;
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const pct = (a: number, n: number) => `${((a / n) * 100).toFixed(1)}%`;
const n = ENGLISH_MEMORIES.length;
console.log(`| run (${n} memories) | hit@5 | said in passing → its memory in the top 5 | out-of-corpus → nothing | chatter → nothing | small talk of the day → nothing |`);
console.log('|---|---|---|---|---|---|');
const row = (name: string, r: { hit5: number; says: number; ooc: number; chat: number; day: number }, questions: number) =>
  `| ${name} | ${(r.hit5 / questions).toFixed(3)} | ${r.says} / ${n} | ${pct(r.ooc, ENGLISH_OUT_OF_CORPUS.length)} | ${pct(r.chat, ENGLISH_CHATTER.length)} | ${pct(r.day, DAY_CHATTER.length)} |`;
for (const withMetadata of [true, false]) {
  const r = await run(withMetadata);
  if (withMetadata) console.log(row('lexical only', r.lexical, r.n));
  console.log(row(`hybrid, ${withMetadata ? 'title + summary + tags embedded with the body' : 'body only embedded'}`, r.hybrid, r.n));
}
