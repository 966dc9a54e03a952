// A local ONNX model through @huggingface/transformers, from a directory the user points at.
// Remote loading is switched off: nothing is downloaded at run time, ever. The library is heavy
// (onnxruntime), so it is imported only when this provider is actually used.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Embedder } from './embedder.ts';
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

type Extractor = ((texts: string[], opts: { pooling: 'mean'; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>) & {
  dispose?: () => Promise<void>;
};

// transformers.js keeps its settings in one global `env`; loads are serialised so two channels
// pointing at different directories cannot interleave their settings.
let loadQueue: Promise<unknown> = Promise.resolve();

export class LocalEmbedder implements Embedder {
  readonly provider = 'local' as const;
  readonly remote = false;
  readonly model: string;
  readonly endpoint: string;
  private dims: number | null;
  private constructor(
    private readonly extractor: Extractor,
    layout: LocalModelLayout,
    model: string,
    dims: number,
  ) {
    this.model = model;
    this.endpoint = layout.dir;
    this.dims = dims;
  }

  get dimensions(): number | null {
    return this.dims;
  }

  /** Loads tokenizer and model, and embeds a probe to learn the output dimension. */
  static async load(modelDir: string, model: string): Promise<LocalEmbedder> {
    const layout = inspectModelDir(modelDir);
    const task = loadQueue.then(async () => {
      let transformers: typeof import('@huggingface/transformers');
      try {
        transformers = await import('@huggingface/transformers');
      } catch (e) {
        throw new EmbeddingFault('unavailable', `@huggingface/transformers could not be loaded: ${(e as Error).message}`);
      }
      const { env, pipeline } = transformers;
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.localModelPath = `${dirname(layout.dir)}/`;
      try {
        const extractor = (await pipeline('feature-extraction', basename(layout.dir), {
          dtype: layout.dtype as 'fp32',
          local_files_only: true,
          device: 'cpu',
        })) as unknown as Extractor;
        return extractor;
      } catch (e) {
        throw new EmbeddingFault('unavailable', `model in ${layout.dir} could not be loaded: ${(e as Error).message}`);
      }
    });
    loadQueue = task.catch(() => undefined);
    const extractor = await task;
    const embedder = new LocalEmbedder(extractor, layout, model, 0);
    try {
      const probe = await embedder.run(['dimension probe'], null);
      embedder.dims = probe[0]?.length ?? 0;
    } catch (e) {
      await extractor.dispose?.().catch(() => undefined);
      throw new EmbeddingFault('unavailable', `model in ${layout.dir} loaded but could not embed: ${(e as Error).message}`);
    }
    return embedder;
  }

  private async run(texts: string[], dims: number | null): Promise<Float32Array[]> {
    const out = await this.extractor(texts, { pooling: 'mean', normalize: true });
    const width = out.dims[out.dims.length - 1] ?? 0;
    const rows: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) rows.push(Float32Array.from(out.data.subarray(i * width, (i + 1) * width)));
    return validateVectors(rows, texts.length, dims, 'local model');
  }

  async embed(texts: string[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Float32Array[]> {
    if (opts.signal?.aborted) throw new EmbeddingFault('aborted', 'cancelled');
    try {
      return await this.run(texts, this.dims);
    } catch (e) {
      if (e instanceof EmbeddingFault) throw e;
      throw new EmbeddingFault('unavailable', `local model failed: ${(e as Error).message}`);
    }
  }

  async dispose(): Promise<void> {
    await this.extractor.dispose?.().catch(() => undefined);
  }
}
