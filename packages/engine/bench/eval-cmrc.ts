// Retrieval evaluation on CMRC 2018 (dev): 70 % of the paragraphs become diaries; questions about
// them measure recall, questions about the other 30 % (and chatter) measure "inject nothing".
// Run: npm run eval  (ENGRAM_EVAL_LIMIT=N for a quicker partial run)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { LexicalIndex } from '../src/lexical/bm25.ts';
import { createTokenizer } from '../src/text/tokenize.ts';
import { CHATTER_QUERIES, HELD_OUT_CHATTER } from './chatter.ts';

interface Paragraph {
  id: string;
  context: string;
  qas: { id: string; question: string }[];
}

export interface EvalRow {
  system: string;
  r1: number;
  r5: number;
  mrr: number;
  oocNothing: number;
  chatterNothing: number;
  heldOutChatterNothing: number;
  queries: number;
  msPerQuery: number;
}

const datasetPath = resolve(new URL('.', import.meta.url).pathname, '../../../../shared/datasets/cmrc2018/cmrc2018_dev.json');

export function loadCmrc(path = datasetPath): Paragraph[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { data: { paragraphs: Paragraph[] }[] };
  return raw.data.flatMap((a) => a.paragraphs);
}

/** Deterministic 70/30 split by paragraph position. */
export function splitCorpus(paragraphs: Paragraph[]) {
  const indexed = paragraphs.filter((_, i) => i % 10 < 7);
  const held = paragraphs.filter((_, i) => i % 10 >= 7);
  return { indexed, held };
}

