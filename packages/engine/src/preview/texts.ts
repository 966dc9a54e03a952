// The texts the host plugin puts in front of the model besides the recall block: the resident
// memories with the tool guidance, and the workspace layer (hint, or the index / full list with the
// pinned memories first). They live in the engine so the plugin and the console's
// 「我的 agent 会看到什么」 preview render them with one implementation. Pure.
import type { EngramConfig } from '../config/schema.ts';
import { neutraliseDelimiters } from '../security/delimiters.ts';

export interface ResidentMemory {
  text: string;
  critical: boolean;
}

/**
 * The host interpolates `{{name}}` in section and context texts and fails the whole prompt on an
 * unknown name, so memory text quoting a template must not reach it verbatim. A zero-width space
 * after every brace that another follows leaves no "{{" at all — `{{{x}}}` too, whose first pair
 * alone escaped left `{{x}}` standing — and keeps the text readable and inert.
 */
export const escapePromptVariables = (text: string): string => text.replace(/\{(?=\{)/g, '{\u200b');

const bullet = (text: string): string =>
  text
    .trim()
    .split(/\r?\n/)
    .map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`))
    .join('\n');

export const TOOL_GUIDANCE = [
  '### 记忆工具',
  '- 与当前对话相关的历史记忆会自动注入(召回块);只有不够用时才用 engram_index 看目录或 engram_search 检索,再 engram_locate → engram_detail 取细节。',
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
    // A resident memory's own words cannot close a block or open another (neutraliseDelimiters).
    if (critical.length > 0) parts.push([runtime.criticalTitle, ...critical.map((m) => bullet(neutraliseDelimiters(m.text)))].filter(Boolean).join('\n'));
    if (normal.length > 0) parts.push([runtime.normalTitle, ...normal.map((m) => bullet(neutraliseDelimiters(m.text)))].filter(Boolean).join('\n'));
  }
  if (runtime.toolGuidance && options.toolsAvailable) parts.push(TOOL_GUIDANCE);
  return parts.join('\n\n');
}

/**
 * The workspace layer's default injection: one line, the same bytes on every request of every
 * session (a provider's prefix cache keeps hitting), so it names no workspace and no memory.
 */
export const WORKSPACE_HINT =
  '### 长期记忆\n你有跨会话的长期记忆(当前工作区 + 全局)。需要以前的决定、约定或细节时,先 engram_index 看目录或 engram_search 检索(只返回摘要和 docId),再按需 engram_locate → engram_detail 取原文;够用就停。';

export interface WorkspaceIndexEntry {
  docId: string;
  date: string;
  title: string;
  summary: string;
  pinned: boolean;
  /** A global memory seen from the workspace. */
  global: boolean;
}

/** Characters of summaries the full injection puts in the system prompt at most. */
export const FULL_INJECT_MAX_CHARS = 16_000;
const INDEX_SUMMARY_CHARS = 80;

const flat = (text: string): string => neutraliseDelimiters(text.replace(/\s+/g, ' ').trim());

/**
 * The workspace layer's index / full injection: pinned first, then the most recently changed. index
 * gives each memory one short line, full its whole summary (within FULL_INJECT_MAX_CHARS). `total`
 * is how many the workspace has, so the model knows when the list is not everything.
 */
export function renderWorkspaceIndex(mode: 'index' | 'full', entries: readonly WorkspaceIndexEntry[], total: number, options: { toolsAvailable: boolean }): string {
  if (entries.length === 0) return options.toolsAvailable ? WORKSPACE_HINT : '';
  const lines: string[] = [];
  let used = 0;
  for (const e of entries) {
    const summary = flat(e.summary);
    const text = mode === 'index' && summary.length > INDEX_SUMMARY_CHARS ? `${summary.slice(0, INDEX_SUMMARY_CHARS)}…` : summary;
    const line = `- ${e.date} · ${flat(e.title)}${e.pinned ? '〔置顶〕' : ''}${e.global ? '〔global〕' : ''} (docId: ${e.docId})${text ? `:${text}` : ''}`;
    if (mode === 'full' && lines.length > 0 && used + line.length > FULL_INJECT_MAX_CHARS) break;
    lines.push(line);
    used += line.length;
  }
  const left = total - lines.length;
  const head = `### 长期记忆${mode === 'index' ? '目录' : '摘要'}(当前工作区 + 全局;置顶在前,其余按最近更新)`;
  const tail = [
    left > 0 ? `另有 ${left} 条未列出${options.toolsAvailable ? ',用 engram_index 翻页查看' : ''}。` : '',
    options.toolsAvailable ? '需要原文时 engram_locate → engram_detail({ id });够用就停。' : '',
  ].filter(Boolean);
  return [head, ...lines, ...tail].join('\n');
}
