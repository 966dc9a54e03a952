export { openEngine, startEngine, Engine, type OpenEngineOptions, type OpeningEngine } from './engine.ts';
export * from './api.ts';
export * from './recall/types.ts';
export { clientFailure, EngramError, failureLine, isEngramError, rootReason, type ClientFailure } from './errors.ts';
export { goneDiaryToolText, listedWhileDiaryGone } from './diary/errors.ts';
export { configSchema, secretPaths, type EngramConfig, type EngramConfigInput } from './config/schema.ts';
export { resolveBase, applyOverlay } from './config/resolve.ts';
export { deepMerge, maskSecrets, MASK } from './config/merge.ts';
export { renderRecallBlock, sanitizeTagName, formatItemPrefix, fitToBudget } from './recall/render.ts';
export { pausedForMissingDiary } from './recall/explain.ts';
export type { Logger, LogLevel } from './log.ts';
export { stderrLogger, silentLogger } from './log.ts';
export { BUILTIN_DIARY_GUIDELINE } from './diary/template.ts';
export { parseNoteBlocks, type NoteBlock } from './diary/semantic-block.ts';
export type { NoteBlockPreview, NoteBlockResult } from './notes.ts';
export { ensureToken, tokenPath, TOKEN_FILE } from './security/install-token.ts';
export {
  TOKEN_HEADER,
  PROXY_HEADER,
  headerBag,
  normalizeOrigin,
  normalizeOrigins,
  tokensEqual,
  hostName,
  isLoopbackHost,
  hostAccepted,
  acceptedHosts,
  forwardedTrusted,
  effectiveHost,
  selfOrigin,
  checkHost,
  checkSameSite,
  checkMutation,
  forwardedHeaders,
  securityHeaders,
  sessionCookie,
  browserSessionValue,
  cookieValue,
  SESSION_COOKIE,
  type HeaderBag,
  type GuardPolicy,
  type GuardVerdict,
} from './security/request-guard.ts';
export { neutraliseDelimiters } from './security/delimiters.ts';
export * from './compaction/index.ts';
export * from './usage/model-usage.ts';
export { parseTimeExpression, type TimeExpression } from './timeq/parse.ts';
export { detectTimeZone, TIME_ZONE_META_KEY } from './timeq/timezone.ts';
export { splitSegments, type Segment, type SplitOptions } from './segments/split.ts';
export { locate as locateSegments, type LocateHit } from './segments/locate.ts';
export type { MemoryLocate, MemorySegments, MemoryRef } from './segments/api.ts';
export { workspaceIdentity, identityFrom, normaliseRemoteUrl, type WorkspaceIdentity } from './workspace/identity.ts';
export { decideClaim, type ClaimDecision, type ClaimCandidate, type KnownWorkspace } from './workspace/claim.ts';
export { GLOBAL_WORKSPACE, type MemoryMeta, type MemoryOrigin, type SummarySource } from './diary/meta.ts';
export { visibleIn, hitScope, type RecallScope } from './recall/scope.ts';
export { splitShownHits, shownRuleOptionsOf, type ShownSplit, type ShownRuleOptions } from './recall/shown.ts';
export { pageOfIndex, indexOrder, type MemoryIndexPage, type MetaPatch } from './memory-index.ts';
export type { RecallOptions } from './recall/pipeline.ts';
export * from './sessions/index.ts';
export * from './workspace/index.ts';
export * from './crosssession/index.ts';
export * from './summaries/index.ts';
export * from './hygiene/index.ts';
export { installModel, installedModel, ModelInstallError, type InstallProgress, type InstallReport } from './model/install.ts';
export { locateRuntime, installRuntime, runtimeDownloadBytes } from './model/runtime.ts';
export { DEFAULT_MODEL } from './model/manifest.ts';
export * from './preview/index.ts';
export * from './search/filters.ts';
// The diary format's own reading, for editors that show a memory as fields (the console's structured editor).
export { parseDiaryParts, isTagLine, splitTags, type DiaryParts } from './diary/parse.ts';
export { isMetaLine, normaliseGoal, withTxtMeta, parseMetaFields, DEFAULT_META } from './diary/meta.ts';
export { withLayoutOf } from './diary/lines.ts';
// The .md layouts, for the same editors: the parser itself, and the front matter with the lines each key was read from.
export { parseDiaryText, withoutClosingHashes, normaliseTitle } from './diary/parse.ts';
export { parseFrontMatter, scalar, type FrontMatter } from './diary/frontmatter.ts';
export { splitKeepingEnds, joinLines, splice, type Lines } from './diary/lines.ts';
