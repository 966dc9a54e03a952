// Rows of `summary_jobs`: memories waiting for a summary from the host's model. One row per memory;
// several processes (each DSH session runs a worker) take jobs from the same table, so taking one is
// a single UPDATE … RETURNING, which SQLite runs atomically.
import { and, asc, count, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { EngramDb } from './client.ts';
import { summaryJobs } from './schema.ts';

export type SummaryJobRow = typeof summaryJobs.$inferSelect;
export type SummaryJobStatus = SummaryJobRow['status'];
export type SummaryJobSource = NonNullable<SummaryJobRow['source']>;

/** Queues a memory (again): status queued, error cleared, attempts back to 0 when `reset`. */
export async function enqueueSummaryJob(db: EngramDb, job: { docId: string; path: string; now: string; reset?: boolean }): Promise<void> {
  await db
    .insert(summaryJobs)
    .values({ docId: job.docId, path: job.path, status: 'queued', attempts: 0, error: null, source: null, updatedAt: job.now })
    .onConflictDoUpdate({
      target: summaryJobs.docId,
      set: { path: job.path, status: 'queued', error: null, updatedAt: job.now, ...(job.reset ? { attempts: 0 } : {}) },
    });
}

export async function getSummaryJob(db: EngramDb, docId: string): Promise<SummaryJobRow | undefined> {
  const rows = await db.select().from(summaryJobs).where(eq(summaryJobs.docId, docId)).limit(1);
  return rows[0];
}

/**
 * Takes the oldest queued job (or a `running` one abandoned before `staleBefore` by a process that
 * died, while it has had fewer than `maxAttempts` tries): marks it running, counts the attempt.
 */
export async function claimSummaryJob(db: EngramDb, opts: { now: string; staleBefore: string; maxAttempts: number }): Promise<SummaryJobRow | undefined> {
  const claimable = or(
    eq(summaryJobs.status, 'queued'),
    and(eq(summaryJobs.status, 'running'), lt(summaryJobs.updatedAt, opts.staleBefore), lt(summaryJobs.attempts, opts.maxAttempts)),
  );
  const oldest = db.select({ id: summaryJobs.docId }).from(summaryJobs).where(claimable).orderBy(asc(summaryJobs.updatedAt), asc(summaryJobs.docId)).limit(1);
  const rows = await db
    .update(summaryJobs)
    .set({ status: 'running', attempts: sql`${summaryJobs.attempts} + 1`, updatedAt: opts.now })
    .where(and(eq(summaryJobs.docId, sql`(${oldest})`), claimable))
    .returning();
  return rows[0];
}

/** Ends a job: done (the summary in the file is the model's, or a person's) or failed (the rule fallback, or nothing). */
export async function finishSummaryJob(
  db: EngramDb,
  docId: string,
  outcome: { status: 'done' | 'failed' | 'queued'; source: SummaryJobSource | null; error: string | null; now: string },
): Promise<void> {
  await db.update(summaryJobs).set({ status: outcome.status, source: outcome.source, error: outcome.error, updatedAt: outcome.now }).where(eq(summaryJobs.docId, docId));
}

export async function deleteSummaryJob(db: EngramDb, docId: string): Promise<boolean> {
  const removed = await db.delete(summaryJobs).where(eq(summaryJobs.docId, docId)).returning({ id: summaryJobs.docId });
  return removed.length > 0;
}

/** How many jobs are in each status (every status present, 0 when none). */
export async function summaryJobCounts(db: EngramDb): Promise<Record<SummaryJobStatus, number>> {
  const out: Record<SummaryJobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  const rows = await db.select({ status: summaryJobs.status, n: count() }).from(summaryJobs).groupBy(summaryJobs.status);
  for (const r of rows) if (r.status in out) out[r.status] = r.n;
  return out;
}

/** Jobs, most recently changed first; only one status when given. */
export async function listSummaryJobs(db: EngramDb, opts: { status?: SummaryJobStatus; limit?: number } = {}): Promise<SummaryJobRow[]> {
  return db
    .select()
    .from(summaryJobs)
    .where(opts.status ? eq(summaryJobs.status, opts.status) : undefined)
    .orderBy(desc(summaryJobs.updatedAt), asc(summaryJobs.docId))
    .limit(Math.max(1, Math.min(opts.limit ?? 200, 10_000)));
}
