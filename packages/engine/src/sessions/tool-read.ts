// What session_read does with an id, for every front end that offers it (the plugin's tool, the MCP
// server's): the id names a session (or its first characters) or, when no session has it, a memory —
// then the memory's source session is opened where the memory came from (source.ts). `q` searches inside the session
// (search.ts); `view` picks turns, thinking or raw (read.ts); from/to page by turns. Errors are
// EngramErrors with the codes the tools pass on (not-found, ambiguous, unreadable, no-source).
import { bareSessionId } from '@engram/db';
import type { MemoryDetail } from '../api.ts';
import { EngramError, errorMessage } from '../errors.ts';
import { createTokenizer } from '../text/tokenize.ts';
import type { Tokenizer } from '../types.ts';
import { filesRecordedIn, findSessionFiles, loadSession, type SessionFile } from './list.ts';
import type { SessionLog } from './log.ts';
import { sessionReadPage, type SessionView } from './read.ts';
import { sessionSearchPage } from './search.ts';
import { memoryAnchor, type MemoryForSource, type SourceAnchor } from './source.ts';

export interface SessionReadRequest {
  /** A session id (or its first characters), or a memory's docId / path. */
  id: string;
  from?: number;
  to?: number;
  /** Words to find inside the session. */
  q?: string;
  view?: SessionView;
}

export interface SourceMemory extends MemoryForSource {
  /** The session that wrote it (the Meta line's `session=`), null when none is recorded. */
  sessionId: string | null;
}

export interface SessionReadDeps {
  home: string;
  maxChars: number;
  injectedTags?: readonly string[];
  tokenizer(): Tokenizer;
  /** The memory an id names, when it names one this caller may read; absent: ids are sessions only. */
  memory?(id: string): Promise<SourceMemory | null>;
  /** The zone times are shown in: the data directory's (engine.timeZone); absent, this machine's. */
  timeZone?: string;
  /** Session ids open only sessions recorded in these folders (a workspace's); absent: every session. A memory's id still opens its source session. */
  within?: readonly string[];
}

export interface SessionReadAnswer {
  kind: 'session';
  id: string;
  title: string;
  view: SessionView;
  from: number;
  to: number;
  total: number;
  nextFrom: number | null;
  text: string;
  /** With `q`: the turns found, best first. */
  hits?: number[];
  /** When the id named a memory: which, and how its place in the session was found. */
  source?: { docId: string; turn: number; how: SourceAnchor['how'] };
}

async function sessionFile(home: string, id: string, injectedTags: readonly string[], within?: readonly string[]): Promise<SessionFile | null> {
  const found = await findSessionFiles(home, id, { injectedTags });
  const files = within ? await filesRecordedIn(found, within, { injectedTags }) : found;
  if (files.length > 1) {
    const names = files.slice(0, 8).map((f) => f.dirName).join(', ');
    throw new EngramError('ambiguous', `"${id}" matches ${files.length} sessions (${names}${files.length > 8 ? ', …' : ''}); give more characters of the id`);
  }
  return files[0] ?? null;
}

async function load(file: SessionFile, injectedTags: readonly string[], view: SessionView): Promise<SessionLog> {
  try {
    // Only the raw view holds on to the stored messages: a long session's tool output is megabytes.
    return await loadSession(file.file, { fallbackId: file.dirName, injectedTags, keepRaw: view === 'raw' });
  } catch (error) {
    throw new EngramError('unreadable', `the session log could not be read (${errorMessage(error)})`);
  }
}

const HOW: Record<SourceAnchor['how'], string> = {
  import: '导入时记下的轮次',
  words: '按记忆的内容定位',
  time: '按记忆的时间定位',
  end: '未能定位,给出最后几轮',
};

export async function readSessionById(request: SessionReadRequest, deps: SessionReadDeps): Promise<SessionReadAnswer> {
  const id = request.id.trim();
  const view = request.view ?? 'turns';
  const tags = deps.injectedTags ?? [];
  const q = request.q?.trim() ?? '';

  let file = await sessionFile(deps.home, id, tags, deps.within);
  let memory: SourceMemory | null = null;
  if (!file && deps.memory) {
    memory = await deps.memory(id);
    if (memory) {
      if (!memory.sessionId) throw new EngramError('no-source', `memory ${memory.docId} records no source session (it was written in the console, the CLI or by an older version)`);
      // A memory the caller may read opens its source session wherever that was recorded: the
      // memory's workspace, not the session's folder, is what the caller is scoped to.
      file = (await sessionFile(deps.home, memory.sessionId, tags)) ?? (await sessionFile(deps.home, bareSessionId(memory.sessionId), tags));
      if (!file) throw new EngramError('not-found', `memory ${memory.docId} came from session ${memory.sessionId}, whose log is not under ${deps.home} (deleted, or another machine)`);
    }
  }
  if (!file) throw new EngramError('not-found', `no session${deps.memory ? ' or memory' : ''}${deps.within ? ' of this workspace' : ''} with id or prefix "${id}" under ${deps.home}; call session_read without an id to list this workspace's sessions`);
  const log = await load(file, tags, view);
  const base = { kind: 'session' as const, id: log.id, title: log.title, view, total: log.turns.length };

  let note: string | undefined;
  let anchor: SourceAnchor | null = null;
  if (memory) {
    anchor = memoryAnchor(log, memory, deps.tokenizer());
    note = `记忆「${memory.title}」(docId: ${memory.docId})的出处${anchor ? `:第 ${anchor.turn} 轮附近(${HOW[anchor.how]})` : ''}`;
  }
  const source = memory && anchor ? { docId: memory.docId, turn: anchor.turn, how: anchor.how } : undefined;

  if (q !== '') {
    const page = sessionSearchPage(log, q, deps.tokenizer(), { maxChars: deps.maxChars, view, note, timeZone: deps.timeZone });
    const turns = page.hits.map((h) => h.turn);
    return { ...base, from: turns.length ? Math.min(...turns) : 0, to: turns.length ? Math.max(...turns) : 0, nextFrom: null, text: page.text, hits: turns, ...(source ? { source } : {}) };
  }
  const explicit = request.from !== undefined || request.to !== undefined;
  const turns: [number, number?] | undefined = explicit ? [request.from ?? 1, request.to] : anchor ? [anchor.from, anchor.to] : undefined;
  const page = sessionReadPage(log, { turns, maxChars: deps.maxChars, view, note, timeZone: deps.timeZone });
  return { ...base, from: page.from, to: page.to, nextFrom: page.nextFrom, text: page.text, ...(source ? { source } : {}) };
}

/**
 * The `memory` lookup over an engine's reader: any id a memory is reached by. `visible` hides
 * memories the caller may not read (another workspace's, for a scoped caller): they are "not a memory".
 */
export function memoryLookup(reader: { read(idOrPath: string): Promise<MemoryDetail | null> }, visible: (workspace: string) => boolean = () => true) {
  return async (id: string): Promise<SourceMemory | null> => {
    let detail: MemoryDetail | null;
    try {
      detail = await reader.read(id);
    } catch {
      return null; // an unreadable file is not the memory the caller meant; the not-found answer says what was tried
    }
    if (!detail || !visible(detail.workspace)) return null;
    return { docId: detail.docId, title: detail.title, text: detail.raw, date: detail.date, time: detail.time ?? '', sessionId: detail.sessionId };
  };
}

let fallback: Tokenizer | null = null;
/** The tokenizer a front end without an open engine searches with: the engine's default one. */
export function fallbackTokenizer(): Tokenizer {
  return (fallback ??= createTokenizer({ kind: 'auto' }));
}
