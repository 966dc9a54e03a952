// The semantic channel: turns chunks into vectors (remote or local embedder), keeps them in libSQL
// and in an in-memory index, answers nearest-neighbour queries, and guards against mixing vector
// spaces. It is an enhancement: every fault degrades to "no semantic results" with a reason, and
// nothing here throws into the recall path or stops an index build.
import { createHash } from 'node:crypto';
import type { Client } from '@libsql/client';
import { tableExists, VECTOR_META_TABLE } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import { BACKGROUND_TEXTS } from './background-texts.ts';
import { runBatches, type BatchResult } from './batch-runner.ts';
import type {
  CosineBackground,
  IntegrityReport,
  SemanticChannelOptions,
  SemanticLog,
  SemanticSearchResult,
  SemanticStatus,
  FillOptions,
  SyncChunk,
  SyncOptions,
  SyncResult,
} from './channel-types.ts';
import { docIdOfChunk } from './chunk-id.ts';
import { embeddedText } from './context.ts';
import { backgroundStats, drawSample, sampleIsCurrent, SMALL_CORPUS, type BackgroundSample } from './cosine-background.ts';
import type { Embedder } from './embedder.ts';
import { createEmbedder } from './embedder-factory.ts';
import { EmbeddingFault, redact } from './embedding-fault.ts';
import {
  compareFingerprints,
  fingerprintOf,
  LEGACY_WINDOWING,
  windowingChanged,
  type ChunkParams,
  type EmbeddingFingerprint,
  type FingerprintComparison,
} from './fingerprint.ts';
import { compareWithStored, INTEGRITY_MIN_COS } from './integrity.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';
import { RequestPacer } from './pacer.ts';
import { batchesOf, chunkCount, planReuse, staleIds, type ReusePlan } from './sync-plan.ts';
import { VectorIndex } from './vector-index.ts';
import { VectorStore, type StoredVector } from './vector-store.ts';

export type { EmbeddingFingerprint, FingerprintComparison } from './fingerprint.ts';
export { createEmbedder, INTEGRITY_MIN_COS };

export type {
  SemanticStatus,
  SyncChunk,
  SyncOptions,
  DegradedBatch,
  SyncResult,
  SemanticHit,
  CosineBackground,
  SemanticSearchResult,
  IntegrityReport,
  SemanticLog,
  SemanticChannelOptions,
  ModelLoading,
  FillOptions,
} from './channel-types.ts';
export { docIdOfChunk };

export const REBUILD_ACTION =
  'Rebuild the index to re-embed every chunk with the current embedding settings (the old vectors are backed up first). Until then recall is lexical only.';
const QUERY_CACHE_SIZE = 64;

type State = SemanticStatus['state'];

export class SemanticChannel {
  private readonly config: EngramConfig['embedding'];
  private readonly chunkParams: ChunkParams;
  private readonly log: SemanticLog;
  private readonly opts: SemanticChannelOptions;
  private readonly store: VectorStore;
  private embedder: Embedder | null = null;
  private pacer: RequestPacer;
  private index: VectorIndex | null = null;
  private state: State = 'off';
  private reason: string | null = null;
  private action: string | null = null;
  private current: EmbeddingFingerprint;
  private stored: EmbeddingFingerprint | null = null;
  private storedCount = 0;
  private tableDims: number | null = null;
  private advice: string[] = [];
  private lastError: string | null = null;
  private degradedTotal = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queryCache = new Map<string, Float32Array>();
  private closed = false;
  private background: BackgroundSample | null = null;
  /** Reference texts' vectors, for corpora too small to sample (embedded once, on demand). */
  private reference: Float32Array[] | null = null;
  /** The on-demand model load in flight. */
  private modelLoading: Promise<boolean> | null = null;
  /** A background fill (fill()) under way: the chunks it has left to embed, null before it has planned them. */
  private filling: { left: number | null } | null = null;
  /** Fired by close(): a fill in flight stops between batches. */
  private readonly closing = new AbortController();

  private constructor(opts: SemanticChannelOptions) {
    this.opts = opts;
    this.config = opts.embedding;
    this.chunkParams = opts.chunk;
    this.log = opts.log ?? (() => {});
    this.store = new VectorStore(opts.client);
    this.current = fingerprintOf(opts.embedding, opts.chunk);
    this.pacer = new RequestPacer({ concurrency: 1, minIntervalMs: 0 });
  }

