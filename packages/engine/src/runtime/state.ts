// What every engine service shares (#18): the database, the settings in effect, the live in-memory
// index, the tokenizer, the semantic channel and judge built from the settings, and the writer queue.
// One instance per open engine; the services hold it and read `config` on every call, because saving
// settings replaces it. Nothing here decides a domain question — it only owns the shared state.
import { join } from 'node:path';
import type { Database } from '@engram/db';
import type { ResolveInput, ResolvedBase } from '../config/resolve.ts';
import type { EngramConfig } from '../config/schema.ts';
import { WriterLock, type WriterLockOptions } from '../diary/lock.ts';
import { EngramError, errorMessage } from '../errors.ts';
import { LiveIndex } from '../index/live.ts';
import type { WatchOptions } from '../index/watcher.ts';
import { createJudge, judgeOff, type JudgeStatus } from '../judge/judge.ts';
import { silentLogger, type Logger } from '../log.ts';
import { recordModelUsage } from '../usage/model-usage.ts';
import type { Judge } from '../recall/pipeline.ts';
import type { ModelLoading } from '../semantic/channel.ts';
import type { SemanticPort } from '../semantic/port.ts';
import { createTokenizer } from '../text/tokenize.ts';
import { usableTimeZone } from '../timeq/calendar.ts';
import { detectTimeZone } from '../timeq/timezone.ts';
import type { IndexProgress } from '../api.ts';
import type { Tokenizer } from '../types.ts';

export interface OpenEngineOptions extends ResolveInput {
  log?: Logger;
  /** Index files changed since the last run before answering (default true). */
  syncOnOpen?: boolean;
  /**
   * Progress of that pass. Usually a few changed files; after a change of terms (an upgrade,
   * text/tokenizer-check.ts) every note, over a minute at 50,000: the CLI draws it on a terminal.
   */
  onSyncProgress?: (p: IndexProgress) => void;
  /**
   * Create a missing diary folder even when it was named explicitly (the console does; the CLI
   * refuses). Never the folder this data dir was built from, gone: that one is opened as it is,
   * recall paused until it is back (engine.ts startEngine).
   */
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
  /**
   * When the embedding model loads (default at open; one-shot commands: on demand, see semantic/channel.ts),
   * and where a local one runs: `thread: 'worker'` (long-lived hosts sharing their event loop, the plugin; in a
   * thread or, `isolation: 'process'`, a child process) keeps the ONNX runtime off this thread and frees the
   * model after `idleMs` unused (semantic/worker-embedder.ts).
   */
  model?: ModelLoading;
  /** Watch the diary folder and index outside changes as they happen (long-lived hosts: the console, the plugin). */
  watch?: boolean | WatchOptions;
  now?: () => Date;
}

/** The BM25 parameters of a config (the live index is rebuilt when they change). */
export const lexicalOptions = (c: EngramConfig) => ({
  k1: c.recall.bm25K1,
  b: c.recall.bm25B,
  fieldWeights: c.recall.fieldWeights,
  singleCharWeight: c.recall.singleCharWeight,
});

