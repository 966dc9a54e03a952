// The engine facade: one object per process that owns the database, the live index and the
// semantic channel, and offers every operation the CLI, the console and the plugin use. It decides
// nothing itself: each method hands over to the domain service that does (#18) —
//   memories/  reading and writing memories     recall/    recall and the injection block
//   index/     index runs, live sync            settings/  the saved overlay, save, refresh
//   status/    what `status` reports            runtime/   the state the services share
// (workspaces, past sessions, cross-session and compaction memory are services the adapters build
// over this facade: workspace/, sessions/, crosssession/, compaction/.)
import { openDatabase, type Database, type DocumentRow } from '@engram/db';
import { existsSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EngineStatus, IndexReport, MemoryDetail, MemorySummary, SaveSettingsResult, SettingsView, WriteInput, WriteResult } from './api.ts';
import { resolveBase, type ResolvedBase } from './config/resolve.ts';
import type { EngramConfig } from './config/schema.ts';
import { checkDiaryFolder, claimIndexOwner, indexOwnerId, isSharedDatabaseUrl, rememberDiaryFolder, remembersDiaryFolder } from './index/owner.ts';
import { IndexService, type DiaryFolderGone, type IndexRunOptions, type LiveSyncState } from './index/service.ts';
import type { LiveIndex } from './index/live.ts';
import type { DiaryWatcher, WatchOptions } from './index/watcher.ts';
import type { JudgeStatus } from './judge/judge.ts';
import type { Logger } from './log.ts';
import type { MemoryIndexPage, MetaPatch } from './memory-index.ts';
import { MemoryReaderService } from './memories/reader.ts';
import { MemoryWriterService } from './memories/writer.ts';
import type { EditResult, ListOptions } from './memories/ports.ts';
import type { RecallOptions } from './recall/pipeline.ts';
import { RecallService } from './recall/service.ts';
import type { RecallResult } from './recall/types.ts';
import { backgroundIdfTable } from './recall/background-idf.ts';
import { EngineState, type OpenEngineOptions } from './runtime/state.ts';
import type { MemoryLocate, MemorySegments } from './segments/api.ts';
import type { SemanticPort } from './semantic/port.ts';
import { ensureDiaryDir, loadOverlay, refuseMissingDiaryDir } from './settings/load.ts';
import { SettingsService } from './settings/service.ts';
import { StatusService } from './status/service.ts';
import type { SetSummaryResult, SummaryQueue, SummaryWriteSource } from './summaries/queue.ts';
import { detectTimeZone, ensureTimeZone, zoneShaped } from './timeq/timezone.ts';
import type { Tokenizer } from './types.ts';
import { ensureDataDir } from './security/install-token.ts';

export type { OpenEngineOptions } from './runtime/state.ts';
export type { LiveSyncState } from './index/service.ts';
export { MAX_QUERY_CHARS } from './recall/service.ts';

/**
 * `switchDiaryDir`: open a data dir with a diary folder other than the one it remembers, on purpose
 * (`engram --switch-diary-dir`, or ENGRAM_SWITCH_DIARY_DIR=1); without it such an open is refused.
 */
export async function openEngine(options: OpenEngineOptions & { switchDiaryDir?: boolean } = {}): Promise<Engine> {
  return (await startEngine(options)).ready;
}

/** An engine whose settings are read and whose index is still being opened. */
export interface OpeningEngine {
  /** The resolved settings (the data dir's saved overlay applied), known before the index opens. */
  readonly config: EngramConfig;
  /** The engine once its index is open and synced; rejects when opening fails (the database is then closed). */
  readonly ready: Promise<Engine>;
}

/**
 * Opens in two steps: the database and the settings (fast; a refusal such as a missing or swapped
 * diary folder throws here), then the index — loading, syncing with the files, the time zone, the
 * semantic channel — in `ready`. A host that must not wait for the second step (the plugin: a
 * host start) reads `config` and lets `ready` finish in the background.
 */
