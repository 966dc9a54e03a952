// The single-writer lock of a data directory. The console, the plugin and the CLI are separate
// processes on the same diary folder and database; an anchored edit reads a file and writes it back,
// so two writers interleaving lose one edit, and two "is this title taken?" checks both say no.
// Every write runs under this lock. A holder that died (kill -9, power cut) leaves the file behind:
// it is taken over when its process is gone. A holder on this machine whose process is alive is
// never taken over, however long its heartbeat has been quiet: the heartbeat is a timer, and a
// long synchronous step (a 50 s anchored search once) stops it while the holder is about to write —
// taking the lock then lost an acknowledged edit. Only a holder on another host (a shared folder),
// whose pid cannot be checked, is judged by its heartbeat, with a long timeout.
import { randomBytes } from 'node:crypto';
import { hostname, uptime } from 'node:os';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EngramError } from '../errors.ts';
import { fsCode, storageError } from './errors.ts';

export interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  /** ISO time the lock was taken. */
  since: string;
  /** What the holder is doing, for the "busy" message. */
  purpose: string;
}

export interface WriterLockOptions {
  /** Heartbeat period is a quarter of this (default 30 s); see foreignStaleMs. */
  staleMs?: number;
  /**
   * A holder on another host whose heartbeat is older than this is taken over (default 10 × staleMs,
   * 5 minutes). Holders on this host are judged by their pid only.
   */
  foreignStaleMs?: number;
  /** How long to wait for the holder before failing with `writer-busy` (default 120 s). */
  waitMs?: number;
  /** Poll interval while waiting (default 25 ms, growing to 250 ms). */
  retryMs?: number;
  /** Decides whether a pid on this host is alive; injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return fsCode(e) === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.nonce === 'string') {
      return { pid: o.pid, host: o.host, nonce: o.nonce, since: String(o.since ?? ''), purpose: String(o.purpose ?? '') };
    }
  } catch {
    // fall through: unreadable content
  }
  return null;
}

async function readOwner(path: string): Promise<{ owner: LockOwner | null; mtimeMs: number } | null> {
  try {
    const [text, st] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { owner: parseOwner(text), mtimeMs: st.mtimeMs };
  } catch (e) {
    if (fsCode(e) === 'ENOENT') return null;
    throw e;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class WriterLock {
  private readonly staleMs: number;
  private readonly foreignStaleMs: number;
  private readonly waitMs: number;
  private readonly retryMs: number;
  private readonly isAlive: (pid: number) => boolean;
  /** Takeovers done by this instance (reported in tests and the soak). */
  takeovers = 0;

  constructor(
    readonly path: string,
    options: WriterLockOptions = {},
  ) {
    this.staleMs = options.staleMs ?? 30_000;
    this.foreignStaleMs = options.foreignStaleMs ?? this.staleMs * 10;
    this.waitMs = options.waitMs ?? 120_000;
    this.retryMs = options.retryMs ?? 25;
    this.isAlive = options.isAlive ?? processAlive;
  }

  /**
   * Is this owner gone? On this host: only when its process no longer runs (or the lock predates
   * the last boot, so its pid may belong to someone else now). On another host: when its heartbeat
   * has been quiet for foreignStaleMs.
   */
  private isStale(found: { owner: LockOwner | null; mtimeMs: number }): boolean {
    const age = Date.now() - found.mtimeMs;
    if (!found.owner) return age > Math.min(this.staleMs, 2_000); // content never written: a crash between create and write
    if (found.owner.host === hostname()) {
      const bootedAt = Date.now() - uptime() * 1000;
      if (found.mtimeMs < bootedAt - 60_000) return true; // written before this machine last started
      return !this.isAlive(found.owner.pid);
    }
    return age > this.foreignStaleMs;
  }

  /** Creates the lock file atomically (temp + link), so it is never seen half-written. */
  private async tryCreate(owner: LockOwner): Promise<boolean> {
    const tmp = join(dirname(this.path), `.${basename(this.path)}.${owner.nonce}.tmp`);
    try {
      // Inside the try: on a full disk this fails after creating a 0-byte temp file.
      await writeFile(tmp, JSON.stringify(owner));
      await link(tmp, this.path);
      return true;
    } catch (e) {
      if (fsCode(e) === 'EEXIST') return false;
      throw storageError(e, this.path);
    } finally {
      await unlink(tmp).catch(() => {});
    }
  }

  /** Moves a stale lock aside; puts it back if it turned out to be a fresh one taken meanwhile. */
  private async takeOver(stale: LockOwner | null): Promise<void> {
    const aside = `${this.path}.stale-${randomBytes(4).toString('hex')}`;
    try {
      await rename(this.path, aside);
    } catch (e) {
      if (fsCode(e) === 'ENOENT') return; // someone else took it over first
      throw e;
    }
    const moved = await readOwner(aside);
    if (stale && moved?.owner && moved.owner.nonce !== stale.nonce) {
      // We moved a lock that a live process had just taken: give it back.
      await link(aside, this.path).catch(() => {});
    } else this.takeovers++;
    await unlink(aside).catch(() => {});
  }

  /** Waits for the lock (`waitMs` overrides the default wait); returns its release function. */
  async acquire(purpose = 'write', waitMs = this.waitMs): Promise<() => Promise<void>> {
    const owner: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex'), since: new Date().toISOString(), purpose };
    const deadline = Date.now() + waitMs;
    let delay = this.retryMs;
    let last: LockOwner | null = null;
    for (;;) {
      if (await this.tryCreate(owner)) break;
      const found = await readOwner(this.path);
      if (found === null) continue; // released between our attempt and the read
      last = found.owner;
      if (this.isStale(found)) {
        await this.takeOver(found.owner);
        continue;
      }
      if (Date.now() > deadline) {
        const who = last ? `process ${last.pid} on ${last.host} (${last.purpose}, since ${last.since})` : 'another process';
        throw new EngramError('writer-busy', `another Engram process is writing to this data folder: ${who}; try again shortly`, { lock: this.path });
      }
      await sleep(delay);
      delay = Math.min(250, Math.round(delay * 1.5));
    }

    // Heartbeat: a live holder keeps the file's mtime fresh, so only a dead one looks stale.
    const beat = setInterval(() => {
      const now = new Date();
      utimes(this.path, now, now).catch(() => {});
    }, Math.max(50, Math.floor(this.staleMs / 4)));
    beat.unref();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      clearInterval(beat);
      const found = await readOwner(this.path).catch(() => null);
      // Never remove a lock someone else holds (ours may have been taken over after a long stall).
      if (found?.owner?.nonce === owner.nonce) await unlink(this.path).catch(() => {});
    };
  }

  /**
   * Runs `fn` holding the lock. Every write runs here, so this is where a storage failure anywhere
   * in one (a diary file, the database's SQLITE_FULL) becomes a typed error the caller can show.
   */
  async run<T>(purpose: string, fn: () => Promise<T>, waitMs?: number): Promise<T> {
    const release = await this.acquire(purpose, waitMs);
    try {
      return await fn();
    } catch (e) {
      throw storageError(e);
    } finally {
      await release();
    }
  }
}
