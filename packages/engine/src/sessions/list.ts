// Finding past sessions on disk: $DSH_HOME/sessions/<project>/<session-id>/session<suffix>.
// I/O lives here; parsing is frames.ts / log.ts. A file that cannot be read is left out of a
// listing, never an error: the host may be writing it right now.
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readSessionBytes, type ParseSessionOptions, type SessionLog } from './log.ts';

export const SESSION_LOG_FILE = 'session.v4.jsonl.zstd';

/**
 * The log file names a session directory may hold, tried in this order: the current host writes
 * `session.jsonl.zstd`, or `session.jsonl` with compression off (logPath / logSuffix in
 * packages/session/session-persistence-jsonl/src/format.ts of the host repository); the versioned
 * name is the one the host contract documents.
 */
export const SESSION_LOG_FILES = ['session.jsonl.zstd', SESSION_LOG_FILE, 'session.jsonl'] as const;

/** `sessions.dshHome` when set (`~` expanded), else $DSH_HOME, else ~/.dsh. */
export function resolveDshHome(configValue?: string | null, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const expand = (p: string): string => (p === '~' ? home : p.startsWith('~/') || p.startsWith('~\\') ? join(home, p.slice(2)) : p);
  const configured = typeof configValue === 'string' ? configValue.trim() : '';
  if (configured !== '') return resolve(expand(configured));
  const fromEnv = env.DSH_HOME?.trim();
  if (fromEnv) return resolve(expand(fromEnv));
  return join(home, '.dsh');
}

export interface SessionFile {
  /** The session directory's name (normally the session id). */
  dirName: string;
  /** The `<project>` directory it sits in. */
  project: string;
  file: string;
  bytes: number;
  mtimeMs: number;
}

export interface SessionListItem {
  id: string;
  project: string;
  file: string;
  cwd: string | null;
  title: string;
  turns: number;
  bytes: number;
  startedAt: number | null;
  endedAt: number | null;
  mtimeMs: number;
  origin: string | null;
  parentSession: string | null;
  /** Frames or lines were skipped while reading it. */
  damaged: boolean;
}

export interface ListSessionsOptions {
  /** Keep sessions whose header cwd is this folder or inside it. */
  cwd?: string;
  /** More folders of the same workspace (worktrees, an old path); a session in any of them is kept. */
  workspacePaths?: readonly string[];
  /** Subagent sessions are part of their parent's work and are left out unless asked for. */
  includeSubagents?: boolean;
  injectedTags?: readonly string[];
}

async function dirNames(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
}

/** Every session log file under the DSH home (no decoding). */
export async function sessionFiles(dshHome: string): Promise<SessionFile[]> {
  const root = join(dshHome, 'sessions');
  const out: SessionFile[] = [];
  for (const project of await dirNames(root)) {
    for (const dirName of await dirNames(join(root, project))) {
      for (const name of SESSION_LOG_FILES) {
        const file = join(root, project, dirName, name);
        try {
          const s = await stat(file);
          if (!s.isFile()) continue;
          out.push({ dirName, project, file, bytes: s.size, mtimeMs: s.mtimeMs });
          break;
        } catch {
          // not this name
        }
      }
    }
  }
  return out;
}

export async function loadSession(file: string, options: ParseSessionOptions = {}): Promise<SessionLog> {
  return readSessionBytes(await readFile(file), options);
}

const normalisePath = (p: string): string => {
  const r = resolve(p);
  return process.platform === 'win32' ? r.toLowerCase() : r;
};

