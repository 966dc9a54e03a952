// The index domain (#18, the console's index router): full and incremental runs (files → rows →
// vectors) under the writer lock, re-indexing the files a write touched, the live pick-up of outside
// changes, and the vector integrity sample. Keeps the live in-memory index in step after each run.
import { bumpGeneration, chunkTextsByIds, corpusCounts, isUnreachable, loadChunkTexts } from '@engram/db';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IndexProgress, IndexReport } from '../api.ts';
import { goneDiaryIndexError } from '../diary/errors.ts';
import { isDirectorySync } from '../diary/files.ts';
import { processAlive } from '../diary/lock.ts';
import { sweepOrphanTemps } from '../diary/fsio.ts';
import { asDatabaseOutage, databaseBusyError, databaseUnreachableError, errorMessage, isDatabaseBusy } from '../errors.ts';
import type { EngineState } from '../runtime/state.ts';
import { changedDiaryPaths, runIndex, type IndexRunResult } from './indexer.ts';
import { docIdOfChunk } from '../semantic/chunk-id.ts';
import { DiaryWatcher, type SyncTrigger, type WatchOptions } from './watcher.ts';

export interface IndexRunOptions {
  full?: boolean;
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  lockWaitMs?: number;
  /** Only these diary paths (relative to the folder): the files a burst of events named. */
  paths?: string[];
  /**
   * An incremental run embeds its new chunks after it releases the writer lock (the fill): `wait`
   * (default: `engram index`, the console's embed step) resolves once they are embedded, with the
   * fill's counts in the report; `background` once the rows and the lexical index are stored.
   */
  embed?: 'wait' | 'background';
}

export interface LiveSyncState {
  watching: boolean;
  /** File events in use (false: only the periodic check). */
  events: boolean;
  lastSyncAt: string | null;
  lastTrigger: SyncTrigger | null;
  /** Files added, updated or removed by the last sync. */
  lastChanges: number;
  lastError: string | null;
  /** A sync is under way (the manifest check or the index pass). */
  running: boolean;
  /** Index passes the live sync has started (one per burst of file events, one per changed check). */
  passes: number;
  /**
   * Where the running pass is (files stored of how many, the phase); the last pass's end once it is
   * done. While vectors are filled in after a pass: phase 'embed', chunks embedded of how many.
   */
  progress: IndexProgress | null;
  /** Changed files waiting for the next pass (their burst has not gone quiet yet, or a pass runs). */
  pending: number;
}

/** The diary folder found gone: where it was expected, and since when (ISO time) this engine has found it so. */
export interface DiaryFolderGone {
  dir: string;
  since: string;
}

export class IndexService {
  /** Resident memories the last run found (config.runtime.memories come first). */
  resident: { text: string; critical: boolean }[] = [];
  /** Warnings of the last run that failed (shown by status until the next run succeeds). */
  lastIndexWarnings: string[] = [];
  /** Diary paths written while the database server was unreachable: indexed with the next write or sync. */
  readonly pendingIndexPaths = new Set<string>();
  private syncState: Omit<LiveSyncState, 'pending'> = { watching: false, events: false, lastSyncAt: null, lastTrigger: null, lastChanges: 0, lastError: null, running: false, passes: 0, progress: null };
  private watcher: DiaryWatcher | null = null;
  /** Documents whose chunks wait for the fill ('all': every chunk without a vector). */
  private fillQueue: Set<string> | 'all' | null = null;
  private fillRun: Promise<void> | null = null;
  private readonly fillAbort = new AbortController();
  private fillProgress: IndexProgress | null = null;
  private readonly fillListeners = new Set<(p: IndexProgress) => void>();
  /** What every fill since the open embedded (a waiting run reports its share). */
  private fillTotals = { embedded: 0, reused: 0, degradedBatches: 0, warnings: [] as string[] };
  /** When this engine found the diary folder gone; null while it is there (see diaryFolderGone). */
  private diaryGoneSince: string | null = null;

  /** The live pick-up of outside changes: on or off, when it last synced and what it found, where a running pass (or the fill) is. */
  get liveSync(): LiveSyncState {
    const filling = this.fillRun !== null;
    const progress = !this.syncState.running && filling && this.fillProgress ? this.fillProgress : this.syncState.progress;
    return { ...this.syncState, running: this.syncState.running || filling, progress, pending: this.watcher?.pendingCount() ?? 0 };
  }

