// Cross-session memory over one open engine: what other sessions did (brief), what they said to each
// other (wall), and each session's private notebook. Memories stay the diaries (read through
// engine.list, so scoping works exactly as in recall); the brief cursor and the wall are rows in
// the engine's database; the notebook is files beside the compaction channel's per-session books.
import { randomUUID } from 'node:crypto';
import { getSyncCursor, insertWallMessage, isKnownWorkspace, setSyncCursor, wallMessagesFor, type WallMessageRow } from '@engram/db';
import type { Database } from '@engram/db';
import type { ConfigSource, MemoryLister } from '../memories/ports.ts';
import { EngramError } from '../errors.ts';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { RuleEntry } from '../compaction/rules-book.ts';
import type { SessionScope } from '../compaction/types.ts';
import { BRIEF_WALL_ITEMS, formatCursor, groupOtherSessions, MTIME_SLACK_MS, parseCursor, renderBrief, type BriefResult, type WallItem } from './brief.ts';
import { isNotebookBook, NotebookFiles, type NotebookBook, type NotebookWriteMode, type NotebookWriteResult, type WritableBook } from './notebook.ts';
import { renderMinorBook } from './notebook-render.ts';
import { shortSession } from './provenance.ts';
import { addressedTo, describeRecipient, parseWallTarget, resolveWallTarget, storedRecipient, wallText } from './wall-target.ts';

/** A stored wall message as shown to anyone (the console lists every one; sessions add toMe/mine). */
export function wallMessageView(row: WallMessageRow): Omit<WallItem, 'toMe' | 'mine'> {
  return {
    id: row.id,
    at: row.at,
    fromSession: row.fromSession,
    fromShort: shortSession(row.fromSession),
    fromWorkspace: row.fromWorkspace,
    recipient: row.recipient,
    to: describeRecipient(row.recipient),
    text: row.text,
  };
}

/** What cross-session memory needs of the engine. */
export interface CrossSessionEngine extends ConfigSource, MemoryLister {
  readonly database: Pick<Database, 'db' | 'readOnly'>;
}

export interface CrossSessionDeps {
  /** The memories (read through list, so scoping is recall's) and the database the wall lives in. */
  engine: CrossSessionEngine;
  /** The clock, for tests; each call may also pass its own `now`. */
  now?: () => Date;
}

export interface WallPostInput {
  fromSession: string;
  fromWorkspace: string;
  /** '' / undefined = everyone; a session id or prefix (≥ 6), `s:<prefix>`, a workspace id or `ws:<id>`. */
  to?: string;
  text: string;
  now?: Date;
}

export interface WallReadInput {
  sessionId: string;
  workspace: string;
  /** 1..50, default 5. */
  k?: number;
}

export interface NotebookReadResult {
  which: NotebookBook;
  /** The book's text; for 'minor' the rules as lines (most hit first). */
  text: string;
  /** 'minor' only: the parsed entries. */
  entries?: RuleEntry[];
  /** Relative to the data dir. */
  path: string;
}

export const WALL_READ_DEFAULT = 5;
export const WALL_READ_MAX = 50;

const requireId = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 200) throw new EngramError('bad-input', `${name} is required (a non-empty id)`);
  return value;
};

const workspaceOrGlobal = (value: unknown): string => (typeof value === 'string' && value.trim() !== '' ? value.trim() : GLOBAL_WORKSPACE);

export class CrossSession {
  readonly notebook: NotebookFiles;
  private readonly clock: () => Date;

  constructor(private readonly deps: CrossSessionDeps) {
    this.notebook = new NotebookFiles(deps.engine.config.dataDir);
    this.clock = deps.now ?? (() => new Date());
  }

  private get config() {
    return this.deps.engine.config.crossSession;
  }

  private get db() {
    return this.deps.engine.database.db;
  }

  private get readOnly(): boolean {
    return this.deps.engine.database.readOnly !== null;
  }

  private disabled(what: 'brief' | 'wall' | 'notebook'): never {
    throw new EngramError('disabled', `跨会话的 ${what} 已在设置里关闭(crossSession.${what})`);
  }

  /**
   * Memories other sessions wrote or changed since this session's last brief (first time: the
   * configured look-back), visible from `workspace` (its own + global), plus the latest wall
   * messages; then the cursor moves to `now`, so the same changes are not reported twice.
   */
  async brief(sessionId: string, workspace: string, options: { now?: Date } = {}): Promise<BriefResult> {
    if (!this.config.brief) this.disabled('brief');
    const me = requireId(sessionId, 'sessionId');
    const ws = workspaceOrGlobal(workspace);
    const now = options.now ?? this.clock();
    const lookbackHours = this.config.briefLookbackHours;
    const cursor = parseCursor(await getSyncCursor(this.db, me));
    const cursorMs = cursor.ms;
    const firstSync = !Number.isFinite(cursorMs);
    const sinceMs = firstSync ? now.getTime() - lookbackHours * 3_600_000 : cursorMs;

    // Only what changed since the brief's window opens (or the cursor's slack stretch, if the clock went back).
    const memories = await this.deps.engine.list({ workspace: ws, modifiedAfterMs: Math.min(sinceMs, now.getTime()) - MTIME_SLACK_MS });
    const grouped = groupOtherSessions(memories, me, { sinceMs, nowMs: now.getTime(), ...(firstSync ? {} : { seen: cursor.seen }) });
    const wall = this.config.wall
      ? (await this.wallRows({ sessionId: me, workspace: ws, limit: BRIEF_WALL_ITEMS * 4, includeOwn: false }))
          .filter((row) => row.fromSession !== me)
          .slice(0, BRIEF_WALL_ITEMS)
          .map((row) => this.wallItem(row, { sessionId: me, workspace: ws }))
      : [];

    const cursorAdvanced = !this.readOnly;
    // A clock that went backwards must not move the cursor back (that would report things twice).
    if (cursorAdvanced && (firstSync || now.getTime() > cursorMs)) await setSyncCursor(this.db, me, formatCursor(now.getTime(), memories));

    const result = {
      sessionId: me,
      workspace: ws,
      firstSync,
      since: new Date(sinceMs).toISOString(),
      now: now.toISOString(),
      elapsedMs: Math.max(0, now.getTime() - sinceMs),
      groups: grouped.groups,
      memories: grouped.memories,
      sessionsOmitted: grouped.sessionsOmitted,
      wall,
      cursorAdvanced,
      lookbackHours,
    };
    return { ...result, text: renderBrief(result) };
  }

