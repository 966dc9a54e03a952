// Runs every CMRC dev question through the real engine once and records, per query, what the
// hybrid gate sees for each candidate (its evidence) plus the lexical-only answer, so the gate can
// be fitted and tested on held-out halves without re-embedding (bench/fit-gate.ts).
//
//   ENGRAM_EMBEDDING_PROVIDER=local ENGRAM_EMBEDDING_MODEL_DIR=<model> \
//   nice -n 10 node --import tsx packages/engine/bench/semantic-dump.ts OUT.jsonl [CACHE_DIR]
//
// CACHE_DIR keeps the diaries and the database (vectors) between runs: a second run embeds nothing.
// ENGRAM_EVAL_LIMIT=N uses the first N paragraphs. Halves: paragraph index parity (one article each).
// ENGRAM_DUMP_IN_EVERY=N keeps every Nth in-corpus question (all out-of-corpus ones and chatter), for a
// shorter run on a loaded machine. The defaults' hybrid answer is not recalled separately: fit-gate.ts
// replays it from the evidence with the default weights.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import type { RecallResult } from '../src/recall/types.ts';
import { CHATTER_QUERIES, HELD_OUT_CHATTER } from './chatter.ts';
import { loadCmrc, splitCorpus, writeDiaries } from './eval-cmrc.ts';

export interface DumpCandidate {
  docId: string;
  /** The lexical-only recall's rule gates (distinctive term, coverage, specificity) let it through. */
  lexicalPass: boolean;
  path: string;
  lexRank: number | null;
  semRank: number | null;
  evidence: Record<string, number>;
}

export interface DumpRow {
  kind: 'in' | 'ooc' | 'chatter';
  half: 0 | 1;
  query: string;
  /** Diary path of the gold paragraph (in-corpus questions). */
  gold: string | null;
  /** A query-level gate removed everything (no distinctive term, too vague). */
  blocked: string | null;
  candidates: DumpCandidate[];
  lexical: { goldRank: number | null; empty: boolean };
  ms: { lexical: number; hybrid: number; semantic: number };
}

const [out, cacheArg] = process.argv.slice(2);
if (!out) throw new Error('usage: semantic-dump.ts OUT.jsonl [CACHE_DIR]');
let paragraphs = loadCmrc();
if (process.env.ENGRAM_EVAL_LIMIT) paragraphs = paragraphs.slice(0, Number(process.env.ENGRAM_EVAL_LIMIT));
const halfOf = new Map(paragraphs.map((p, i) => [p.id, (i % 2) as 0 | 1]));
const { indexed, held } = splitCorpus(paragraphs);
const work = cacheArg ?? mkdtempSync(join(tmpdir(), 'engram-dump-'));
const diaryDir = join(work, 'diaries');
if (!existsSync(diaryDir)) mkdirSync(diaryDir, { recursive: true });
const paths = writeDiaries(diaryDir, indexed);
const env: Record<string, string> = { HOME: work };
for (const [k, v] of Object.entries(process.env)) if (k.startsWith('ENGRAM_EMBEDDING_') && v) env[k] = v;
const engine = await openEngine({
  options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true } },
  env,
  syncOnOpen: false,
  now: () => new Date('2026-11-01T00:00:00'),
});
const t0 = performance.now();
const report = await engine.index({ full: true });
const indexMs = performance.now() - t0;
process.stderr.write(`indexed ${report.chunks} chunks in ${(indexMs / 1000).toFixed(1)} s; semantic: ${JSON.stringify(report.semantic)}\n`);
if (engine.semantic?.status().state !== 'ready') throw new Error(`semantic channel not ready: ${engine.semantic?.status().reason}`);

const rankOf = (r: RecallResult, gold: string | null) => {
  if (!gold) return null;
  const at = r.hits.findIndex((h) => h.path === gold);
  return at >= 0 ? at + 1 : null;
};

const inEvery = Math.max(1, Number(process.env.ENGRAM_DUMP_IN_EVERY ?? 1));
const queries: { kind: DumpRow['kind']; half: 0 | 1; query: string; gold: string | null }[] = [
  ...indexed
    .flatMap((p) => p.qas.map((q) => ({ kind: 'in' as const, half: halfOf.get(p.id) as 0 | 1, query: q.question, gold: paths.get(p.id) ?? null })))
    .filter((_, i) => i % inEvery === 0),
  ...held.flatMap((p) => p.qas.map((q) => ({ kind: 'ooc' as const, half: halfOf.get(p.id) as 0 | 1, query: q.question, gold: null }))),
  ...[...CHATTER_QUERIES, ...HELD_OUT_CHATTER].map((q, i) => ({ kind: 'chatter' as const, half: (i % 2) as 0 | 1, query: q, gold: null })),
];
const lines: string[] = [];
// Threshold above 1: the hybrid gate removes every candidate, so each one is listed with its evidence.
const dumpConfig = { ...engine.config, recall: { ...engine.config.recall, hybridGate: { ...engine.config.recall.hybridGate, threshold: 1.01, veto: 1.01 } } };
const defaults = engine.config;
let done = 0;
for (const q of queries) {
  let t = performance.now();
  const lexical = await engine.recall(q.query, { k: 5, only: 'lexical' });
  const lexMs = performance.now() - t;
  t = performance.now();
  (engine as unknown as { config: typeof defaults }).config = dumpConfig;
  const dump = await engine.recall(q.query, { k: 5 });
  (engine as unknown as { config: typeof defaults }).config = defaults;
  const hybMs = performance.now() - t;
  const lexRemoved = new Set(lexical.explain.gate.removals.map((r) => r.chunkId));
  const blocked = dump.explain.gate.removals.find((r) => r.gate === 'no-distinctive-query' || r.gate === 'vague-query')?.gate ?? (dump.explain.gate.noDistinctiveTokens ? 'no-distinctive-query' : null);
  const cands: DumpCandidate[] = dump.explain.gate.removals
    .filter((r) => r.evidence)
    .map((r) => ({
      docId: r.docId,
      lexicalPass: Boolean(r.evidence?.lexInvRank) && !lexRemoved.has(r.chunkId),
      path: engine.live.docs.get(r.docId)?.path ?? '',
      lexRank: r.evidence?.lexInvRank ? Math.round(1 / r.evidence.lexInvRank) : null,
      semRank: r.evidence?.semInvRank ? Math.round(1 / r.evidence.semInvRank) : null,
      evidence: r.evidence as unknown as Record<string, number>,
    }));
  const row: DumpRow = {
    ...q,
    blocked,
    candidates: cands,
    lexical: { goldRank: rankOf(lexical, q.gold), empty: lexical.hits.length === 0 },
    ms: { lexical: lexMs, hybrid: hybMs, semantic: dump.timing.semanticMs },
  };
  lines.push(JSON.stringify(row));
  if (++done % 500 === 0) process.stderr.write(`${done}/${queries.length}\n`);
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stderr.write(`wrote ${lines.length} queries to ${out}\n`);
engine.close();
if (!cacheArg) rmSync(work, { recursive: true, force: true });
