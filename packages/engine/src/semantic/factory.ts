// The engine's entry point to the semantic channel (loaded lazily by engine.ts).
import type { Database } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import { SemanticChannel, type SemanticLog } from './channel.ts';
import type { SemanticPort } from './port.ts';

export async function createSemanticPort(deps: { config: EngramConfig; db: Database; log?: SemanticLog }): Promise<SemanticChannel & SemanticPort> {
  const channel = await SemanticChannel.open({
    client: deps.db.client,
    embedding: deps.config.embedding,
    chunk: deps.config.chunk,
    log: deps.log,
  });
  const port: SemanticPort = channel;
  return port as SemanticChannel & SemanticPort;
}
