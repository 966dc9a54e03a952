// A local ONNX model through @huggingface/transformers, from a directory on disk. Remote loading is
// switched off: nothing is downloaded at run time, ever. The runtime is heavy (onnxruntime), so it
// is imported only when this provider is actually used, from the workspace or `<dataDir>/runtime`.
//
// What this provider does beyond calling the model:
// - pooling per model (BGE: the [CLS] state; others: the masked mean), from the installed model's
//   metadata or the config, recorded in the fingerprint;
// - texts longer than a window (DEFAULT_WINDOWING, at most the model's token limit) are embedded in
//   windows whose vectors are averaged (weighted by tokens), so no part of a chunk is silently cut off;
// - inputs are sorted by length and cut into sub-batches under a token budget, so a batch is padded
//   to its own longest text, not the longest of all;
// - the wall-clock timeout and the abort signal are checked between sub-batches and race each run.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { accessSync, constants, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, type BigIntStats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MODEL_META_FILE, type InstalledModelMeta, type Pooling } from '../model/manifest.ts';
import { loadRuntime, locateRuntime, type Transformers } from '../model/runtime.ts';
import { bertTokenizerOf } from './bert-tokenizer.ts';
import type { Embedder, EmbedOptions } from './embedder.ts';
import { validateVectors } from './embedder.ts';
import { EmbeddingFault } from './embedding-fault.ts';

/** ONNX files transformers.js looks for, by dtype, in the order we prefer them. */
const MODEL_FILES: { file: string; dtype: string }[] = [
  { file: 'model.onnx', dtype: 'fp32' },
  { file: 'model_quantized.onnx', dtype: 'q8' },
  { file: 'model_int8.onnx', dtype: 'int8' },
  { file: 'model_fp16.onnx', dtype: 'fp16' },
];

export interface LocalModelLayout {
  dir: string;
  dtype: string;
  modelFile: string;
}

/** Checks the directory before anything heavy loads; throws EmbeddingFault('unavailable') with a reason a person can act on. */
export function inspectModelDir(modelDir: string): LocalModelLayout {
  if (!modelDir.trim()) throw new EmbeddingFault('unavailable', 'embedding.modelDir is empty: point it at a local model directory (config.json, tokenizer.json, onnx/model.onnx)');
  const dir = resolve(modelDir.trim());
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new EmbeddingFault('unavailable', `model directory not found: ${dir}`);
  for (const f of ['config.json', 'tokenizer.json']) {
    if (!existsSync(join(dir, f))) throw new EmbeddingFault('unavailable', `model directory ${dir} has no ${f}`);
  }
  const found = MODEL_FILES.find((m) => existsSync(join(dir, 'onnx', m.file)));
  if (!found) {
    throw new EmbeddingFault('unavailable', `model directory ${dir} has no ONNX weights (looked for onnx/${MODEL_FILES.map((m) => m.file).join(', onnx/')})`);
  }
  return { dir, dtype: found.dtype, modelFile: join(dir, 'onnx', found.file) };
}

