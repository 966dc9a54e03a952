// Texts the plugin puts in front of the model, built from config. Pure. The resident block, the
// workspace layer and the prompt-variable escape are the engine's (preview/texts.ts): the console's
// 「我的 agent 会看到什么」 preview renders them with the same code.
import type { EngramConfig } from '@engram/engine';

export {
  escapePromptVariables,
  renderResident,
  renderWorkspaceIndex,
  TOOL_GUIDANCE,
  WORKSPACE_HINT,
  FULL_INJECT_MAX_CHARS,
  type ResidentMemory,
  type WorkspaceIndexEntry,
} from '@engram/engine';

/** The diary-writing guideline: the configured text, or the built-in one; '' when disabled. */
export function renderGuideline(diary: EngramConfig['diary'], builtin: string): string {
  if (!diary.templateEnabled) return '';
  const custom = diary.templateText.trim();
  return custom !== '' ? custom : builtin;
}

export interface NoteOutcome {
  ok: boolean;
  /** One line for the model. */
  message: string;
}

/** Tells the model, on its next step, which of its diary blocks failed (successes stay quiet). */
export function renderNotice(outcomes: readonly NoteOutcome[]): string {
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length === 0) return '';
  return ['[Engram] 上一条回复里的日记语义块没有全部保存:', ...failed.map((o) => `- ${o.message}`)].join('\n');
}
