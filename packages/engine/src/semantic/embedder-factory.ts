// Builds the embedder a configuration names: the pinned local model for `auto`, an OpenAI-compatible
// endpoint, or a local ONNX model directory (in this thread, or in a worker thread when the opener
// asks: see ModelLoading.thread). Every refusal is an EmbeddingFault with its reason.
import type { EngramConfig } from '../config/schema.ts';
import { effectiveEmbedding } from './auto.ts';
import type { ModelLoading } from './channel-types.ts';
import type { Embedder } from './embedder.ts';
import { EmbeddingFault } from './embedding-fault.ts';
import { localModelName, type ChunkParams } from './fingerprint.ts';
import { LocalEmbedder, modelFacts } from './local-embedder.ts';
import { hasUrlCredentials, urlCredentialsRefusal } from '../net/url-credentials.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';

/** Builds the embedder a configuration names (also used by the console's "test connection"). */
export async function createEmbedder(
  cfg: EngramConfig['embedding'],
  fetchImpl?: typeof fetch,
  env: { dataDir?: string; model?: Pick<ModelLoading, 'thread' | 'isolation' | 'idleMs'> | undefined; chunk?: ChunkParams } = {},
): Promise<Embedder> {
  if (cfg.provider === 'auto') {
    const eff = effectiveEmbedding(cfg, env.dataDir ?? '');
    if (eff.offReason) throw new EmbeddingFault('unavailable', eff.offReason);
    cfg = eff.embedding;
  }
  if (cfg.provider === 'none') throw new EmbeddingFault('unavailable', 'embedding provider is none');
  if (cfg.provider === 'openai') {
    if (!cfg.baseUrl.trim()) throw new EmbeddingFault('unavailable', 'embedding.baseUrl is empty (an OpenAI-compatible URL ending in /v1)');
    if (!cfg.model.trim()) throw new EmbeddingFault('unavailable', 'embedding.model is empty');
    try {
      new URL(cfg.baseUrl.trim());
    } catch {
      throw new EmbeddingFault('unavailable', 'embedding.baseUrl is not a valid URL');
    }
    if (hasUrlCredentials(cfg.baseUrl)) throw new EmbeddingFault('unavailable', urlCredentialsRefusal('embedding'));
    return new OpenAiEmbedder({
      baseUrl: cfg.baseUrl,
      model: cfg.model,
      apiKey: cfg.apiKey,
      dimensions: cfg.dimensions,
      timeoutMs: cfg.timeoutMs,
      fetchImpl,
    });
  }
  const instruction = cfg.queryInstruction === 'model' ? modelFacts(cfg.modelDir).queryInstruction : cfg.queryInstruction;
  const options = {
    model: localModelName(cfg),
    dataDir: env.dataDir ?? null,
    pooling: cfg.pooling,
    queryInstruction: instruction,
    threads: cfg.threads,
    batchTokens: cfg.batchTokens,
    // How a chunk is cut into model windows (config `chunk`; the defaults when not given).
    ...(env.chunk?.windowTokens !== undefined ? { windowTokens: env.chunk.windowTokens } : {}),
    ...(env.chunk?.windowOverlap !== undefined ? { windowOverlap: env.chunk.windowOverlap } : {}),
    windows: env.chunk?.embed === 'header+first-window' ? ('first' as const) : ('all' as const),
  };
  // The worker module is imported only when asked for: the CLI and the console never load it.
  const placement = env.model;
  const local: Embedder =
    placement?.thread === 'worker'
      ? await (await import('./worker-embedder.ts')).WorkerEmbedder.load(cfg.modelDir, options, {
          ...(placement.isolation ? { isolation: placement.isolation } : {}),
          ...(placement.idleMs !== undefined ? { idleMs: placement.idleMs } : {}),
        })
      : await LocalEmbedder.load(cfg.modelDir, options);
  if (cfg.dimensions > 0 && local.dimensions !== cfg.dimensions) {
    await local.dispose?.();
    throw new EmbeddingFault('unavailable', `the model in ${local.endpoint} produces ${local.dimensions}-dimensional vectors, but embedding.dimensions is ${cfg.dimensions}`);
  }
  return local;
}
