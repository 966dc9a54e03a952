// The Library's data between requests. At 5,000 memories `engine.list()` plus the workspace filter
// cost 200–800 ms, and every page request (every keystroke in the search box) paid it again. Here the
// list is built once per index generation (the counter every index write bumps in the database, so
// the console's own writes, rebuilds, the watcher's pick-ups and other processes' writes all move it)
// and each scope is ordered, given its search texts and facets once; a request then costs a generation
// read, a scan of the search texts and a slice.
import type { Engine, MemorySummary } from '@engram/engine';
import { matchingPositions, pageOfPrepared, prepareScope, type MemoryPage, type PageInput, type PreparedScope } from '../shared/library-page.ts';
import { filterByWorkspace, type ListedMemory } from './workspace-view.ts';

export interface ScopeKey {
  includeArchived: boolean;
  workspace?: string | undefined;
  includeGlobal: boolean;
}

interface Scope {
  /** In the engine's order (what `memories.list` returns). */
  listed: ListedMemory[];
  prepared: PreparedScope<ListedMemory>;
  /** Filter key → matching positions, the most recent few (paging and retyping reuse them). */
  results: Map<string, number[]>;
}

interface Snapshot {
  all: MemorySummary[];
  scopes: Map<string, Scope>;
}

const RESULTS_KEPT = 32;
const keyOf = (s: ScopeKey) => JSON.stringify([s.includeArchived, s.workspace ?? null, s.workspace === undefined ? true : s.includeGlobal]);

export class LibraryCache {
  private snapshot: Promise<Snapshot> | null = null;
  private snapshotGeneration = -1;
  /** How many times the whole list was read from the engine (tests and the benchmark read it). */
  builds = 0;

  constructor(private readonly engine: Engine) {}

  /**
   * The index generation after catching up with other processes' writes; -1 while the engine does not
   * know it (the database unreachable), which is never cached.
   */
  private async generation(): Promise<number> {
    const { live } = this.engine;
    await live.refreshIfStale(this.engine.db);
    return live.generation;
  }

  private async current(): Promise<Snapshot> {
    const generation = await this.generation();
    // Concurrent requests of one generation share one build.
    if (generation >= 0 && this.snapshot && this.snapshotGeneration === generation) return this.snapshot;
    const building = (async (): Promise<Snapshot> => {
      this.builds++;
      const all = await this.engine.list({ includeArchived: true });
      return { all, scopes: new Map() };
    })();
    this.snapshot = building;
    this.snapshotGeneration = generation;
    building.catch(() => {
      if (this.snapshot === building) this.snapshot = null;
    });
    return building;
  }

  private scopeOf(snap: Snapshot, key: ScopeKey): Scope {
    const k = keyOf(key);
    let scope = snap.scopes.get(k);
    if (!scope) {
      const visible = key.includeArchived ? snap.all : snap.all.filter((m) => !m.archived);
      const listed = filterByWorkspace(visible, key.workspace, key.includeGlobal);
      scope = { listed, prepared: prepareScope(listed), results: new Map() };
      snap.scopes.set(k, scope);
    }
    return scope;
  }

  /** What `memories.list` answers: the scope in the engine's order (newest date first). */
  async list(key: ScopeKey): Promise<ListedMemory[]> {
    return this.scopeOf(await this.current(), key).listed;
  }

  /** One page of the Library (see shared/library-page.ts for the order and the search). */
  async page(input: ScopeKey & Pick<PageInput, 'query' | 'category' | 'tag' | 'offset' | 'limit'>): Promise<MemoryPage<ListedMemory>> {
    const scope = this.scopeOf(await this.current(), input);
    const filterKey = JSON.stringify([input.query.trim().toLowerCase(), input.category, input.tag]);
    let positions = scope.results.get(filterKey);
    if (positions) scope.results.delete(filterKey);
    else positions = matchingPositions(scope.prepared, input);
    scope.results.set(filterKey, positions);
    if (scope.results.size > RESULTS_KEPT) scope.results.delete(scope.results.keys().next().value!);
    return pageOfPrepared(scope.prepared, input, positions);
  }

  /** Builds the default scope now (at server start), so the first Library load after a restart is fast. */
  async warm(): Promise<void> {
    await this.page({ includeArchived: false, includeGlobal: true, query: '', category: '', tag: '', offset: 0, limit: 1 });
  }
}
