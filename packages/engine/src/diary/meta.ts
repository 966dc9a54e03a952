// Facts about a memory that are not its content: which workspace it belongs to, which session wrote
// it, who wrote it, whether it is pinned/locked, what it replaces, where its summary came from.
// They live in the file (the file is the truth; the index is rebuilt from it):
//   .txt — an optional last line `Meta: ws=…; session=…; origin=agent; pinned; locked; supersedes=a,b; summary=auto`
//   .md  — front-matter keys workspace, session, origin, pinned, locked, supersedes, summary_source.
// Pure: no I/O.
import { normaliseNewlines } from './parse.ts';

export const GLOBAL_WORKSPACE = 'global';

export type MemoryOrigin = '' | 'agent' | 'console' | 'cli' | 'import';
export type SummarySource = 'manual' | 'auto' | 'rule' | 'none';

export interface MemoryMeta {
  /** Workspace id, or 'global'. */
  workspace: string;
  sessionId: string | null;
  origin: MemoryOrigin;
  pinned: boolean;
  locked: boolean;
  /** Doc ids (or their 8-hex prefixes) this memory replaces. */
  supersedes: string[];
  /** Only 'auto' / 'rule' are recorded in the file; manual/none follow from the summary paragraph. */
  summary: 'auto' | 'rule' | null;
}

export const DEFAULT_META: Readonly<MemoryMeta> = Object.freeze({
  workspace: GLOBAL_WORKSPACE,
  sessionId: null,
  origin: '',
  pinned: false,
  locked: false,
  supersedes: [],
  summary: null,
});

export const META_LINE_RE = /^\s*(?:meta|元数据)\s*[:：]\s*(.*)$/i;
const ORIGINS: readonly MemoryOrigin[] = ['agent', 'console', 'cli', 'import'];
/** Ids and workspace names: no separators of the line itself. */
const SAFE_VALUE = /^[^\s;=,]{1,200}$/;

export const isMetaLine = (line: string): boolean => META_LINE_RE.test(line);

/** `ws=…; session=…; pinned` → MemoryMeta. Unknown keys and bad values are reported, never fatal. */
export function parseMetaFields(rest: string): { meta: MemoryMeta; problems: string[] } {
  const meta: MemoryMeta = { ...DEFAULT_META, supersedes: [] };
  const problems: string[] = [];
  for (const part of rest.split(/[;；]/)) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.search(/[=＝]/);
    const key = (eq < 0 ? item : item.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : item.slice(eq + 1).trim();
    switch (key) {
      case 'ws':
      case 'workspace':
        if (SAFE_VALUE.test(value)) meta.workspace = value;
        else problems.push(`bad workspace "${value.slice(0, 40)}"`);
        break;
      case 'session':
        if (SAFE_VALUE.test(value)) meta.sessionId = value;
        else problems.push(`bad session "${value.slice(0, 40)}"`);
        break;
      case 'origin':
        if ((ORIGINS as readonly string[]).includes(value)) meta.origin = value as MemoryOrigin;
        else problems.push(`unknown origin "${value.slice(0, 40)}"`);
        break;
      case 'pinned':
        meta.pinned = value === '' || /^(true|yes|1)$/i.test(value);
        break;
      case 'locked':
        meta.locked = value === '' || /^(true|yes|1)$/i.test(value);
        break;
      case 'supersedes':
        meta.supersedes = value.split(/[,，\s]+/).map((s) => s.trim().toLowerCase()).filter((s) => SAFE_VALUE.test(s));
        break;
      case 'summary':
        if (value === 'auto' || value === 'rule') meta.summary = value;
        else if (value !== 'manual') problems.push(`unknown summary source "${value.slice(0, 40)}"`);
        break;
      default:
        problems.push(`unknown key "${key.slice(0, 40)}"`);
    }
  }
  return { meta, problems };
}