  /** Opens the channel; never throws for embedding problems (they become the status), only for a broken database. */
  static async open(opts: SemanticChannelOptions): Promise<SemanticChannel> {
    const channel = new SemanticChannel(opts);
    await channel.init();
    return channel;
  }

  /** The shared judgement of the three gates. */
  static compare(stored: EmbeddingFingerprint | null, proposed: EmbeddingFingerprint): FingerprintComparison {
    return compareFingerprints(stored, proposed);
  }

  /** The fingerprint a (proposed) configuration would have; for the settings-save gate. */
  static fingerprintFor(embedding: EngramConfig['embedding'], chunk: ChunkParams): EmbeddingFingerprint {
    return fingerprintOf(embedding, chunk);
  }

  /**
   * The settings-save gate: would saving this embedding/chunk config strand the stored vectors?
   * `requiresConfirmation` → offer "rebuild now / save only / cancel".
   */
  static async checkSettings(
    client: Client,
    proposed: { embedding: EngramConfig['embedding']; chunk: ChunkParams },
  ): Promise<FingerprintComparison & { requiresConfirmation: boolean; stored: EmbeddingFingerprint | null; proposed: EmbeddingFingerprint }> {
    const stored = await SemanticChannel.storedFingerprint(client);
    const next = fingerprintOf(proposed.embedding, proposed.chunk);
    const cmp = compareFingerprints(stored, next);
    return { ...cmp, requiresConfirmation: cmp.fatal, stored, proposed: next };
  }

  /** What the database's vectors were built with, without opening a channel. */
  static async storedFingerprint(client: Client): Promise<EmbeddingFingerprint | null> {
    if (!(await tableExists(client, VECTOR_META_TABLE))) return null;
    return new VectorStore(client).readFingerprint();
  }

  status(): SemanticStatus {
    return {
      state: this.state,
      reason: this.reason,
      action: this.action,
      provider: this.config.provider,
      fingerprint: this.config.provider === 'none' ? null : { ...this.current },
      storedFingerprint: this.stored ? { ...this.stored } : null,
      vectors: this.index ? this.index.size : this.storedCount,
      dimensions: this.index?.dims ?? this.tableDims ?? (this.current.dimensions || this.stored?.dimensions || 0),
      lastError: this.lastError,
      degradedBatches: this.degradedTotal,
      advice: [...this.advice],
      outdated: this.outdated(),
    };
  }

  /** Stored vectors were windowed otherwise than the current settings window chunks: an index run must sync every chunk. */
  private outdated(): boolean {
    return this.state === 'ready' && this.storedCount > 0 && windowingChanged(this.stored, this.current);
  }

  /** Whether this chunk has a vector (a recall gate must not punish chunks the channel never saw). */
  hasVector(chunkId: string): boolean {
    return this.index?.has(chunkId) ?? false;
  }

  // ---------------------------------------------------------------- set-up

  private setState(state: State, reason: string | null, action: string | null): void {
    this.state = state;
    this.reason = reason;
    this.action = action;
  }

  private secrets(): string[] {
    return [this.config.apiKey];
  }

  private safe(message: string): string {
    return redact(message, this.secrets());
  }

  private async init(): Promise<void> {
    await this.store.ensureMeta();
    this.stored = await this.store.readFingerprint();
    this.tableDims = await this.store.tableDimensions();
    this.storedCount = this.tableDims === null ? 0 : await this.store.count();
    const cfg = this.config;

    if (cfg.provider === 'none') {
      this.setState('off', 'embedding provider is none', 'Set embedding.provider to "openai" or "local" to add semantic recall; lexical recall works without it.');
      return;
    }
    if (this.opts.model?.load === 'on-demand') {
      // The stored vectors are judged by the settings alone (a local model's width is in its
      // config.json); the model and the vectors load when something first needs them.
      if (this.judgeStored()) this.setState('ready', null, null);
      return;
    }
    if (!(await this.loadModel())) return;
    this.log('info', 'semantic channel ready', {
      provider: cfg.provider,
      model: this.current.model,
      dimensions: this.status().dimensions,
      vectors: this.index?.size ?? 0,
      advice: this.advice,
    });
  }

