// Live pick-up of changes made outside Engram (a text editor, git pull, Syncthing, a network share):
// a recursive fs.watch on the diary folder, debounced, plus a periodic manifest check as a fallback
// for what watching misses (network file systems, events dropped under load, a watcher error).
// Either one only triggers; what changed is always decided by the manifest check in the indexer.
import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import { isTempFileName } from '../diary/fsio.ts';

export interface WatchOptions {
  /** Quiet time after the last file event before syncing (editors write in bursts). Default 300 ms. */
  debounceMs?: number;
  /** Period of the fallback check, ms (0 = none). Default 30 s. */
  intervalMs?: number;
  /** Use file-system events (default true); false leaves only the periodic check. */
  events?: boolean;
}

export type SyncTrigger = 'event' | 'poll';

export class DiaryWatcher {
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private interval: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again: SyncTrigger | null = null;
  private closed = false;
  /** Why file events are not used (the periodic check still runs), or null. */
  eventsUnavailable: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly sync: (trigger: SyncTrigger) => Promise<void>,
    private readonly options: WatchOptions = {},
  ) {}

  start(): this {
    if (this.options.events ?? true) {
      try {
        this.watcher = watch(this.dir, { recursive: true, persistent: false }, (_event, filename) => {
          const name = filename ? basename(String(filename)) : '';
          // Our own atomic writes go through temp files; dot-files are never diaries.
          if (name && (name.startsWith('.') || isTempFileName(name))) return;
          this.schedule();
        });
        this.watcher.on('error', (e) => {
          this.eventsUnavailable = e instanceof Error ? e.message : String(e);
          this.watcher?.close();
          this.watcher = null;
        });
      } catch (e) {
        this.eventsUnavailable = e instanceof Error ? e.message : String(e);
      }
    } else this.eventsUnavailable = 'file events turned off';
    const every = this.options.intervalMs ?? 30_000;
    if (every > 0) {
      this.interval = setInterval(() => void this.trigger('poll'), every);
      this.interval.unref();
    }
    return this;
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.trigger('event');
    }, this.options.debounceMs ?? 300);
    this.timer.unref();
  }

  /** Runs one sync; a trigger arriving meanwhile runs one more after it (never two at once). */
  trigger(reason: SyncTrigger): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = this.again === 'event' ? 'event' : reason;
      return this.running;
    }
    this.running = this.sync(reason)
      .catch(() => {}) // the sync callback logs and records its own failures
      .finally(() => {
        this.running = null;
        const next = this.again;
        this.again = null;
        if (next && !this.closed) void this.trigger(next);
      });
    return this.running;
  }

  /** Resolves once no sync is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
  }
}
