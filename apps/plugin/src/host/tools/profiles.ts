// Which tools and prompt sections the plugin offers (config tools.profile, read when the plugin
// loads). Every tool schema and every system-prompt section is paid on every request, so the
// default is the lean set; the full set is today's fifteen tools and the whole diary guideline.
//   lean — four layered tools (tools/lean-tools.ts) whose parameters pick the layer, and one resident
//          paragraph (resident/guideline.ts) that teaches the order; the full guideline is a tool result.
//   full — every tool of tools/memory-tools.ts, crosssession/tools.ts, sessions/tools.ts, compaction/tools.ts,
//          the tool-guidance block, the workspace hint and the whole guideline, as before.
// tools.disabled applies to both: it removes tools by name from whichever set is offered.
export type ToolProfile = 'lean' | 'full';

export const LEAN_READ_TOOL = 'engram';
export const LEAN_SAVE_TOOL = 'engram_save';
export const LEAN_SYNC_TOOL = 'engram_sync';
export const LEAN_HISTORY_TOOL = 'engram_history';
export const LEAN_TOOL_NAMES = [LEAN_READ_TOOL, LEAN_SAVE_TOOL, LEAN_SYNC_TOOL, LEAN_HISTORY_TOOL] as const;

/** The profile of a config; a missing or unknown value (an engine that failed to open) is lean. */
export function profileOf(config: { tools?: { profile?: unknown } } | null | undefined): ToolProfile {
  return config?.tools?.profile === 'full' ? 'full' : 'lean';
}

/** The sections each profile adds to the system prompt besides the resident memories and the notebook (only when they have content). */
export interface ProfileSections {
  /** The "### 记忆工具" guidance block of the resident section. */
  toolGuidance: boolean;
  /** The diary guideline: the whole text, or the one paragraph with the whole text on demand. */
  guideline: 'full' | 'paragraph';
}

export function sectionsOf(profile: ToolProfile): ProfileSections {
  return profile === 'full'
    ? { toolGuidance: true, guideline: 'full' }
    : // The paragraph names the tools and the order, so the guidance block would say it twice.
      { toolGuidance: false, guideline: 'paragraph' };
}

/** Full-profile tool names, as the engine's and the full tools' texts write them, and the lean call that does the same. */
const RENAMES: [RegExp, string][] = [
  // Calls with arguments first, so the bare-name rules below do not leave "engram({ id })({ id })".
  [/\bengram_locate\(\{ id, query \}\)/g, 'engram({ id, q })'],
  [/\bengram_detail\(\{ id \}\)/g, 'engram({ id })'],
  [/\bengram_detail\(\{ id, segments \}\)/g, 'engram({ id, seg })'],
  [/\bengram_index\(\{ page: (\d+) \}\)/g, 'engram({ page: $1 })'],
  [/\bengram_index\b/g, 'engram({})'],
  [/\bengram_search\b/g, 'engram({ q })'],
  [/\bengram_list\b/g, 'engram({})'],
  [/\bengram_read\b/g, 'engram({ id })'],
  [/\bengram_locate\b/g, 'engram({ id, q })'],
  [/\bengram_detail\b/g, 'engram({ id, seg })'],
  [/\bengram_write\b/g, 'engram_save({ content })'],
  [/\bengram_edit\b/g, 'engram_save({ id, target, content })'],
  [/\bengram_forget\b/g, 'engram_save({ id, forget: true })'],
  [/\bengram_brief\b/g, 'engram_sync({})'],
  [/\bengram_wall\b/g, 'engram_sync({ wall: true })'],
  [/\bengram_notebook\b/g, 'engram_sync({ book })'],
  [/\bsession_read\b/g, 'engram_history'],
  [/\bhistory_read\b/g, 'engram_history({ q })'],
  [/which: "rules"/g, 'book: "rules"'],
];

export function leanNames(text: string): string {
  return RENAMES.reduce((out, [pattern, lean]) => out.replace(pattern, lean), text);
}

/** Texts the plugin shows the model outside tool results (notices, the notebook section), for a profile. */
export function modelTextFor(profile: ToolProfile): (text: string) => string {
  return profile === 'lean' ? leanNames : (text) => text;
}

/**
 * The workspace layer's text for a profile: the lean paragraph already says what the hint says, so
 * the hint is left out; the index / full listings keep their memories and name the lean calls.
 */
export function workspaceTextFor(profile: ToolProfile): ((text: string, mode: 'hint' | 'index' | 'full') => string) | undefined {
  return profile === 'lean' ? (text, mode) => (mode === 'hint' ? '' : leanNames(text)) : undefined;
}
