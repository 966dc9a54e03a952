// Memory.md after the console's writes: a memory saved, pinned, archived or moved here changes its
// workspace's mirror (engine workspace/mirror.ts). The console does not know which workspace a write
// touched, so every known workspace is refreshed — a rewrite only where the memories changed — in
// the background (the answer never waits), one pass at a time, a request meanwhile running once more.
import { refreshAllMirrors, type Engine, type WorkspaceRegistry } from '@engram/engine';

export class ConsoleMirrors {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly engine: Engine,
    private readonly registry: Pick<WorkspaceRegistry, 'list'>,
  ) {}

  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await refreshAllMirrors(this.engine, this.registry);
        } catch (error) {
          console.warn(`Memory.md refresh failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no refresh is running (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

/** Mutations that change memories (and so a workspace's mirror). */
export const changesMemories = (path: string): boolean => /^(memories|archive)\./.test(path) || /^workspaces\.(acceptClaim|merge|moveMemory|rename)$/.test(path);