export async function startEngine(options: OpenEngineOptions & { switchDiaryDir?: boolean } = {}): Promise<OpeningEngine> {
  const env = options.env ?? process.env;
  const resolved = resolveBase(options);
  ensureDataDir(resolved.base.dataDir);
  // A corrupt database file is moved to backups/ and rebuilt from the diary files below.
  const db = await openDatabase({ url: resolved.base.databaseUrl, authToken: resolved.base.databaseAuthToken || undefined, recoverCorrupt: true });
  let engine: Engine;
  try {
    const { overlay, config, notes } = await loadOverlay(db, resolved, env);
    // The data dir's own folder gone (deleted, its drive unmounted): opened as a running engine meets
    // it — recall paused, writes refused, the index kept for its return (IndexService.diaryFolderGone)
    // — for every opener. Refusing it says "create it", wrong for an unmounted drive; creating it
    // empty made the sync drop every document. A folder it does not remember (a typo, a first run) is
    // refused or created as usual.
    const gone = !isSharedDatabaseUrl(db.url) && !existsSync(config.diaryDir) && (await remembersDiaryFolder(db.db, config.diaryDir));
    if (!gone) refuseMissingDiaryDir(config, resolved, options.createDiaryDir ?? false);
    // A shared database follows its owner's folder instead (below): other machines only read it.
    if (!isSharedDatabaseUrl(db.url))
      await checkDiaryFolder(db.db, config.diaryDir, { switchOnPurpose: options.switchDiaryDir === true || env.ENGRAM_SWITCH_DIARY_DIR === '1', writable: !db.readOnly });
    if (!gone) ensureDiaryDir(config, resolved, options.createDiaryDir ?? false);
    engine = new Engine(db, resolved, overlay, config, options);
    if (db.recovered) notes.push(`the database was corrupt (${db.recovered.reason}); it was moved to ${db.recovered.backup} and rebuilt from the diary files`);
    if (db.readOnly) notes.push(db.readOnly.reason);
    engine.dataWarnings = notes;
    if (!db.readOnly && isSharedDatabaseUrl(db.url)) {
      engine.indexOwner = await claimIndexOwner(db.db, indexOwnerId(config.diaryDir), env.ENGRAM_INDEX_OWNER === 'this');
      if (engine.indexOwner)
        notes.push(`this database is indexed by ${engine.indexOwner}; this engine reads it (recall, list, status) and does not index or write — set ENGRAM_INDEX_OWNER=this to move the index here`);
    }
    for (const note of notes) options.log?.('warn', note);
  } catch (e) {
    db.close();
    throw e;
  }
  const opened = engine;
  const ready = (async () => {
    try {
      // Read-only data is never indexed into; a rebuilt database is always filled from the files.
      await opened.init(!db.readOnly && !opened.indexOwner && ((options.syncOnOpen ?? true) || db.recovered !== null));
      if (options.watch && !opened.indexOwner) opened.watch(options.watch === true ? {} : options.watch);
      return opened;
    } catch (e) {
      db.close();
      throw e;
    }
  })();
  return { config: opened.config, ready };
}

export class Engine {
  private readonly state: EngineState;
  private readonly indexer: IndexService;
  private readonly reader: MemoryReaderService;
  private readonly writer: MemoryWriterService;
  private readonly recaller: RecallService;
  private readonly settings: SettingsService;
  private readonly reporter: StatusService;

  constructor(database: Database, resolved: ResolvedBase, overlay: Record<string, unknown>, config: EngramConfig, options: OpenEngineOptions) {
    const s = (this.state = new EngineState(database, resolved, overlay, config, options));
    this.indexer = new IndexService(s);
    this.reader = new MemoryReaderService(s, () => this.indexer.diaryFolderGone());
    this.writer = new MemoryWriterService(s, this.reader, this.indexer);
    this.recaller = new RecallService(s, this.reader, this.indexer);
    this.settings = new SettingsService(s, this.indexer);
    this.reporter = new StatusService(s, this.indexer);
  }

