// Keeps each workspace's Memory.md (the engine's refreshMemoryMirror) in step with its memories:
// after every turn of a session that works in a workspace folder — once its tool writes and note
// blocks are stored — the mirror is rewritten if the memories changed. Off the turn's path (the
// turn never waits for it), one refresh per workspace at a time (a request meanwhile runs once more
// after it), never throws. A refusal (a person's own Memory.md, say) is logged when it first occurs.
import { GLOBAL_WORKSPACE, refreshMemoryMirror, type Engine, type MirrorOutcome, type WorkspaceRegistry } from '@engram/engine';
import type { HostLogger, HostSession } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';

export interface MemoryMirrorDeps {
  engine(): Engine | null;
  registry(): Pick<WorkspaceRegistry, 'get'> | null;
  workspace(session: HostSession): Promise<string>;
  log: HostLogger;
}

export class MemoryMirrors {
  private readonly pending = new Set<Promise<void>>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly lastStatus = new Map<string, string>();

  constructor(private readonly deps: MemoryMirrorDeps) {}

  /** Refresh the mirror of the session's workspace in the background. */
  schedule(session: HostSession): void {
    const job: Promise<void> = this.deps
      .workspace(session)
      .then((id) => this.refresh(id))
      .catch((error: unknown) => this.deps.log.warn(`Memory.md: ${errorText(error)}`))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once nothing is scheduled or running (tests wait on it). */
  async idle(): Promise<void> {
    while (this.pending.size > 0 || this.running.size > 0) await Promise.all([...this.pending, ...this.running.values()]);
  }

  private refresh(workspace: string): Promise<void> {
    if (workspace === GLOBAL_WORKSPACE) return Promise.resolve();
    const current = this.running.get(workspace);
    if (current) {
      this.again.add(workspace);
      return current;
    }
    const run = (async () => {
      do {
        this.again.delete(workspace);
        await this.once(workspace);
      } while (this.again.has(workspace));
    })().finally(() => this.running.delete(workspace));
    this.running.set(workspace, run);
    return run;
  }

  private async once(workspace: string): Promise<void> {
    const engine = this.deps.engine();
    const registry = this.deps.registry();
    if (!engine || !registry) return;
    try {
      const row = await registry.get(workspace);
      if (!row) return;
      const outcome = await refreshMemoryMirror(engine, { id: row.id, name: row.name, path: row.path });
      this.report(workspace, outcome);
    } catch (error) {
      this.deps.log.warn(`Memory.md of workspace ${workspace}: ${errorText(error)}`);
    }
  }

  private report(workspace: string, outcome: MirrorOutcome): void {
    const { log } = this.deps;
    if (outcome.status === 'written') log.info(`Memory.md written: ${outcome.path} (${outcome.listed} memories)`);
    else if (outcome.status !== 'unchanged' && this.lastStatus.get(workspace) !== outcome.status) {
      const line = `Memory.md of workspace ${workspace} not written (${outcome.status}): ${outcome.path || '(no folder)'}`;
      if (outcome.status === 'foreign' || outcome.status === 'failed' || outcome.status === 'inside-diary') log.warn(line);
      else log.info(line);
    }
    this.lastStatus.set(workspace, outcome.status);
  }
}
