// Session imports run in the server, not in the request that started them: the browser polls a job
// by id, so closing the page or switching tabs neither stops the import nor loses its report. Jobs
// live in memory (an import is idempotent: after a restart, importing again skips what was done).
import { randomUUID } from 'node:crypto';
import type { ImportReport } from '@engram/engine';

export type ImportJobStatus = 'running' | 'done' | 'failed';

export interface ImportJob {
  id: string;
  workspace: string;
  sessionIds: string[];
  status: ImportJobStatus;
  /** Sessions handled so far and in all; total is 0 until the logs are read. */
  done: number;
  total: number;
  /** 0–100, never going back; 100 exactly when the job has finished. */
  percent: number;
  report: ImportReport | null;
  error: { code: string; message: string } | null;
  startedAt: string;
  finishedAt: string | null;
}

export type ImportRun = (onProgress: (done: number, total: number) => void) => Promise<ImportReport>;

/** Progress as a whole percent that stays below 100 until the job itself says it is finished. */
export function importPercent(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(99, Math.max(0, Math.floor((done / total) * 100)));
}

/** Finished jobs kept for the UI to read back; running ones are never dropped. */
const KEEP_FINISHED = 20;

export class ImportJobs {
  private readonly jobs = new Map<string, ImportJob>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Starts `run` in the background and returns its job at once. */
  start(input: { workspace: string; sessionIds: string[] }, run: ImportRun, describe: (e: unknown) => { code: string; message: string }): ImportJob {
    const job: ImportJob = {
      id: randomUUID(),
      workspace: input.workspace,
      sessionIds: [...input.sessionIds],
      status: 'running',
      done: 0,
      total: input.sessionIds.length,
      percent: 0,
      report: null,
      error: null,
      startedAt: this.now().toISOString(),
      finishedAt: null,
    };
    this.jobs.set(job.id, job);
    const onProgress = (done: number, total: number) => {
      job.done = Math.max(job.done, done);
      job.total = total;
      job.percent = Math.max(job.percent, importPercent(done, total));
    };
    // Deferred a tick so the caller has the job before any progress (or a synchronous failure) lands.
    void Promise.resolve()
      .then(() => run(onProgress))
      .then(
        (report) => {
          job.report = report;
          job.done = job.total;
          job.percent = 100;
          job.status = 'done';
        },
        (e: unknown) => {
          job.error = describe(e);
          job.status = 'failed';
        },
      )
      .finally(() => {
        job.finishedAt = this.now().toISOString();
        this.prune();
      });
    return { ...job };
  }

  get(id: string): ImportJob | null {
    const job = this.jobs.get(id);
    return job ? { ...job } : null;
  }

  /** Newest first. */
  list(): ImportJob[] {
    return [...this.jobs.values()].reverse().map((j) => ({ ...j }));
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'running');
    for (const j of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(j.id);
  }
}
