// Live pick-up of changes made outside Engram (a text editor, git pull, Syncthing, a network share):
// file events on the diary folder, coalesced into one sync per burst that names the changed files,
// plus a periodic manifest check as a fallback for what watching misses (network file systems,
// events dropped under load, a watcher error). What changed in a named file is decided by its hash
// in the indexer; a manifest scan compares every file's (size, mtime) with the index.
//
// Why not `fs.watch(dir, { recursive: true })` everywhere: on Linux node implements it in
// JavaScript, with a watcher per file and a synchronous re-read of the whole folder for every event
// in it — 10,000 files arriving at once cost ~10,000 × 10,000 directory entries on the event loop and
// froze a console for minutes. There one watcher per folder (inotify names the file that changed)
// costs O(1) per event; macOS and Windows watch a tree natively and keep `recursive`.
import fs, { type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isTempFileName } from '../diary/fsio.ts';

export interface WatchOptions {
  /** Quiet time after the last file event before syncing (editors and sync tools write in bursts). Default 300 ms. */
  debounceMs?: number;
  /** A burst that never goes quiet is still synced this long after its first event. Default 5 s. */
  maxWaitMs?: number;
  /** Changed files held for the next sync; beyond this the sync is one manifest scan of the folder. Default 5,000. */
  maxPending?: number;
  /** Period of the fallback check, ms (0 = none). Default 30 s. */
  intervalMs?: number;
  /** Use file-system events (default true); false leaves only the periodic check. */
  events?: boolean;
}

export type SyncTrigger = 'event' | 'poll';

/**
 * One sync: the diary paths (relative to the folder, `/`-separated) that file events named, or
 * null for a manifest scan of the whole folder (the periodic check, a folder created, moved or
 * removed, an overflowing queue).
 */
export type SyncFn = (trigger: SyncTrigger, paths: string[] | null) => Promise<void>;

/** The file types the indexer reads (diary/store.ts lists the same). */
const DIARY_NAME = /\.(txt|md)$/i;

/** Whether an event's path is one the scanner never reads: a dot-file or dot-folder, or our own temp file. */
const ignored = (segments: string[]): boolean => segments.some((s) => s.startsWith('.') || isTempFileName(s));

/** Platforms whose recursive fs.watch is native (FSEvents, ReadDirectoryChangesW). */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