  /**
   * The diary folder, when it is gone (deleted, moved away, its drive unmounted), else null: one stat,
   * so recall asks before every query and the live sync before every pass rather than wait for a scan
   * to fail. While it is gone the index is left exactly as it is (nothing removed, nothing rebuilt), so
   * a folder that comes back (a remount) is answered from at once; its going and its return are logged
   * once each, not per call. On its return the watcher follows the new folder and scans it, so what
   * changed meanwhile is indexed by the ordinary sync. An engine that reads another machine's index
   * (remote mode) has no folder of its own to miss.
   */
  diaryFolderGone(): DiaryFolderGone | null {
    const s = this.s;
    if (s.indexOwner) return null;
    const dir = s.config.diaryDir;
    // Not there, or not reachable (a drive gone): either way there are no diary files to show.
    if (isDirectorySync(dir)) {
      if (this.diaryGoneSince !== null) {
        this.diaryGoneSince = null;
        s.log('info', 'diary folder is back: recall resumed', { diaryDir: dir });
        if (this.watcher) {
          // Not awaited: the live sync itself may be the caller, and the scan waits for it to end.
          void this.watcher.folderBack();
          this.syncState = { ...this.syncState, events: this.watcher.eventsUnavailable === null };
        }
      }
      return null;
    }
    if (this.diaryGoneSince === null) {
      this.diaryGoneSince = new Date().toISOString();
      s.log('warn', 'diary folder is missing: recall is paused until it is back (the index is kept)', { diaryDir: dir });
    }
    return { dir, since: this.diaryGoneSince };
  }

  /** Resolves once the vectors of every pass so far are filled in (or the fill stopped: a close, a fault). */
  async vectorsSettled(): Promise<void> {
    while (this.fillRun) await this.fillRun;
  }

  constructor(private readonly s: EngineState) {}

  async run(opts: IndexRunOptions = {}): Promise<IndexReport> {
    if (opts.embed === 'background') return this.pass(opts, true) as Promise<IndexReport>;
    // Counted from before the pass: the fill it queues (or joins) is this run's embedding.
    const before = { ...this.fillTotals };
    const t0 = performance.now();
    const listener = (p: IndexProgress) => opts.onProgress?.(p);
    this.fillListeners.add(listener);
    try {
      const report = (await this.pass(opts, true)) as IndexReport;
      if (!this.fillRun) return report;
      await this.vectorsSettled();
      const t = this.fillTotals;
      const { chunks } = await corpusCounts(this.s.db);
      return {
        ...report,
        chunks,
        // The run's whole time, the embedding included (`engram index` prints it).
        ms: Math.round(performance.now() - t0),
        warnings: [...report.warnings, ...t.warnings.slice(before.warnings.length)],
        semantic: {
          ...report.semantic,
          embedded: report.semantic.embedded + t.embedded - before.embedded,
          reused: report.semantic.reused + t.reused - before.reused,
          degradedBatches: report.semantic.degradedBatches + t.degradedBatches - before.degradedBatches,
        },
      };
    } finally {
      this.fillListeners.delete(listener);
    }
  }