  /** Loads the model and the stored vectors once; false when the channel cannot serve (state says why). */
  private ensureModel(): Promise<boolean> {
    if (this.embedder) return Promise.resolve(this.state === 'ready');
    if (this.state !== 'ready' || this.closed) return Promise.resolve(false);
    this.modelLoading ??= this.loadModel().finally(() => {
      this.modelLoading = null;
    });
    return this.modelLoading;
  }

  private async loadModel(): Promise<boolean> {
    const cfg = this.config;
    try {
      this.embedder = await this.createEmbedder();
    } catch (e) {
      const msg = this.safe(e instanceof Error ? e.message : String(e));
      this.lastError = msg;
      this.setState('error', msg, cfg.provider === 'local'
        ? 'Point embedding.modelDir at a local model directory (config.json, tokenizer.json, onnx/model.onnx), or set embedding.provider to "none".'
        : 'Fix the embedding settings (baseUrl, model), or set embedding.provider to "none".');
      this.log('error', 'semantic channel unavailable', { provider: cfg.provider, reason: msg });
      return false;
    }
    this.pacer = this.embedder.remote
      ? new RequestPacer({ concurrency: cfg.concurrency, minIntervalMs: cfg.minIntervalMs })
      : new RequestPacer({ concurrency: 1, minIntervalMs: 0 });
    this.current = fingerprintOf(cfg, this.chunkParams, this.embedder.dimensions ?? 0);
    if (!this.judgeStored()) {
      if (!this.opts.rebuildOnModelChange || this.state !== 'mismatch') return false;
      this.log('info', 'embedding model changed: backing up the old vectors and embedding again', { reasons: this.reason, stored: this.stored, current: this.current });
      try {
        await this.resetNow();
      } catch (e) {
        // Read-only data, say: the vectors stay as they are and the mismatch stands with its reason.
        this.log('warn', 'could not set the old vectors aside', { reason: this.safe((e as Error).message) });
        return false;
      }
      return this.status().state === 'ready';
    }
    // Auto dimension (0): the stored vectors say what the model returns.
    const known = this.tableDims ?? this.stored?.dimensions ?? 0;
    if (this.embedder instanceof OpenAiEmbedder && known > 0) this.embedder.expectDimensions(known);
    if (!this.current.dimensions && known > 0) this.current = { ...this.current, dimensions: known };
    if (this.tableDims && !this.index) {
      const index = new VectorIndex(this.tableDims, { parallel: this.opts.parallelSearch !== false, initialCapacity: this.storedCount });
      const loaded = await this.store.loadAll((row) => {
        index.upsert(row.id, row.fingerprint, row.vector);
      });
      if (loaded.malformed > 0) this.log('warn', 'skipped malformed stored vectors', { count: loaded.malformed });
      this.index = index;
    }
    this.setState('ready', null, null);
    return true;
  }

  /** Whether the stored vectors can serve the current settings; sets the mismatch state when not. */
  private judgeStored(): boolean {
    // Stored vectors without a fingerprint cannot be trusted: treat them like a model change.
    if (!this.stored && this.storedCount > 0) {
      this.setState('mismatch', `${this.storedCount} stored vectors have no recorded fingerprint`, REBUILD_ACTION);
      this.log('warn', 'semantic channel off: stored vectors without fingerprint', { vectors: this.storedCount });
      return false;
    }
    const cmp = compareFingerprints(this.stored, this.current);
    if (!cmp.fatal && this.stored && this.tableDims && this.current.dimensions && this.tableDims !== this.current.dimensions) {
      cmp.fatal = true;
      cmp.reasons.push(`stored vectors have ${this.tableDims} dimensions, the embedder produces ${this.current.dimensions}`);
    }
    if (cmp.fatal) {
      this.setState('mismatch', cmp.reasons.join('; '), REBUILD_ACTION);
      this.log('warn', 'semantic channel off: embedding settings changed', { reasons: cmp.reasons, stored: this.stored, current: this.current });
      return false;
    }
    this.advice = cmp.advise;
    return true;
  }

  private createEmbedder(): Promise<Embedder> {
    return createEmbedder(this.config, this.opts.fetchImpl, { dataDir: this.opts.dataDir, model: this.opts.model, chunk: this.chunkParams });
  }

