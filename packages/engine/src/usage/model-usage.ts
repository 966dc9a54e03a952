// Tokens spent on model-assisted work, per local day and per kind of work: the compaction channel's
// keywords, rewrites and verdicts (compaction/assist.ts), the background summaries
// (summaries/queue.ts) and the relevance judge (judge/judge.ts). Counted where each call ends,
// failed calls included (their prompt was sent). Tokens are the provider's count when it reports
// one (the judge endpoint's `usage`; the host model stream's usage chunk, via CompletionRequest's
// onUsage), else the documented estimate of compaction/tokens.ts.
//
// Storage: the compaction channel's usage table, one row per key, incremented in one statement so
// concurrent processes never lose a count. The key is the day for compaction work (the rows its
// daily cap has always read) and "<day> <work>" for the others.
import { addCompactionUsage, compactionUsageFrom, type EngramDb } from '@engram/db';
import { dayOf } from '../compaction/assist.ts';

export const MODEL_WORK = ['compaction', 'summary', 'judge'] as const;
export type ModelWork = (typeof MODEL_WORK)[number];

export interface WorkUsage {
  calls: number;
  tokens: number;
}

export interface DayUsage {
  /** Local calendar day, YYYY-MM-DD. */
  day: string;
  byWork: Record<ModelWork, WorkUsage>;
  total: WorkUsage;
}

export const usageKey = (day: string, work: ModelWork): string => (work === 'compaction' ? day : `${day} ${work}`);

const DAY = /^(\d{4}-\d{2}-\d{2})(?: (\w+))?$/;

/** Adds calls and tokens to today's row of one kind of work. */
export async function recordModelUsage(db: EngramDb, work: ModelWork, calls: number, tokens: number, now: Date = new Date()): Promise<void> {
  await addCompactionUsage(db, usageKey(dayOf(now), work), calls, Math.max(0, Math.round(tokens)));
}

/** The last `days` local days (today included), newest first; a day with no call has zeros. */
export async function modelUsageByDay(db: EngramDb, days: number, now: Date = new Date()): Promise<DayUsage[]> {
  const dayList: string[] = [];
  for (let i = 0; i < days; i++) dayList.push(dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() - i, 12)));
  const zero = (): Record<ModelWork, WorkUsage> => ({ compaction: { calls: 0, tokens: 0 }, summary: { calls: 0, tokens: 0 }, judge: { calls: 0, tokens: 0 } });
  const byDay = new Map(dayList.map((d) => [d, zero()]));
  for (const row of await compactionUsageFrom(db, dayList.at(-1) ?? dayOf(now))) {
    const match = DAY.exec(row.day);
    const work = (match?.[2] ?? 'compaction') as ModelWork;
    const slot = match ? byDay.get(match[1]!)?.[work] : undefined;
    if (!slot) continue; // a key this version does not know, or outside the range
    slot.calls += row.calls;
    slot.tokens += row.tokens;
  }
  return dayList.map((day) => {
    const byWork = byDay.get(day)!;
    const total = MODEL_WORK.reduce((sum, w) => ({ calls: sum.calls + byWork[w].calls, tokens: sum.tokens + byWork[w].tokens }), { calls: 0, tokens: 0 });
    return { day, byWork, total };
  });
}
