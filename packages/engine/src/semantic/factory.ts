// The engine's entry point to the semantic channel (loaded lazily by engine.ts). Resolves
// `provider: auto` first: without an installed model the port is off with its reason, and nothing
// heavy (channel, vector tables, ONNX runtime) is touched.
import { documentsByIds, type Database } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import { effectiveEmbedding, NOT_INSTALLED_ACTION } from './auto.ts';
import type { ModelLoading, SemanticChannel, SemanticLog } from './channel.ts';
import { docIdOfChunk } from './chunk-id.ts';
import { embeddingContext } from './context.ts';
import type { SemanticPort, SemanticPortStatus } from './port.ts';

/** A port that is off for a reason: recall stays lexical and says why. */
export function offPort(reason: string, action: string | null, provider: string): SemanticPort {
  const status: SemanticPortStatus = { state: 'off', reason, action, provider, fingerprint: null, vectors: 0, dimensions: 0, degradedBatches: 0 };
  return {
    status: () => ({ ...status }),
    sync: async () => ({ embedded: 0, reused: 0, removed: 0, degradedBatches: [], skipped: reason }),
    search: async () => ({ ran: false, skipped: reason }),
    hasVector: () => false,
    integrityCheck: async () => ({ checked: 0, minCos: 0, ok: false }),
    close: () => undefined,
  };
}

export async function createSemanticPort(deps: { config: EngramConfig; db: Database; log?: SemanticLog; model?: ModelLoading }): Promise<SemanticPort> {
  const eff = effectiveEmbedding(deps.config.embedding, deps.config.dataDir);
  if (eff.offReason) {
    deps.log?.('info', 'semantic channel off', { reason: eff.offReason });
    return offPort(eff.offReason, NOT_INSTALLED_ACTION, 'auto');
  }
  const { SemanticChannel } = await import('./channel.ts');
  const channel: SemanticChannel = await SemanticChannel.open({
    client: deps.db.client,
    embedding: eff.embedding,
    chunk: deps.config.chunk,
    log: deps.log,
    dataDir: deps.config.dataDir,
    ...(deps.model ? { model: deps.model } : {}),
    // `auto` runs Engram's pinned model: when it changes, the vectors are made again without asking.
    rebuildOnModelChange: deps.config.embedding.provider === 'auto',
    // Title, summary and tags go in front of each chunk's body (see semantic/context.ts), unless
    // either setting says the body alone.
    contextOf: eff.embedding.withMetadata && deps.config.chunk.embed !== 'body'
      ? async (chunkIds) => {
          const docIds = [...new Set(chunkIds.map(docIdOfChunk))];
          const rows = await documentsByIds(deps.db.db, docIds);
          return new Map(rows.map((d) => [d.id, embeddingContext(d)]));
        }
      : undefined,
  });
  return channel;
}
