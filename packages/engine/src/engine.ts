// The engine facade: one object per process that owns the database, the live index and the
// semantic channel, and offers every operation the CLI, the console and the plugin use.
import { blankDocMeta, visibleIn } from './recall/scope.ts';
import { validateMeta, withMarkdownMeta, withTxtMeta, type MemoryMeta } from './diary/meta.ts';
import { pageOfIndex, type MemoryIndexPage, type MetaPatch } from './memory-index.ts';
import {
  chunkTextsByIds,
  corpusCounts,
  folderCounts,
  getManifest,
  listDocuments,
  openDatabase,
  readSettingsOverlay,
  writeSettingsOverlay,
  bumpGeneration,
  DatabaseUnreachableError,
  isUnreachable,
  type Database,
  type DocumentRow,
} from '@engram/db';
import { readFile, stat } from 'node:fs/promises';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type {
  EngineStatus,
  IndexProgress,
  IndexReport,
  MemoryDetail,
  MemorySummary,
  SaveSettingsResult,
  SettingsView,
  WriteInput,
  WriteResult,
} from './api.ts';
import { endpointOf, getPath, isPlainObject, maskSecrets, overlayAfterSave, stripMaskedSecrets, withPath } from './config/merge.ts';
import { checkDiaryRootChange } from './config/folders.ts';
import { tokenizerWarnings } from './text/tokenizer-check.ts';
import { applyOverlay, resolveBase, type ResolveInput, type ResolvedBase } from './config/resolve.ts';
import { secretPaths, type EngramConfig } from './config/schema.ts';
import { docIdFor, resolveDocId } from './diary/ids.ts';
import { normaliseTitle, parseDiaryText, parseFileName } from './diary/parse.ts';
import { withSummary } from './diary/summary-edit.ts';
import { gateWrite } from './hygiene/gate.ts';
import { SummaryQueue, type SetSummaryResult, type SummaryWriteSource } from './summaries/queue.ts';
import { archiveEntry, assertWritableSize, createEntry, editEntry } from './diary/store.ts';
import { safeJoin, sweepOrphanTemps } from './diary/fsio.ts';
import { decodeText, readForRewrite, rewriteIfUnchanged } from './diary/textfile.ts';
import { withLayoutOf } from './diary/lines.ts';
import { processAlive, WriterLock, type WriterLockOptions } from './diary/lock.ts';
import { EngramError, errorMessage } from './errors.ts';
import { changedDiaryPaths, runIndex, type IndexRunResult } from './index/indexer.ts';
import { LiveIndex } from './index/live.ts';
import { chunkTextsWithFallback } from './index/offline.ts';
import { claimIndexOwner, indexOwnerId, isSharedDatabaseUrl } from './index/owner.ts';
import { DiaryWatcher, type SyncTrigger, type WatchOptions } from './index/watcher.ts';
import { sha1 } from './index/rows.ts';
import { silentLogger, type Logger } from './log.ts';
import { recall as runRecall, type Judge, type RecallOptions } from './recall/pipeline.ts';
import { renderRecallBlock } from './recall/render.ts';
import type { RecallResult } from './recall/types.ts';
import type { SemanticPort } from './semantic/port.ts';
import { createTokenizer } from './text/tokenize.ts';
import { applyNotes, previewNotes, type NoteWriterHost } from './notes.ts';
import { createJudge, type JudgeStatus } from './judge/judge.ts';
import { compareFingerprints, fingerprintOf } from './semantic/fingerprint.ts';
import { backgroundIdfTable } from './recall/background-idf.ts';
import type { Tokenizer } from './types.ts';
import { detectTimeZone, ensureTimeZone } from './timeq/timezone.ts';
import { byWhen, type DayMemory, type TimeChannelDeps } from './timeq/channel.ts';
import { locate as locateSegments } from './segments/locate.ts';
import { splitSegments } from './segments/split.ts';
import { pickSegments } from './segments/detail.ts';
import type { MemoryLocate, MemoryRef, MemorySegments } from './segments/api.ts';

export interface OpenEngineOptions extends ResolveInput {
  log?: Logger;
  /** Index files changed since the last run before answering (default true). */
  syncOnOpen?: boolean;
  /** Create a missing diary folder even when it was named explicitly (the console does; the CLI refuses). */
  createDiaryDir?: boolean;
  /** Builds the semantic channel for a config; null means lexical only. Tests and the eval inject one. */
  semanticFactory?: (engine: { config: EngramConfig; db: Database }) => Promise<SemanticPort | null>;
  judgeFactory?: (config: EngramConfig) => Judge | null;
  /** Writer-lock timing (tests shorten it). */
  writerLock?: WriterLockOptions;
  /**
   * Load the general-language IDF table at open instead of on the first recall (default true: a
   * long-lived host pays it before the first query). The CLI opens per command and passes false.
   */
  preload?: boolean;
  /** Watch the diary folder and index outside changes as they happen (long-lived hosts: the console, the plugin). */
  watch?: boolean | WatchOptions;
  now?: () => Date;
}

/** Longest query recall looks at (characters); longer ones are cut, not refused. */
export const MAX_QUERY_CHARS = 20_000;

const lexicalOptions = (c: EngramConfig) => ({
  k1: c.recall.bm25K1,
  b: c.recall.bm25B,
  fieldWeights: c.recall.fieldWeights,
  singleCharWeight: c.recall.singleCharWeight,
});

