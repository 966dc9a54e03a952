// `embedding.provider: auto`: the installed local model when there is one, else lexical recall
// with the reason shown. Pure apart from a cheap look at the data directory (no hashing, no runtime).
import type { EngramConfig } from '../config/schema.ts';
import { cachedModelDir, installedModel } from '../model/install.ts';
import { DEFAULT_MODEL } from '../model/manifest.ts';

export type EmbeddingConfig = EngramConfig['embedding'];

export interface EffectiveEmbedding {
  embedding: EmbeddingConfig;
  /** Why the semantic channel is off (auto without an installed model); null when a provider applies. */
  offReason: string | null;
}

export const NOT_INSTALLED_ACTION = 'Run `engram model install` (or the console\'s Settings → Install model) to add semantic recall; lexical recall works without it.';

export function effectiveEmbedding(embedding: EmbeddingConfig, dataDir: string): EffectiveEmbedding {
  if (embedding.provider !== 'auto') return { embedding, offReason: null };
  const found = dataDir ? installedModel(dataDir) : null;
  if (!found) {
    return {
      embedding: { ...embedding, provider: 'none' },
      // The console translates this sentence by its shape (apps/console/src/client/engine-text.ts).
      offReason: `no local embedding model installed under ${cachedModelDir()}${dataDir ? ` or ${dataDir}/models` : ''}: lexical recall only`,
    };
  }
  return {
    embedding: {
      ...embedding,
      provider: 'local',
      modelDir: found.dir,
      model: embedding.model.trim() || DEFAULT_MODEL.name,
      queryInstruction: embedding.queryInstruction === 'model' ? found.meta.queryInstruction : embedding.queryInstruction,
    },
    offReason: null,
  };
}