  async init(syncOnOpen: boolean): Promise<void> {
    const s = this.state;
    const preload = s.options.preload ?? true;
    // An embedded database answers synchronously, so awaiting it never lets a timer in: a host that
    // opens in the background (the plugin) gets its event loop back between the steps of the open.
    // Every recall weighs query words with it: a long-lived host pays the ~100-300 ms load at open, not on the first query.
    if (preload) backgroundIdfTable();
    await nextTurn();
    s.timeZone = await ensureTimeZone(s.db, detectTimeZone, zoneShaped).then((z) => z.timeZone, () => detectTimeZone());
    await s.openSemantic();
    s.rebuildJudge(s.config);
    await nextTurn();
    if (syncOnOpen) await this.indexer.syncOnOpen(s.options.onSyncProgress);
    await nextTurn();
    // A long-lived host loads the in-memory index now; a one-shot command (preload false) on the
    // first call that needs it (`engram status` never does).
    if (preload) await s.live.load(s.db);
  }

  // ── shared state, as the adapters and tests read it ──
  get config(): EngramConfig { return this.state.config; }
  set config(c: EngramConfig) { this.state.config = c; }
  get tokenizer(): Tokenizer { return this.state.tokenizer; }
  set tokenizer(t: Tokenizer) { this.state.tokenizer = t; }
  get semantic(): SemanticPort | null { return this.state.semantic; }
  set semantic(p: SemanticPort | null) { this.state.semantic = p; }
  get live(): LiveIndex { return this.state.live; }
  get database(): Database { return this.state.database; }
  get db() { return this.state.db; }
  /** Cross-process: the console, the plugin and the CLI write one at a time (see diary/lock.ts). */
  get writerLock() { return this.state.writerLock; }
  get judgeStatus(): JudgeStatus { return this.state.judgeStatus; }
  /** The logger the engine was opened with, so an adapter's failures are logged where the engine's are. */
  get log(): Logger { return this.state.log; }
  /** The data directory's time zone (stored at first run): "today" and "昨天" are local days there. */
  get timeZone(): string { return this.state.timeZone; }
  set timeZone(z: string) { this.state.timeZone = z; }
  /** What opening the data found and repaired (read-only data, a rebuilt database, dropped settings). */
  get dataWarnings(): string[] { return this.state.dataWarnings; }
  set dataWarnings(w: string[]) { this.state.dataWarnings = w; }
  /** Remote mode: the host:folder that owns (indexes and writes) the shared database, when it is not this engine. */
  get indexOwner(): string | null { return this.state.indexOwner; }
  set indexOwner(o: string | null) { this.state.indexOwner = o; }
  /** The live pick-up of outside changes: on or off, when it last synced and what it found. */
  get liveSync(): LiveSyncState { return this.indexer.liveSync; }
  /**
   * The diary folder, when it is gone under this engine (deleted, moved away, its drive unmounted),
   * else null: one stat. Recall is paused meanwhile and says so itself; a listing, read from the
   * index, asks this to say its memories are not on disk.
   */
  diaryFolderGone(): DiaryFolderGone | null { return this.indexer.diaryFolderGone(); }
  /** Diary paths written while the database server was unreachable: indexed with the next write or sync. */
  get pendingIndexPaths(): Set<string> { return this.indexer.pendingIndexPaths; }
  /** @internal The applied overlay (a test plants one to check what getSettings shows). */
  get overlay(): Record<string, unknown> { return this.state.overlay; }
  set overlay(o: Record<string, unknown>) { this.state.overlay = o; }

  // ── recall ──
  recall(query: string, options: RecallOptions = {}): Promise<RecallResult> { return this.recaller.recall(query, options); }
  renderInjection(result: RecallResult, attrs: Record<string, string> = {}): string { return this.recaller.renderInjection(result, attrs); }
  residentMemories(): { text: string; critical: boolean }[] { return this.recaller.residentMemories(); }

  // ── memories: read ──
  list(opts: ListOptions = {}): Promise<MemorySummary[]> { return this.reader.list(opts); }
  listPage(opts: ListOptions & { text?: string; folder?: string; offset?: number; limit: number; order?: 'list' | 'recent' }): Promise<{ total: number; items: MemorySummary[] }> { return this.reader.listPage(opts); }
  summariesOf(docIds: readonly string[]): Promise<Map<string, MemorySummary>> { return this.reader.summariesOf(docIds); }
  memoryIndex(opts: { workspace?: string | null; tag?: string; page?: number; pageSize?: number } = {}): Promise<MemoryIndexPage> { return this.reader.memoryIndex(opts); }
  memoriesOn(days: string[]): Promise<MemorySummary[]> { return this.reader.memoriesOn(days); }
  resolve(idOrPath: string): Promise<DocumentRow | null> { return this.reader.resolve(idOrPath); }
  read(idOrPath: string): Promise<MemoryDetail | null> { return this.reader.read(idOrPath); }
  locate(idOrPath: string, query: string): Promise<MemoryLocate> { return this.reader.locate(idOrPath, query); }
  detail(idOrPath: string, segments?: number[]): Promise<MemorySegments> { return this.reader.detail(idOrPath, segments); }

