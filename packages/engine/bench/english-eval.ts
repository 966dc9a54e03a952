// English evaluation (bench/data/english/): conversational memory from public mailing-list threads
// (a question asked in a thread → the thread's other messages are the memories that answer it) and
// English small talk (→ nothing). One engine, one index; every question answered with the model on
// (the product default when it is installed) and lexical alone, beside plain word BM25 baselines
// computed in the same run. Both halves are reported; tune on the tuning half only.
//
//   node --import tsx packages/engine/bench/english-eval.ts
//   ENGLISH_MODEL=none …          lexical only (no model)
//   ENGRAM_EVAL_OPTIONS='{"recall":{…}}' …   engine options merged in (for experiments)
//   ENGLISH_WHY=1 …               also print each small-talk line that recalled something, with its first hit
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eng } from 'stopword';
import stem from 'wink-porter2-stemmer';
import { openEngine } from '../src/engine.ts';
import { modelDirOf } from '../src/model/install.ts';
import { modelDataDir } from './growth.ts';
import { loadEnglishSet, type EnglishHalf, type EnglishNote } from './data/english/index.ts';
import { DAY_CHATTER } from './data/english/chatter.ts';

const HALVES: EnglishHalf[] = ['tuning', 'held-out'];
const K = 5;

interface HalfScore {
  questions: number;
  hits: number;
  /** Questions this system found in the top 5 and the other Engram mode did not (model on against lexical alone). */
  only: number;
  /** Answerable questions that got nothing at all. */
  nothing: number;
  chatter: number;
  chatterNothing: number;
  /** Small talk of the day (chatter.ts DAY_CHATTER, never tuned on: counted in the held-out half only). */
  day: number;
  dayNothing: number;
}

type Scores = Record<EnglishHalf, HalfScore>;
const emptyScores = (): Scores => ({
  tuning: { questions: 0, hits: 0, only: 0, nothing: 0, chatter: 0, chatterNothing: 0, day: 0, dayNothing: 0 },
  'held-out': { questions: 0, hits: 0, only: 0, nothing: 0, chatter: 0, chatterNothing: 0, day: 0, dayNothing: 0 },
});

/** Plain BM25 over words (k1 1.2, b 0.75), no gates: it never abstains. `analyse` turns text into terms. */
export function wordBm25(notes: EnglishNote[], analyse: (text: string) => string[]): (q: string, k: number) => string[] {
  const docs = notes.map((n) => analyse(`${n.title} ${n.body}`));
  const df = new Map<string, number>();
  const tfs = docs.map((terms) => {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return tf;
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const n = docs.length;
  return (q, k) => {
    const terms = [...new Set(analyse(q))];
    const scored: { id: string; s: number }[] = [];
    tfs.forEach((tf, i) => {
      let s = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const d = df.get(t) as number;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * (docs[i] as string[]).length) / avg));
      }
      if (s > 0) scored.push({ id: (notes[i] as EnglishNote).id, s });
    });
    return scored.sort((a, b) => b.s - a.s).slice(0, k).map((x) => x.id);
  };
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const STOP = new Set(eng);
const BASELINES: { name: string; analyse: (text: string) => string[] }[] = [
  { name: 'word BM25 (lower-cased words), no gates', analyse: words },
  { name: 'word BM25 + stopword eng + Porter2 stemming, no gates', analyse: (t) => words(t).filter((w) => !STOP.has(w)).map((w) => stem(w)) },
];

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00`) + 86_400_000);

async function engramScores(set: ReturnType<typeof loadEnglishSet>, modelData: string | null, extra: Record<string, unknown>) {
  const work = mkdtempSync(join(tmpdir(), 'engram-english-'));
  const diaryDir = join(work, 'diaries');
  const idOfPath = new Map<string, string>();
  for (let i = 0; i < 20; i++) mkdirSync(join(diaryDir, `f${i}`), { recursive: true });
  // Each note on the day its message was sent, and the questions asked the day after the last one:
  // a memory asked about its whole past, as a conversation's memory is (time decay meets real ages).
  set.notes.forEach((n, i) => {
    const path = `f${i % 20}/${n.date}-n${i}.txt`;
    writeFileSync(join(diaryDir, path), `[09:00] ${n.title}\n\n${n.body}\n`);
    idOfPath.set(path, n.id);
  });
  const embedding = modelData ? { provider: 'local', modelDir: modelDirOf(modelData) } : { provider: 'none' };
  const engine = await openEngine({
    options: { ...extra, diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding },
    env: { HOME: work },
    syncOnOpen: false,
    now: () => dayAfter(set.notes.reduce((last, n) => (n.date > last ? n.date : last), '')),
  });
  const modes = modelData ? (['hybrid', 'lexical'] as const) : (['lexical'] as const);
  const out = new Map<string, Scores>(modes.map((m) => [m, emptyScores()]));
  try {
    const t0 = performance.now();
    await engine.index({ full: true });
    console.error(`english: indexed ${set.notes.length} notes in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    if (modelData && engine.semantic?.status().state !== 'ready') throw new Error(`semantic channel not ready: ${engine.semantic?.status().reason}`);
    for (const q of set.questions) {
      const answers = new Set(q.answerIds);
      const found = new Map<string, boolean>();
      for (const mode of modes) {
        const r = await engine.recall(q.q, { k: K, only: mode === 'lexical' ? 'lexical' : undefined });
        const s = out.get(mode)![q.half];
        s.questions++;
        if (r.hits.length === 0) s.nothing++;
        const hit = r.hits.some((h) => answers.has(idOfPath.get(h.path) ?? ''));
        if (hit) s.hits++;
        found.set(mode, hit);
      }
      // Where the model changes the answer: which questions each mode alone finds.
      if (modes.length === 2) for (const mode of modes) if (found.get(mode) && !found.get(mode === 'hybrid' ? 'lexical' : 'hybrid')) out.get(mode)![q.half].only++;
    }
    for (const half of HALVES) {
      for (const line of loadEnglishSet(half).chatter) {
        for (const mode of modes) {
          const r = await engine.recall(line, { only: mode === 'lexical' ? 'lexical' : undefined });
          const s = out.get(mode)![half];
          s.chatter++;
          if (r.hits.length === 0) s.chatterNothing++;
          else if (process.env.ENGLISH_WHY === '1') console.error(`english: ${half} chatter recalled (${mode}): ${line} → ${r.hits[0]?.title} [${r.hits[0]?.matched.map((m) => m.token).join(' ')}] coverage ${r.hits[0]?.coverage.toFixed(2)}`);
        }
      }
    }
    for (const line of DAY_CHATTER)
      for (const mode of modes) {
        const r = await engine.recall(line, { only: mode === 'lexical' ? 'lexical' : undefined });
        const s = out.get(mode)!['held-out'];
        s.day++;
        if (r.hits.length === 0) s.dayNothing++;
        else if (process.env.ENGLISH_WHY === '1') console.error(`english: small talk of the day recalled (${mode}): ${line} → ${r.hits[0]?.title} [${r.hits[0]?.matched.map((m) => m.token).join(' ')}]`);
      }
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

