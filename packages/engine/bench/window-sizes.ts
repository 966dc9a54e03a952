// Model work per note for each way of cutting a chunk into model windows (issue 31, item 2): window
// size, overlap, and what is embedded (the memory's header lines + every body window, as the index
// does by default; the body's windows alone; header and body cut to the first window). Over a fixed
// sample of CMRC dev paragraphs as notes (chunked 800/120 as the index does, the title line as the
// header, as in the growth benchmark's notes), embedded the way the index hands them to the model
// (batches of `embedding.batchSize` 16 chunks, longest first). Per configuration: windows and padded
// tokens (rows × longest of every model run) per note, and CPU seconds per note (user + sys of all
// threads: what a machine shared with other work cannot hide), as the median over the rounds, each
// round running every configuration in turn, so each is paired with the 512/64 baseline in the same run.
// Recall for the same configurations comes from the growth benchmark (the command is printed).
//
//   npm run bench:windows [-- MODEL_DIR]
//   WINDOWS_NOTES=300       notes in the sample (the first N CMRC dev paragraphs)
//   WINDOWS_ROUNDS=2        rounds over every configuration (median per configuration)
//   WINDOWS_ONLY=a,b        only these configurations (names as printed; the default always runs)
//   WINDOWS_COUNT_ONLY=1    windows and tokens only, no model runs
//   WINDOWS_STORE=5k        the notes of that growth-benchmark store instead (growth-data.ts: 5,000 notes
//                           of CMRC paragraphs and distractors); wall seconds are printed beside CPU
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { embeddedText } from '../src/semantic/context.ts';
import { DEFAULT_WINDOWING, lengthBuckets, LocalEmbedder, DEFAULT_BATCH_TOKENS, DEFAULT_MAX_ROWS } from '../src/semantic/local-embedder.ts';
import { chunkText } from '../src/text/chunk.ts';
import { loadCmrc, titleOf } from './eval-cmrc.ts';
import { buildStore, cmrcSet, GROWTH_STORES } from './growth-data.ts';

export interface WindowConfig {
  name: string;
  tokens: number;
  overlap: number;
  embed: 'header+body' | 'body' | 'header+first-window';
}

const config = (tokens: number, overlap: number, embed: WindowConfig['embed']): WindowConfig => ({ name: `${tokens}/${overlap} ${embed}`, tokens, overlap, embed });

/** The first row (512/64, every window: the windowing before this bench) is the baseline every ratio is against; the product's default is marked. */
export const WINDOW_CONFIGS: WindowConfig[] = [
  config(512, 64, 'header+body'),
  config(512, 0, 'header+body'),
  config(256, 64, 'header+body'),
  config(256, 0, 'header+body'),
  config(128, 32, 'header+body'),
  config(128, 0, 'header+body'),
  config(64, 0, 'header+body'),
  config(512, 64, 'body'),
  config(512, 0, 'body'),
  config(512, 0, 'header+first-window'),
  config(256, 0, 'header+first-window'),
];

/** The config overlay the growth benchmark's ENGRAM_EVAL_OPTIONS takes for a configuration. */
export const evalOptionsOf = (c: WindowConfig) => ({ chunk: { windowTokens: c.tokens, windowOverlap: c.overlap, embed: c.embed } });

const CHUNK_BATCH = 16; // embedding.batchSize's default: the chunks the index hands the embedder at once

interface Note {
  header: string;
  chunks: string[];
}

function sampleNotes(n: number, store: string | undefined): Note[] {
  const chunked = (header: string, text: string): Note => ({ header, chunks: chunkText(text, { size: 800, overlap: 120 }).map((c) => c.text) });
  if (store) {
    const spec = GROWTH_STORES.find((s) => s.name === store);
    if (!spec) throw new Error(`no growth store named ${store} (${GROWTH_STORES.map((s) => s.name).join(', ')})`);
    return buildStore(cmrcSet(), spec).notes.map((n) => chunked(n.title, n.text));
  }
  return loadCmrc()
    .slice(0, n)
    .map((p) => ({ header: titleOf(p.context), chunks: chunkText(p.context, { size: 800, overlap: 120 }).map((c) => c.text) }));
}

/** The texts handed to the model for a configuration, in the index's batches (longest first). */
function batchesFor(notes: Note[], c: WindowConfig): string[][] {
  const texts = notes.flatMap((n) => n.chunks.map((body) => (c.embed === 'body' ? body : embeddedText(n.header, body))));
  texts.sort((a, b) => b.length - a.length);
  const out: string[][] = [];
  for (let i = 0; i < texts.length; i += CHUNK_BATCH) out.push(texts.slice(i, i + CHUNK_BATCH));
  return out;
}

interface Work {
  windows: number;
  paddedTokens: number;
  cpuS: number[];
  wallS: number[];
}