/** A diary title like a person would write: the paragraph's opening phrase. */
export function titleOf(context: string): string {
  const first = context.split(/[，。,（(；;：:]/)[0] ?? context;
  return first.replace(/[《》「」“”"]/g, '').slice(0, 24).trim() || context.slice(0, 12);
}

export function writeDiaries(dir: string, paragraphs: Paragraph[]): Map<string, string> {
  const pathOf = new Map<string, string>();
  paragraphs.forEach((p, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    const name = `2026-10-${day}-${p.id}.txt`;
    writeFileSync(join(dir, name), `[09:00] ${titleOf(p.context)}\n\n${p.context}\n`);
    pathOf.set(p.id, name);
  });
  return pathOf;
}

function score(ranks: (number | null)[]) {
  const n = ranks.length || 1;
  return {
    r1: ranks.filter((r) => r !== null && r <= 1).length / n,
    r5: ranks.filter((r) => r !== null && r <= 5).length / n,
    mrr: ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / n,
  };
}

/** Character 1+2-gram BM25 with no gates: the baseline every change is compared with. */
function baseline(indexed: Paragraph[], held: Paragraph[], questions: { q: string; gold: string }[]): EvalRow {
  const gram = createTokenizer({ kind: 'gram' });
  const index = new LexicalIndex({ k1: 1.2, b: 0.75, fieldWeights: { title: 1, summary: 1, tags: 1, body: 1 }, singleCharWeight: 1 });
  for (const p of indexed) index.add({ chunkId: p.id, docId: p.id, fields: { title: [], summary: [], tags: [], body: gram.tokenize(p.context) } });
  const t0 = performance.now();
  const ranks = questions.map(({ q, gold }) => {
    const hits = index.search(gram.tokenize(q), 5);
    const at = hits.findIndex((h) => h.docId === gold);
    return at >= 0 ? at + 1 : null;
  });
  const oocQs = held.flatMap((p) => p.qas.map((x) => x.question));
  const ooc = oocQs.filter((q) => index.search(gram.tokenize(q), 5).length === 0).length / (oocQs.length || 1);
  const nothing = (qs: string[]) => qs.filter((q) => index.search(gram.tokenize(q), 5).length === 0).length / qs.length;
  const count = questions.length + oocQs.length + CHATTER_QUERIES.length + HELD_OUT_CHATTER.length;
  return { system: 'baseline: char 1+2-gram BM25, no gates', ...score(ranks), oocNothing: ooc, chatterNothing: nothing(CHATTER_QUERIES), heldOutChatterNothing: nothing(HELD_OUT_CHATTER), queries: count, msPerQuery: (performance.now() - t0) / count };
}

export async function runEval(opts: { limit?: number; options?: Record<string, unknown>; label?: string } = {}): Promise<EvalRow[]> {
  let paragraphs = loadCmrc();
  if (opts.limit) paragraphs = paragraphs.slice(0, opts.limit);
  const { indexed, held } = splitCorpus(paragraphs);
  const work = mkdtempSync(join(tmpdir(), 'engram-eval-'));
  const diaryDir = join(work, 'diaries');
  mkdirSync(diaryDir);
  writeDiaries(diaryDir, indexed);
  const questions = indexed.flatMap((p) => p.qas.map((x) => ({ q: x.question, gold: p.id })));
  const rows: EvalRow[] = [baseline(indexed, held, questions)];
  const engine = await openEngine({
    options: { diaryDir, dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, ...opts.options },
    env: { HOME: work, ...pickEmbeddingEnv() },
    syncOnOpen: false,
    now: () => new Date('2026-11-01T00:00:00'),
  });
  try {
    await engine.index({ full: true });
    const goldPath = new Map(indexed.map((p, i) => [p.id, writeName(p, i)]));
    const t0 = performance.now();
    const ranks: (number | null)[] = [];
    for (const { q, gold } of questions) {
      const r = await engine.recall(q, { k: 5 });
      const at = r.hits.findIndex((h) => h.path === goldPath.get(gold));
      ranks.push(at >= 0 ? at + 1 : null);
    }
    let oocNothing = 0;
    const oocQs = held.flatMap((p) => p.qas.map((x) => x.question));
    for (const q of oocQs) if ((await engine.recall(q)).hits.length === 0) oocNothing += 1;
    let chatNothing = 0;
    for (const q of CHATTER_QUERIES) if ((await engine.recall(q)).hits.length === 0) chatNothing += 1;
    let heldOutNothing = 0;
    for (const q of HELD_OUT_CHATTER) if ((await engine.recall(q)).hits.length === 0) heldOutNothing += 1;
    const count = questions.length + oocQs.length + CHATTER_QUERIES.length + HELD_OUT_CHATTER.length;
    // A semantic port without a model (provider auto, nothing installed) recalls lexically.
    const sem = engine.semantic?.status().state === 'ready' ? 'hybrid' : 'lexical';
    if (sem === 'lexical' && engine.semantic && engine.config.embedding.provider !== 'none' && !opts.label) console.error(`eval: the semantic channel is not ready (${engine.semantic.status().reason ?? engine.semantic.status().state}), so this row is lexical — install the model (engram model install) or point ENGRAM_MODEL_CACHE at it`);
    rows.push({
      system: opts.label ?? `engram ${sem} (${engine.tokenizer.engine}, gates on)`,
      ...score(ranks),
      oocNothing: oocNothing / (oocQs.length || 1),
      chatterNothing: chatNothing / CHATTER_QUERIES.length,
      heldOutChatterNothing: heldOutNothing / HELD_OUT_CHATTER.length,
      queries: count,
      msPerQuery: (performance.now() - t0) / count,
    });
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

function writeName(p: Paragraph, i: number) {
  return `2026-10-${String((i % 28) + 1).padStart(2, '0')}-${p.id}.txt`;
}

function pickEmbeddingEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('ENGRAM_EMBEDDING_') && v) out[k] = v;
  return out;
}

export function formatTable(rows: EvalRow[]): string {
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const lines = [
    '| system | R@1 | R@5 | MRR | out-of-corpus → nothing | chatter → nothing (tuned on) | chatter → nothing (held out) | queries | ms/query |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.system} | ${r.r1.toFixed(3)} | ${r.r5.toFixed(3)} | ${r.mrr.toFixed(3)} | ${pct(r.oocNothing)} | ${pct(r.chatterNothing)} | ${pct(r.heldOutChatterNothing)} | ${r.queries} | ${r.msPerQuery.toFixed(2)} |`),
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const limit = process.env.ENGRAM_EVAL_LIMIT ? Number(process.env.ENGRAM_EVAL_LIMIT) : undefined;
  const options = process.env.ENGRAM_EVAL_OPTIONS ? (JSON.parse(process.env.ENGRAM_EVAL_OPTIONS) as Record<string, unknown>) : undefined;
  const rows = await runEval({ limit, options });
  if (process.env.ENGRAM_EVAL_FAKE_EMBEDDER === '1' && !process.env.ENGRAM_EMBEDDING_PROVIDER) {
    // The hybrid path end to end against the deterministic test embedder (character bigrams hashed
    // into 256 dims): it exercises the machinery, it is not a language model. Its cosines live on
    // another scale, hence the lower minSemantic.
    const { startFakeEmbedder } = await import('../test/semantic/fake-embedder.ts');
    const server = await startFakeEmbedder({ dims: 256 });
    try {
      const hybrid = await runEval({
        limit,
        label: 'engram hybrid (jieba + deterministic test embedder, gates on)',
        options: { ...options, embedding: { provider: 'openai', baseUrl: server.url, model: 'fake-bigram-256', dimensions: 256, minIntervalMs: 0, batchSize: 64 }, recall: { minSemantic: 0.2, ...((options?.recall as object) ?? {}) } },
      });
      rows.push(hybrid[1]!);
    } finally {
      await server.close();
    }
  }
  console.log(formatTable(rows));
}