/** Is `child` the folder `parent` or inside it. */
export function pathWithin(parent: string, child: string): boolean {
  const rel = relative(normalisePath(parent), normalisePath(child));
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

// Listing decodes every log; an unchanged file (same size and mtime) is not decoded again.
const CACHE_LIMIT = 500;
const itemCache = new Map<string, { bytes: number; mtimeMs: number; tags: string; item: SessionListItem }>();

function remember(file: string, entry: { bytes: number; mtimeMs: number; tags: string; item: SessionListItem }): void {
  itemCache.delete(file);
  itemCache.set(file, entry);
  if (itemCache.size > CACHE_LIMIT) itemCache.delete(itemCache.keys().next().value!);
}

export function listItemOf(ref: SessionFile, log: SessionLog): SessionListItem {
  return {
    id: log.id,
    project: ref.project,
    file: ref.file,
    cwd: log.cwd,
    title: log.title,
    turns: log.turns.length,
    bytes: ref.bytes,
    startedAt: log.startedAt,
    endedAt: log.endedAt,
    mtimeMs: ref.mtimeMs,
    origin: typeof log.header.origin === 'string' ? log.header.origin : null,
    parentSession: typeof log.header.parentSession === 'string' ? log.header.parentSession : null,
    damaged: log.damage.badFrames + log.damage.badLines + log.damage.skippedBytes > 0,
  };
}

async function describe(ref: SessionFile, options: ParseSessionOptions): Promise<SessionListItem | null> {
  const tags = (options.injectedTags ?? []).join('\u0000');
  const cached = itemCache.get(ref.file);
  if (cached && cached.bytes === ref.bytes && cached.mtimeMs === ref.mtimeMs && cached.tags === tags) return cached.item;
  try {
    const item = listItemOf(ref, await loadSession(ref.file, { ...options, fallbackId: ref.dirName }));
    remember(ref.file, { bytes: ref.bytes, mtimeMs: ref.mtimeMs, tags, item });
    return item;
  } catch {
    return null;
  }
}

const newestFirst = (a: SessionListItem, b: SessionListItem): number =>
  (b.endedAt ?? b.startedAt ?? b.mtimeMs) - (a.endedAt ?? a.startedAt ?? a.mtimeMs) || a.id.localeCompare(b.id);

/** Whether a session's header places it in one of `places` (the folder or inside it); no cwd: nowhere. */
const recordedIn = (item: SessionListItem, places: readonly string[]): boolean => item.cwd !== null && places.some((p) => pathWithin(p, item.cwd!));

/** The session files among `files` recorded in one of `places` (for a caller that may read one workspace's sessions only). */
export async function filesRecordedIn(files: readonly SessionFile[], places: readonly string[], options: ParseSessionOptions = {}): Promise<SessionFile[]> {
  const out: SessionFile[] = [];
  for (const ref of files) {
    const item = await describe(ref, options);
    if (item && recordedIn(item, places)) out.push(ref);
  }
  return out;
}

/**
 * Sessions of a workspace, newest first. Without `cwd` and `workspacePaths` every session is
 * listed; with them, a session whose header has no cwd cannot be placed and is left out.
 */
export async function listSessions(dshHome: string, options: ListSessionsOptions = {}): Promise<SessionListItem[]> {
  const places = [options.cwd, ...(options.workspacePaths ?? [])].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const out: SessionListItem[] = [];
  for (const ref of await sessionFiles(dshHome)) {
    const item = await describe(ref, { injectedTags: options.injectedTags });
    if (!item) continue;
    if (!options.includeSubagents && item.origin === 'subagent') continue;
    if (places.length > 0 && !recordedIn(item, places)) continue;
    out.push(item);
  }
  return out.sort(newestFirst);
}

/**
 * Session files whose id starts with `idOrPrefix` (case-insensitive). An exact match wins over
 * prefix matches. Directory names are tried first; headers only when no directory matches.
 */
export async function findSessionFiles(dshHome: string, idOrPrefix: string, options: ParseSessionOptions = {}): Promise<SessionFile[]> {
  const wanted = idOrPrefix.trim().toLowerCase();
  if (wanted === '') return [];
  const files = await sessionFiles(dshHome);
  const exact = files.filter((f) => f.dirName.toLowerCase() === wanted);
  if (exact.length > 0) return exact;
  const byDir = files.filter((f) => f.dirName.toLowerCase().startsWith(wanted));
  if (byDir.length > 0) return byDir;
  const byHeader: SessionFile[] = [];
  for (const ref of files) {
    const item = await describe(ref, options);
    if (item && item.id.toLowerCase().startsWith(wanted)) byHeader.push(ref);
  }
  return byHeader;
}
