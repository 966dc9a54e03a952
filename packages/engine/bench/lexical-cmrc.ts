// Lexical retrieval sanity check on CMRC 2018 dev: one paragraph = one chunk (body only), each
// question is a query whose gold chunk is its paragraph. Compares tokenizers and single-char weights.
//   node --import tsx packages/engine/bench/lexical-cmrc.ts [path/to/cmrc2018_dev.json]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LexicalIndex, type LexicalOptions } from '../src/lexical/bm25.ts';
import { chunkText, type ChunkOptions } from '../src/text/chunk.ts';
import { createTokenizer, type TokenizerOptions } from '../src/text/tokenize.ts';

export const DEFAULT_CMRC_PATH = '/work/shared/datasets/cmrc2018/cmrc2018_dev.json';

export interface CmrcCorpus {
  paragraphs: { id: string; context: string }[];
  questions: { question: string; paragraphId: string }[];
}

export function loadCmrc(path = DEFAULT_CMRC_PATH): CmrcCorpus {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as {
    data: { paragraphs: { id: string; context: string; qas: { question: string }[] }[] }[];
  };
  const corpus: CmrcCorpus = { paragraphs: [], questions: [] };
  for (const article of raw.data) {
    for (const paragraph of article.paragraphs) {
      corpus.paragraphs.push({ id: paragraph.id, context: paragraph.context });
      for (const qa of paragraph.qas) corpus.questions.push({ question: qa.question, paragraphId: paragraph.id });
    }
  }
  return corpus;
}

export interface CmrcVariant {
  name: string;
  tokenizer: TokenizerOptions;
  singleCharWeight: number;
}

export interface CmrcRow {
  variant: string;
  engine: string;
  vocabulary: number;
  tokensPerParagraph: number;
  recallAt1: number;
  recallAt5: number;
  mrrAt10: number;
  tokenizeMs: number;
}

const baseOptions: Omit<LexicalOptions, 'singleCharWeight'> = {
  k1: 1.2,
  b: 0.75,
  fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 },
};

/**
 * `chunk` = null indexes whole paragraphs; otherwise paragraphs are cut with chunkText and a query
 * counts as found at the rank of the first chunk of its paragraph (chunks of one paragraph collapsed).
 */
export function evaluateVariant(corpus: CmrcCorpus, variant: CmrcVariant, chunk: ChunkOptions | null = null): CmrcRow {
  const tokenizer = createTokenizer(variant.tokenizer);
  const pieces = corpus.paragraphs.flatMap((p) => {
    const texts = chunk ? chunkText(p.context, chunk).map((c) => c.text) : [p.context];
    return texts.map((text, ord) => ({ docId: p.id, chunkId: `${p.id}#${ord}`, text }));
  });
  const started = performance.now();
  const bodies = pieces.map((p) => tokenizer.tokenize(p.text));
  const tokenizeMs = performance.now() - started;
  const index = new LexicalIndex({ ...baseOptions, singleCharWeight: variant.singleCharWeight });
  const vocabulary = new Set<string>();
  pieces.forEach((p, i) => {
    const body = bodies[i]!;
    for (const token of body) vocabulary.add(token);
    index.add({ chunkId: p.chunkId, docId: p.docId, fields: { title: [], summary: [], tags: [], body } });
  });
  let at1 = 0;
  let at5 = 0;
  let reciprocal = 0;
  for (const q of corpus.questions) {
    const docs = [...new Set(index.search(tokenizer.tokenize(q.question), 30).map((hit) => hit.docId))];
    const rank = docs.slice(0, 10).indexOf(q.paragraphId) + 1;
    if (rank === 1) at1++;
    if (rank >= 1 && rank <= 5) at5++;
    if (rank >= 1) reciprocal += 1 / rank;
  }
  const n = corpus.questions.length;
  return {
    variant: variant.name,
    engine: tokenizer.engine,
    vocabulary: vocabulary.size,
    tokensPerParagraph: Math.round(bodies.reduce((sum, b) => sum + b.length, 0) / corpus.paragraphs.length),
    recallAt1: at1 / n,
    recallAt5: at5 / n,
    mrrAt10: reciprocal / n,
    tokenizeMs: Math.round(tokenizeMs),
  };
}

/** The first row is the default tokenizer (jieba cut, no HMM, single-character-run bigrams). */
const variant = (name: string, tokenizer: TokenizerOptions, singleCharWeight = 0.15): CmrcVariant => ({
  name,
  tokenizer,
  singleCharWeight,
});

export const CMRC_VARIANTS: CmrcVariant[] = [
  variant('jieba cut (default)', { kind: 'jieba' }),
  variant('jieba cutForSearch', { kind: 'jieba', jiebaMode: 'search' }),
  variant('jieba cut, hmm', { kind: 'jieba', hmm: true }),
  variant('jieba cutForSearch, hmm', { kind: 'jieba', jiebaMode: 'search', hmm: true }),
  variant('jieba cut, hmm, no run bigrams', { kind: 'jieba', hmm: true, singleRunBigrams: false }),
  variant('jieba cutForSearch, hmm, no run bigrams', { kind: 'jieba', jiebaMode: 'search', hmm: true, singleRunBigrams: false }),
  variant('jieba cut, no run bigrams', { kind: 'jieba', singleRunBigrams: false }),
  variant('gram', { kind: 'gram' }),
  variant('jieba cut (default), single 1', { kind: 'jieba' }, 1),
  variant('jieba cut (default), single 0', { kind: 'jieba' }, 0),
  variant('gram, single 1', { kind: 'gram' }, 1),
  variant('gram, single 0', { kind: 'gram' }, 0),
];

export function runLexicalCmrc(
  path = DEFAULT_CMRC_PATH,
  variants = CMRC_VARIANTS,
  chunk: ChunkOptions | null = null,
): CmrcRow[] {
  const corpus = loadCmrc(path);
  return variants.map((variant) => evaluateVariant(corpus, variant, chunk));
}

/** Whole paragraphs, then paragraphs cut into small chunks (harder: the answer spans less text). */
export const CMRC_CHUNKINGS: (ChunkOptions | null)[] = [null, { size: 120, overlap: 20 }];

function printRows(rows: CmrcRow[]): void {
  console.table(
    rows.map((r) => ({
      variant: r.variant,
      vocab: r.vocabulary,
      'tok/para': r.tokensPerParagraph,
      'R@1': r.recallAt1.toFixed(3),
      'R@5': r.recallAt5.toFixed(3),
      'MRR@10': r.mrrAt10.toFixed(3),
      'tokenize ms': r.tokenizeMs,
    })),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const corpus = loadCmrc(process.argv[2] ?? DEFAULT_CMRC_PATH);
  console.log(`CMRC 2018 dev: ${corpus.paragraphs.length} paragraphs, ${corpus.questions.length} questions`);
  for (const chunk of CMRC_CHUNKINGS) {
    console.log(chunk ? `chunks of ${chunk.size} (overlap ${chunk.overlap}), ranked by paragraph` : 'one chunk per paragraph');
    printRows(CMRC_VARIANTS.map((variant) => evaluateVariant(corpus, variant, chunk)));
  }
}