/** The inverse of parseMetaFields; '' when every field has its default (no line is written then). */
export function formatMetaFields(meta: Partial<MemoryMeta>): string {
  const parts: string[] = [];
  if (meta.workspace && meta.workspace !== GLOBAL_WORKSPACE) parts.push(`ws=${meta.workspace}`);
  if (meta.sessionId) parts.push(`session=${meta.sessionId}`);
  if (meta.origin) parts.push(`origin=${meta.origin}`);
  if (meta.pinned) parts.push('pinned');
  if (meta.locked) parts.push('locked');
  if (meta.supersedes && meta.supersedes.length > 0) parts.push(`supersedes=${meta.supersedes.join(',')}`);
  if (meta.summary) parts.push(`summary=${meta.summary}`);
  return parts.join('; ');
}

/** Checks values a caller wants to write (ids must not break the line). */
export function validateMeta(meta: Partial<MemoryMeta>): string | null {
  if (meta.workspace !== undefined && !SAFE_VALUE.test(meta.workspace)) return `workspace id must be 1-200 characters without spaces, ';', '=' or ',': ${JSON.stringify(meta.workspace)}`;
  if (meta.sessionId && !SAFE_VALUE.test(meta.sessionId)) return `session id must be 1-200 characters without spaces, ';', '=' or ',': ${JSON.stringify(meta.sessionId)}`;
  for (const id of meta.supersedes ?? []) if (!SAFE_VALUE.test(id)) return `bad superseded id ${JSON.stringify(id)}`;
  return null;
}

const FM_KEYS: Record<string, keyof MemoryMeta> = {
  workspace: 'workspace',
  session: 'sessionId',
  origin: 'origin',
  pinned: 'pinned',
  locked: 'locked',
  supersedes: 'supersedes',
  summary_source: 'summary',
};

/** Front-matter form: the same fields as YAML keys, read from the parsed front matter. */
export function metaFromFrontMatter(get: (key: string) => string | string[] | undefined): { meta: MemoryMeta; problems: string[] } {
  const parts: string[] = [];
  for (const [key, field] of Object.entries(FM_KEYS)) {
    const v = get(key);
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(',') : v;
    if (field === 'pinned' || field === 'locked') {
      if (/^(true|yes|1)$/i.test(value.trim())) parts.push(field);
    } else parts.push(`${field === 'workspace' ? 'ws' : field === 'sessionId' ? 'session' : field}=${value}`);
  }
  return parseMetaFields(parts.join('; '));
}

/**
 * Rewrites the metadata of a .txt diary text: replaces its Meta line, appends one, or removes it when
 * every field is default. Every other byte of the text is kept (edits touch the last line only).
 */
export function withTxtMeta(raw: string, meta: MemoryMeta): string {
  const text = normaliseNewlines(raw);
  const lines = text.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  const fields = formatMetaFields(meta);
  const hasMeta = last >= 0 && isMetaLine(lines[last]!);
  const head = hasMeta ? lines.slice(0, last) : lines.slice(0, last + 1);
  while (head.length > 0 && head[head.length - 1]!.trim() === '' && hasMeta) head.pop();
  if (fields === '') return `${head.join('\n')}\n`;
  return `${head.join('\n')}\nMeta: ${fields}\n`;
}

/** Same for a .md text with front matter: our keys are replaced in (or added to) the front matter. */
export function withMarkdownMeta(raw: string, meta: MemoryMeta): string | null {
  const text = normaliseNewlines(raw);
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return null;
  const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---');
  if (close < 0) return null;
  const keys = new Set(Object.keys(FM_KEYS));
  const kept = lines.slice(1, close).filter((l) => {
    const m = /^([A-Za-z_]+)\s*:/.exec(l);
    return !(m && keys.has(m[1]!));
  });
  const add: string[] = [];
  if (meta.workspace !== GLOBAL_WORKSPACE) add.push(`workspace: ${JSON.stringify(meta.workspace)}`);
  if (meta.sessionId) add.push(`session: ${JSON.stringify(meta.sessionId)}`);
  if (meta.origin) add.push(`origin: ${meta.origin}`);
  if (meta.pinned) add.push('pinned: true');
  if (meta.locked) add.push('locked: true');
  if (meta.supersedes.length > 0) add.push(`supersedes: [${meta.supersedes.map((s) => JSON.stringify(s)).join(', ')}]`);
  if (meta.summary) add.push(`summary_source: ${meta.summary}`);
  return ['---', ...kept, ...add, ...lines.slice(close)].join('\n');
}
