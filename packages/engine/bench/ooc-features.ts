// Analysis: per-candidate features for in-corpus vs out-of-corpus CMRC questions (not a test).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { loadCmrc, splitCorpus } from './eval-cmrc.ts';
import { backgroundIdfTable, UNKNOWN_WORD_IDF } from '../src/recall/background-idf.ts';

const paragraphs = process.env.LIMIT ? loadCmrc().slice(0, Number(process.env.LIMIT)) : loadCmrc();
const { indexed, held } = splitCorpus(paragraphs);
const work = mkdtempSync(join(tmpdir(), 'engram-ooc-'));
const diaryDir = join(work, 'diaries');
mkdirSync(diaryDir);
const titleOf = (c: string) => (c.split(/[，。,（(；;：:]/)[0] ?? c).slice(0, 30);
const name = (p: { id: string }, i: number) => `2026-10-${String((i % 28) + 1).padStart(2, '0')}-${p.id}.txt`;
indexed.forEach((p, i) => writeFileSync(join(diaryDir, name(p, i)), `[09:00] ${titleOf(p.context)}\n\n${p.context}\n`));
const engine = await openEngine({
  options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, recall: { minCoverage: 0, kMax: 10, kMin: 10 } },
  env: { HOME: work }, syncOnOpen: false, now: () => new Date('2026-11-01T00:00:00'),
});
await engine.index({ full: true });
const lex = (engine as unknown as { live: { lexical: { documentFrequencyOf(t: string): number; idf(t: string): number; size: number } } }).live.lexical;
const bg = backgroundIdfTable();
const goldPath = new Map(indexed.map((p, i) => [p.id, name(p, i)]));
const out: unknown[] = [];
const maxIdf = Math.log(1 + (lex.size - 1 + 0.5) / 1.5);
async function run(q: string, gold: string | null) {
  const r = await engine.recall(q, { k: 10 });
  const toks = r.tokens.filter((t) => !t.fromAlias && !/^[\u4e00-\u9fff]$/.test(t.token)).map((t) => ({ t: t.token, w: bg?.get(t.token) ?? UNKNOWN_WORD_IDF, df: lex.documentFrequencyOf(t.token), idf: lex.idf(t.token) }));
  out.push({ q, gold: gold !== null, toks, maxIdf, hits: r.hits.map((h) => ({ isGold: gold !== null && h.path === goldPath.get(gold), cov: h.coverage, score: h.score, lex: h.channels.lexical?.score ?? 0, matched: h.matched.map((m) => m.token) })) });
}
for (const p of indexed) for (const x of p.qas) await run(x.question, p.id);
for (const p of held) for (const x of p.qas) await run(x.question, null);
const outFile = process.env.OUT ?? '/tmp/ooc/features.json';
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(out));
engine.close();
console.log('done', out.length);
