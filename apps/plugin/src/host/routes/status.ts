// What GET /engram/status answers: is the engine open (and why not), what it holds, whether its diary
// folder is gone (recall paused until it is back), which modes the current settings select, whether
// the console answers, the live watch of the diary folder and the background install of the
// embedding model (with its reason when it failed).
import type { Engine } from '@engram/engine';
import type { ConsoleLink } from './console-link.ts';
import { errorText } from '../core/log.ts';
import type { AutoInstallStatus } from '../model/index.ts';

export interface StatusInput {
  engine: Engine | null;
  engineError: string | null;
  console: ConsoleLink;
  /** The background install of the embedding model (first start). */
  model: AutoInstallStatus;
  plugin: { name: string; version: string; routesOn: string | null; toolsAvailable: boolean };
}

export async function describeStatus(input: StatusInput): Promise<Record<string, unknown>> {
  const { engine } = input;
  // Not ready and no error: the index is still opening in the background (a host start).
  let engineStatus: Record<string, unknown> = { ready: false, opening: input.engineError === null, error: input.engineError };
  if (engine) {
    try {
      const s = await engine.status();
      engineStatus = { ready: true, documents: s.documents, archived: s.archived, chunks: s.chunks, vectors: s.vectors, tokenizer: s.tokenizer.active, semantic: s.semantic.state, semanticReason: s.semantic.reason ?? null, builtAt: s.builtAt, diaryMissing: s.diaryMissing, liveSync: engine.liveSync };
    } catch (error) {
      engineStatus = { ready: true, error: errorText(error) };
    }
  }
  const config = engine?.config;
  return {
    plugin: input.plugin,
    engine: engineStatus,
    model: input.model,
    modes: config ? { resident: config.runtime.inject ? config.runtime.mode : 'off', recall: config.inject.enabled ? config.inject.mode : 'off' } : null,
    console: { url: input.console.url, reachable: await input.console.reachable(), startedPid: input.console.startedPid, lastExit: input.console.lastExitReason },
  };
}
