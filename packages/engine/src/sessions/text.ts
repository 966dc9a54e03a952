// What of a logged message counts as said: visible text only, without fragments a plugin or the
// host wrapped into it, without the assistant's thinking or its diary blocks. Pure.
import { clipChars, DEFAULT_INJECTED_TAGS, stripInjectedFragments } from '../compaction/text.ts';

/**
 * Tags stripped from a person's message: the compaction channel's list (our recall/history/
 * overview/rules blocks, system reminders) plus wrappers other memory plugins are known to use.
 */
export const SESSION_INJECTED_TAGS: readonly string[] = [...DEFAULT_INJECTED_TAGS, 'memory-recall', 'relevant-memories', 'plugin-context'];

/** Inline reasoning some models emit inside the visible text. */
const THINKING_TAGS = ['think', 'thinking', 'reasoning'];

/** The semantic diary block (diary/semantic-block.ts): a memory write, not part of the answer. */
const DIARY_BLOCK = /<<<\s*DailyNoteStart\s*>>>[\s\S]*?(?:<<<\s*DailyNoteEnd\s*>>>|$)/gi;

const VISIBLE_BLOCK_TYPES = new Set(['text', 'output_text']);

/** Text blocks of some content joined by a blank line; reasoning/thinking/tool blocks are not text. */
export function visibleText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (typeof type === 'string' && VISIBLE_BLOCK_TYPES.has(type) && typeof text === 'string') parts.push(text);
  }
  return parts.join('\n\n');
}

const INLINE_THINKING = new RegExp(`<(${THINKING_TAGS.join('|')})(?:\\s[^>]*)?>([\\s\\S]*?)(?:</\\1>|$)`, 'gi');

/**
 * The model's reasoning in some assistant content: the host's `reasoning` blocks (packages/llm/llm/src/
 * types.ts, ReasoningBlock), `thinking` blocks of other adapters ({ thinking } or { text }), and
 * reasoning a model wrote inline in its visible text between <think> tags. Joined by a blank line.
 */
export function thinkingText(content: unknown): string {
  const parts: string[] = [];
  const inline = (text: string) => {
    for (const m of text.matchAll(INLINE_THINKING)) if (m[2]!.trim() !== '') parts.push(m[2]!.trim());
  };
  if (typeof content === 'string') inline(content);
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!block || typeof block !== 'object') continue;
      const b = block as { type?: unknown; text?: unknown; thinking?: unknown };
      if (b.type === 'reasoning' || b.type === 'thinking') {
        const text = typeof b.thinking === 'string' ? b.thinking : typeof b.text === 'string' ? b.text : '';
        if (text.trim() !== '') parts.push(text.trim());
      } else if (typeof b.type === 'string' && VISIBLE_BLOCK_TYPES.has(b.type) && typeof b.text === 'string') inline(b.text);
    }
  }
  return parts.join('\n\n');
}

export function cleanUserText(content: unknown, extraTags: readonly string[] = []): string {
  return stripInjectedFragments(visibleText(content), [...SESSION_INJECTED_TAGS, ...extraTags]);
}

export function cleanAssistantText(content: unknown, extraTags: readonly string[] = []): string {
  const text = visibleText(content).replace(DIARY_BLOCK, '');
  return stripInjectedFragments(text, [...THINKING_TAGS, ...SESSION_INJECTED_TAGS, ...extraTags]);
}

const PREVIEW_KEYS = ['path', 'file_path', 'filePath', 'file', 'command', 'cmd', 'pattern', 'glob', 'url', 'query', 'q', 'name'];

const scalar = (value: unknown): string | null => {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
};

/**
 * A one-line view of a tool call's arguments (a raw JSON string in the log): the telling keys
 * first (path, command, query…), then other scalar ones, `key=value` joined, clipped.
 */
export function argsPreview(rawArguments: unknown, maxChars = 120): string {
  let args: unknown = rawArguments;
  if (typeof rawArguments === 'string') {
    const trimmed = rawArguments.trim();
    if (trimmed === '') return '';
    try {
      args = JSON.parse(trimmed);
    } catch {
      return clipChars(trimmed.replace(/\s+/g, ' '), maxChars);
    }
  }
  if (args === null || args === undefined) return '';
  if (typeof args !== 'object' || Array.isArray(args)) return clipChars(scalar(args) ?? JSON.stringify(args) ?? '', maxChars);
  const record = args as Record<string, unknown>;
  const keys = [...PREVIEW_KEYS.filter((k) => k in record), ...Object.keys(record).filter((k) => !PREVIEW_KEYS.includes(k))];
  const parts: string[] = [];
  for (const key of keys) {
    const value = scalar(record[key]);
    if (value === null || value === '') continue;
    parts.push(`${key}=${clipChars(value, 60)}`);
  }
  return clipChars(parts.join(', '), maxChars);
}

/** An event or header timestamp as epoch ms: ms or seconds numbers, numeric or ISO strings; null otherwise. */
export function toEpochMs(value: unknown): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') {
    const t = value.trim();
    n = /^\d+(?:\.\d+)?$/.test(t) ? Number(t) : Date.parse(t);
  } else return null;
  if (!Number.isFinite(n) || n <= 0) return null;
  // Seconds since the epoch until the year 5138; anything bigger is already milliseconds.
  const ms = n < 1e11 ? n * 1000 : n;
  // Years 1970–9999: outside that a "time" is a damaged or foreign field.
  return ms < 253_402_300_800_000 ? Math.round(ms) : null;
}

export { clipChars };
