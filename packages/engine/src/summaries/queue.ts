// The summary queue: memories written without a summary wait in `summary_jobs` until a worker asks
// the host's model for one sentence. A model that times out, fails or says nothing is replaced by
// the rule-based summary (status failed, the error kept, re-run possible). A summary a person wrote
// is never overwritten: the file is checked again, under the write lock, right before writing.
import {
  claimSummaryJob,
  deleteSummaryJob,
  enqueueSummaryJob,
  finishSummaryJob,
  getSummaryJob,
  listSummaryJobs,
  summaryJobCounts,
  type EngramDb,
  type SummaryJobRow,
  type SummaryJobStatus,
} from '@engram/db';
import type { MemoryDetail, MemorySummary } from '../api.ts';
import type { AssistRoute, Complete } from '../compaction/assist.ts';
import type { EngramConfig } from '../config/schema.ts';
import { parseDiaryText } from '../diary/parse.ts';
import { EngramError, errorMessage } from '../errors.ts';
import { silentLogger, type Logger } from '../log.ts';
import { estimateTokens } from '../compaction/tokens.ts';
import { recordModelUsage } from '../usage/model-usage.ts';
import { cleanModelSummary, ruleSummary, summaryPrompt } from './text.ts';

export type SummarySettings = EngramConfig['summaries'];
export type SummaryWriteSource = 'manual' | 'auto' | 'rule';

export interface SetSummaryResult {
  docId: string;
  path: string;
  /** false: an automatic summary met a summary a person wrote meanwhile, which was kept. */
  written: boolean;
  /** Where the summary now in the file came from. */
  source: SummaryWriteSource;
}

export interface SummaryQueueDeps {
  db: EngramDb;
  settings(): SummarySettings;
  read(idOrPath: string): Promise<MemoryDetail | null>;
  setSummary(idOrPath: string, summary: string, source: SummaryWriteSource): Promise<SetSummaryResult>;
  /** Live memories a workspace sees (all when null). */
  list(workspace: string | null): Promise<MemorySummary[]>;
  now?: () => Date;
  log?: Logger;
}

export interface SummaryQueueStatus extends Record<SummaryJobStatus, number> {
  enabled: boolean;
}

export interface RunOnceOptions {
  /** The session's own model; used when the summaries settings name no provider/model. */
  route?: AssistRoute | null;
  timeoutMs?: number;
  maxChars?: number;
  /** Aborting it (the worker stopping) puts the job back in the queue; no fallback is written. */
  signal?: AbortSignal;
}

export type SummaryRunOutcome = 'auto' | 'rule' | 'manual' | 'gone' | 'failed' | 'cancelled';

export interface SummaryRun {
  docId: string;
  path: string;
  outcome: SummaryRunOutcome;
  summary?: string;
  /** Why the model's summary was not used (timeout, error, empty reply), or why the write failed. */
  error?: string;
}

/** A tried summary (SummaryQueue.trySummary): nothing is written. */
export interface SummaryTry {
  /** auto = the model's; rule = the fallback the queue would write, with `error` saying why. */
  source: 'auto' | 'rule';
  summary: string;
  /** The model asked (null: none routed). */
  route: AssistRoute | null;
  ms: number;
  error?: string;
}

const failureText = (e: unknown): string => (e instanceof Timeout ? e.message : `model failed: ${errorMessage(e)}`);

/** A job left `running` this long by a process that died is taken again. */
export const STALE_RUNNING_MS = 10 * 60_000;
/** Tries of a job whose process keeps dying before it is left alone (a re-run resets the count). */
export const MAX_ATTEMPTS = 3;

class Timeout extends Error {}

/** The route a summary is asked on: the settings' provider/model, else the session's own model. */
export function summaryRoute(settings: SummarySettings, session: AssistRoute | null | undefined): AssistRoute | null {
  if (settings.provider.trim() !== '' && settings.model.trim() !== '') return { provider: settings.provider.trim(), model: settings.model.trim() };
  if (session && session.provider && session.model) {
    // A model named alone runs on the session's provider.
    return settings.model.trim() !== '' ? { provider: session.provider, model: settings.model.trim() } : session;
  }
  return null;
}

