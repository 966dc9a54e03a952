// Facts about a memory that are not its content: which workspace it belongs to, which session wrote
// it, who wrote it, whether it is pinned/locked, what it replaces, where its summary came from.
// They live in the file (the file is the truth; the index is rebuilt from it):
//   .txt — an optional last line `Meta: ws=…; session=…; origin=agent; pinned; locked; supersedes=a,b; summary=auto`
//   .md  — front-matter keys workspace, session, origin, pinned, locked, supersedes, summary_source.
// Pure: no I/O.
import { frontMatterEnd, joinLines, splice, splitKeepingEnds, valueEnd } from './lines.ts';

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

export const META_LINE_RE = /^\s*(?:meta|元数据)\s*[:：]\s*(.*)$/is;
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
 * Rewrites the metadata of a .txt diary text: replaces its Meta line, appends one after the last
 * line with content, or removes it when every field is default. Only that line changes: the BOM,
 * every other line and its terminator (CRLF, LF, mixed) stay byte for byte, and adding then
 * removing a Meta line gives back the original text.
 */
export function withTxtMeta(raw: string, meta: MemoryMeta): string {
  const l = splitKeepingEnds(raw);
  let last = l.text.length - 1;
  while (last >= 0 && l.text[last]!.trim() === '') last--;
  const fields = formatMetaFields(meta);
  const line = `Meta: ${fields}`;
  const hasMeta = last > 0 && isMetaLine(l.text[last]!);
  if (hasMeta) {
    if (fields !== '') l.text[last] = line;
    else {
      // Removing the file's very last line: the line before it becomes the last, as it was before.
      if (last === l.text.length - 1 && l.eol[last] === '') l.eol[last - 1] = '';
      l.text.splice(last, 1);
      l.eol.splice(last, 1);
    }
  } else if (fields !== '') {
    if (last < 0) return `${l.bom}${line}${l.newline}`;
    splice(l, last + 1, last + 1, [line]);
  }
  return joinLines(l);
}

/**
 * Same for a .md text with front matter: each of our keys is replaced where it is, removed when it
 * is default, or added before the closing `---`; nothing else in the text changes. Null when there
 * is no closed front matter.
 */
export function withMarkdownMeta(raw: string, meta: MemoryMeta): string | null {
  const l = splitKeepingEnds(raw);
  let close = frontMatterEnd(l);
  if (close < 0) return null;
  const wanted = new Map<string, string | null>([
    ['workspace', meta.workspace !== GLOBAL_WORKSPACE ? `workspace: ${JSON.stringify(meta.workspace)}` : null],
    ['session', meta.sessionId ? `session: ${JSON.stringify(meta.sessionId)}` : null],
    ['origin', meta.origin ? `origin: ${meta.origin}` : null],
    ['pinned', meta.pinned ? 'pinned: true' : null],
    ['locked', meta.locked ? 'locked: true' : null],
    ['supersedes', meta.supersedes.length > 0 ? `supersedes: [${meta.supersedes.map((s) => JSON.stringify(s)).join(', ')}]` : null],
    ['summary_source', meta.summary ? `summary_source: ${meta.summary}` : null],
  ]);
  const placed = new Set<string>();
  for (let i = 1; i < close; ) {
    const key = /^([A-Za-z_]+)\s*:/.exec(l.text[i]!)?.[1];
    if (key === undefined || !wanted.has(key)) {
      i++;
      continue;
    }
    const end = valueEnd(l, i, close);
    const line = placed.has(key) ? null : wanted.get(key)!;
    placed.add(key);
    if (line !== null && end === i + 1 && l.text[i] === line) {
      i = end; // already as wanted: keep it byte for byte
      continue;
    }
    // The key's line keeps its own terminator; continuation lines of an old value go.
    const from = line === null ? i : i + 1;
    if (line !== null) l.text[i] = line;
    l.text.splice(from, end - from);
    l.eol.splice(from, end - from);
    close -= end - from;
    i = from;
  }
  const add = [...wanted].filter(([key, line]) => line !== null && !placed.has(key)).map(([, line]) => line!);
  if (add.length > 0) splice(l, close, close, add);
  return joinLines(l);
}
