// Lexical index benchmark on synthetic chunks built from real Chinese sentences (CMRC 2018 dev).
//   node --import tsx --expose-gc packages/engine/bench/lexical.ts [sizes, e.g. 1000,10000,100000]
// Sentences are tokenized once and chunks are assembled from their tokens, so build time measures
// the index, not jieba; tokenizer throughput is reported on its own line.
import { pathToFileURL } from 'node:url';
import { LexicalIndex, type LexicalEntry } from '../src/lexical/bm25.ts';
import { createTokenizer } from '../src/text/tokenize.ts';
import { loadCmrc } from './lexical-cmrc.ts';

export interface LexicalBenchRow {
  chunks: number;
  buildMs: number;
  chunksPerSecond: number;
  queryP50Ms: number;
  queryP95Ms: number;
  /** Resident set size after building (whole process, includes the jieba dictionary). */
  rssMb: number;
  /** Typed-array memory of the index (postings, per-chunk data), as the index counts it. */
  typedArraysMb: number;
  /** JS heap growth (term dictionary, chunk ids), after GC. */
  heapMb: number;
  /** Removing 1% of the chunks, one by one. */
  remove1PctMs: number;
}

const QUERY_COUNT = 200;
const LIMIT = 30;
/** Average synthetic chunk length in characters (the default chunk size is 800). */
const CHUNK_CHARS = 400;

interface Corpus {
  sentences: string[][];
  sentenceChars: number[];
  queries: string[][];
  tokenizerCharsPerSecond: number;
}

function prepareCorpus(): Corpus {
  const cmrc = loadCmrc();
  const tokenizer = createTokenizer({ kind: 'auto' });
  const texts = cmrc.paragraphs.flatMap((p) => p.context.split(/(?<=[。！？])/u)).filter((s) => s.trim().length > 4);
  const started = performance.now();
  const sentences = texts.map((text) => tokenizer.tokenize(text));
  const seconds = (performance.now() - started) / 1000;
  const chars = texts.reduce((sum, t) => sum + t.length, 0);
  const rng = mulberry32(7);
  const questions = cmrc.questions.map((q) => q.question);
  const queries = Array.from({ length: QUERY_COUNT }, () => tokenizer.tokenize(questions[Math.floor(rng() * questions.length)]!));
  return { sentences, sentenceChars: texts.map((t) => t.length), queries, tokenizerCharsPerSecond: chars / seconds };
}

/** Assembles synthetic chunk `i` from random real sentences (deterministic per size and index). */
function syntheticEntryMaker(corpus: Corpus, count: number): (i: number) => LexicalEntry {
  const rng = mulberry32(count);
  const pick = () => Math.floor(rng() * corpus.sentences.length);
  return (i) => {
    const body: string[] = [];
    let chars = 0;
    const target = CHUNK_CHARS * (0.5 + rng());
    while (chars < target) {
      const s = pick();
      for (const token of corpus.sentences[s]!) body.push(token);
      chars += corpus.sentenceChars[s]!;
    }
    const title = corpus.sentences[pick()]!.slice(0, 4);
    const tags = [body[Math.floor(rng() * body.length)] ?? '标签'];
    return { chunkId: `c${i}`, docId: `d${Math.floor(i / 4)}`, fields: { title, summary: [], tags, body } };
  };
}

function benchSize(corpus: Corpus, count: number): LexicalBenchRow {
  const makeEntry = syntheticEntryMaker(corpus, count);
  collectGarbage();
  const before = process.memoryUsage();
  const index = new LexicalIndex({
    k1: 1.2,
    b: 0.75,
    fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 },
    singleCharWeight: 0.15,
  });
  // Entries are assembled inside the timed loop, as a loader streaming rows from the database
  // would; assembling costs a small fraction of adding.
  const started = performance.now();
  for (let i = 0; i < count; i++) index.add(makeEntry(i));
  index.finishBulkAdd();
  const buildMs = performance.now() - started;
  collectGarbage();
  const after = process.memoryUsage();

  for (const query of corpus.queries.slice(0, 20)) index.search(query, LIMIT); // warm-up
  const times = corpus.queries.map((query) => {
    const t = performance.now();
    index.search(query, LIMIT);
    return performance.now() - t;
  });
  times.sort((a, b) => a - b);

  const removeStarted = performance.now();
  for (let i = 0; i < count; i += 100) index.remove(`c${i}`);
  const remove1PctMs = performance.now() - removeStarted;

  return {
    chunks: count,
    buildMs: round(buildMs),
    chunksPerSecond: Math.round(count / (buildMs / 1000)),
    queryP50Ms: round(percentile(times, 0.5), 3),
    queryP95Ms: round(percentile(times, 0.95), 3),
    rssMb: round(after.rss / 2 ** 20),
    // Counted by the index: process.memoryUsage().arrayBuffers lags, freed buffers are swept concurrently.
    typedArraysMb: round(index.memoryBytes() / 2 ** 20),
    heapMb: round((after.heapUsed - before.heapUsed) / 2 ** 20),
    remove1PctMs: round(remove1PctMs, 2),
  };
}

/** Builds an index per size (ascending is best: earlier indexes are released before the next). */
export function runLexicalBench(sizes: readonly number[] = [1000, 10_000, 100_000]): LexicalBenchRow[] {
  const corpus = prepareCorpus();
  return sizes.map((size) => benchSize(corpus, size));
}

export function formatBenchTable(rows: LexicalBenchRow[]): string {
  return [
    '| chunks (~400 chars) | build ms | chunks/s | query p50 / p95 ms | typed arrays MB | heap MB | remove 1 % ms | RSS MB |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.chunks} | ${r.buildMs} | ${r.chunksPerSecond} | ${r.queryP50Ms} / ${r.queryP95Ms} | ${r.typedArraysMb} | ${r.heapMb} | ${r.remove1PctMs} | ${r.rssMb} |`,
    ),
  ].join('\n');
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Small seeded PRNG so runs are comparable. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
  if (!(globalThis as { gc?: unknown }).gc) console.warn('run with --expose-gc for meaningful memory numbers');
  const corpus = prepareCorpus();
  console.log(
    `tokenizer (jieba cut): ${Math.round(corpus.tokenizerCharsPerSecond / 1000)}k chars/s; ` +
      `${corpus.sentences.length} sentences, ${QUERY_COUNT} queries, top-${LIMIT}, ~${CHUNK_CHARS} chars/chunk`,
  );
  console.table(sizes.map((size) => benchSize(corpus, size)));
}
