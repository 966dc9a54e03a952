// The compaction domain (the console's compaction router, the plugin's compaction channel):
// cross-compaction memory — blocks of what compaction folded away, the window overview, the
// minor-rules book and archive, local scoring and budgets. See README.md in this folder.
export {
  CompactionMemory,
  renderRules,
  RULES_TAG,
  type CompactionMemoryDeps,
  type IngestInput,
  type IngestReport,
  type WindowTexts,
  type AnswerResult,
  type HistoryReadResult,
  type HistoryTurn,
  type RecheckResult,
} from './memory.ts';
export type { DraftBlock, StoredBlock, SessionScope, TranscriptEvent, BlockKind, BlockLayer, LookAgainState } from './types.ts';
export type { RunRecord, AuditEntry, SessionSummary } from './store.ts';
export type { AssistRoute, Complete, CompletionRequest } from './assist.ts';
export type { RuleEntry } from './rules-book.ts';
export type { ArchiveDoc, ArchiveSection } from './archive.ts';
export { estimateTokens } from './tokens.ts';
export { classifySpan, classifySummary, type ClassifiedSpan, type RuleTier } from './rules.ts';
export { isChineseDominant } from './language.ts';
export { splitLines } from './text.ts';
export { HISTORY_TAG } from './select.ts';
export { OVERVIEW_TAG } from './overview.ts';
