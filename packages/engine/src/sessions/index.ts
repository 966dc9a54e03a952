// Past DSH sessions: decoding their logs, listing, reading and importing them as memories.
export { decodeFrames, frameSpan, DEFAULT_MAX_FRAME_BYTES, type DecodedFrames, type FrameDecodeOptions } from './frames.ts';
export {
  parseSessionLog,
  readSessionBytes,
  headerOf,
  type SessionLog,
  type SessionTurn,
  type SessionToolUse,
  type SessionHeader,
  type SessionDamage,
  type SessionRawEvent,
  type ParseSessionOptions,
} from './log.ts';
export {
  resolveDshHome,
  listSessions,
  sessionFiles,
  findSessionFiles,
  loadSession,
  pathWithin,
  SESSION_LOG_FILE,
  SESSION_LOG_FILES,
  type SessionFile,
  type SessionListItem,
  type ListSessionsOptions,
} from './list.ts';
export { sessionReadPage, formatSessionRead, formatSessionList, renderTurn, type SessionReadOptions, type SessionReadPage, type SessionListTextOptions } from './read.ts';
export {
  draftImports,
  importKey,
  planImport,
  importSessions,
  IMPORT_TAG,
  type SessionMemoryDraft,
  type DraftOptions,
  type ImportDeps,
  type ImportOptions,
  type ImportReport,
  type ImportPlanItem,
  type ImportTopicPlan,
  type ImportStatus,
} from './import.ts';
export { cleanUserText, cleanAssistantText, argsPreview, SESSION_INJECTED_TAGS } from './text.ts';
export { PastSessions, type PastSession, type PastSessionsOptions, type ImportChoice } from './past-sessions.ts';
export { splitTopics, type SessionTopic, type TopicSplitOptions } from './topics.ts';
export { SESSION_VIEWS, type SessionView } from './read.ts';
export { searchSession, sessionSearchPage, type SessionSearchHit } from './search.ts';
export { memoryAnchor, type MemoryForSource, type SourceAnchor } from './source.ts';
export { readSessionById, memoryLookup, fallbackTokenizer, type SessionReadRequest, type SessionReadDeps, type SessionReadAnswer, type SourceMemory } from './tool-read.ts';
export { thinkingText } from './text.ts';
