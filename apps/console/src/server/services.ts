// The engine's services the console uses, made once per open engine: two registries or two import
// job boards over one engine would not see each other's state. Kept on globalThis like the runtime,
// so every Next bundle that reaches them shares the same instances.
import { CompactionMemory, CrossSession, PastSessions, WorkspaceRegistry, type Engine } from '@engram/engine';
import { ImportJobs } from './import-jobs.ts';
import { LibraryCache } from './library-cache.ts';
import { ConsoleMirrors } from './mirrors.ts';
import { ModelJobs } from './model-jobs.ts';

export interface ConsoleServices {
  registry: WorkspaceRegistry;
  sessions: PastSessions;
  cross: CrossSession;
  compaction: CompactionMemory;
  imports: ImportJobs;
  /** The Library's list, kept per index generation. */
  library: LibraryCache;
  /** The console's model install job. */
  model: ModelJobs;
  /** Memory.md in the workspace folders, refreshed after the console's writes. */
  mirrors: ConsoleMirrors;
}

const KEY = Symbol.for('engram.console.services');
const table = (): WeakMap<Engine, ConsoleServices> => ((globalThis as Record<symbol, WeakMap<Engine, ConsoleServices>>)[KEY] ??= new WeakMap());

/** The services of the runtime's engine (any `{ engine }`: the console's runtime, a test's). */
export function servicesOf(runtime: { engine: Engine }): ConsoleServices {
  const { engine } = runtime;
  const known = table().get(engine);
  if (known) return known;
  const registry = new WorkspaceRegistry(engine);
  const services: ConsoleServices = {
    registry,
    sessions: new PastSessions(engine),
    cross: new CrossSession({ engine }),
    compaction: new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config }),
    imports: new ImportJobs(),
    library: new LibraryCache(engine),
    model: new ModelJobs(engine),
    mirrors: new ConsoleMirrors(engine, registry),
  };
  table().set(engine, services);
  return services;
}