  async wallPost(input: WallPostInput): Promise<WallItem> {
    if (!this.config.wall) this.disabled('wall');
    if (this.readOnly) throw new EngramError('read-only', '数据只读(由更新版本的 Engram 写过),不能留言');
    const fromSession = requireId(input?.fromSession, 'fromSession');
    const fromWorkspace = workspaceOrGlobal(input.fromWorkspace);
    const text = wallText(input.text);
    const parsed = parseWallTarget(input.to);
    const isWorkspace = parsed.kind === 'either' && (parsed.value === fromWorkspace || (await isKnownWorkspace(this.db, parsed.value)));
    const target = resolveWallTarget(parsed, isWorkspace);
    const row: WallMessageRow = {
      id: randomUUID(),
      at: (input.now ?? this.clock()).toISOString(),
      fromSession,
      fromWorkspace,
      recipient: storedRecipient(target),
      text,
    };
    await insertWallMessage(this.db, row);
    return this.wallItem(row, { sessionId: fromSession, workspace: fromWorkspace });
  }

  /** Public messages, those addressed to this session (by id prefix) or its workspace, and its own; newest first. */
  async wallRead(input: WallReadInput): Promise<WallItem[]> {
    if (!this.config.wall) this.disabled('wall');
    const sessionId = requireId(input?.sessionId, 'sessionId');
    const workspace = workspaceOrGlobal(input.workspace);
    const k = typeof input.k === 'number' && Number.isInteger(input.k) ? Math.min(WALL_READ_MAX, Math.max(1, input.k)) : WALL_READ_DEFAULT;
    const rows = await this.wallRows({ sessionId, workspace, limit: k, includeOwn: true });
    return rows.map((row) => this.wallItem(row, { sessionId, workspace }));
  }

  private wallRows(reader: { sessionId: string; workspace: string; limit: number; includeOwn: boolean }): Promise<WallMessageRow[]> {
    return wallMessagesFor(this.db, reader);
  }

  private wallItem(row: WallMessageRow, reader: { sessionId: string; workspace: string }): WallItem {
    return { ...wallMessageView(row), toMe: addressedTo(row.recipient, reader), mine: row.fromSession === reader.sessionId };
  }

  /**
   * One of the session's books. `scope` is the compaction channel's: the session's cwd as
   * `workspace` (not the workspace id) and its id — that pair names the per-session folder.
   */
  async notebookRead(scope: SessionScope, which: NotebookBook): Promise<NotebookReadResult> {
    if (!this.config.notebook) this.disabled('notebook');
    if (!isNotebookBook(which)) throw new EngramError('bad-input', `which 只能是 notes、rules 或 minor`);
    const path = this.notebook.relativePath(scope, which);
    if (which === 'minor') {
      const entries = await this.notebook.readMinor(scope);
      return { which, text: renderMinorBook(entries), entries, path };
    }
    return { which, text: await this.notebook.read(scope, which), path };
  }

  async notebookWrite(scope: SessionScope, which: WritableBook, text: string, mode: NotebookWriteMode = 'append'): Promise<NotebookWriteResult> {
    if (!this.config.notebook) this.disabled('notebook');
    if (this.readOnly) throw new EngramError('read-only', '数据只读(由更新版本的 Engram 写过),不能写私密本');
    return this.notebook.write(scope, which, text, mode, this.clock());
  }

  /**
   * The text to inject for a session: '' when the notebook is off or both injected books (this
   * session's rules, the minor rules) are empty; otherwise the precedence statement and each book,
   * cut at `maxChars` (default: crossSession.notebookInjectMaxChars) with a visible mark.
   * Synchronous: a system-prompt section's text() cannot wait.
   */
  notebookInjection(scope: SessionScope, maxChars: number = this.config.notebookInjectMaxChars): string {
    if (!this.config.notebook) return '';
    // When the compaction channel already shows the minor rules once after each compaction (a
    // message, cache-friendly), the section leaves them out: a book that changes at every compaction
    // would change the system prompt one request after the compaction, a second cache break.
    const c = this.deps.engine.config.compaction;
    const minorShownElsewhere = c.enabled && c.rules.enabled && c.rules.inject;
    return this.notebook.injectionSync(scope, maxChars, { includeMinor: !minorShownElsewhere });
  }
}