  /**
   * Chunks as embedded: with their document's context lines, fingerprinted together so a title
   * change re-embeds; a windowing other than the legacy one is in the fingerprint too, so vectors
   * windowed otherwise are embedded again (vectors stored before it existed keep their fingerprints).
   */
  private async withContext<T extends { id: string; text: string; fingerprint?: string }>(chunks: T[]): Promise<T[]> {
    if (chunks.length === 0) return chunks;
    const windowing = this.current.windowing && this.current.windowing !== LEGACY_WINDOWING ? this.current.windowing : '';
    if (!this.opts.contextOf && !windowing) return chunks;
    const contexts = this.opts.contextOf ? await this.opts.contextOf(chunks.map((c) => c.id)) : new Map<string, string>();
    return chunks.map((c) => {
      const ctx = contexts.get(docIdOfChunk(c.id)) ?? '';
      if (!ctx && !windowing) return c;
      const text = embeddedText(ctx, c.text);
      const key = [c.fingerprint, ...(ctx ? [ctx] : []), ...(windowing ? [`windows ${windowing}`] : [])].join('\u0000');
      return { ...c, text, ...(c.fingerprint !== undefined ? { fingerprint: createHash('sha1').update(key).digest('hex') } : {}) };
    });
  }

  /** Serialises everything that writes vectors. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ---------------------------------------------------------------- writes

  /** Creates the table (and records the fingerprint) once the dimension is known. */
  private async ensureTable(dims: number): Promise<VectorIndex> {
    if (this.tableDims !== null && this.tableDims !== dims) {
      throw new EmbeddingFault('dimensions', `embedder returned ${dims}-dimensional vectors, stored vectors have ${this.tableDims}`);
    }
    if (this.tableDims === null) {
      await this.store.createTable(dims);
      this.tableDims = dims;
      this.current = { ...this.current, dimensions: dims };
      await this.store.writeFingerprint(this.current);
      this.stored = { ...this.current };
      this.log('info', 'vector table created', { dimensions: dims, model: this.current.model });
    }
    if (!this.index) this.index = new VectorIndex(dims, { parallel: this.opts.parallelSearch !== false });
    return this.index;
  }

  private async writeVectors(rows: StoredVector[]): Promise<void> {
    if (rows.length === 0) return;
    const index = await this.ensureTable((rows[0] as StoredVector).vector.length);
    await this.store.upsertMany(rows);
    for (const r of rows) index.upsert(r.id, r.fingerprint, r.vector);
    this.storedCount = index.size;
  }

  private async removeIds(ids: string[]): Promise<number> {
    if (ids.length === 0 || this.tableDims === null) return 0;
    const unique = [...new Set(ids)];
    const present = this.index ? unique.filter((id) => this.index?.has(id)) : unique;
    await this.store.deleteMany(unique);
    for (const id of unique) this.index?.remove(id);
    this.storedCount = this.index ? this.index.size : await this.store.count();
    return present.length;
  }

  /**
   * Makes the vector table match these chunks: reuses vectors whose chunk fingerprint is unchanged,
   * embeds the rest, drops vectors of chunks not listed (full) or of `removedIds` (incremental).
   * Never throws for embedding faults: failed batches are reported in `degradedBatches`.
   */
  sync(chunks: SyncChunk[], opts: SyncOptions): Promise<SyncResult> {
    return this.exclusive(async () => {
      try {
        return await this.syncNow(chunks, opts);
      } catch (e) {
        // A database failure here must not take the index build down with it.
        const reason = this.safe(`semantic sync failed: ${e instanceof Error ? e.message : String(e)}`);
        this.lastError = reason;
        this.log('error', 'semantic sync failed', { reason });
        return { embedded: 0, reused: 0, removed: 0, degradedBatches: [], skipped: reason, aborted: opts.signal?.aborted ?? false };
      }
    });
  }