function baselineScores(set: ReturnType<typeof loadEnglishSet>, analyse: (text: string) => string[]): Scores {
  const search = wordBm25(set.notes, analyse);
  const out = emptyScores();
  for (const q of set.questions) {
    const answers = new Set(q.answerIds);
    const s = out[q.half];
    s.questions++;
    const top = search(q.q, K);
    if (top.length === 0) s.nothing++;
    if (top.some((id) => answers.has(id))) s.hits++;
  }
  for (const half of HALVES) {
    for (const line of loadEnglishSet(half).chatter) {
      out[half].chatter++;
      if (search(line, K).length === 0) out[half].chatterNothing++;
    }
  }
  for (const line of DAY_CHATTER) {
    out['held-out'].day++;
    if (search(line, K).length === 0) out['held-out'].dayNothing++;
  }
  return out;
}

export function formatEnglishRows(rows: { system: string; scores: Scores }[]): string {
  const pct = (a: number, n: number) => (n === 0 ? '—' : `${((a / n) * 100).toFixed(1)}%`);
  const lines = ['| system | half | hit@5 | found by this Engram mode alone | answerable → nothing | chatter → nothing | small talk of the day → nothing | questions / chatter |', '|---|---|---|---|---|---|---|---|'];
  for (const r of rows)
    for (const half of HALVES) {
      const s = r.scores[half];
      const only = r.system.startsWith('engram') ? String(s.only) : '—';
      lines.push(`| ${r.system} | ${half} | ${(s.hits / s.questions).toFixed(3)} | ${only} | ${pct(s.nothing, s.questions)} | ${pct(s.chatterNothing, s.chatter)} | ${pct(s.dayNothing, s.day)} | ${s.questions} / ${s.chatter}${s.day ? ` + ${s.day}` : ''} |`);
    }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const extra = process.env.ENGRAM_EVAL_OPTIONS ? (JSON.parse(process.env.ENGRAM_EVAL_OPTIONS) as Record<string, unknown>) : {};
  const modelData = process.env.ENGLISH_MODEL === 'none' ? null : modelDataDir();
  if (process.env.ENGLISH_MODEL !== 'none' && !modelData) console.error('english: no installed model (engram model install); lexical only');
  const set = loadEnglishSet();
  const rows: { system: string; scores: Scores }[] = [];
  const engram = await engramScores(set, modelData, extra);
  for (const [mode, scores] of engram) rows.push({ system: mode === 'hybrid' ? 'engram, model on' : 'engram, lexical alone', scores });
  for (const b of BASELINES) rows.push({ system: b.name, scores: baselineScores(set, b.analyse) });
  console.log(`English set: ${set.notes.length} notes, ${set.questions.length} questions, ${set.chatter.length} chatter lines (${set.source})\n`);
  console.log(formatEnglishRows(rows));
}
