// Texts the plugin puts in front of the model, built from config. Pure.
import type { EngramConfig } from '@engram/engine';

export interface ResidentMemory {
  text: string;
  critical: boolean;
}

/**
 * The host interpolates `{{name}}` in section and context texts and fails the whole prompt on an
 * unknown name, so memory text quoting a template must not reach it verbatim. A zero-width space
 * between the braces keeps the text readable and inert.
 */
export const escapePromptVariables = (text: string): string => text.replace(/\{\{/g, '{\u200b{');

const bullet = (text: string): string =>
  text
    .trim()
    .split(/\r?\n/)
    .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
    .join('\n');

export const TOOL_GUIDANCE = [
  '### 记忆工具',
  '- 与当前对话相关的历史记忆会自动注入(召回块);只有不够用时才调用 engram_search 检索。',
  '- engram_read 按 docId 读整篇;engram_list 列出日记;engram_status 查看索引状态。',
  '- 写日记优先用回复末尾的 <<<DailyNoteStart>>> 语义块;engram_write 新建一篇,engram_edit 按 docId 改一段(target 逐字引用原文),engram_forget 归档一篇(不会删除)。',
].join('\n');

/** Tier 1: resident memories (critical first) and tool guidance; '' when there is nothing to say. */
export function renderResident(runtime: EngramConfig['runtime'], memories: readonly ResidentMemory[], options: { toolsAvailable: boolean }): string {
  if (!runtime.inject) return '';
  const parts: string[] = [];
  const usable = memories.filter((m) => typeof m?.text === 'string' && m.text.trim() !== '');
  const critical = usable.filter((m) => m.critical);
  const normal = usable.filter((m) => !m.critical);
  if (usable.length > 0) {
    const head = [runtime.title, runtime.intro].filter((s) => s.trim() !== '').join('\n');
    if (head) parts.push(head);
    if (critical.length > 0) parts.push([runtime.criticalTitle, ...critical.map((m) => bullet(m.text))].filter(Boolean).join('\n'));
    if (normal.length > 0) parts.push([runtime.normalTitle, ...normal.map((m) => bullet(m.text))].filter(Boolean).join('\n'));
  }
  if (runtime.toolGuidance && options.toolsAvailable) parts.push(TOOL_GUIDANCE);
  return parts.join('\n\n');
}

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