  /** A run; with `counts` false the report has no corpus counts (two counting queries, ~70 ms at 50,000 notes, that the sync on open never reads). */
  private pass(opts: IndexRunOptions, counts: boolean): Promise<Omit<IndexReport, 'documents' | 'chunks'>> {
    const s = this.s;
    let later: IndexRunResult['embedLater'] = null;
    return s.exclusive(async () => {
      // Nothing to compare the index with while the folder is gone: a pass would drop every document
      // (or, on a drive unmounted, fail with a mistyped folder's "create it"). Refused; the index waits.
      const gone = this.diaryFolderGone();
      if (gone) throw goneDiaryIndexError(gone.dir);
      const result: IndexRunResult = await runIndex(
        {
          db: s.db, config: s.config, tokenizer: s.tokenizer, semantic: s.semantic, onProgress: opts.onProgress, signal: opts.signal, now: s.options.now,
          indexedFiles: () => this.indexedFiles(),
          deferEmbed: true,
        },
        opts.full ? 'full' : 'incremental',
        opts.paths,
      );
      this.resident = result.resident;
      this.lastIndexWarnings = [];
      // After a full pass a one-shot command (preload off: `engram index`) loads the index only if
      // it needs it again, from the snapshot the pass saved: loading it right away cost a
      // 50,000-document build ~120 MB of peak memory and every row listed again.
      if (opts.full && s.options.preload === false) s.live.invalidate();
      else if (opts.full) await s.live.load(s.db);
      else await s.live.reloadDocuments(s.db, [...result.changedDocIds, ...(await this.missedWrites(result.checkedUnchanged))]);
      // A full pass logs no change list: the next recall compares every version. An incremental
      // pass logged what it changed (already reloaded here), so the live index keeps the
      // generation it was at and the next recall catches up through the log, or finds nothing
      // when the pass changed nothing (a 50,000-note open: ~0.4 s of listing saved).
      if (opts.full) s.live.generation = -1;
      later = result.embedLater;
      const { changedDocIds: _c, checkedUnchanged: _u, resident: _r, embedLater: _e, ...report } = result;
      if (!counts) return report;
      const { documents, chunks } = await corpusCounts(s.db);
      return { ...report, documents, chunks };
    }, opts.lockWaitMs).then(
      (report) => {
        // The lock is released: lexical recall has the new notes; their vectors follow.
        this.queueFill(later);
        return report;
      },
      (e: unknown) => {
        // A server gone mid-pass said only "fetch failed": name it, its address and what to do.
        throw asDatabaseOutage(e, s.database.url);
      },
    );
  }

  /** Queues these documents' chunks (or every chunk without a vector) for the fill, and starts it if it is not running. */
  private queueFill(later: IndexRunResult['embedLater']): void {
    const s = this.s;
    // A one-shot command leaves the embedding to whoever holds the index (semantic/channel-types.ts ModelLoading).
    if (later === null || this.fillAbort.signal.aborted || s.options.model?.embedLater === true || !s.semantic?.fill) return;
    if (later === 'all' || this.fillQueue === 'all') this.fillQueue = 'all';
    else {
      this.fillQueue ??= new Set();
      for (const id of later) this.fillQueue.add(id);
    }
    this.fillRun ??= this.fill().finally(() => {
      this.fillRun = null;
      this.fillProgress = null;
    });
  }

  /**
   * Embeds the queued chunks outside the writer lock, a batch at a time; each batch's vectors are
   * stored under the lock, for the chunks still there as they were embedded (semantic/channel.ts
   * fill). A close stops it between batches; what it had not stored is found by the next open
   * (vectors behind the chunks: the open's pass queues them all).
   */
  private async fill(): Promise<void> {
    const s = this.s;
    const signal = this.fillAbort.signal;
    await nextTurn(); // the caller returns first (an open becomes ready; a write answers)
    while (this.fillQueue !== null && !signal.aborted) {
      const queued = this.fillQueue;
      this.fillQueue = null;
      const semantic = s.semantic;
      if (!semantic?.fill) return;
      try {
        const chunks = queued === 'all' ? await loadChunkTexts(s.db) : await loadChunkTexts(s.db, [...queued]);
        if (signal.aborted) return;
        const report = await semantic.fill(chunks, {
          signal,
          onProgress: (done, total) => {
            this.fillProgress = { phase: 'embed', done, total };
            for (const l of this.fillListeners) l(this.fillProgress);
          },
          commit: (ids, write) => {
            if (signal.aborted) return Promise.resolve(0);
            return s.exclusive(async () => {
              if (signal.aborted) return 0;
              const wanted = new Set(ids);
              const current = await loadChunkTexts(s.db, [...new Set(ids.map(docIdOfChunk))]);
              return write(current.filter((c) => wanted.has(c.id)));
            });
          },
        });
        const degraded = report.degradedBatches as { index?: number; size?: number; reason?: string }[];
        this.fillTotals = {
          embedded: this.fillTotals.embedded + report.embedded,
          reused: this.fillTotals.reused + report.reused,
          degradedBatches: this.fillTotals.degradedBatches + degraded.length,
          warnings: [
            ...this.fillTotals.warnings,
            ...degraded.map((b) => `semantic batch ${b.index} (${b.size} chunk${b.size === 1 ? '' : 's'}) degraded: ${b.reason}; those chunks are found lexically until the next index run embeds them`),
          ],
        };
        if (report.skipped) return; // the channel cannot embed now (off, failing, or left to another process)
      } catch (e) {
        if (signal.aborted) return;
        // Another writer holding the lock, a database gone: the chunks stay without vectors until the next pass.
        this.lastIndexWarnings = [...this.lastIndexWarnings, `filling in vectors stopped: ${errorMessage(e)}`];
        s.log('warn', 'filling in vectors stopped', { error: errorMessage(e) });
        return;
      }
    }
  }