  // ── memories: write ──
  write(input: WriteInput): Promise<WriteResult> { return this.writer.write(input); }
  edit(idOrPath: string, target: string, replacement: string): Promise<EditResult> { return this.writer.edit(idOrPath, target, replacement); }
  saveText(idOrPath: string, raw: string, expectedHash: string): Promise<MemoryDetail> { return this.writer.saveText(idOrPath, raw, expectedHash); }
  forget(idOrPath: string): Promise<{ docId: string; from: string; to: string }> { return this.writer.forget(idOrPath); }
  updateMeta(idOrPath: string, patch: MetaPatch): Promise<MemorySummary> { return this.writer.updateMeta(idOrPath, patch); }
  setSummary(idOrPath: string, summary: string, source: SummaryWriteSource): Promise<SetSummaryResult> { return this.writer.setSummary(idOrPath, summary, source); }
  /** The background summary queue over this engine's data (the plugin's worker drains it). */
  summaryQueue(): SummaryQueue { return this.writer.summaryQueue(); }
  previewNoteBlocks(text: string) { return this.writer.previewNoteBlocks(text); }
  applyNoteBlocks(text: string, applied: Set<string>) { return this.writer.applyNoteBlocks(text, applied); }

  // ── index ──
  index(opts: IndexRunOptions = {}): Promise<IndexReport> { return this.indexer.run(opts); }
  integrityCheck(sampleSize = 5): Promise<{ checked: number; minCos: number; ok: boolean; reason?: string }> { return this.indexer.integrityCheck(sampleSize); }
  watch(options: WatchOptions & { onSync?: (report: IndexReport) => void } = {}): DiaryWatcher { return this.indexer.watch(options); }
  /** Resolves once the vectors of the notes indexed so far are filled in (an open or a write leaves them to the background). */
  vectorsSettled(): Promise<void> { return this.indexer.vectorsSettled(); }

  // ── settings and status ──
  getSettings(): SettingsView { return this.settings.getSettings(); }
  async saveSettings(patch: unknown, opts: { confirm?: 'rebuild' | 'save-only'; confirmDiaryDir?: string } = {}): Promise<SaveSettingsResult> {
    const before = this.state.config.diaryDir;
    const result = await this.settings.saveSettings(patch, opts);
    // A folder changed in the settings is a switch on purpose: the next open must not refuse it.
    if (this.state.config.diaryDir !== before && !isSharedDatabaseUrl(this.state.database.url)) await rememberDiaryFolder(this.db, this.state.config.diaryDir);
    return result;
  }
  refreshConfig(): Promise<boolean> { return this.settings.refreshConfig(); }
  testEmbedding(patch: unknown = {}): Promise<{ ok: boolean; message?: string; dimensions?: number; ms?: number }> { return this.settings.testEmbedding(patch); }
  status(): Promise<EngineStatus> { return this.reporter.status(); }
  /** Opens the semantic channel again for the settings in effect (`auto` finds a model installed since; the console's model job calls it). */
  reloadSemantic(): Promise<void> { return this.state.openSemantic(); }

  /** Stops the watcher and the model and closes the database. */
  close(options: { checkpointed?: boolean } = {}): void {
    this.indexer.close();
    this.state.semantic?.close();
    this.state.live.close();
    this.state.database.close(options);
  }

  /**
   * close() for a process about to exit (the CLI): the WAL is moved into the database file first,
   * so the next process trusts the file without reading every page (see Database.checkpoint).
   */
  async closeBeforeExit(): Promise<void> {
    this.close({ checkpointed: await this.state.database.checkpoint() });
  }
}