export async function openEngine(options: OpenEngineOptions = {}): Promise<Engine> {
  const env = options.env ?? process.env;
  const resolved = resolveBase(options);
  mkdirSync(resolved.base.dataDir, { recursive: true });
  // A corrupt database file is moved to backups/ and rebuilt from the diary files below.
  const db = await openDatabase({ url: resolved.base.databaseUrl, authToken: resolved.base.databaseAuthToken || undefined, recoverCorrupt: true });
  try {
    const { overlay, config, notes } = await loadOverlay(db, resolved, env);
    ensureDiaryDir(config, resolved, options.createDiaryDir ?? false);
    const engine = new Engine(db, resolved, overlay, config, options);
    if (db.recovered) notes.push(`the database was corrupt (${db.recovered.reason}); it was moved to ${db.recovered.backup} and rebuilt from the diary files`);
    if (db.readOnly) notes.push(db.readOnly.reason);
    engine.dataWarnings = notes;
    if (!db.readOnly && isSharedDatabaseUrl(db.url)) {
      engine.indexOwner = await claimIndexOwner(db.db, indexOwnerId(config.diaryDir), env.ENGRAM_INDEX_OWNER === 'this');
      if (engine.indexOwner)
        notes.push(`this database is indexed by ${engine.indexOwner}; this engine reads it (recall, list, status) and does not index or write — set ENGRAM_INDEX_OWNER=this to move the index here`);
    }
    for (const note of notes) options.log?.('warn', note);
    // Read-only data is never indexed into; a rebuilt database is always filled from the files.
    await engine.init(!db.readOnly && !engine.indexOwner && ((options.syncOnOpen ?? true) || db.recovered !== null));
    if (options.watch && !engine.indexOwner) engine.watch(options.watch === true ? {} : options.watch);
    return engine;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The console's saved settings, applied over the deploy base. Settings that no longer validate (a
 * newer version's keys, a hand-edited row, unreadable JSON) must not keep the engine from opening:
 * the stored overlay is copied to backups/ and the offending leaves are dropped, with a warning.
 */
async function loadOverlay(db: Database, resolved: ResolvedBase, env: Record<string, string | undefined>) {
  const notes: string[] = [];
  let original: string | null = null;
  let overlay: Record<string, unknown>;
  try {
    const stored = await readSettingsOverlay(db.db);
    overlay = isPlainObject(stored) ? stored : {};
    if (!isPlainObject(stored)) original = JSON.stringify(stored);
  } catch (e) {
    const raw = await db.client.execute("SELECT json FROM settings_overlay WHERE id = 'overlay'").then((r) => String(r.rows[0]?.json ?? ''), () => '');
    original = raw;
    overlay = {};
    notes.push(`saved console settings were unreadable (${errorMessage(e)})`);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const config = applyOverlay(resolved, overlay, env);
      if (original !== null) {
        const backup = backupOverlay(resolved.base.dataDir, original);
        notes.push(`the saved console settings were repaired; the original is in ${backup}`);
        if (!db.readOnly) await writeSettingsOverlay(db.db, overlay);
      }
      return { overlay, config, notes };
    } catch (e) {
      if (!(e instanceof EngramError) || e.code !== 'config-invalid' || attempt >= 100) throw e;
      original ??= JSON.stringify(overlay);
      const issues = ((e.details?.issues ?? []) as { path?: PropertyKey[] }[]).map((i) => (i.path ?? []).map(String));
      let next = overlay;
      for (const path of issues) {
        // Drop the deepest part of the path the overlay actually has (the issue may name a child).
        for (let n = path.length; n > 0; n--) {
          if (getPath(next, path.slice(0, n)) !== undefined) {
            next = withPath(next, path.slice(0, n), undefined);
            notes.push(`ignored an invalid saved setting: ${path.slice(0, n).join('.')}`);
            break;
          }
        }
      }
      if (next === overlay) {
        if (Object.keys(overlay).length === 0) throw e; // the deploy base itself is invalid
        next = {};
        notes.push('ignored all saved console settings: they do not combine into a valid configuration');
      }
      overlay = next;
    }
  }
}

function backupOverlay(dataDir: string, text: string): string {
  const dir = join(dataDir, 'backups');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `settings-overlay-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, text);
  return file;
}

function ensureDiaryDir(config: EngramConfig, resolved: ResolvedBase, create: boolean): void {
  if (existsSync(config.diaryDir)) return;
  const explicit = resolved.lockedByEnv.includes('diaryDir') || config.diaryDir !== join(config.dataDir, 'diaries');
  if (explicit && !create) throw new EngramError('diary-dir-missing', `diary directory does not exist: ${config.diaryDir}`);
  mkdirSync(config.diaryDir, { recursive: true });
}

export class Engine {
  config: EngramConfig;
  /** Built on first use: loading jieba costs ~100-350 ms, which a command like `engram status` need not pay. */
  private tokenizerInstance: Tokenizer | null = null;
  get tokenizer(): Tokenizer {
    this.tokenizerInstance ??= createTokenizer({ kind: this.config.recall.tokenizer, userDict: this.config.recall.userDict });
    return this.tokenizerInstance;
  }
  set tokenizer(t: Tokenizer) {
    this.tokenizerInstance = t;
  }
  readonly live: LiveIndex;
  semantic: SemanticPort | null = null;
  private judge: Judge | null = null;
  private resident: { text: string; critical: boolean }[] = [];
  private readonly log: Logger;
  private lastIndexWarnings: string[] = [];
  private writeQueue: Promise<unknown> = Promise.resolve();
  /** Cross-process: the console, the plugin and the CLI write one at a time (see diary/lock.ts). */
  readonly writerLock: WriterLock;
  /** What opening the data found and repaired (read-only data, a rebuilt database, dropped settings). */
  dataWarnings: string[] = [];
  /** Remote mode: the host:folder that owns (indexes and writes) the shared database, when it is not this engine. */
  indexOwner: string | null = null;

  constructor(
    readonly database: Database,
    private readonly resolved: ResolvedBase,
    private overlay: Record<string, unknown>,
    config: EngramConfig,
    private readonly options: OpenEngineOptions,
  ) {
    this.config = config;
    this.log = options.log ?? silentLogger;
    this.live = new LiveIndex(lexicalOptions(config));
    this.live.url = database.url;
    this.writerLock = new WriterLock(join(config.dataDir, 'engram.lock'), options.writerLock);
  }

  get db() {
    return this.database.db;
  }

  async init(syncOnOpen: boolean): Promise<void> {
    // Every recall weighs query words with it: a long-lived host pays the ~100-300 ms load at open, not on the first query.
    if (this.options.preload ?? true) backgroundIdfTable();
    this.timeZone = await ensureTimeZone(this.db).then((z) => z.timeZone, () => detectTimeZone());
    await this.openSemantic();
    this.judge = this.buildJudge(this.config);
    if (syncOnOpen) {
      // Temp files of writers killed mid-write: never read, but they would pile up.
      await sweepOrphanTemps(this.config.diaryDir, processAlive).catch(() => 0);
      try {
        // Another process holding the writer lock is indexing the same files: do not hold up
        // the host's start waiting for it (the next write or refresh catches up).
        await this.index({ full: false, lockWaitMs: 3_000 });
      } catch (e) {
        // A bad diary folder must not stop the engine from answering with what is indexed.
        this.lastIndexWarnings = [`index on open failed: ${errorMessage(e)}`];
        this.log('warn', 'index on open failed', { error: errorMessage(e) });
      }
    }
    // A long-lived host loads the in-memory index now; a one-shot command (preload false) on the
    // first call that needs it (`engram status` never does).
    if (this.options.preload ?? true) await this.live.load(this.db);
  }

  private async openSemantic(): Promise<void> {
    this.semantic?.close();
    this.semantic = null;
    if (!this.options.semanticFactory && this.config.embedding.provider === 'none') return;
    try {
      const factory = this.options.semanticFactory ?? (await import('./semantic/factory.ts')).createSemanticPort;
      this.semantic = await factory({ config: this.config, db: this.database });
    } catch (e) {
      this.log('warn', 'semantic channel unavailable, lexical only', { error: errorMessage(e) });
      this.semantic = null;
    }
  }

  /**
   * Embeds a probe text with draft embedding settings (masked or empty key = the saved key) and
   * reports what came back. Never throws: a failure is { ok: false, message } without the key.
   */
  async testEmbedding(patch: unknown = {}): Promise<{ ok: boolean; message?: string; dimensions?: number; ms?: number }> {
    const draft = isPlainObject(patch) ? stripMaskedSecrets({ embedding: patch }, secretPaths).embedding : {};
    const typed = isPlainObject(draft) && typeof draft.apiKey === 'string' ? draft.apiKey : '';
    const cfg = { ...this.config.embedding, ...(isPlainObject(draft) ? draft : {}), apiKey: typed } as EngramConfig['embedding'];
    // The saved key only goes to the provider and base URL it was saved for; elsewhere it must be typed again.
    if (!cfg.apiKey && endpointOf(cfg) === endpointOf(this.config.embedding)) cfg.apiKey = this.config.embedding.apiKey;
    if (cfg.provider === 'none') return { ok: false, message: 'embedding provider is none' };
    const t0 = performance.now();
    try {
      const { createEmbedder } = await import('./semantic/channel.ts');
      const embedder = await createEmbedder(cfg, undefined, { dataDir: this.config.dataDir });
      try {
        const [v] = await embedder.embed(['连接测试 connection test'], { timeoutMs: Math.min(cfg.timeoutMs, 15_000) });
        return { ok: true, dimensions: v?.length ?? 0, ms: Math.round(performance.now() - t0) };
      } finally {
        await embedder.dispose?.();
      }
    } catch (e) {
      const message = errorMessage(e);
      return { ok: false, message: cfg.apiKey ? message.replaceAll(cfg.apiKey, '••••') : message, ms: Math.round(performance.now() - t0) };
    }
  }

  /** The one judge factory, shared by every recall (plugin injection and console debug alike). */
  private buildJudge(config: EngramConfig): Judge | null {
    if (this.options.judgeFactory) return this.options.judgeFactory(config);
    const { judge, status } = createJudge(config.judge);
    this.judgeStatus = status;
    return judge;
  }

  judgeStatus: JudgeStatus = { enabled: false, reason: 'judge disabled' };

  /** The data directory's time zone (stored at first run): "today" and "昨天" are local days there. */
  timeZone: string = detectTimeZone();

  /**
   * Serialises writes: within this process by a promise queue, across processes by the data
   * folder's writer lock (without it two processes editing one diary lost an edit).
   */
  private exclusive<T>(fn: () => Promise<T>, lockWaitMs?: number): Promise<T> {
    if (this.database.readOnly) return Promise.reject(new EngramError('read-only-data', this.database.readOnly.reason));
    if (this.indexOwner)
      return Promise.reject(new EngramError('index-owned-elsewhere', `the shared database is indexed by ${this.indexOwner}: write there (this engine only reads; ENGRAM_INDEX_OWNER=this moves the index here) / 索引归属另一台机器,本机只读`));
    const locked = () => this.writerLock.run('write', fn, lockWaitMs);
    const run = this.writeQueue.then(locked, locked);
    this.writeQueue = run.catch(() => {});
    return run;
  }

  async recall(query: string, options: RecallOptions = {}): Promise<RecallResult> {
    if (typeof query !== 'string') throw new EngramError('bad-query', 'query must be a string');
    // A pasted log can make a person's message megabytes long; tokenising it all would hold the
    // conversation for seconds. Its beginning is what recall can use anyway.
    if (query.length > MAX_QUERY_CHARS) query = query.slice(0, MAX_QUERY_CHARS);
    await this.live.refreshIfStale(this.db);
    return runRecall(
      {
        config: this.config,
        tokenizer: this.tokenizer,
        lexical: this.live.lexical,
        doc: (id) => this.live.meta(id),
        docOfChunk: (id) => this.live.chunkDoc.get(id),
        semantic: this.semantic,
        chunkTexts: (ids) => chunkTextsWithFallback(this.db, ids, { docs: this.live.docs, config: this.config }),
        judge: this.judge,
        now: this.options.now,
        time: this.timeChannelDeps(),
      },
      query,
      { ...options, workspace: this.scopeOf(options.workspace) },
    );
  }

  /** The workspace a call is scoped to: null (everything) when scoping is off in the settings. */
  private scopeOf(workspace: string | null | undefined): string | null {
    return this.config.workspace.scoped ? (workspace ?? null) : null;
  }

  /** Live diary entries (their date is when it happened; legacy files' is not) dated on one of `days`. */
  private dayMemories(days: string[]): DayMemory[] {
    const wanted = new Set(days);
    const out: DayMemory[] = [];
    for (const d of this.live.docs.values()) {
      if (d.root !== 'diary' || d.archived || !wanted.has(d.date)) continue;
      const meta = this.live.meta(d.id);
      if (!meta) continue;
      // Chunk ids are `${docId}#${ord}` (index/rows.ts): the first chunk is the memory's opening.
      const first = `${d.id}#0`;
      out.push({ meta, time: d.time, firstChunkId: this.live.chunkDoc.has(first) ? first : null });
    }
    return out;
  }

  private timeChannelDeps(): TimeChannelDeps {
    return { timeZone: this.timeZone, memoriesOn: (days) => this.dayMemories(days) };
  }

  /**
   * Diary entries dated on the given local days (YYYY-MM-DD), in the order they happened: by day,
   * then HH:MM (entries without a time last). Legacy files and archived entries are left out.
   */
  async memoriesOn(days: string[]): Promise<MemorySummary[]> {
    if (!Array.isArray(days) || days.some((d) => typeof d !== 'string')) throw new EngramError('bad-input', 'days must be a list of YYYY-MM-DD strings');
    await this.live.refreshIfStale(this.db);
    return this.dayMemories(days)
      .sort(byWhen)
      .map((m) => ({ ...this.summaryOf(this.live.docs.get(m.meta.docId)!), chunks: this.live.chunkCount(m.meta.docId) }));
  }

  renderInjection(result: RecallResult, attrs: Record<string, string> = {}): string {
    return renderRecallBlock(
      result.hits.map((h) => ({ date: h.date, title: h.title, text: h.text })),
      this.config.inject,
      attrs,
    );
  }

  index(opts: { full?: boolean; onProgress?: (p: IndexProgress) => void; signal?: AbortSignal; lockWaitMs?: number } = {}): Promise<IndexReport> {
    return this.exclusive(async () => {
      const result: IndexRunResult = await runIndex(
        { db: this.db, config: this.config, tokenizer: this.tokenizer, semantic: this.semantic, onProgress: opts.onProgress, signal: opts.signal, now: this.options.now },
        opts.full ? 'full' : 'incremental',
      );
      this.resident = result.resident;
      this.lastIndexWarnings = [];
      if (opts.full) await this.live.load(this.db);
      else await this.live.reloadDocuments(this.db, result.changedDocIds);
      this.live.generation = -1; // re-read the counter on the next recall
      const { changedDocIds: _c, resident: _r, ...report } = result;
      return report;
    }, opts.lockWaitMs);
  }

  private summaryOf(d: DocumentRow): MemorySummary {
    return {
      ...(this.live.meta(d.id) ?? blankDocMeta(d.id)),
      time: d.time,
      summary: d.summary,
      summarySource: d.summarySource,
      mtimeMs: d.mtimeMs,
      chunks: 0,
      archived: d.archived,
      warnings: d.warnings,
      readOnly: d.root === 'legacy',
    };
  }

  /**
   * Memories, newest date first. `workspace` limits them to that workspace + global (when scoping is
   * on); `tag` to those carrying the tag.
   */
  async list(opts: { includeArchived?: boolean; workspace?: string | null; tag?: string } = {}): Promise<MemorySummary[]> {
    await this.live.refreshIfStale(this.db);
    const scope = { workspace: this.scopeOf(opts.workspace) };
    const tag = opts.tag?.trim() ?? '';
    return [...this.live.docs.values()]
      .filter((d) => (opts.includeArchived || !d.archived) && visibleIn(scope, d.workspace) && (tag === '' || d.tags.includes(tag)))
      .sort((a, b) => (a.date === b.date ? a.path.localeCompare(b.path) : a.date < b.date ? 1 : -1))
      .map((d) => ({ ...this.summaryOf(d), chunks: this.live.chunkCount(d.id) }));
  }

  /** The layered index: pinned first, then by last change, paged (what engram_index returns). */
  async memoryIndex(opts: { workspace?: string | null; tag?: string; page?: number; pageSize?: number } = {}): Promise<MemoryIndexPage> {
    const all = await this.list({ workspace: opts.workspace, tag: opts.tag });
    return pageOfIndex(all, opts.page ?? 1, opts.pageSize ?? 20);
  }

  /**
   * Changes a memory's metadata (pin, lock, workspace, supersedes) by rewriting only its Meta line
   * (the .md front-matter keys); every other byte of the file stays.
   */
  async updateMeta(idOrPath: string, patch: MetaPatch): Promise<MemorySummary> {
    const problem = validateMeta(patch);
    if (problem) throw new EngramError('bad-input', problem);
    const docId = await this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const file = safeJoin(this.config.diaryDir, d.path);
      const before = await readForRewrite(file, d.path);
      const raw = before.text;
      const current: MemoryMeta = {
        workspace: d.workspace,
        sessionId: d.sessionId,
        origin: (d.origin || '') as MemoryMeta['origin'],
        pinned: d.pinned,
        locked: d.locked,
        supersedes: d.supersedes,
        summary: d.summarySource === 'auto' || d.summarySource === 'rule' ? d.summarySource : null,
      };
      const next: MemoryMeta = { ...current, ...patch, supersedes: [...(patch.supersedes ?? current.supersedes)] };
      const text = d.path.toLowerCase().endsWith('.md') ? withMarkdownMeta(raw, next) : withTxtMeta(raw, next);
      if (text === null) throw new EngramError('bad-input', `"${d.title}" has no closed front matter to record metadata in`);
      // Only the Meta line changes, in the file's own encoding; re-checked right before the rename.
      if (await rewriteIfUnchanged(file, before, text)) await this.reindexPaths([d.path]);
      return d.id;
    });
    const after = this.live.docs.get(docId);
    if (!after) throw new EngramError('not-found', 'the memory disappeared after the change');
    return { ...this.summaryOf(after), chunks: this.live.chunkCount(docId) };
  }

  /** Accepts every identity a document can be reached by: docId, relative path, id in the file name. */
  async resolve(idOrPath: string): Promise<DocumentRow | null> {
    await this.live.refreshIfStale(this.db);
    const docs = [...this.live.docs.values()].map((d) => ({ id: d.id, root: d.root, path: d.path, embeddedId: parseFileName(basename(d.path)).id }));
    const id = resolveDocId(idOrPath, docs);
    return id ? (this.live.docs.get(id) ?? null) : null;
  }

  private rootDir(root: 'diary' | 'legacy'): string {
    return root === 'diary' ? this.config.diaryDir : this.config.legacyDir;
  }

  async read(idOrPath: string): Promise<MemoryDetail | null> {
    const d = await this.resolve(idOrPath);
    if (!d) return null;
    const file = safeJoin(this.rootDir(d.root), d.path);
    let raw: string;
    try {
      // The scanner's decoder (UTF-16 with a BOM too), so an editor opens what recall indexed.
      const bytes = await readFile(file);
      const decoded = decodeText(bytes);
      raw = decoded.ok ? decoded.text : bytes.toString('utf8');
    } catch (e) {
      throw new EngramError('file-unreadable', `cannot read ${d.path}: ${errorMessage(e)}`);
    }
    return { ...this.summaryOf(d), chunks: this.live.chunkCount(d.id), raw, contentHash: sha1(raw) };
  }

  private async requireDetail(idOrPath: string): Promise<MemoryDetail> {
    if (typeof idOrPath !== 'string' || idOrPath.trim() === '') throw new EngramError('bad-input', 'an id or path is required');
    const detail = await this.read(idOrPath.trim());
    if (!detail) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    return detail;
  }

  private refOf(d: MemoryDetail, segmentCount: number): MemoryRef {
    return { docId: d.docId, title: d.title, date: d.date, path: d.path, chars: d.raw.length, segmentCount };
  }

  /**
   * Which segments of one memory a query is about (BM25 over that memory's segments, with the
   * engine's tokenizer), each with a preview around its first hit. The middle step of
   * search → locate → detail: for a long memory, find the part worth reading.
   */
  async locate(idOrPath: string, query: string): Promise<MemoryLocate> {
    if (typeof query !== 'string' || query.trim() === '') throw new EngramError('bad-query', 'query must be a non-empty string');
    const d = await this.requireDetail(idOrPath);
    const { segments, hits } = locateSegments(d.raw, query, this.tokenizer, { lexical: lexicalOptions(this.config) });
    return { ...this.refOf(d, segments.length), query, hits };
  }

  /** A memory's whole text, or only the chosen segments (0-based indexes from locate). */
  async detail(idOrPath: string, segments?: number[]): Promise<MemorySegments> {
    if (segments !== undefined && !Array.isArray(segments)) throw new EngramError('bad-input', 'segments must be a list of segment numbers');
    const d = await this.requireDetail(idOrPath);
    const all = splitSegments(d.raw);
    const pick = pickSegments(d.raw, all, segments, d.title);
    return {
      ...this.refOf(d, all.length),
      whole: pick.whole,
      segments: pick.segments.map((s) => ({ index: s.index, heading: s.heading, start: s.start, end: s.end, chars: s.end - s.start })),
      text: pick.text,
    };
  }

  private async requireWritable(idOrPath: string): Promise<DocumentRow> {
    const d = await this.resolve(idOrPath);
    if (!d) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    if (d.root !== 'diary') throw new EngramError('read-only', `"${d.title}" is in the read-only legacy corpus`);
    return d;
  }

  /** Re-indexes the given diary files after a write (a path that no longer exists is dropped). */
  /** Diary paths written while the database server was unreachable: indexed with the next write or sync. */
  readonly pendingIndexPaths = new Set<string>();

  private async reindexPaths(paths: string[]): Promise<void> {
    const all = [...new Set([...this.pendingIndexPaths, ...paths])];
    let result: IndexRunResult;
    try {
      result = await runIndex(
        { db: this.db, config: this.config, tokenizer: this.tokenizer, semantic: this.semantic, now: this.options.now },
        'incremental',
        all,
      );
    } catch (e) {
      if (!isUnreachable(e)) throw e;
      // The file is written (the files are the truth); only its index entry waits for the server.
      for (const p of all) this.pendingIndexPaths.add(p);
      throw new EngramError(
        'database-unreachable',
        `${paths.join(', ')} is saved in the diary folder, but the index is not updated: ${new DatabaseUnreachableError(this.database.url, e).message}. It is indexed when the server answers again (next write, sync or engram index). / 已保存到日记文件,索引待数据库服务器恢复后更新。`,
      );
    }
    this.pendingIndexPaths.clear();
    await this.live.reloadDocuments(this.db, result.changedDocIds);
    this.live.generation = -1;
  }

  async write(input: WriteInput): Promise<WriteResult> {
    if (!input || typeof input.content !== 'string' || input.content.trim() === '')
      throw new EngramError('bad-input', 'content is required');
    const result = await this.exclusive(async (): Promise<WriteResult> => {
      // Another process may have written since our last look: the title check must see its entries.
      await this.live.refreshIfStale(this.db);
      // Titles are unique within what the writing workspace sees (its own memories + global).
      const scope = { workspace: this.scopeOf(input.meta?.workspace ?? null) };
      const visible = (id: string) => {
        const d = this.live.docs.get(id);
        return d && !d.archived && visibleIn(scope, d.workspace) ? d : undefined;
      };
      const titles = new Set([...this.live.docs.values()].filter((d) => visible(d.id)).map((d) => d.title));
      const entryInput = { ...input, folder: input.folder ?? this.config.diary.folder, format: this.config.diary.format };
      // Write hygiene: fragments refused, near-duplicates merged into the older memory, conflicts named.
      const gate = await gateWrite(
        {
          diaryDir: this.config.diaryDir, config: this.config, tokenizer: this.tokenizer, now: this.options.now?.() ?? new Date(),
          search: (tokens, limit) => this.live.lexical.search(tokens, limit), visibleDoc: visible, supersededBy: () => this.live.supersededBy(),
        },
        entryInput,
        new Set([...titles].map(normaliseTitle)),
      );
      const conflicts = gate.conflicts.length > 0 ? { conflicts: gate.conflicts } : {};
      if (gate.kind === 'merged') {
        if (!gate.identical) await this.reindexPaths([gate.path]);
        return { docId: gate.docId, path: gate.path, warnings: gate.warnings, semanticIndexed: this.semantic?.status().state === 'ready', merged: true, ...conflicts };
      }
      const created = await createEntry(this.config.diaryDir, entryInput, titles);
      await this.reindexPaths([created.path]);
      const docId = docIdFor('diary', created.path);
      const semanticIndexed = this.semantic?.status().state === 'ready';
      return { docId, path: created.path, warnings: [...created.warnings, ...gate.warnings], semanticIndexed, ...conflicts };
    });
    await this.queueSummaryAfterWrite(result);
    return result;
  }

  /** A memory written without a summary (or grown by a merge, when its summary was generated) waits for one. */
  private async queueSummaryAfterWrite(result: WriteResult): Promise<void> {
    const d = this.live.docs.get(result.docId);
    if (!d || !this.config.summaries.enabled) return;
    const stale = result.merged === true && (d.summarySource === 'auto' || d.summarySource === 'rule');
    try {
      if (stale) await this.summaryQueue().enqueue(d.id, d.path, { reset: true });
      else if (!result.merged) await this.summaryQueue().enqueueIfMissing({ docId: d.id, path: d.path, summarySource: d.summarySource });
    } catch (e) {
      // The memory is written; a missing summary is only a worse recall line.
      this.log('warn', 'could not queue the memory for a summary', { docId: d.id, error: errorMessage(e) });
    }
  }

  private summaries: SummaryQueue | null = null;

  /** The background summary queue over this engine's data (the plugin's worker drains it). */
  summaryQueue(): SummaryQueue {
    this.summaries ??= new SummaryQueue({
      db: this.db,
      settings: () => this.config.summaries,
      read: (idOrPath) => this.read(idOrPath),
      setSummary: (idOrPath, summary, source) => this.setSummary(idOrPath, summary, source),
      list: (workspace) => this.list({ workspace }),
      now: this.options.now,
      log: this.log,
    });
    return this.summaries;
  }

  /**
   * Sets a memory's summary in its file (the `> summary` paragraph, a .md's description) and records
   * its source. An 'auto' or 'rule' summary never replaces one a person wrote: the file is read
   * again under the write lock, and when it has a manual summary nothing is written (written: false).
   */
  async setSummary(idOrPath: string, summary: string, source: SummaryWriteSource): Promise<SetSummaryResult> {
    if (typeof summary !== 'string' || summary.trim() === '') throw new EngramError('bad-input', 'the summary must not be empty');
    if (source !== 'manual' && source !== 'auto' && source !== 'rule') throw new EngramError('bad-input', `unknown summary source "${String(source)}"`);
    return this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const file = safeJoin(this.config.diaryDir, d.path);
      // Decoded as the scanner does and written back in the file's own encoding, BOM and line endings.
      const before = await readForRewrite(file, d.path);
      const raw = before.text;
      const current = parseDiaryText(raw, { root: 'diary', path: d.path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
      if (source !== 'manual' && current.summarySource === 'manual') return { docId: d.id, path: d.path, written: false, source: 'manual' };
      const text = withSummary(raw, d.path, summary, source);
      if (text !== raw) {
        assertWritableSize(text, d.path);
        await rewriteIfUnchanged(file, before, text);
        await this.reindexPaths([d.path]);
      }
      return { docId: d.id, path: d.path, written: true, source };
    });
  }

  async edit(idOrPath: string, target: string, replacement: string): Promise<{ docId: string; path: string; strategy: string }> {
    return this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const result = await editEntry(this.config.diaryDir, d.path, target, replacement, this.config.diary.updateMinTarget);
      await this.reindexPaths([d.path]);
      return { docId: d.id, path: d.path, strategy: result.strategy };
    });
  }

  /** Whole-file save from an editor; refuses when the file changed since it was read. */
  async saveText(idOrPath: string, raw: string, expectedHash: string): Promise<MemoryDetail> {
    if (typeof raw !== 'string' || raw.trim() === '') throw new EngramError('bad-input', 'the text must not be empty');
    assertWritableSize(raw, 'the diary');
    await this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const file = safeJoin(this.config.diaryDir, d.path);
      const current = await readForRewrite(file, d.path);
      if (sha1(current.text) !== expectedHash)
        throw new EngramError('conflict', `"${d.title}" changed on disk since it was opened; reload before saving`);
      // The file's encoding, BOM, permissions and the line endings of untouched lines are kept
      // (an editor hands back LF only); the bytes are checked again right before the rename.
      if (await rewriteIfUnchanged(file, current, withLayoutOf(current.text, raw))) await this.reindexPaths([d.path]);
    });
    const after = await this.read(idOrPath);
    if (!after) throw new EngramError('not-found', 'the memory disappeared after saving');
    return after;
  }

  /** Archives (never deletes): the file moves under the archive folder and leaves recall. */
  async forget(idOrPath: string): Promise<{ docId: string; from: string; to: string }> {
    return this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      if (d.archived) throw new EngramError('already-archived', `"${d.title}" is already archived`);
      if (d.locked) throw new EngramError('locked', `"${d.title}" is locked: unlock it before forgetting it`);
      const moved = await archiveEntry(this.config.diaryDir, d.path, this.config.diary.archiveFolder);
      await this.reindexPaths([d.path, moved.path]);
      return { docId: d.id, from: d.path, to: moved.path };
    });
  }

  private noteHost(): NoteWriterHost {
    const live = () => [...this.live.docs.values()].filter((d) => d.root === 'diary' && !d.archived);
    return {
      diaryDir: this.config.diaryDir,
      minTarget: this.config.diary.updateMinTarget,
      titles: () => new Set(live().map((d) => d.title)),
      diaryDocs: () => live().map((d) => ({ id: d.id, path: d.path, title: d.title })),
      write: (input) => this.write(input),
      edit: (docId, target, replacement) => this.edit(docId, target, replacement),
    };
  }

  /** What the semantic write blocks in `text` would do; writes nothing. */
  async previewNoteBlocks(text: string) {
    if (typeof text !== 'string') throw new EngramError('bad-input', 'text must be a string');
    await this.live.refreshIfStale(this.db);
    return previewNotes(this.noteHost(), text);
  }

  /** Applies the semantic write blocks in an assistant reply; hashes in `applied` are skipped. */
  async applyNoteBlocks(text: string, applied: Set<string>) {
    await this.live.refreshIfStale(this.db);
    return applyNotes(this.noteHost(), text, applied);
  }

  residentMemories(): { text: string; critical: boolean }[] {
    return [...this.config.runtime.memories, ...this.resident];
  }

  async status(): Promise<EngineStatus> {
    const counts = await corpusCounts(this.db);
    const manifest = await getManifest(this.db);
    const folders = await folderCounts(this.db);
    const sem = this.semantic?.status();
    const builtChunk = manifest ? { size: manifest.chunkSize, overlap: manifest.chunkOverlap } : null;
    return {
      documents: counts.documents,
      archived: counts.archived,
      chunks: counts.chunks,
      vectors: sem?.vectors ?? 0,
      tokenizer: {
        configured: this.config.recall.tokenizer,
        active: this.tokenizer.engine,
        fallbackReason: this.tokenizer.fallbackReason,
        builtWith: manifest?.tokenizer ?? null,
        mismatch: manifest !== undefined && manifest.tokenizer !== this.tokenizer.engine,
      },
      chunkParams: {
        ...this.config.chunk,
        builtWith: builtChunk,
        adviseRebuild: builtChunk !== null && (builtChunk.size !== this.config.chunk.size || builtChunk.overlap !== this.config.chunk.overlap),
      },
      semantic: sem
        ? { state: sem.state, reason: sem.reason, action: sem.action, provider: sem.provider, dimensions: sem.dimensions }
        : { state: 'off', reason: 'embedding provider is none: lexical recall only', action: null, provider: this.config.embedding.provider, dimensions: 0 },
      builtAt: manifest?.builtAt ?? null,
      folders,
      warnings: [...this.dataWarnings, ...tokenizerWarnings(manifest?.tokenizer ?? null, this.tokenizer), ...this.lastIndexWarnings, ...(this.live.loaded ? [...this.live.docs.values()] : await listDocuments(this.db, { includeArchived: true })).flatMap((d) => d.warnings)].slice(0, 500),
      diaryDir: this.config.diaryDir,
      dataDir: this.config.dataDir,
      databaseUrl: this.config.databaseUrl.startsWith('file:') ? this.config.databaseUrl : this.config.databaseUrl.replace(/\/\/[^@/]*@/, '//'),
    };
  }

  getSettings(): SettingsView {
    return {
      effective: maskSecrets(this.config, secretPaths),
      base: maskSecrets(this.resolved.base, secretPaths),
      overlay: maskSecrets(this.overlay, secretPaths),
      lockedByEnv: this.resolved.lockedByEnv,
    };
  }

  /**
   * Saves a partial settings patch. Each leaf equal to the deploy base is removed from the overlay,
   * any other leaf is set in it, and everything else in the previous overlay is kept.
   */
  async saveSettings(patch: unknown, opts: { confirm?: 'rebuild' | 'save-only'; confirmDiaryDir?: string } = {}): Promise<SaveSettingsResult> {
    if (!isPlainObject(patch)) throw new EngramError('bad-input', 'settings patch must be an object');
    if (this.database.readOnly) throw new EngramError('read-only-data', this.database.readOnly.reason);
    const next = overlayAfterSave(this.overlay, stripMaskedSecrets(patch, secretPaths), this.resolved.base, this.resolved.lockedByEnv);
    const candidate = applyOverlay(this.resolved, next, this.options.env ?? process.env);
    // Moving the diary root: never to a system folder, and only when the caller named the new path.
    const root = checkDiaryRootChange(this.config.diaryDir, candidate.diaryDir, opts.confirmDiaryDir, (this.options.env ?? process.env).HOME ?? '');
    if (!root.ok) {
      if (!root.confirm) throw new EngramError('bad-input', root.reason);
      return { ok: false, requiresConfirmation: true, fatal: false, reasons: [root.reason], confirmDiaryDir: candidate.diaryDir };
    }
    const change = compareFingerprints(fingerprintOf(this.config.embedding, this.config.chunk), fingerprintOf(candidate.embedding, candidate.chunk));
    if (change.fatal && !opts.confirm && (await corpusCounts(this.db)).chunks > 0) {
      return {
        ok: false,
        requiresConfirmation: true,
        fatal: true,
        reasons: [...change.reasons, 'existing vectors cannot be compared with the new ones: rebuild the index to use the semantic channel again'],
      };
    }
    await writeSettingsOverlay(this.db, next);
    this.overlay = next;
    await this.applyConfig(candidate, { rebuild: opts.confirm === 'rebuild' });
    await bumpGeneration(this.db);
    return { ok: true, restartRequired: [] };
  }

  /**
   * Picks up settings saved by another process (the console) — one small read; the config changes
   * only when the stored overlay differs from the one this engine applied.
   */
  async refreshConfig(): Promise<boolean> {
    const stored = await readSettingsOverlay(this.db);
    if (JSON.stringify(stored) === JSON.stringify(this.overlay)) return false;
    this.overlay = stored;
    await this.applyConfig(applyOverlay(this.resolved, stored, this.options.env ?? process.env), { rebuild: false });
    return true;
  }

  private async applyConfig(next: EngramConfig, opts: { rebuild: boolean }): Promise<void> {
    const prev = this.config;
    this.config = next;
    const tokenizerChanged = prev.recall.tokenizer !== next.recall.tokenizer || JSON.stringify(prev.recall.userDict) !== JSON.stringify(next.recall.userDict);
    if (tokenizerChanged) this.tokenizer = createTokenizer({ kind: next.recall.tokenizer, userDict: next.recall.userDict });
    if (JSON.stringify(prev.embedding) !== JSON.stringify(next.embedding)) await this.openSemantic();
    this.judge = this.buildJudge(next);
    const lexicalChanged = JSON.stringify(lexicalOptions(prev)) !== JSON.stringify(lexicalOptions(next));
    if (opts.rebuild) await this.index({ full: true });
    else if (tokenizerChanged || prev.diaryDir !== next.diaryDir || JSON.stringify(prev.chunk) !== JSON.stringify(next.chunk)) await this.index({ full: false });
    if (lexicalChanged) {
      (this.live as unknown as { options: unknown }).options = lexicalOptions(next);
      await this.live.load(this.db);
    }
  }

  async integrityCheck(sampleSize = 5): Promise<{ checked: number; minCos: number; ok: boolean; reason?: string }> {
    if (!this.semantic || this.semantic.status().state !== 'ready') return { checked: 0, minCos: 0, ok: false, reason: 'semantic channel is not ready' };
    const ids = [...this.live.chunkDoc.keys()];
    const sample: string[] = [];
    for (let i = 0; i < Math.min(sampleSize, ids.length); i++) sample.push(ids[Math.floor((i * ids.length) / Math.min(sampleSize, ids.length))]!);
    const texts = await chunkTextsByIds(this.db, sample);
    return this.semantic.integrityCheck([...texts.entries()].map(([id, text]) => ({ id, text })));
  }

  private watcher: DiaryWatcher | null = null;
  /** The live pick-up of outside changes: on or off, when it last synced and what it found. */
  liveSync: LiveSyncState = { watching: false, events: false, lastSyncAt: null, lastTrigger: null, lastChanges: 0, lastError: null };

  /**
   * Notices diaries created, edited, moved or deleted outside Engram (an editor, a sync tool) and
   * indexes them incrementally: file events (debounced) plus a periodic manifest check. Idempotent.
   */
  watch(options: WatchOptions & { onSync?: (report: IndexReport) => void } = {}): DiaryWatcher {
    if (this.watcher) return this.watcher;
    const sync = async (trigger: SyncTrigger) => {
      if (this.database.readOnly) return;
      try {
        // The periodic check first asks the manifest (stats only), so an idle folder costs no lock.
        if (trigger === 'poll') {
          const changed = await changedDiaryPaths(this.db, this.config);
          if (changed && changed.paths.length === 0 && this.pendingIndexPaths.size === 0) return;
        }
        const report = await this.index({ full: false, lockWaitMs: 2_000 });
        const changes = report.added + report.updated + report.removed;
        this.liveSync = { ...this.liveSync, lastSyncAt: new Date().toISOString(), lastTrigger: trigger, lastChanges: changes, lastError: null };
        if (changes > 0) {
          this.log('info', 'diary folder changed outside Engram: index updated', { trigger, added: report.added, updated: report.updated, removed: report.removed });
          options.onSync?.(report);
        }
      } catch (e) {
        // Another writer holding the lock, an unreachable server: the next trigger tries again.
        this.liveSync = { ...this.liveSync, lastError: errorMessage(e) };
        this.log('warn', 'live sync of the diary folder failed', { error: errorMessage(e) });
      }
    };
    this.watcher = new DiaryWatcher(this.config.diaryDir, sync, options).start();
    this.liveSync = { ...this.liveSync, watching: true, events: this.watcher.eventsUnavailable === null };
    return this.watcher;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    this.semantic?.close();
    this.database.close();
  }
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
}