export class DiaryWatcher {
  /** The recursive watcher (macOS, Windows), or one watcher per folder keyed by its absolute path. */
  private tree: FSWatcher | null = null;
  private readonly folders = new Map<string, FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private interval: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Changed diary paths since the last sync started (bounded by maxPending). */
  private readonly pending = new Set<string>();
  /** The next sync is a manifest scan: a folder changed, the queue overflowed, or the check is due. */
  private scanNeeded = false;
  private pollDue = false;
  private burstStart = 0;
  private lastEvent = 0;
  /** Why file events are not used (the periodic check still runs), or null. */
  eventsUnavailable: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly sync: SyncFn,
    private readonly options: WatchOptions = {},
  ) {}

  start(): this {
    this.watchEvents();
    const every = this.options.intervalMs ?? 30_000;
    if (every > 0) {
      this.interval = setInterval(() => void this.trigger('poll'), every);
      this.interval.unref();
    }
    return this;
  }

  /** Watches the folder's file events, unless they are turned off; a failure leaves the periodic check. */
  private watchEvents(): void {
    if (!(this.options.events ?? true)) {
      this.eventsUnavailable = 'file events turned off';
      return;
    }
    this.eventsUnavailable = null;
    try {
      if (NATIVE_RECURSIVE) {
        this.tree = fs.watch(this.dir, { recursive: true, persistent: false }, (_event, filename) => this.noteTreeEvent(filename ? String(filename) : null));
        this.tree.on('error', (e) => this.eventsFailed(e));
      } else this.followFolder(this.dir);
    } catch (e) {
      this.eventsFailed(e);
    }
  }

  /**
   * The folder was gone and is back (a remount, a restore from the trash): the watchers held the
   * folder that went and see nothing of this one, so they are made again, and one scan compares what
   * came back with the index (nothing was synced while it was away). Resolves once no sync runs; a
   * caller inside the sync callback must not wait for it.
   */
  folderBack(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closeWatchers();
    this.watchEvents();
    return this.trigger('event');
  }

  private eventsFailed(e: unknown): void {
    this.eventsUnavailable = e instanceof Error ? e.message : String(e);
    this.closeWatchers();
  }

  /** An event of the native recursive watcher: a path relative to the folder, or null when it named none. */
  private noteTreeEvent(filename: string | null): void {
    const segments = filename ? filename.split(/[\\/]+/).filter(Boolean) : [];
    if (segments.length > 0 && ignored(segments)) return;
    // A name that is not a diary may be a folder created, moved or removed: its files are found by a scan.
    if (segments.length === 0 || !DIARY_NAME.test(segments.at(-1)!)) this.noteChange(null);
    else this.noteChange(segments.join('/'));
  }

  /** Watches a folder and every folder under it (one watcher each); a folder that cannot be watched is left to the periodic check. */
  private followFolder(abs: string): void {
    if (this.closed || this.folders.has(abs)) return;
    let watcher: FSWatcher;
    try {
      watcher = fs.watch(abs, { persistent: false }, (_event, name) => this.noteFolderEvent(abs, name ? String(name) : null));
    } catch (e) {
      if (abs === this.dir) throw e;
      this.noteChange(null); // gone already, or out of watches: the scan sees what is there
      return;
    }
    watcher.on('error', (e) => {
      if (abs === this.dir) this.eventsFailed(e);
      else this.unfollow(abs); // the folder went away (its removal is an event in its parent)
    });
    this.folders.set(abs, watcher);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && !ignored([e.name])) this.followFolder(join(abs, e.name));
  }

  /** Stops watching a folder and the folders under it. */
  private unfollow(abs: string): void {
    for (const [path, watcher] of this.folders)
      if (path === abs || path.startsWith(abs + sep)) {
        watcher.close();
        this.folders.delete(path);
      }
  }

  /** An event in one watched folder: `name` is the entry in it that changed. */
  private noteFolderEvent(folder: string, name: string | null): void {
    if (!name) return this.noteChange(null);
    const abs = join(folder, name);
    const segments = relative(this.dir, abs).split(sep);
    if (ignored(segments)) return;
    if (DIARY_NAME.test(name)) return this.noteChange(segments.join('/'));
    // Not a diary: a folder created or moved in (follow it; the files already in it raised no events
    // of ours), or removed or moved out (stop following it) — either way a scan finds its files.
    let isFolder = false;
    try {
      isFolder = fs.statSync(abs).isDirectory();
    } catch {
      isFolder = false;
    }
    if (isFolder) {
      this.followFolder(abs);
      this.noteChange(null);
    } else if (this.folders.has(abs)) {
      this.unfollow(abs);
      this.noteChange(null);
    }
  }

  /** Records a changed path (null: scan the folder) and arms the sync for when the burst goes quiet. */
  private noteChange(path: string | null): void {
    if (this.closed) return;
    if (path === null || this.pending.size >= (this.options.maxPending ?? 5_000)) {
      this.scanNeeded = true;
      this.pending.clear(); // the scan covers them
    } else if (!this.scanNeeded) this.pending.add(path);
    const now = performance.now();
    if (this.burstStart === 0) this.burstStart = now;
    this.lastEvent = now;
    // One timer per burst, not one per event: it checks the quiet time when it fires.
    if (!this.timer && !this.running) this.arm(this.options.debounceMs ?? 300);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = performance.now();
      const quietFor = now - this.lastEvent;
      const debounce = this.options.debounceMs ?? 300;
      if (quietFor >= debounce || now - this.burstStart >= (this.options.maxWaitMs ?? 5_000)) this.kick();
      else this.arm(debounce - quietFor);
    }, Math.max(1, ms));
    this.timer.unref();
  }

  /** Starts the next sync if none runs and there is something to do. */
  private kick(): void {
    if (this.running || this.closed) return;
    const scan = this.pollDue || this.scanNeeded;
    if (!scan && this.pending.size === 0) return;
    const trigger: SyncTrigger = this.pollDue ? 'poll' : 'event';
    const paths = scan ? null : [...this.pending];
    this.pending.clear();
    this.scanNeeded = this.pollDue = false;
    this.burstStart = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.sync(trigger, paths)
      .catch(() => {}) // the sync callback logs and records its own failures
      .finally(() => {
        this.running = null;
        if (this.closed) return;
        // A check that came due meanwhile runs now; events that came in meanwhile wait for their burst to go quiet.
        if (this.pollDue) this.kick();
        else if (this.pending.size > 0 || this.scanNeeded) {
          this.burstStart = this.burstStart || performance.now();
          this.arm(this.options.debounceMs ?? 300);
        }
      });
  }

  /** Runs a manifest scan now, or right after the sync that runs (never two at once); resolves when no sync runs. */
  async trigger(reason: SyncTrigger): Promise<void> {
    if (this.closed) return;
    if (reason === 'poll') this.pollDue = true;
    else this.scanNeeded = true;
    this.kick();
    await this.idle();
  }

  /** Changed files waiting for the next sync (0 when the next one is a scan). */
  pendingCount(): number {
    return this.pending.size;
  }

  /** Whether a sync is waiting for its burst to go quiet (or for the running one to end). */
  waiting(): boolean {
    return this.pending.size > 0 || this.scanNeeded || this.pollDue;
  }

  /** Resolves once no sync is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private closeWatchers(): void {
    this.tree?.close();
    this.tree = null;
    for (const watcher of this.folders.values()) watcher.close();
    this.folders.clear();
  }

  close(): void {
    this.closed = true;
    this.closeWatchers();
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
  }
}