  private async syncNow(input: SyncChunk[], opts: SyncOptions): Promise<SyncResult> {
    if (opts.embed === false) return this.dropStale(input, opts);
    const embedLater = this.opts.model?.embedLater === true;
    if (!embedLater && input.length > 0) await this.ensureModel();
    const chunks = this.state === 'ready' && this.embedder ? await this.withContext(input) : input;
    const result: SyncResult = { embedded: 0, reused: 0, removed: 0, degradedBatches: [], skipped: null, aborted: false };
    const total = chunks.length;
    let done = 0;
    const progress = (n: number) => {
      done += n;
      opts.onProgress?.(done, total);
    };

    // Removals apply in every state: they keep the durable table tidy for when the channel returns.
    const stale = await staleIds(chunks, opts, async () => (this.index ? this.index.idList() : (await this.store.listIds()).map((r) => r.id)));
    const ready = this.state === 'ready' && this.embedder !== null;

    // Donor vectors are copied out before stale rows are removed.
    const plan: ReusePlan = ready ? planReuse(chunks, this.index) : { reused: 0, copies: [], groups: new Map() };
    result.reused = plan.reused;
    result.removed = await this.removeIds(stale);

    if (!ready || !this.embedder) {
      result.skipped = this.reason ?? (embedLater && this.state === 'ready' ? 'embedded later, by the process that holds the index or `engram index`' : `semantic channel is ${this.state}`);
      return result;
    }
    const embedder = this.embedder;
    progress(result.reused);
    if (plan.copies.length > 0) {
      try {
        await this.writeVectors(plan.copies);
        result.reused += plan.copies.length;
      } catch (e) {
        result.degradedBatches.push({ index: -1, size: plan.copies.length, reason: this.safe(`saving reused vectors failed: ${(e as Error).message}`) });
      }
      progress(plan.copies.length);
    }

    const batches = batchesOf(plan.groups, this.config.batchSize);

    if (batches.length > 0) {
      const finished = await this.embedBatches(batches, embedder, result, {
        signal: opts.signal,
        store: async (rows) => {
          await this.writeVectors(rows);
          return rows.length;
        },
        progress,
      });
      result.aborted = !finished;
    }

    // After a complete full sync every stored vector belongs to the current chunking.
    if (!result.aborted) await this.recordChunking(opts);
    this.log('info', 'semantic sync done', {
      mode: opts.mode,
      embedded: result.embedded,
      reused: result.reused,
      removed: result.removed,
      degradedBatches: result.degradedBatches.length,
      aborted: result.aborted,
    });
    return result;
  }

  /**
   * A sync that embeds nothing (SyncOptions.embed false): removed chunks' vectors go, moved texts
   * take their donor's vector, and a listed chunk whose stored vector was made from other text (or
   * other context) loses it — until the fill embeds it again, the chunk is found lexically, never by
   * the old text's vector. Needs no model: with the vectors not loaded yet, their fingerprints are read from the table.
   */
  private async dropStale(input: SyncChunk[], opts: SyncOptions): Promise<SyncResult> {
    const result: SyncResult = { embedded: 0, reused: 0, removed: 0, degradedBatches: [], skipped: null, aborted: false };
    const judged = this.state === 'ready';
    const chunks = judged ? await this.withContext(input) : input;
    let listed: Map<string, string> | null = null;
    const storedFp = async (): Promise<(id: string) => string | undefined> => {
      if (this.index) {
        const index = this.index;
        return (id) => index.fingerprintOf(id);
      }
      listed ??= new Map((await this.store.listIds()).map((r) => [r.id, r.fingerprint]));
      const map = listed;
      return (id) => map.get(id);
    };
    const stale = await staleIds(chunks, opts, async () => (this.index ? this.index.idList() : [...(listed ??= new Map((await this.store.listIds()).map((r) => [r.id, r.fingerprint]))).keys()]));
    if (judged) {
      if (this.index) {
        // Donor vectors are copied out before stale rows are removed.
        const plan = planReuse(chunks, this.index);
        result.reused = plan.reused;
        if (plan.copies.length > 0) {
          await this.writeVectors(plan.copies);
          result.reused += plan.copies.length;
        }
      }
      const fpOf = await storedFp();
      for (const c of chunks) {
        const fp = fpOf(c.id);
        if (fp !== undefined && fp !== c.fingerprint) stale.push(c.id);
      }
    }
    result.removed = await this.removeIds(stale);
    // A full sync dropped every vector made otherwise than the settings now say: those left belong
    // to the current chunking (the fill embeds the rest the same way).
    if (judged) await this.recordChunking(opts);
    return result;
  }

  /** After a full sync (or its stale drop): the stored fingerprint takes the current chunk parameters and windowing. */
  private async recordChunking(opts: SyncOptions): Promise<void> {
    if (opts.mode !== 'full' || !this.stored || this.tableDims === null) return;
    const next = { ...this.current, dimensions: this.tableDims };
    if (next.chunkSize !== this.stored.chunkSize || next.chunkOverlap !== this.stored.chunkOverlap || windowingChanged(this.stored, next)) {
      await this.store.writeFingerprint(next);
      this.stored = next;
      this.advice = [];
    }
  }

