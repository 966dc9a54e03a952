// Candidate query-level features for "does the corpus answer this question at all?", added to a
// dump from bench/semantic-dump.ts (as `queryExtra` on each row) so bench/fit-gate.ts can try them
// (FIT_QUERY_EXTRA=name,name …) on held-out halves. Lexical only (no model): the query's words,
// their general-language weights (as coverage weighs them) and whether each occurs in the corpus
// and in the best candidates' text.
//
//   node --import tsx packages/engine/bench/ooc-query-features.ts DUMP.jsonl CACHE_DIR OUT.jsonl
//
// CACHE_DIR is the dump's (diaries + data). The gold paragraph's article is never looked at.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { backgroundIdfTable, UNKNOWN_WORD_IDF } from '../src/recall/background-idf.ts';
import { probability, type Evidence } from '../src/recall/hybrid-gate.ts';
import { queryWeights } from '../src/recall/scoring.ts';
import type { DumpRow } from './semantic-dump.ts';

const [dumpFile, cacheDir, outFile] = process.argv.slice(2);
if (!dumpFile || !cacheDir || !outFile) throw new Error('usage: ooc-query-features.ts DUMP.jsonl CACHE_DIR OUT.jsonl');
const rows = readFileSync(dumpFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as DumpRow & { queryExtra?: Record<string, number> });
const diaryDir = join(cacheDir, 'diaries');
const engine = await openEngine({
  options: { diaryDir, dataDir: join(cacheDir, 'data'), diary: { requireTag: false, timePrefix: true } },
  env: { HOME: cacheDir, ENGRAM_EMBEDDING_PROVIDER: 'none' },
  syncOnOpen: false,
  now: () => new Date('2026-11-01T00:00:00'),
});
const lexSize = (engine as unknown as { live: { lexical: { size: number } } }).live.lexical.size;
const textCache = new Map<string, string>();
const textOf = (path: string) => {
  let t = textCache.get(path);
  if (t === undefined) {
    t = readFileSync(join(diaryDir, path), 'utf8').toLowerCase();
    textCache.set(path, t);
  }
  return t;
};
const ceiling = Math.log(1 + (Math.max(1, lexSize) - 0.5) / 1.5);
const SPECIFIC = /[0-9a-z]|[《「『“]/i;

let done = 0;
for (const r of rows) {
  const res = await engine.recall(r.query, { k: 5, only: 'lexical' });
  const tokens = res.tokens.filter((t) => !t.fromAlias);
  const weights = queryWeights(tokens, backgroundIdfTable(), UNKNOWN_WORD_IDF, ceiling);
  const inCorpus = new Map(tokens.map((t) => [t.token, t.idf > 0]));
  let total = 0;
  let absent = 0;
  for (const [t, w] of weights) {
    total += w;
    if (!inCorpus.get(t)) absent += w;
  }
  total ||= 1;
  const present = [...weights].filter(([t]) => inCorpus.get(t));
  const presentW = present.reduce((n, [, w]) => n + w, 0) || 1;
  // The query's rarest word the corpus has (highest corpus IDF), and its numbers / Latin words.
  const byIdf = tokens.filter((t) => weights.has(t.token) && t.idf > 0).sort((a, b) => b.idf - a.idf);
  const rarest = byIdf[0]?.token.toLowerCase() ?? null;
  const specific = [...weights.keys()].filter((t) => SPECIFIC.test(t)).map((t) => t.toLowerCase());
  const cands = [...r.candidates].map((c) => ({ c, p: probability(c.evidence as unknown as Evidence) })).sort((a, b) => b.p - a.p);
  const best = cands[0]?.c;
  const contains = (path: string | undefined, t: string) => (path ? textOf(path).includes(t) : false);
  const presentCover = (path: string | undefined) => (path ? present.reduce((n, [t, w]) => n + (textOf(path).includes(t.toLowerCase()) ? w : 0), 0) / presentW : 0);
  const lexTop = r.candidates.find((c) => c.lexRank === 1)?.path;
  const semTop = r.candidates.find((c) => c.semRank === 1)?.path;
  const top3 = cands.slice(0, 3).map((x) => x.c.path);
  r.queryExtra = {
    absentShare: absent / total,
    bestPresentCover: presentCover(best?.path),
    maxPresentCover: Math.max(0, ...top3.map(presentCover)),
    rarestInBest: rarest ? (contains(best?.path, rarest) ? 1 : 0) : 1,
    rarestInTop3: rarest ? (top3.some((p) => contains(p, rarest)) ? 1 : 0) : 1,
    specificMissBest: specific.length > 0 ? specific.filter((t) => !contains(best?.path, t)).length / specific.length : 0,
    specificAbsent: specific.length > 0 ? specific.filter((t) => !inCorpus.get(t)).length / specific.length : 0,
    agree: lexTop && semTop ? (lexTop === semTop ? 1 : 0) : 0,
    // The same chunk is first in both channels (what the engine's evidence shows: lexInvRank = semInvRank = 1).
    agreeChunk: r.candidates.some((c) => c.lexRank === 1 && c.semRank === 1) ? 1 : 0,
    semTopIsBest: semTop && best ? (semTop === best.path ? 1 : 0) : 0,
  };
  if (++done % 500 === 0) process.stderr.write(`${done}/${rows.length}\n`);
}
engine.close();
writeFileSync(outFile, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
process.stderr.write(`wrote ${rows.length} rows to ${outFile}\n`);
