// Bounded concurrency plus a minimum interval between request starts, and a shared cool-down that
// a 429 puts on every request (the gateway limits the key, not the batch that hit it).

export class AbortedError extends Error {
  constructor(message = 'aborted') {
    super(message);
    this.name = 'AbortError';
  }
}

/** setTimeout as a promise that rejects with AbortedError when `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PacerOptions {
  concurrency: number;
  minIntervalMs: number;
  now?: () => number;
}

export class RequestPacer {
  readonly concurrency: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private inFlight = 0;
  private lastStart = -Infinity;
  private pausedUntil = -Infinity;
  private readonly waiters = new Set<() => void>();

  constructor(opts: PacerOptions) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency));
    this.minIntervalMs = Math.max(0, opts.minIntervalMs);
    // Monotonic: a wall-clock adjustment must not release or hold requests.
    this.now = opts.now ?? (() => performance.now());
  }

  get active(): number {
    return this.inFlight;
  }

  /** Holds every request that has not started yet for `ms` from now. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  /** Waits for a free slot and the start interval; returns the release function. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) throw new AbortedError();
      if (this.inFlight < this.concurrency) {
        const readyAt = Math.max(this.lastStart + this.minIntervalMs, this.pausedUntil);
        const now = this.now();
        if (now >= readyAt) {
          this.inFlight++;
          this.lastStart = now;
          let released = false;
          return () => {
            if (released) return;
            released = true;
            this.inFlight--;
            for (const wake of [...this.waiters]) wake();
          };
        }
        await sleep(readyAt - now, signal);
        continue;
      }
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          this.waiters.delete(wake);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.waiters.delete(wake);
          reject(new AbortedError());
        };
        this.waiters.add(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