  /**
   * Embeds the listed chunks that have no current vector, outside any lock: each batch's vectors
   * are stored through `opts.commit` (the caller's writer lock), and only for chunks that are, under
   * that lock, still there with the text and context they were embedded from. Never throws for
   * embedding faults (a failed batch's chunks stay without vectors: the next fill tries them again).
   */
  async fill(input: SyncChunk[], opts: FillOptions): Promise<SyncResult> {
    const result: SyncResult = { embedded: 0, reused: 0, removed: 0, degradedBatches: [], skipped: null, aborted: false };
    if (this.opts.model?.embedLater === true) {
      result.skipped = 'embedded later, by the process that holds the index or `engram index`';
      return result;
    }
    this.filling = { left: null };
    opts = { ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, this.closing.signal]) : this.closing.signal };
    try {
      if (!(await this.ensureModel()) || !this.embedder || this.closed) {
        result.skipped = this.reason ?? `semantic channel is ${this.state}`;
        return result;
      }
      const embedder = this.embedder;
      const chunks = await this.withContext(input);
      const plan = planReuse(chunks, this.index);
      result.reused = plan.reused;
      const batches = batchesOf(plan.groups, this.config.batchSize);
      const total = plan.copies.length + batches.reduce((n, b) => n + chunkCount(b), 0);
      let done = 0;
      this.filling = { left: total };
      const progress = (n: number) => {
        done += n;
        if (this.filling) this.filling.left = total - done;
        opts.onProgress?.(done, total);
      };
      opts.onProgress?.(0, total);
      // Stores these rows if their chunks are unchanged under the caller's lock.
      const store = (rows: StoredVector[]) =>
        opts.commit(rows.map((r) => r.id), async (current) => {
          if (opts.signal?.aborted || this.closed) return 0;
          const now = new Map((await this.withContext(current)).map((c) => [c.id, c.fingerprint]));
          const keep = rows.filter((r) => now.get(r.id) === r.fingerprint);
          await this.exclusive(() => this.writeVectors(keep));
          return keep.length;
        });
      if (plan.copies.length > 0) {
        result.reused += await store(plan.copies);
        progress(plan.copies.length);
      }
      if (batches.length > 0) {
        const finished = await this.embedBatches(batches, embedder, result, { signal: opts.signal, store, progress, canStore: () => !opts.signal?.aborted && !this.closed });
        result.aborted = !finished || opts.signal?.aborted === true;
      }
      this.log('info', 'semantic fill done', { embedded: result.embedded, reused: result.reused, degradedBatches: result.degradedBatches.length, aborted: result.aborted });
      return result;
    } finally {
      this.filling = null;
    }
  }

  /**
   * Embeds the batches (paced, retried when the embedder is remote) and stores each batch's vectors
   * through `store` (which says how many it kept); a batch that fails, or whose vectors cannot be
   * stored, degrades to lexical-only and is logged. `canStore` false: a batch's vectors are dropped
   * unstored (a fill stopping). Resolves false when the run was cut short. Shared by sync and fill.
   */
  private async embedBatches(
    batches: SyncChunk[][][],
    embedder: Embedder,
    result: SyncResult,
    opts: { signal?: AbortSignal; store: (rows: StoredVector[]) => Promise<number>; progress: (n: number) => void; canStore?: () => boolean },
  ): Promise<boolean> {
    const degrade = (index: number, size: number, reason: string) => {
      const safeReason = this.safe(reason);
      result.degradedBatches.push({ index, size, reason: safeReason });
      this.degradedTotal++;
      this.lastError = safeReason;
      this.log('warn', 'embedding batch degraded to lexical-only', { batch: index, chunks: size, reason: safeReason });
    };
    return runBatches(
      batches.map((b) => b.map((g) => (g[0] as SyncChunk).text)),
      (texts, signal) => embedder.embed(texts, { signal }),
      {
        pacer: this.pacer,
        maxRetries: embedder.remote ? this.config.maxRetries : 0,
        signal: opts.signal,
        maxWaitMs: this.opts.maxRetryWaitMs,
        backoffBaseMs: this.opts.backoffBaseMs,
        onResult: async (r: BatchResult) => {
          const batch = batches[r.index] as SyncChunk[][];
          const size = chunkCount(batch);
          if (r.vectors && (opts.canStore?.() ?? true)) {
            const rows: StoredVector[] = [];
            batch.forEach((group, i) => {
              for (const c of group) rows.push({ id: c.id, fingerprint: c.fingerprint, vector: r.vectors?.[i] as Float32Array });
            });
            try {
              result.embedded += await opts.store(rows);
            } catch (e) {
              degrade(r.index, size, `saving vectors failed: ${(e as Error).message}`);
            }
          } else if (!r.vectors) degrade(r.index, size, r.error ?? 'unknown error');
          opts.progress(size);
        },
        onRetry: (info) => this.log('info', 'embedding batch retry', { batch: info.index, attempt: info.attempt, waitMs: info.waitMs, reason: this.safe(info.reason) }),
      },
    );
  }

  /** While a fill runs: how far the vectors are ("N of M chunks"), for a search's explanation. */
  private fillNote(index: VectorIndex | null): string | undefined {
    if (!this.filling) return undefined;
    const have = index?.size ?? 0;
    const left = this.filling.left;
    return left === null
      ? 'vectors are still being filled in; chunks without one are found lexically'
      : `vectors are still being filled in (${have} of ${have + left} chunks); chunks without one are found lexically`;
  }

  remove(chunkIds: string[]): Promise<void> {
    return this.exclusive(async () => {
      await this.removeIds(chunkIds);
    });
  }

  /**
   * The rebuild gate: when the stored vectors cannot serve the current settings (or `force`), backs
   * them up and starts empty; otherwise keeps them so the rebuild's full sync reuses what it can.
   */
  async prepareRebuild(opts: { force?: boolean } = {}): Promise<{ reset: boolean; reasons: string[]; advise: string[] }> {
    const cmp = compareFingerprints(this.stored, this.current);
    const reasons = this.state === 'mismatch' && this.reason && cmp.reasons.length === 0 ? [this.reason] : cmp.reasons;
    const reset = opts.force === true || this.state === 'mismatch' || cmp.fatal;
    if (reset) await this.resetForRebuild();
    return { reset, reasons, advise: cmp.advise };
  }

  /** Moves the current vectors aside (backup table, newest 2 kept) and starts empty with the current fingerprint. */
  resetForRebuild(): Promise<void> {
    return this.exclusive(() => this.resetNow());
  }

  /** resetForRebuild without the write queue (for a caller already in it, or opening). */
  private async resetNow(): Promise<void> {
    if (this.config.provider === 'none') return; // nothing to rebuild into: keep the vectors for later
    const backup = await this.store.backupAndClear(2);
    if (backup) this.log('info', 'old vectors backed up', { table: backup, fingerprint: this.stored });
    this.index?.close();
    this.index = null;
    this.tableDims = null;
    this.stored = null;
    this.storedCount = 0;
    this.advice = [];
    this.queryCache.clear();
    // Loaded now if it was waiting for first use; a model that cannot load leaves the state 'error' with its reason.
    if (!this.embedder && !(await this.loadModel())) return;
    if (!this.embedder) return;
    if (this.embedder instanceof OpenAiEmbedder) {
      // The stored dimension no longer constrains the new vectors.
      const fresh = await this.createEmbedder();
      this.embedder = fresh;
    }
    this.current = fingerprintOf(this.config, this.chunkParams, this.embedder.dimensions ?? 0);
    if (this.current.dimensions > 0) await this.ensureTable(this.current.dimensions);
    this.setState('ready', null, null);
  }

  // ---------------------------------------------------------------- reads

  private async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const cached = this.queryCache.get(query);
    if (cached) {
      this.queryCache.delete(query);
      this.queryCache.set(query, cached);
      return cached;
    }
    const embedder = this.embedder as Embedder;
    const timeoutMs = this.opts.queryTimeoutMs ?? Math.min(this.config.timeoutMs, 5000);
    const [vector] = await embedder.embed([query], { signal, timeoutMs, purpose: 'query' });
    const v = vector as Float32Array;
    this.queryCache.set(query, v);
    if (this.queryCache.size > QUERY_CACHE_SIZE) this.queryCache.delete(this.queryCache.keys().next().value as string);
    return v;
  }

  /** Nearest chunks by cosine. Never throws: a fault returns { ran: false, skipped: reason }. */
  async search(
    query: string,
    limit: number,
    opts: { signal?: AbortSignal; allowedChunkIds?: Set<string> } = {},
  ): Promise<SemanticSearchResult> {
    const started = performance.now();
    try {
      if (this.closed) return { ran: false, skipped: 'semantic channel is closed' };
      if (query.trim()) await this.ensureModel();
      if (this.state !== 'ready' || !this.embedder) return { ran: false, skipped: this.reason ?? `semantic channel is ${this.state}` };
      if (!query.trim()) return { ran: false, skipped: 'empty query' };
      const index = this.index;
      if (!index || index.size === 0) return { ran: false, skipped: this.fillNote(index) ?? 'no vectors indexed yet' };
      const vector = await this.embedQuery(query, opts.signal);
      if (vector.length !== index.dims) {
        const reason = `query embedding has ${vector.length} dimensions, stored vectors have ${index.dims}`;
        this.lastError = reason;
        return { ran: false, skipped: reason };
      }
      const hits = index.search(vector, Math.max(0, Math.floor(limit)), opts.allowedChunkIds);
      return {
        ran: true,
        hits: hits.map((h, i) => ({ chunkId: h.id, score: h.score, rank: i + 1 })),
        ms: performance.now() - started,
        background: await this.backgroundFor(vector, index, opts.signal),
        model: this.current.model,
        ...(this.filling ? { partial: this.fillNote(index) } : {}),
      };
    } catch (e) {
      const reason = this.safe(`query embedding failed: ${e instanceof Error ? e.message : String(e)}`);
      this.lastError = reason;
      this.log('warn', 'semantic search skipped', { reason });
      return { ran: false, skipped: reason };
    }
  }

  /** The query's cosine background (cosine-background.ts); a small corpus is topped up with reference texts, embedded once. */
  private async backgroundFor(query: Float32Array, index: VectorIndex, signal?: AbortSignal): Promise<CosineBackground | undefined> {
    if (index.size < SMALL_CORPUS && !this.reference && this.embedder) {
      try {
        const timeoutMs = this.opts.queryTimeoutMs ?? Math.min(this.config.timeoutMs, 5000);
        this.reference = (await this.embedder.embed(BACKGROUND_TEXTS, { signal, timeoutMs })).map((v) => Float32Array.from(v));
      } catch (e) {
        this.log('warn', 'background reference texts could not be embedded', { reason: this.safe((e as Error).message) });
        return undefined;
      }
    }
    return this.backgroundOf(query, index);
  }

  private backgroundOf(query: Float32Array, index: VectorIndex): CosineBackground | undefined {
    const size = index.size;
    if (!sampleIsCurrent(this.background, size)) this.background = drawSample(index);
    const sample = this.background as BackgroundSample;
    return backgroundStats(query, size < SMALL_CORPUS && this.reference ? [...sample.vectors, ...this.reference] : sample.vectors);
  }

  /** Re-embeds a sample and compares with the stored vectors (cos ≥ INTEGRITY_MIN_COS for this embedder passes). */
  async integrityCheck(sample: { id: string; text: string }[]): Promise<IntegrityReport> {
    await this.ensureModel();
    if (this.state !== 'ready' || !this.embedder || !this.index) {
      return { checked: 0, minCos: 0, ok: false, failures: [], errors: [this.reason ?? (this.index ? `semantic channel is ${this.state}` : 'no vectors indexed yet')] };
    }
    const index = this.index;
    const embedder = this.embedder;
    const report = await compareWithStored({
      items: await this.withContext(sample.filter((s) => index.has(s.id))),
      index,
      embedder,
      pacer: this.pacer,
      batchSize: this.config.batchSize,
      maxRetries: embedder.remote ? this.config.maxRetries : 0,
      maxWaitMs: this.opts.maxRetryWaitMs,
      backoffBaseMs: this.opts.backoffBaseMs,
      safe: (message) => this.safe(message),
    });
    if (!report.ok) this.log('warn', 'integrity check failed', { checked: report.checked, minCos: report.minCos, threshold: report.threshold, failures: report.failures.length, errors: report.errors });
    return report;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    this.index?.close();
    void this.embedder?.dispose?.();
  }
}