/** Calls `complete` with a deadline; an abort from outside rejects with the signal's reason. */
async function completeWithin(complete: Complete, request: Omit<Parameters<Complete>[0], 'signal'>, timeoutMs: number, outer?: AbortSignal): Promise<string> {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason ?? new Error('cancelled'));
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A model call that ignores its signal must not hold the queue: the deadline wins the race.
  const deadline = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason instanceof Error ? controller.signal.reason : new Error(String(controller.signal.reason)));
    if (controller.signal.aborted) fail();
    controller.signal.addEventListener('abort', fail, { once: true });
    timer = setTimeout(() => controller.abort(new Timeout(`the model did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([complete({ ...request, signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}

export class SummaryQueue {
  private readonly now: () => Date;
  private readonly log: Logger;

  constructor(private readonly deps: SummaryQueueDeps) {
    this.now = deps.now ?? (() => new Date());
    this.log = deps.log ?? silentLogger;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  /** Queues a memory (again). `reset` starts its attempt count over (a re-run). */
  async enqueue(docId: string, path: string, opts: { reset?: boolean } = {}): Promise<void> {
    await enqueueSummaryJob(this.deps.db, { docId, path, now: this.stamp(), reset: opts.reset });
  }

  /** Queues a memory that has no summary, when summaries are on; true when queued. */
  async enqueueIfMissing(doc: { docId: string; path: string; summarySource: string; readOnly?: boolean }): Promise<boolean> {
    if (!this.deps.settings().enabled || doc.readOnly || doc.summarySource !== 'none') return false;
    await this.enqueue(doc.docId, doc.path);
    return true;
  }

  /** Queues every live memory without a summary (files written by hand, imports): how many were queued. */
  async enqueueMissing(opts: { workspace?: string | null } = {}): Promise<number> {
    let n = 0;
    for (const m of await this.deps.list(opts.workspace ?? null)) {
      if (m.archived || m.readOnly || m.summarySource !== 'none') continue;
      const job = await getSummaryJob(this.deps.db, m.docId);
      if (job && (job.status === 'queued' || job.status === 'running')) continue;
      await this.enqueue(m.docId, m.path);
      n++;
    }
    return n;
  }

  /** Takes the next job (marks it running), or null when none waits. */
  async next(): Promise<SummaryJobRow | null> {
    const now = this.now();
    const job = await claimSummaryJob(this.deps.db, { now: now.toISOString(), staleBefore: new Date(now.getTime() - STALE_RUNNING_MS).toISOString(), maxAttempts: MAX_ATTEMPTS });
    return job ?? null;
  }

  /** The file now holds the model's summary (source auto), or a person's (source null). */
  async markDone(docId: string, source: 'auto' | 'rule' | null = 'auto'): Promise<void> {
    await finishSummaryJob(this.deps.db, docId, { status: 'done', source, error: null, now: this.stamp() });
  }

  /** The model failed: `source` 'rule' when the fallback was written, null when nothing was. */
  async markFailed(docId: string, error: string, source: 'rule' | null = 'rule'): Promise<void> {
    await finishSummaryJob(this.deps.db, docId, { status: 'failed', source, error: error.slice(0, 2000), now: this.stamp() });
  }

  async status(): Promise<SummaryQueueStatus> {
    return { enabled: this.deps.settings().enabled, ...(await summaryJobCounts(this.deps.db)) };
  }

  async job(docId: string): Promise<SummaryJobRow | null> {
    return (await getSummaryJob(this.deps.db, docId)) ?? null;
  }

  /** Jobs, most recently changed first (the console's list). */
  jobs(opts: { status?: SummaryJobStatus; limit?: number } = {}): Promise<SummaryJobRow[]> {
    return listSummaryJobs(this.deps.db, opts);
  }

  /**
   * The console's re-run button: queues the memory again (its auto or rule summary will be replaced).
   * A summary a person wrote is not re-run: edit it, or remove it first.
   */
  async rerun(idOrPath: string): Promise<SummaryJobRow> {
    const d = await this.deps.read(idOrPath);
    if (!d) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    if (d.readOnly) throw new EngramError('read-only', `"${d.title}" is in the read-only legacy corpus`);
    if (d.summarySource === 'manual') {
      throw new EngramError('manual-summary', `"${d.title}" has a summary written by a person; it is kept as it is (edit it, or remove it to get an automatic one)`);
    }
    await this.enqueue(d.docId, d.path, { reset: true });
    return (await this.job(d.docId))!;
  }

  /**
   * Runs one job: asks the model (within timeoutMs), falls back to the rule summary, writes it into
   * the file. null when the queue is empty. Never throws for a model or file failure: the outcome
   * and the job's status say what happened.
   */
  /** One model call's tokens on today's summary usage (the console's usage card); never throws. */
  private async countUsage(tokens: number): Promise<void> {
    await recordModelUsage(this.deps.db, 'summary', 1, tokens, this.deps.now?.() ?? new Date()).catch((e) => this.log('warn', 'summary: usage not counted', { error: errorMessage(e) }));
  }

  /**
   * One summary from the model for a title and body (the prompt, the time limit, the usage count
   * and the cleaning every summary goes through); throws when no model is routed or it fails.
   */
  private async ask(complete: Complete | null, title: string, body: string, opts: { route: AssistRoute | null; maxChars: number; timeoutMs: number; signal?: AbortSignal }): Promise<string> {
    const { route, maxChars } = opts;
    if (!complete || !route) throw new Error('no model to ask: set summaries.provider/model, or let a session run first');
    const ask = summaryPrompt(title, body || title, maxChars);
    const sent = estimateTokens(ask.system) + estimateTokens(ask.prompt);
    let reported: number | null = null; // the provider's own count, when the service gives one
    const onUsage = (tokens: number) => (reported = tokens);
    let reply: string;
    try {
      reply = await completeWithin(complete, { route, system: ask.system, prompt: ask.prompt, maxTokens: ask.maxTokens, onUsage }, opts.timeoutMs, opts.signal);
    } catch (e) {
      await this.countUsage(reported ?? sent); // the prompt went out: it is spent whether or not an answer came
      throw e;
    }
    await this.countUsage(reported ?? sent + estimateTokens(reply));
    const summary = cleanModelSummary(reply, maxChars);
    if (summary === '') throw new Error('the model answered with no usable summary');
    return summary;
  }

  /**
   * The console's 「试一下 AI 摘要」: what the model would make of this title and body (a memory's
   * text as it stands in the editor, saved or not), asked exactly as the queue asks, written
   * nowhere. When the model cannot answer, the rule summary the queue would fall back to, and why.
   */
  async trySummary(complete: Complete | null, draft: { title: string; body: string }, opts: RunOnceOptions = {}): Promise<SummaryTry> {
    const settings = this.deps.settings();
    const maxChars = opts.maxChars ?? settings.maxChars;
    const route = summaryRoute(settings, opts.route);
    const started = Date.now();
    try {
      const summary = await this.ask(complete, draft.title, draft.body, { route, maxChars, timeoutMs: opts.timeoutMs ?? settings.timeoutMs, signal: opts.signal });
      return { source: 'auto', summary, route, ms: Date.now() - started };
    } catch (e) {
      return { source: 'rule', summary: ruleSummary(draft.body, maxChars, draft.title), route, ms: Date.now() - started, error: failureText(e) };
    }
  }

  async runOnce(complete: Complete | null, opts: RunOnceOptions = {}): Promise<SummaryRun | null> {
    const job = await this.next();
    if (!job) return null;
    const settings = this.deps.settings();
    const maxChars = opts.maxChars ?? settings.maxChars;
    const timeoutMs = opts.timeoutMs ?? settings.timeoutMs;
    const base = { docId: job.docId, path: job.path };

    let detail: MemoryDetail | null;
    try {
      detail = (await this.deps.read(job.docId)) ?? (await this.deps.read(job.path));
    } catch (e) {
      await this.markFailed(job.docId, `cannot read the memory: ${errorMessage(e)}`, null);
      return { ...base, outcome: 'failed', error: errorMessage(e) };
    }
    if (!detail || detail.readOnly || detail.archived) {
      // Archived or deleted since it was queued: it has left recall, a summary would serve nobody.
      await deleteSummaryJob(this.deps.db, job.docId);
      return { ...base, outcome: 'gone' };
    }
    if (detail.summarySource === 'manual') {
      await this.markDone(job.docId, null);
      return { ...base, outcome: 'manual' };
    }

    const parsed = parseDiaryText(detail.raw, { root: 'diary', path: detail.path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
    let summary = '';
    let source: 'auto' | 'rule' = 'auto';
    let failure: string | undefined;
    try {
      summary = await this.ask(complete, parsed.title, parsed.body, { route: summaryRoute(settings, opts.route), maxChars, timeoutMs, signal: opts.signal });
    } catch (e) {
      if (opts.signal?.aborted) {
        // Stopping is not a model failure: the job waits for the next worker.
        await finishSummaryJob(this.deps.db, job.docId, { status: 'queued', source: null, error: null, now: this.stamp() }).catch(() => {});
        return { ...base, outcome: 'cancelled' };
      }
      failure = failureText(e);
      source = 'rule';
      summary = ruleSummary(parsed.body, maxChars, parsed.title);
      this.log('warn', 'summary: the model failed, rule-based summary used', { docId: job.docId, error: failure });
    }
    if (summary === '') {
      await this.markFailed(job.docId, failure ?? 'nothing to summarise', null);
      return { ...base, outcome: 'failed', error: failure ?? 'nothing to summarise' };
    }

    try {
      const written = await this.deps.setSummary(detail.docId, summary, source);
      if (!written.written) {
        await this.markDone(job.docId, null);
        return { ...base, outcome: 'manual' };
      }
    } catch (e) {
      await this.markFailed(job.docId, `could not write the summary: ${errorMessage(e)}`, null);
      return { ...base, outcome: 'failed', error: errorMessage(e) };
    }
    if (source === 'auto') await this.markDone(job.docId, 'auto');
    else await this.markFailed(job.docId, failure!, 'rule');
    return { ...base, outcome: source, summary, ...(failure ? { error: failure } : {}) };
  }
}
