// The cordis-style event bus: one ordered listener list per event name, several dispatch modes.
// Waterfalls are how the host lets plugins rewrite its decisions, so their semantics are exact:
// each listener receives `(...args, next)`, the value it returns is what its caller sees, and a
// listener that never calls `next` vetoes everything after it (including the host's default).

export type Listener = (...args: any[]) => unknown;

export interface ListenerEntry {
  listener: Listener;
  /** Plugin name that registered it ('<host>' for the host's own listeners). */
  owner: string;
}

export interface BusReporter {
  error(where: string, owner: string, error: unknown): void;
  veto(event: string, owner: string): void;
  /** Promises of fire-and-forget listeners still running, so tests can wait for them. */
  track(promise: Promise<unknown>): void;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export class EventBus {
  private readonly table = new Map<string, ListenerEntry[]>();

  constructor(private readonly report: BusReporter) {}

  /** Adds a listener; returns an idempotent remover. */
  add(name: string, entry: ListenerEntry, prepend: boolean): () => void {
    const list = this.table.get(name) ?? [];
    if (prepend) list.unshift(entry);
    else list.push(entry);
    this.table.set(name, list);
    return () => {
      const current = this.table.get(name);
      const index = current?.indexOf(entry) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  /** A copy, so listeners added or removed during a dispatch do not disturb it. */
  listeners(name: string): ListenerEntry[] {
    return [...(this.table.get(name) ?? [])];
  }

  count(name: string): number {
    return this.table.get(name)?.length ?? 0;
  }

  /** Fire-and-forget: errors (sync or async) are recorded, never thrown to the caller. */
  emit(name: string, args: unknown[]): void {
    for (const entry of this.listeners(name)) {
      try {
        const result = entry.listener(...args);
        if (isThenable(result)) {
          this.report.track(
            Promise.resolve(result).then(undefined, (error) => this.report.error(name, entry.owner, error)),
          );
        }
      } catch (error) {
        this.report.error(name, entry.owner, error);
      }
    }
  }

  /** Listeners run one after another, each awaited; a failing listener is recorded and skipped. */
  async serial(name: string, args: unknown[]): Promise<void> {
    for (const entry of this.listeners(name)) {
      try {
        await entry.listener(...args);
      } catch (error) {
        this.report.error(name, entry.owner, error);
      }
    }
  }

  async parallel(name: string, args: unknown[]): Promise<void> {
    await Promise.all(
      this.listeners(name).map(async (entry) => {
        try {
          await entry.listener(...args);
        } catch (error) {
          this.report.error(name, entry.owner, error);
        }
      }),
    );
  }

  /** The first listener returning something other than undefined wins. */
  bail(name: string, args: unknown[]): unknown {
    for (const entry of this.listeners(name)) {
      const result = entry.listener(...args);
      if (result !== undefined) return result;
    }
    return undefined;
  }

  /**
   * Runs the chain outermost-first. Errors propagate to the caller (the host decides what a failed
   * waterfall means); a listener that resolves without calling `next` is reported as a veto.
   */
  waterfall(name: string, args: unknown[], fallback: () => unknown): Promise<unknown> {
    const entries = this.listeners(name);
    const run = (index: number): Promise<unknown> => {
      const entry = entries[index];
      if (!entry) return Promise.resolve().then(fallback);
      let downstream: Promise<unknown> | undefined;
      const next = () => (downstream ??= run(index + 1));
      return Promise.resolve()
        .then(() => entry.listener(...args, next))
        .then((value) => {
          if (downstream === undefined) this.report.veto(name, entry.owner);
          return value;
        });
    };
    return run(0);
  }
}
