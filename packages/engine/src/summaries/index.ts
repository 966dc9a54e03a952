export {
  SummaryQueue,
  summaryRoute,
  STALE_RUNNING_MS,
  MAX_ATTEMPTS,
  type SummaryQueueDeps,
  type SummaryQueueStatus,
  type SummarySettings,
  type SummaryWriteSource,
  type SetSummaryResult,
  type RunOnceOptions,
  type SummaryRun,
  type SummaryRunOutcome,
  type SummaryTry,
} from './queue.ts';
export { ruleSummary, leadingSentences, sentencesOf, summaryPrompt, cleanModelSummary } from './text.ts';
export type { SummaryJobRow, SummaryJobStatus } from '@engram/db';