  /**
   * The indexed files for the manifest check, from the in-memory index brought up to date (a
   * one-shot command loads it here rather than on its first query; it needs it either way), or
   * null to list the table: a remote database's index (no snapshot), or one that could not load.
   */
  private async indexedFiles(): Promise<Map<string, { size: number; mtimeMs: number }> | null> {
    const s = this.s;
    if (s.live.snapshotFile() === null) return null;
    try {
      await s.live.refreshIfStale(s.db);
      return s.live.unreachable ? null : s.live.indexedDiaryFiles();
    } catch {
      return null; // the table is listed instead
    }
  }

  /**
   * Documents the database holds otherwise than the in-memory index, though this pass found their
   * files as stored: a writer killed after storing rows and before bumping the generation left every
   * process that loaded the snapshot without them. They are announced again (a generation with their
   * ids), so other processes reload them too, and returned for this one to reload.
   */
  private async missedWrites(checked: Map<string, string | null>): Promise<string[]> {
    const s = this.s;
    const missed = [...checked].filter(([id, hash]) => (s.live.doc(id)?.contentHash ?? null) !== hash).map(([id]) => id);
    if (missed.length > 0) {
      s.log('warn', 'the index had missed stored documents (a writer stopped before announcing them): reloaded', { documents: missed.length });
      await bumpGeneration(s.db, missed);
    }
    return missed;
  }

  /** The incremental run at open; a failure is a status warning, not a refusal to open. */
  async syncOnOpen(onProgress?: IndexRunOptions['onProgress']): Promise<void> {
    // Opened over the data dir's own folder gone (engine.ts startEngine): nothing to compare with, so
    // the index is left as it is for the folder's return, as the live sync leaves it.
    if (this.diaryFolderGone()) return;
    // Temp files of writers killed mid-write: never read, but they would pile up.
    await sweepOrphanTemps(this.s.config.diaryDir, processAlive).catch(() => 0);
    try {
      // Another process holding the writer lock is indexing the same files: do not hold up
      // the host's start waiting for it (the next write or refresh catches up).
      await this.pass({ full: false, lockWaitMs: 3_000, onProgress }, false);
    } catch (e) {
      // A bad diary folder must not stop the engine from answering with what is indexed.
      this.lastIndexWarnings = [`index on open failed: ${errorMessage(e)}`];
      this.s.log('warn', 'index on open failed', { error: errorMessage(e) });
    }
  }

  /** Re-indexes the given diary files after a write (a path that no longer exists is dropped). Call inside `exclusive`. */
  async reindexPaths(paths: string[]): Promise<void> {
    const s = this.s;
    const all = [...new Set([...this.pendingIndexPaths, ...paths])];
    let result: IndexRunResult;
    try {
      result = await runIndex({ db: s.db, config: s.config, tokenizer: s.tokenizer, semantic: s.semantic, now: s.options.now, deferEmbed: true }, 'incremental', all);
    } catch (e) {
      const busy = isDatabaseBusy(e);
      if (!busy && !isUnreachable(e)) throw e;
      // The file is written (the files are the truth); only its index entry waits for the server,
      // or for the process that holds the database locked. Said as saved: a caller told "failed"
      // would write it again.
      for (const p of all) this.pendingIndexPaths.add(p);
      throw busy ? databaseBusyError(e, paths) : databaseUnreachableError(s.database.url, e, paths);
    }
    this.pendingIndexPaths.clear();
    // Re-read the counter on the next recall: it finds what a failed reload missed by version.
    s.live.generation = -1;
    await s.live.reloadDocuments(s.db, result.changedDocIds).catch((e: unknown) => {
      throw asDatabaseOutage(e, s.database.url, paths);
    });
    // Embedded after the write's lock is released (the fill waits for it).
    this.queueFill(result.embedLater);
  }