export class EngineState {
  config: EngramConfig;
  /** The console's saved settings as applied over the deploy base (settings/service.ts changes it). */
  overlay: Record<string, unknown>;
  readonly live: LiveIndex;
  semantic: SemanticPort | null = null;
  judge: Judge | null = null;
  judgeStatus: JudgeStatus = judgeOff('judge disabled');
  /**
   * The data directory's time zone (stored at first run): "today" and "昨天" are local days there.
   * Checked against the runtime on first use (a zone it does not know reads as this machine's).
   */
  get timeZone(): string {
    return (this.zone ??= usableTimeZone(this.storedZone ?? undefined) ?? detectTimeZone());
  }
  set timeZone(zone: string) {
    this.storedZone = zone;
    this.zone = null;
  }
  private storedZone: string | null = null;
  private zone: string | null = null;
  readonly log: Logger;
  /** Cross-process: the console, the plugin and the CLI write one at a time (see diary/lock.ts). */
  readonly writerLock: WriterLock;
  /** What opening the data found and repaired (read-only data, a rebuilt database, dropped settings). */
  dataWarnings: string[] = [];
  /** Remote mode: the host:folder that owns (indexes and writes) the shared database, when it is not this engine. */
  indexOwner: string | null = null;
  /** Built on first use: loading jieba costs ~100-350 ms, which a command like `engram status` need not pay. */
  private tokenizerInstance: Tokenizer | null = null;
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly database: Database,
    readonly resolved: ResolvedBase,
    overlay: Record<string, unknown>,
    config: EngramConfig,
    readonly options: OpenEngineOptions,
  ) {
    this.config = config;
    this.overlay = overlay;
    this.log = options.log ?? silentLogger;
    this.live = new LiveIndex(lexicalOptions(config));
    this.live.url = database.url;
    this.writerLock = new WriterLock(join(config.dataDir, 'engram.lock'), options.writerLock);
  }

  get db() {
    return this.database.db;
  }

  get env(): Record<string, string | undefined> {
    return this.options.env ?? process.env;
  }

  get tokenizer(): Tokenizer {
    this.tokenizerInstance ??= createTokenizer({ kind: this.config.recall.tokenizer, userDict: this.config.recall.userDict });
    return this.tokenizerInstance;
  }

  set tokenizer(t: Tokenizer) {
    this.tokenizerInstance = t;
  }

  /** The workspace a call is scoped to: null (everything) when scoping is off in the settings. */
  scopeOf(workspace: string | null | undefined): string | null {
    return this.config.workspace.scoped ? (workspace ?? null) : null;
  }

  /**
   * Serialises writes: within this process by a promise queue, across processes by the data
   * folder's writer lock (without it two processes editing one diary lost an edit).
   */
  exclusive<T>(fn: () => Promise<T>, lockWaitMs?: number): Promise<T> {
    if (this.database.readOnly) return Promise.reject(new EngramError('read-only-data', this.database.readOnly.reason));
    if (this.indexOwner)
      return Promise.reject(new EngramError('index-owned-elsewhere', `the shared database is indexed by ${this.indexOwner}: write there (this engine only reads; ENGRAM_INDEX_OWNER=this moves the index here) / 索引归属另一台机器,本机只读`));
    const locked = () => this.writerLock.run('write', fn, lockWaitMs);
    const run = this.writeQueue.then(locked, locked);
    this.writeQueue = run.catch(() => {});
    return run;
  }

  /** (Re)builds the semantic channel for the current settings; a failure leaves recall lexical only. */
  async openSemantic(): Promise<void> {
    this.semantic?.close();
    this.semantic = null;
    if (!this.options.semanticFactory && this.config.embedding.provider === 'none') return;
    try {
      const factory = this.options.semanticFactory ?? (await import('../semantic/factory.ts')).createSemanticPort;
      this.semantic = await factory({ config: this.config, db: this.database, ...(this.options.model ? { model: this.options.model } : {}) });
    } catch (e) {
      this.log('warn', 'semantic channel unavailable, lexical only', { error: errorMessage(e) });
      this.semantic = null;
    }
  }

  /** The one judge factory, shared by every recall (plugin injection and console debug alike). */
  rebuildJudge(config: EngramConfig): void {
    if (this.options.judgeFactory) {
      this.judge = this.options.judgeFactory(config);
      return;
    }
    // Every request the judge sends is counted on today's usage (the console's usage card).
    const count = (calls: number, tokens: number) => {
      if (!this.database.readOnly) void recordModelUsage(this.database.db, 'judge', calls, tokens, this.options.now?.() ?? new Date()).catch((e) => this.log('warn', 'judge usage not counted', { error: errorMessage(e) }));
    };
    const { judge, status } = createJudge(config.judge, undefined, undefined, count);
    this.judgeStatus = status;
    this.judge = judge;
  }
}