async function load(modelDir: string, c: WindowConfig): Promise<LocalEmbedder> {
  return LocalEmbedder.load(modelDir, { model: 'bge-small-zh-v1.5', windowTokens: c.tokens, windowOverlap: c.overlap, windows: c.embed === 'header+first-window' ? 'first' : 'all' });
}

/** Windows and padded tokens of every model run, as local-embedder.ts cuts and buckets them. */
function count(e: LocalEmbedder, batches: string[][]): { windows: number; paddedTokens: number } {
  let windows = 0;
  let paddedTokens = 0;
  for (const batch of batches) {
    const lengths = batch.flatMap((t) => e.windowsOf(t).map((w) => w.length));
    windows += lengths.length;
    for (const bucket of lengthBuckets(lengths, DEFAULT_BATCH_TOKENS, DEFAULT_MAX_ROWS)) paddedTokens += bucket.length * Math.max(...bucket.map((i) => lengths[i] as number));
  }
  return { windows, paddedTokens };
}

function defaultModelDir(): string {
  const root = process.env.ENGRAM_MODEL_CACHE ?? join(homedir(), '.cache/engram/models');
  return join(root, 'BAAI/bge-small-zh-v1.5');
}

const isDefault = (c: WindowConfig) => c.tokens === DEFAULT_WINDOWING.tokens && c.overlap === DEFAULT_WINDOWING.overlap && c.embed === 'header+body';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

if (import.meta.url === `file://${process.argv[1]}`) {
  const modelDir = process.argv[2] ?? defaultModelDir();
  if (!existsSync(join(modelDir, 'config.json'))) throw new Error(`no model at ${modelDir} (engram model install, or pass the model folder)`);
  const noteCount = Number(process.env.WINDOWS_NOTES ?? 300);
  const rounds = Math.max(1, Number(process.env.WINDOWS_ROUNDS ?? 2));
  const only = process.env.WINDOWS_ONLY ? new Set(process.env.WINDOWS_ONLY.split(',').map((s) => s.trim())) : null;
  const countOnly = process.env.WINDOWS_COUNT_ONLY === '1';
  const configs = WINDOW_CONFIGS.filter((c, i) => i === 0 || !only || only.has(c.name) || isDefault(c));
  const store = process.env.WINDOWS_STORE;
  const notes = sampleNotes(noteCount, store);
  const chunks = notes.reduce((n, x) => n + x.chunks.length, 0);
  const work = new Map<string, Work>();
  for (let round = 0; round < (countOnly ? 1 : rounds); round++) {
    for (const c of configs) {
      const e = await load(modelDir, c);
      const batches = batchesFor(notes, c);
      const w = work.get(c.name) ?? { ...count(e, batches), cpuS: [], wallS: [] };
      work.set(c.name, w);
      if (!countOnly) {
        await e.embed(batches[batches.length - 1] as string[]); // warm-up: the first run allocates the arena
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        for (const b of batches) await e.embed(b);
        const used = process.cpuUsage(c0);
        w.wallS.push((performance.now() - t0) / 1000);
        w.cpuS.push((used.user + used.system) / 1e6);
        console.error(`windows: round ${round + 1} ${c.name}: ${((used.user + used.system) / 1e6).toFixed(1)} CPU-s, ${w.wallS.at(-1)?.toFixed(1)} s wall`);
      }
      await e.dispose();
    }
  }
  const base = work.get((configs[0] as WindowConfig).name) as Work;
  const lines = [
    `${notes.length.toLocaleString('en')} ${store ? `notes of the growth benchmark's ${store} store` : 'CMRC dev notes'} (${chunks.toLocaleString('en')} chunks of ≤ 800 characters, overlap 120), ${countOnly ? 'counted only' : `median of ${rounds} round${rounds === 1 ? '' : 's'}`}; ratios against the first row, measured in the same run`,
    '',
    '| windows (tokens/overlap, embedded) | windows per note | padded tokens per note | CPU-s per note | CPU vs 512/64 | CPU-s / wall s, all notes | ENGRAM_EVAL_OPTIONS for bench:growth |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of configs) {
    const w = work.get(c.name) as Work;
    const cpu = w.cpuS.length > 0 ? median(w.cpuS) / notes.length : NaN;
    const baseCpu = base.cpuS.length > 0 ? median(base.cpuS) / notes.length : NaN;
    lines.push(
      `| ${c.name}${isDefault(c) ? ' (default)' : ''} | ${(w.windows / notes.length).toFixed(2)} | ${(w.paddedTokens / notes.length).toFixed(0)} | ${Number.isNaN(cpu) ? '—' : cpu.toFixed(4)} | ${Number.isNaN(cpu) ? `tokens ${(w.paddedTokens / base.paddedTokens).toFixed(2)}×` : `${(cpu / baseCpu).toFixed(2)}×`} | ${w.cpuS.length > 0 ? `${median(w.cpuS).toFixed(1)} / ${median(w.wallS).toFixed(1)}` : '—'} | \`${JSON.stringify(evalOptionsOf(c))}\` |`,
    );
  }
  console.log(lines.join('\n'));
}