  /** Cosine of a few stored vectors against fresh embeddings of their chunks (a changed model shows here). */
  async integrityCheck(sampleSize = 5): Promise<{ checked: number; minCos: number; ok: boolean; reason?: string }> {
    const s = this.s;
    if (!s.semantic || s.semantic.status().state !== 'ready') return { checked: 0, minCos: 0, ok: false, reason: 'semantic channel is not ready' };
    const ids = [...s.live.chunkDoc.keys()];
    const sample: string[] = [];
    for (let i = 0; i < Math.min(sampleSize, ids.length); i++) sample.push(ids[Math.floor((i * ids.length) / Math.min(sampleSize, ids.length))]!);
    const texts = await chunkTextsByIds(s.db, sample);
    return s.semantic.integrityCheck([...texts.entries()].map(([id, text]) => ({ id, text })));
  }

  /**
   * Notices diaries created, edited, moved or deleted outside Engram (an editor, a sync tool) and
   * indexes them incrementally: file events (one pass per burst, over the files it named) plus a
   * periodic manifest check. Idempotent.
   */
  watch(options: WatchOptions & { onSync?: (report: IndexReport) => void } = {}): DiaryWatcher {
    if (this.watcher) return this.watcher;
    const s = this.s;
    const sync = async (trigger: SyncTrigger, named: string[] | null) => {
      if (s.database.readOnly) return;
      // Nothing to compare with while the folder is gone (its files' events named them as removed):
      // the index waits for it as it is, and its return starts a scan (diaryFolderGone).
      if (this.diaryFolderGone()) return;
      this.syncState = { ...this.syncState, running: true };
      try {
        // The files to look at: those the events named, or what the manifest check finds changed
        // (stats only, so an idle folder costs no lock); null when it cannot tell (the pass scans).
        const changed = named ?? (await changedDiaryPaths(s.db, s.config, await this.indexedFiles()))?.paths ?? null;
        if (changed && changed.length === 0 && this.pendingIndexPaths.size === 0) return;
        const paths = changed && [...new Set([...this.pendingIndexPaths, ...changed])];
        this.syncState = { ...this.syncState, passes: this.syncState.passes + 1, progress: null };
        const report = await this.run({
          full: false,
          paths: paths ?? undefined,
          lockWaitMs: 2_000,
          embed: 'background',
          onProgress: (progress) => (this.syncState = { ...this.syncState, progress }),
        });
        for (const p of paths ?? [...this.pendingIndexPaths]) this.pendingIndexPaths.delete(p);
        const changes = report.added + report.updated + report.removed;
        this.syncState = { ...this.syncState, lastSyncAt: new Date().toISOString(), lastTrigger: trigger, lastChanges: changes, lastError: null };
        if (changes > 0) {
          s.log('info', 'diary folder changed outside Engram: index updated', { trigger, added: report.added, updated: report.updated, removed: report.removed });
          options.onSync?.(report);
        }
      } catch (e) {
        // Another writer holding the lock, an unreachable server: the next trigger tries again.
        // Files a burst named are kept for it (the next check would find them too, but only every 30 s).
        if (named) for (const p of named) this.pendingIndexPaths.add(p);
        this.syncState = { ...this.syncState, lastError: errorMessage(asDatabaseOutage(e, s.database.url)) };
        s.log('warn', 'live sync of the diary folder failed', { error: errorMessage(e) });
      } finally {
        this.syncState = { ...this.syncState, running: false };
      }
    };
    // A folder already gone when watching starts (an engine opened over it) cannot be watched: noticed
    // now, its return re-creates the watchers (diaryFolderGone → folderBack) rather than leave the
    // periodic check alone.
    this.diaryFolderGone();
    this.watcher = new DiaryWatcher(s.config.diaryDir, sync, options).start();
    this.syncState = { ...this.syncState, watching: true, events: this.watcher.eventsUnavailable === null };
    return this.watcher;
  }

  close(): void {
    this.fillAbort.abort();
    this.fillQueue = null;
    this.watcher?.close();
    this.watcher = null;
  }
}