/** What a model directory says about itself: Engram's metadata file, else config.json / tokenizer_config.json. */
export function modelFacts(dir: string): { pooling: Pooling | null; maxTokens: number; queryInstruction: string; hiddenSize: number | null } {
  const read = (f: string): Record<string, unknown> | null => {
    try {
      return JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  const meta = read(MODEL_META_FILE) as Partial<InstalledModelMeta> | null;
  const cfg = read('config.json') ?? {};
  const tok = read('tokenizer_config.json') ?? {};
  const limits = [meta?.maxTokens, cfg.max_position_embeddings, tok.model_max_length].map(Number).filter((n) => Number.isFinite(n) && n > 8 && n < 1e6);
  return {
    pooling: meta?.pooling === 'cls' || meta?.pooling === 'mean' ? meta.pooling : null,
    maxTokens: limits.length > 0 ? Math.min(...limits) : 512,
    queryInstruction: typeof meta?.queryInstruction === 'string' ? meta.queryInstruction : '',
    // A BERT encoder's vectors have its hidden size (pooled from its last hidden state).
    hiddenSize: cfg.model_type === 'bert' && Number.isInteger(cfg.hidden_size) && (cfg.hidden_size as number) > 0 ? (cfg.hidden_size as number) : null,
  };
}

/** Pooling for a model: explicit config wins, then the model's metadata, then the model family (BGE → cls), else mean. */
export function poolingFor(configured: string, dir: string, model: string): Pooling {
  if (configured === 'cls' || configured === 'mean') return configured;
  const facts = dir ? modelFacts(dir).pooling : null;
  if (facts) return facts;
  return /(^|[^a-z])bge/i.test(`${model} ${basename(dir)}`) ? 'cls' : 'mean';
}

/** Token windows over a text's ids: each at most `max` ids, overlapping by `overlap`. Pure. */
export function tokenWindows(ids: number[], max: number, overlap: number): number[][] {
  if (ids.length <= max) return [ids];
  const step = Math.max(1, max - Math.min(overlap, max - 1));
  const out: number[][] = [];
  for (let start = 0; start < ids.length; start += step) {
    out.push(ids.slice(start, start + max));
    if (start + max >= ids.length) break;
  }
  return out;
}

/** Groups inputs (sorted by length, longest first) so that rows × longest ≤ budget. Pure. */
export function lengthBuckets(lengths: number[], tokenBudget: number, maxRows: number): number[][] {
  const order = lengths.map((n, i) => ({ n, i })).sort((a, b) => b.n - a.n || a.i - b.i);
  const out: number[][] = [];
  let current: number[] = [];
  let longest = 0;
  for (const { n, i } of order) {
    const width = Math.max(longest, n);
    if (current.length > 0 && ((current.length + 1) * width > tokenBudget || current.length >= maxRows)) {
      out.push(current);
      current = [];
      longest = 0;
    }
    current.push(i);
    longest = Math.max(longest, n);
  }
  if (current.length > 0) out.push(current);
  return out;
}

export interface LocalEmbedderOptions {
  /** Name recorded in the fingerprint. */
  model: string;
  /** Data directory (runtime fallback location). */
  dataDir?: string | null;
  /** 'auto' | 'cls' | 'mean'. */
  pooling?: string;
  /** Prepended to queries (not documents); '' = none. */
  queryInstruction?: string;
  /** ONNX intra-op threads; 0 = the runtime's default. */
  threads?: number;
  /** Padded tokens per model run (rows × longest). */
  batchTokens?: number;
  /** Most texts (windows) per model run, whatever the token budget. */
  maxRows?: number;
  /** onnxruntime session settings (see DEFAULT_SESSION for why the defaults are what they are). */
  session?: SessionSettings;
  /** Tokens per model window (special tokens included), capped at the model's limit; 0 = DEFAULT_WINDOWING.tokens. */
  windowTokens?: number;
  /** Overlap between windows of an over-long text, in tokens. */
  windowOverlap?: number;
  /** Documents: embed every window of a text ('all') or only its first ('first'). Queries always use every window. */
  windows?: WindowsEmbedded;
  /** Test hook: the runtime to use. */
  runtime?: Transformers;
}

/** The onnxruntime session options this provider lets a caller set. */
export interface SessionSettings {
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all';
  /** The CPU arena keeps the largest activation ever allocated: fast reuse, RSS that never goes down. */
  enableCpuMemArena?: boolean;
  /** Pre-plans buffers per input shape; with length-varying inputs it mostly holds memory. */
  enableMemPattern?: boolean;
  /** Idle intra-op threads spin waiting for work: lower latency on an idle machine, burnt CPU on a shared one. */
  allowSpinning?: boolean;
}

/** Which windows of a document are embedded. */
export type WindowsEmbedded = 'all' | 'first';

/**
 * The windowing the index uses unless configured (config `chunk.windowTokens` / `windowOverlap` /
 * `embed`, whose defaults these are): 256-token windows without overlap cost 9–14 % less CPU than 512
 * with 64 on CMRC-length chunks — attention grows with the square of a window's length, and two
 * windows share one model run — (none measurable on short notes) at the same recall
 * (docs/benchmarks.md, "Model windows").
 */
export const DEFAULT_WINDOWING = { tokens: 256, overlap: 0, windows: 'all' as WindowsEmbedded };

type Tokenizer = { encode(text: string, opts?: { add_special_tokens?: boolean }): number[] };
type Model = ((inputs: Record<string, unknown>) => Promise<Record<string, { dims: number[]; data: Float32Array }>>) & { dispose?: () => Promise<unknown> };
type TensorClass = new (type: 'int64', data: BigInt64Array, dims: number[]) => unknown;

/** What LocalEmbedder needs of onnxruntime-node when it runs the model without the runtime's library. */
interface OnnxRuntime {
  env: { versions?: { node?: string } };
  Tensor: TensorClass;
  InferenceSession: {
    create(path: string, options: Record<string, unknown>): Promise<{
      inputNames: readonly string[];
      run(feeds: Record<string, unknown>): Promise<Record<string, { dims: readonly number[]; data: unknown }>>;
      release(): Promise<void>;
    }>;
  };
}

/**
 * The model's tokenizer and onnxruntime-node, without @huggingface/transformers: for a BERT
 * WordPiece model (semantic/bert-tokenizer.ts; the same ids, tested on the real model) and the
 * onnxruntime-node the runtime would load. A one-shot semantic recall spent most of its start
 * loading the runtime's library and parsing its tokenizer for one question. Null: use the runtime.
 */
function directRuntimeOf(layout: LocalModelLayout, dataDir: string | null): { tokenizer: Tokenizer; ort: OnnxRuntime } | null {
  const tokenizer = bertTokenizerOf(layout.dir);
  if (!tokenizer) return null;
  const loc = locateRuntime(dataDir);
  if (!loc.path) return null;
  try {
    // Resolved from the runtime's own location: the onnxruntime-node it would load, and no other.
    const ort = createRequire(loc.path)('onnxruntime-node') as OnnxRuntime;
    return typeof ort.InferenceSession?.create === 'function' ? { tokenizer, ort } : null;
  } catch {
    return null;
  }
}

/** A session of onnxruntime-node as the runtime's models are called (named inputs in, named tensors out). */
function directModel(session: Awaited<ReturnType<OnnxRuntime['InferenceSession']['create']>>): Model {
  const model = (async (inputs: Record<string, unknown>) => {
    const feeds: Record<string, unknown> = {};
    for (const name of session.inputNames) if (inputs[name] !== undefined) feeds[name] = inputs[name];
    return (await session.run(feeds)) as unknown as Record<string, { dims: number[]; data: Float32Array }>;
  }) as Model;
  model.dispose = () => session.release();
  return model;
}

// transformers.js keeps its settings in one global `env`; loads are serialised so two channels
// pointing at different directories cannot interleave their settings.
let loadQueue: Promise<unknown> = Promise.resolve();

// Measured (docs/benchmarks.md, "Costs of the model"): on this CPU a 512-token input costs less per
// row alone than in a batch (cache), and short inputs gain little from batching; a budget of one
// window runs long chunks alone and still batches short texts (queries, short memories).
export const DEFAULT_BATCH_TOKENS = 512;
export const DEFAULT_MAX_ROWS = 16;
/**
 * Session options used unless the caller sets them (measured in docs/benchmarks.md, "Costs of the
 * model"): spinning off (on a machine shared with other work, and a memory engine always is, spinning
 * threads burnt ~40 % more CPU per chunk); the arena stays on (off: 2–3× the CPU per chunk from
 * page faults, and no lower peak).
 */
export const DEFAULT_SESSION: Required<SessionSettings> = { graphOptimizationLevel: 'all', enableCpuMemArena: true, enableMemPattern: true, allowSpinning: false };

/** The options object handed to onnxruntime's InferenceSession.create. */
export function sessionOptions(threads: number, session: SessionSettings = {}): Record<string, unknown> {
  const s = { ...DEFAULT_SESSION, ...session };
  return {
    graphOptimizationLevel: s.graphOptimizationLevel,
    enableCpuMemArena: s.enableCpuMemArena,
    enableMemPattern: s.enableMemPattern,
    // onnxruntime-node flattens `extra` into session config entries (session.intra_op.allow_spinning).
    extra: { session: { intra_op: { allow_spinning: s.allowSpinning ? '1' : '0' } } },
    ...(threads > 0 ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {}),
  };
}

/**
 * The model's graph as onnxruntime optimises it, saved beside the model the first time a session is
 * created (onnx/model.ort-<version>-<model file>-optimized<dtype suffix>.onnx) and loaded with optimisation off
 * afterwards: optimising the graph was ~10 % of a one-shot semantic recall's CPU, every time.
 * Saved at 'extended', the highest level whose result does not depend on the machine (onnxruntime
 * warns that 'all' may not run elsewhere); for these encoders 'all' adds nothing to it (the same
 * graph, the same vectors bit for bit). Only for the default levels ('all', 'extended'), and per
 * onnxruntime version (a saved graph is read by the version that wrote it).
 */
export function optimizedModelOf(layout: LocalModelLayout, ortVersion: string | undefined, session: SessionSettings = {}): { stem: string; file: string } | null {
  const level = session.graphOptimizationLevel ?? DEFAULT_SESSION.graphOptimizationLevel;
  if ((level !== 'all' && level !== 'extended') || !ortVersion || !/^[\w.+-]+$/.test(ortVersion)) return null;
  let model: BigIntStats;
  try {
    model = statSync(layout.modelFile, { bigint: true });
  } catch {
    return null;
  }
  // Named by the model file too (size, mtime, inode): a model replaced in place is never read through the old one's graph.
  const of = createHash('sha1').update(`${model.size}:${model.mtimeNs}:${model.ino}`).digest('hex').slice(0, 12);
  const suffix = basename(layout.modelFile).replace(/^model/, '').replace(/\.onnx$/, '');
  const stem = `model.ort-${ortVersion}-${of}-optimized`;
  return { stem, file: join(dirname(layout.modelFile), `${stem}${suffix}.onnx`) };
}

/**
 * The model as `modelWith` loads it, from its optimised graph when one is saved (optimisation off),
 * else optimising it once and saving the graph beside the model (optimizedModelOf). Best effort
 * throughout: a saved graph that does not load, or a folder that cannot take one, only means
 * optimising at load as before.
 */
async function modelThroughOptimizedGraph(
  layout: LocalModelLayout,
  ortVersion: string | undefined,
  opts: LocalEmbedderOptions,
  options: Record<string, unknown>,
  modelWith: (sessionOptions: Record<string, unknown>, graph?: { stem: string; file: string }) => Promise<Model>,
): Promise<Model> {
  const optimized = optimizedModelOf(layout, ortVersion, opts.session);
  let net: Model | null = null;
  if (optimized && existsSync(optimized.file)) net = await modelWith({ ...options, graphOptimizationLevel: 'disabled' }, optimized).catch(() => null);
  if (!net && optimized && writable(dirname(optimized.file))) {
    const tmp = `${optimized.file}.${process.pid}.tmp`;
    net = await modelWith({ ...options, graphOptimizationLevel: 'extended', optimizedModelFilePath: tmp }).catch(() => null);
    try {
      if (net && existsSync(tmp)) {
        renameSync(tmp, optimized.file);
        // This runtime's graphs of a model since replaced are never read again.
        const prefix = `model.ort-${ortVersion}-`;
        for (const f of readdirSync(dirname(optimized.file)))
          if (f.startsWith(prefix) && f.endsWith('.onnx') && f !== basename(optimized.file)) rmSync(join(dirname(optimized.file), f), { force: true });
      }
    } catch {
      // kept for the next load, or written by it
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  return net ?? (await modelWith(options));
}

const writable = (dir: string): boolean => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

export class LocalEmbedder implements Embedder {
  readonly provider = 'local' as const;
  readonly remote = false;
  readonly quantised: boolean;
  readonly model: string;
  readonly endpoint: string;
  readonly pooling: Pooling;
  readonly maxTokens: number;
  readonly queryInstruction: string;
  private dims: number | null = null;
  private readonly prefix: number[];
  private readonly suffix: number[];
  private readonly batchTokens: number;
  private readonly maxRows: number;
  private readonly overlap: number;
  /** Tokens per window, special tokens included (≤ maxTokens). */
  readonly windowTokens: number;
  private readonly windows: WindowsEmbedded;
  /** Windows embedded for texts over the limit (for status and tests). */
  windowedTexts = 0;

  private constructor(
    private readonly Tensor: TensorClass,
    private readonly tokenizer: Tokenizer,
    private readonly net: Model,
    layout: LocalModelLayout,
    opts: LocalEmbedderOptions,
  ) {
    this.model = opts.model;
    this.endpoint = layout.dir;
    this.quantised = layout.dtype === 'q8' || layout.dtype === 'int8';
    const facts = modelFacts(layout.dir);
    this.pooling = poolingFor(opts.pooling ?? 'auto', layout.dir, opts.model);
    this.maxTokens = facts.maxTokens;
    this.queryInstruction = opts.queryInstruction ?? '';
    const empty = tokenizer.encode('', { add_special_tokens: true });
    this.prefix = empty.slice(0, Math.min(1, empty.length));
    this.suffix = empty.slice(this.prefix.length);
    this.batchTokens = Math.max(this.maxTokens, opts.batchTokens || DEFAULT_BATCH_TOKENS);
    this.maxRows = Math.max(1, Math.floor(opts.maxRows || DEFAULT_MAX_ROWS));
    this.overlap = Math.max(0, opts.windowOverlap ?? DEFAULT_WINDOWING.overlap);
    const specials = this.prefix.length + this.suffix.length;
    this.windowTokens = Math.min(this.maxTokens, Math.max(specials + 8, Math.floor(opts.windowTokens || DEFAULT_WINDOWING.tokens)));
    this.windows = opts.windows === 'first' ? 'first' : 'all';
  }

  get dimensions(): number | null {
    return this.dims;
  }

  /** Loads tokenizer and model, and embeds a probe to learn the output dimension. */
  static async load(modelDir: string, opts: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const layout = inspectModelDir(modelDir);
    const direct = opts.runtime ? null : directRuntimeOf(layout, opts.dataDir ?? null);
    if (direct) return LocalEmbedder.loadDirect(layout, direct, opts);
    let runtime: Transformers;
    try {
      runtime = opts.runtime ?? (await loadRuntime(opts.dataDir ?? null));
    } catch (e) {
      throw new EmbeddingFault('unavailable', (e as Error).message);
    }
    const task = loadQueue.then(async () => {
      const { env, AutoTokenizer, AutoModel } = runtime;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      // Nothing is downloaded, so nothing is cached: without a cache the runtime never asks whether a
      // file is a fetch Response, which loaded node's fetch implementation (~19 ms of CPU) on the way.
      env.useFSCache = false;
      env.useBrowserCache = false;
      env.localModelPath = `${dirname(layout.dir)}/`;
      try {
        const name = basename(layout.dir);
        const tokenizer = (await AutoTokenizer.from_pretrained(name, { local_files_only: true })) as unknown as Tokenizer;
        const threads = Math.max(0, Math.floor(opts.threads ?? 0));
        const options = sessionOptions(threads, opts.session);
        const modelWith = async (sessionOptions: Record<string, unknown>, graph?: { stem: string }) =>
          (await AutoModel.from_pretrained(name, {
            dtype: layout.dtype as 'fp32',
            local_files_only: true,
            device: 'cpu',
            session_options: sessionOptions,
            ...(graph ? { model_file_name: graph.stem } : {}),
          })) as unknown as Model;
        const onnx = (runtime.env as { backends?: { onnx?: { versions?: { node?: string } } } }).backends?.onnx;
        const net = await modelThroughOptimizedGraph(layout, onnx?.versions?.node, opts, options, modelWith);
        return { tokenizer, net };
      } catch (e) {
        throw new EmbeddingFault('unavailable', `model in ${layout.dir} could not be loaded: ${(e as Error).message}`);
      }
    });
    loadQueue = task.catch(() => undefined);
    const { tokenizer, net } = await task;
    return LocalEmbedder.probed(new LocalEmbedder(runtime.Tensor as unknown as TensorClass, tokenizer, net, layout, opts), layout);
  }

  /** The model through onnxruntime-node and the vocab.txt tokenizer (directRuntimeOf). */
  private static async loadDirect(layout: LocalModelLayout, direct: { tokenizer: Tokenizer; ort: OnnxRuntime }, opts: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const { ort, tokenizer } = direct;
    let net: Model;
    try {
      const options = sessionOptions(Math.max(0, Math.floor(opts.threads ?? 0)), opts.session);
      const modelWith = async (sessionOptions: Record<string, unknown>, graph?: { file: string }) => directModel(await ort.InferenceSession.create(graph?.file ?? layout.modelFile, sessionOptions));
      net = await modelThroughOptimizedGraph(layout, ort.env.versions?.node, opts, options, modelWith);
    } catch (e) {
      throw new EmbeddingFault('unavailable', `model in ${layout.dir} could not be loaded: ${(e as Error).message}`);
    }
    const embedder = new LocalEmbedder(ort.Tensor, tokenizer, net, layout, opts);
    // A BERT encoder's vectors have its hidden size (config.json): no probe run to learn it. The
    // first embedding still checks every vector's size against it.
    const hidden = modelFacts(layout.dir).hiddenSize;
    if (hidden === null) return LocalEmbedder.probed(embedder, layout);
    embedder.dims = hidden;
    return embedder;
  }

  /** Embeds a probe to learn the output dimension; a model that cannot is released. */
  private static async probed(embedder: LocalEmbedder, layout: LocalModelLayout): Promise<LocalEmbedder> {
    try {
      const probe = await embedder.run(['dimension probe'], {});
      embedder.dims = probe[0]?.length ?? 0;
    } catch (e) {
      await embedder.net.dispose?.().catch(() => undefined);
      throw new EmbeddingFault('unavailable', `model in ${layout.dir} loaded but could not embed: ${(e as Error).message}`);
    }
    return embedder;
  }

  /**
   * Token ids of a text's windows, special tokens included. A document's windows are the configured
   * size (only the first when so configured); a query's are the model's whole limit, so a long
   * question is never cut.
   */
  windowsOf(text: string, purpose: EmbedOptions['purpose'] = 'document'): number[][] {
    const ids = this.tokenizer.encode(text, { add_special_tokens: false });
    const query = purpose === 'query';
    const room = (query ? this.maxTokens : this.windowTokens) - this.prefix.length - this.suffix.length;
    const all = tokenWindows(ids, room, this.overlap);
    const kept = !query && this.windows === 'first' ? all.slice(0, 1) : all;
    return kept.map((w) => [...this.prefix, ...w, ...this.suffix]);
  }

  private async forward(rows: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...rows.map((r) => r.length));
    const n = rows.length;
    const ids = new BigInt64Array(n * width);
    const mask = new BigInt64Array(n * width);
    rows.forEach((r, i) => {
      for (let j = 0; j < r.length; j++) {
        ids[i * width + j] = BigInt(r[j] as number);
        mask[i * width + j] = 1n;
      }
    });
    const { Tensor } = this;
    const out = await this.net({
      input_ids: new Tensor('int64', ids, [n, width]),
      attention_mask: new Tensor('int64', mask, [n, width]),
      token_type_ids: new Tensor('int64', new BigInt64Array(n * width), [n, width]),
    });
    const hidden = out.last_hidden_state ?? Object.values(out)[0];
    if (!hidden) throw new Error('the model returned no hidden states');
    const dim = hidden.dims[hidden.dims.length - 1] as number;
    const seq = hidden.dims[1] as number;
    const data = hidden.data;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < n; i++) {
      const v = new Float32Array(dim);
      if (this.pooling === 'cls') v.set(data.subarray(i * seq * dim, i * seq * dim + dim));
      else {
        const len = (rows[i] as number[]).length;
        for (let t = 0; t < len; t++) {
          const base = (i * seq + t) * dim;
          for (let d = 0; d < dim; d++) v[d] = (v[d] as number) + (data[base + d] as number);
        }
        for (let d = 0; d < dim; d++) v[d] = (v[d] as number) / len;
      }
      vectors.push(v);
    }
    return vectors;
  }

  private async run(texts: string[], opts: EmbedOptions): Promise<Float32Array[]> {
    const deadline = opts.timeoutMs ? performance.now() + opts.timeoutMs : Infinity;
    const signal = opts.signal;
    const input = opts.purpose === 'query' && this.queryInstruction ? texts.map((t) => this.queryInstruction + t) : texts;
    const windows: { text: number; ids: number[] }[] = [];
    input.forEach((t, i) => {
      const ws = this.windowsOf(t, opts.purpose);
      if (ws.length > 1) this.windowedTexts++;
      for (const ids of ws) windows.push({ text: i, ids });
    });
    const pooled: (Float32Array | undefined)[] = new Array(windows.length);
    for (const bucket of lengthBuckets(windows.map((w) => w.ids.length), this.batchTokens, this.maxRows)) {
      if (signal?.aborted) throw new EmbeddingFault('aborted', 'cancelled');
      const left = deadline - performance.now();
      if (left <= 0) throw new EmbeddingFault('timeout', `local embedding exceeded ${opts.timeoutMs} ms`);
      const vectors = await raceLimits(this.forward(bucket.map((i) => (windows[i] as { ids: number[] }).ids)), left, signal, opts.timeoutMs ?? 0);
      bucket.forEach((w, j) => (pooled[w] = vectors[j]));
    }
    // One vector per text: the windows' unit vectors averaged by their token counts.
    const rows: Float32Array[] = texts.map(() => new Float32Array(0));
    const weights = texts.map(() => 0);
    windows.forEach((w, i) => {
      const v = unit(pooled[i] as Float32Array);
      const weight = w.ids.length;
      const acc = rows[w.text] as Float32Array;
      if (acc.length === 0) rows[w.text] = v.map((x) => x * weight);
      else for (let d = 0; d < acc.length; d++) acc[d] = (acc[d] as number) + (v[d] as number) * weight;
      weights[w.text] = (weights[w.text] as number) + weight;
    });
    return validateVectors(rows.map(unit), texts.length, this.dims, 'local model');
  }

  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    if (opts.signal?.aborted) throw new EmbeddingFault('aborted', 'cancelled');
    try {
      return await this.run(texts, opts);
    } catch (e) {
      if (e instanceof EmbeddingFault) throw e;
      throw new EmbeddingFault('unavailable', `local model failed: ${(e as Error).message}`);
    }
  }

  async dispose(): Promise<void> {
    await this.net.dispose?.().catch(() => undefined);
  }
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] as number) * (v[i] as number);
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return v.map((x) => x * s);
}

/** Resolves with the run, or rejects on timeout / abort (the run itself cannot be interrupted; its result is dropped). */
function raceLimits<T>(work: Promise<T>, leftMs: number, signal: AbortSignal | undefined, timeoutMs: number): Promise<T> {
  if (!Number.isFinite(leftMs) && !signal) return work;
  return new Promise<T>((ok, fail) => {
    const timer = Number.isFinite(leftMs) ? setTimeout(() => fail(new EmbeddingFault('timeout', `local embedding exceeded ${timeoutMs} ms`)), leftMs) : null;
    const onAbort = () => fail(new EmbeddingFault('aborted', 'cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(ok, fail).finally(() => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}
