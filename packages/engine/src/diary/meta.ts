// Facts about a memory that are not its content: which workspace it belongs to, which session wrote
// it, who wrote it, whether it is pinned/locked, what it replaces, where its summary came from, what
// sort of memory it is (kind) and what it is meant to achieve (goal).
// They live in the file (the file is the truth; the index is rebuilt from it):
//   .txt — an optional last line `Meta: ws=…; session=…; origin=agent; pinned; locked; supersedes=a,b; summary=auto; kind=task; goal=…`
//   .md  — front-matter keys workspace, session, origin, pinned, locked, supersedes, summary_source, kind, goal.
// A goal is free text: written as is, or as a JSON string when it holds a `;` or a quote, so that the
// line still splits into its fields.
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
  /**
   * What sort of memory, as written in the file ('' = not said): one of MEMORY_KINDS, an alias of
   * one, or any other word — an unknown kind is kept (and reported), never dropped.
   */
  kind: string;
  /** What the memory is meant to achieve (seed 004: meaningful for a task), one line; '' = none. */
  goal: string;
}

/** The kinds of memory the seed names: fact, preference, lesson, task, project. */
export const MEMORY_KINDS = ['fact', 'pref', 'lesson', 'task', 'proj'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Other words for the kinds (English long forms, the decision / todo, Chinese). */
const KIND_ALIASES: Record<string, MemoryKind> = {
  decision: 'fact', preference: 'pref', todo: 'task', project: 'proj',
  事实: 'fact', 决定: 'fact', 偏好: 'pref', 教训: 'lesson', 任务: 'task', 待办: 'task', 项目: 'proj',
};

/**
 * A kind as the index and the filters compare it: a known kind or alias → its short name; any other
 * word → itself, lower-cased (so a filter on it still finds it); '' → ''.
 */
export function canonicalKind(kind: string | null | undefined): string {
  const k = String(kind ?? '').trim().toLowerCase();
  if (k === '') return '';
  if ((MEMORY_KINDS as readonly string[]).includes(k)) return k;
  return KIND_ALIASES[k] ?? k;
}

export const isKnownKind = (kind: string): boolean => (MEMORY_KINDS as readonly string[]).includes(canonicalKind(kind));

/**
 * A writer's kind and goal as they go into the file: a known kind or alias as its short name, any
 * other one-word kind kept as given with a warning (a person's own word is not lost), the goal as
 * one clean line. Absent or empty values are left out.
 */
export function writtenKindGoal(meta: { kind?: string | null; goal?: string | null }): { meta: Pick<Partial<MemoryMeta>, 'kind' | 'goal'>; warnings: string[] } {
  const out: Pick<Partial<MemoryMeta>, 'kind' | 'goal'> = {};
  const warnings: string[] = [];
  const kind = String(meta.kind ?? '').trim();
  if (kind !== '') {
    out.kind = isKnownKind(kind) ? canonicalKind(kind) : kind;
    if (!isKnownKind(kind)) warnings.push(`未知的 kind「${kind}」,照原样保存 / unknown kind "${kind}" kept as written (known: ${MEMORY_KINDS.join(', ')})`);
  }
  const goal = normaliseGoal(meta.goal);
  if (goal !== '') out.goal = goal;
  return { meta: out, warnings };
}

/** Longest goal kept: one line, a sentence or two. */
export const GOAL_MAX_CHARS = 300;

/** A goal as stored: one line, whitespace collapsed, control characters removed, at most GOAL_MAX_CHARS. */
export function normaliseGoal(goal: string | null | undefined): string {
  const flat = String(goal ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(flat).slice(0, GOAL_MAX_CHARS).join('');
}

export const DEFAULT_META: Readonly<MemoryMeta> = Object.freeze({
  workspace: GLOBAL_WORKSPACE,
  sessionId: null,
  origin: '',
  pinned: false,
  locked: false,
  supersedes: [],
  summary: null,
  kind: '',
  goal: '',
});

export const META_LINE_RE = /^\s*(?:meta|元数据)\s*[:：]\s*(.*)$/is;
const ORIGINS: readonly MemoryOrigin[] = ['agent', 'console', 'cli', 'import'];
/** Ids and workspace names: no separators of the line itself. */
const SAFE_VALUE = /^[^\s;=,]{1,200}$/;

export const isMetaLine = (line: string): boolean => META_LINE_RE.test(line);

/**
 * The `key=value` items of a Meta line, split on `;` / `；` — except inside a value written as a JSON
 * string (`goal="a; b"`), which is read as one value. An unreadable quoted value is kept as written.
 */
function metaItems(rest: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let i = 0;
  while (i < rest.length) {
    const sep = rest.slice(i).search(/[;；=＝]/);
    const at = sep < 0 ? rest.length : i + sep;
    const key = rest.slice(i, at).trim();
    if (at >= rest.length || rest[at] === ';' || rest[at] === '；') {
      if (key !== '') out.push({ key: key.toLowerCase(), value: '' });
      i = at + 1;
      continue;
    }
    let j = at + 1;
    while (j < rest.length && /\s/.test(rest[j]!)) j++;
    let value: string | null = null;
    if (rest[j] === '"') {
      // A JSON string: up to the first unescaped quote.
      let k = j + 1;
      while (k < rest.length && rest[k] !== '"') k += rest[k] === '\\' ? 2 : 1;
      try {
        value = JSON.parse(rest.slice(j, k + 1)) as string;
        j = k + 1;
        const next = rest.slice(j).search(/[;；]/);
        j = next < 0 ? rest.length : j + next;
      } catch {
        value = null;
      }
    }
    if (value === null) {
      const next = rest.slice(at + 1).search(/[;；]/);
      j = next < 0 ? rest.length : at + 1 + next;
      value = rest.slice(at + 1, j).trim();
    }
    out.push({ key: key.toLowerCase(), value });
    i = j + 1;
  }
  return out;
}

/** `ws=…; session=…; pinned` → MemoryMeta. Unknown keys and bad values are reported, never fatal. */
export function parseMetaFields(rest: string): { meta: MemoryMeta; problems: string[] } {
  const meta: MemoryMeta = { ...DEFAULT_META, supersedes: [] };
  const problems: string[] = [];
  for (const { key, value } of metaItems(rest)) {
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
      case 'kind':
        // An unknown kind is kept as written (a later version, or a person's own word) and reported.
        if (SAFE_VALUE.test(value)) {
          meta.kind = value;
          if (!isKnownKind(value)) problems.push(`unknown kind "${value.slice(0, 40)}" (kept; known: ${MEMORY_KINDS.join(', ')})`);
        } else if (value !== '') problems.push(`bad kind "${value.slice(0, 40)}"`);
        break;
      case 'goal':
        meta.goal = normaliseGoal(value);
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
  if (meta.kind) parts.push(`kind=${meta.kind}`);
  const goal = normaliseGoal(meta.goal);
  // Written as is unless it would not read back as itself: then as a JSON string.
  if (goal !== '') parts.push(`goal=${/[;；"]/.test(goal) ? JSON.stringify(goal) : goal}`);
  return parts.join('; ');
}

/** Checks values a caller wants to write (ids must not break the line). */
export function validateMeta(meta: Partial<MemoryMeta>): string | null {
  if (meta.workspace !== undefined && !SAFE_VALUE.test(meta.workspace)) return `workspace id must be 1-200 characters without spaces, ';', '=' or ',': ${JSON.stringify(meta.workspace)}`;
  if (meta.sessionId && !SAFE_VALUE.test(meta.sessionId)) return `session id must be 1-200 characters without spaces, ';', '=' or ',': ${JSON.stringify(meta.sessionId)}`;
  for (const id of meta.supersedes ?? []) if (!SAFE_VALUE.test(id)) return `bad superseded id ${JSON.stringify(id)}`;
  if (meta.kind && !SAFE_VALUE.test(meta.kind)) return `kind must be one word (${MEMORY_KINDS.join(' / ')}): ${JSON.stringify(meta.kind)}`;
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
  kind: 'kind',
  goal: 'goal',
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
    } else if (field === 'goal') parts.push(`goal=${JSON.stringify(value)}`);
    else parts.push(`${field === 'workspace' ? 'ws' : field === 'sessionId' ? 'session' : field}=${value}`);
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
    ['kind', meta.kind ? `kind: ${JSON.stringify(meta.kind)}` : null],
    ['goal', normaliseGoal(meta.goal) !== '' ? `goal: ${JSON.stringify(normaliseGoal(meta.goal))}` : null],
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
