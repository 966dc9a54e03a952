// Cross-session memory: brief (what other sessions wrote since my last sync), wall (messages between
// sessions), a private notebook per session, and the provenance line shown on memories.
export { CrossSession, wallMessageView, WALL_READ_DEFAULT, WALL_READ_MAX, type CrossSessionDeps, type WallPostInput, type WallReadInput, type NotebookReadResult } from './service.ts';
export {
  BRIEF_PER_SESSION,
  BRIEF_MAX_SESSIONS,
  BRIEF_WALL_ITEMS,
  groupOtherSessions,
  formatElapsed,
  renderBrief,
  wallLine,
  type BriefResult,
  type BriefGroup,
  type BriefMemory,
  type WallItem,
} from './brief.ts';
export {
  NotebookFiles,
  checkSessionId,
  isNotebookBook,
  isWritableBook,
  NOTES_FILE,
  SESSION_RULES_FILE,
  NOTEBOOK_BACKUP_DIR,
  NOTEBOOK_WRITE_MAX,
  NOTEBOOK_FILE_MAX,
  type NotebookBook,
  type WritableBook,
  type NotebookWriteMode,
  type NotebookWriteResult,
} from './notebook.ts';
export { renderNotebookInjection, cutWithMark, renderMinorBook, NOTEBOOK_TAG, PRECEDENCE_TEXT, MINOR_ELSEWHERE_TEXT } from './notebook-render.ts';
export { formatProvenance, shortSession, SHORT_SESSION_CHARS, type ProvenanceInput } from './provenance.ts';
export {
  parseWallTarget,
  resolveWallTarget,
  storedRecipient,
  describeRecipient,
  addressedTo,
  wallText,
  WALL_TEXT_MAX,
  MIN_SESSION_PREFIX,
  type WallTarget,
  type ParsedTarget,
} from './wall-target.ts';
