// Past sessions → memories: one memory per session, one `## ` section per turn (so segment
// locate/detail can pick turns), holding what the person said, the conclusion and the tools used.
// No summary: the background summary queue writes it. Idempotent through `session_imports`: an
// unchanged session is skipped, a changed one updates its memory in place, never a duplicate.
import { createHash } from 'node:crypto';
import { sessionImportsByIds, upsertSessionImport, type EngramDb, type SessionImportRow } from '@engram/db';
import { localDateString, localTimeString } from '../diary/dates.ts';
import type { SessionLog, SessionTurn } from './log.ts';
import { toolsLine } from './read.ts';
import { clipChars } from './text.ts';

export interface SessionMemoryDraft {
  title: string;
  /** The memory body (no anchor line, no summary, no tag line: the writer adds those). */
  body: string;
  tags: string[];
  /** Local YYYY-MM-DD / HH:MM of the session's start. */
  date: string;
  time: string;
  sessionId: string;
  /** sha1 of what is imported: equal hashes mean nothing to update. */
  sourceHash: string;
  turns: number;
}

export interface DraftOptions {
  /** Characters kept of the person's words per turn. */
  maxUserChars?: number;
  /** Characters kept of the conclusion per turn. */
  maxConclusionChars?: number;
  /** Used when the log has no times at all (epoch ms). */
  fallbackTime?: number;
}

export const IMPORT_TAG = '会话导入';
const DRAFT_VERSION = 1;

/**
 * Quoted lines: a person's `## heading`, `Tag:` line, fence or `[HH:MM]` line stays their text
 * instead of becoming a section, the memory's tags, an open code block or a diary anchor.
 */
const quote = (text: string): string =>
  text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');

function section(turn: SessionTurn, maxUser: number, maxConclusion: number): string {
  const when = turn.startedAt === null ? '' : ` · ${localTimeString(turn.startedAt)}`;
  const lines = [`## 第 ${turn.turn} 轮${when}`, ''];
  lines.push('用户:', turn.user !== '' ? quote(clipChars(turn.user, maxUser)) : '> (本轮没有用户发言)');
  if (turn.assistant !== '') lines.push('', '结论:', quote(clipChars(turn.assistant, maxConclusion)));
  if (turn.tools.length > 0) lines.push('', `工具:${toolsLine(turn.tools, 300).replace(/\n/g, ' ')}`);
  return lines.join('\n');
}

/** The memory a session becomes; null when it has no turn worth keeping. */
export function draftImport(log: SessionLog, options: DraftOptions = {}): SessionMemoryDraft | null {
  if (log.turns.length === 0) return null;
  const maxUser = options.maxUserChars ?? 1500;
  const maxConclusion = options.maxConclusionChars ?? 800;
  const at = log.startedAt ?? log.turns.find((t) => t.startedAt !== null)?.startedAt ?? log.endedAt ?? options.fallbackTime ?? 0;
  const date = localDateString(at);
  const time = localTimeString(at);
  // The session id keeps two sessions with the same title on one day from colliding as one memory.
  const title = `${clipChars(log.title.replace(/\s+/g, ' ').trim(), 60)}(会话 ${log.id.slice(0, 8)})`;
  const head = `DSH 会话 ${log.id}${log.cwd ? `,工作目录 ${log.cwd}` : ''},共 ${log.turns.length} 轮。`;
  const body = [head, ...log.turns.map((t) => section(t, maxUser, maxConclusion))].join('\n\n');
  const tags = [IMPORT_TAG];
  const sourceHash = createHash('sha1').update(JSON.stringify({ v: DRAFT_VERSION, title, body, tags, date, time })).digest('hex');
  return { title, body, tags, date, time, sessionId: log.id, sourceHash, turns: log.turns.length };
}

export type ImportStatus = 'new' | 'changed' | 'unchanged' | 'empty';

export interface ImportPlanItem {
  sessionId: string;
  title: string;
  turns: number;
  status: ImportStatus;
  /** The memory an earlier import wrote. */
  path: string | null;
  draft: SessionMemoryDraft | null;
}

/** What an import would do, without writing anything (the preview). */
export async function planImport(db: EngramDb, logs: readonly SessionLog[], options: DraftOptions = {}): Promise<ImportPlanItem[]> {
  const known = await sessionImportsByIds(
    db,
    logs.map((l) => l.id).filter((id) => id !== ''),
  );
  return logs.map((log) => {
    const draft = log.id === '' ? null : draftImport(log, options);
    const row = known.get(log.id);
    const status: ImportStatus = draft === null ? 'empty' : !row ? 'new' : row.sourceHash === draft.sourceHash ? 'unchanged' : 'changed';
    return { sessionId: log.id, title: draft?.title ?? log.title, turns: log.turns.length, status, path: row?.path ?? null, draft };
  });
}

export interface ImportDeps {
  db: EngramDb;
  /** Writes a new memory; returns where it went (relative diary path). */
  writeMemory(draft: SessionMemoryDraft): Promise<{ path: string }>;
  /** Rewrites the memory at `path` from the draft; may return a new path when the file moved. */
  updateMemory(path: string, draft: SessionMemoryDraft): Promise<{ path?: string } | void>;
}

export interface ImportOptions extends DraftOptions {
  workspace: string;
  onProgress?(done: number, total: number): void;
  now?(): Date;
}

export interface ImportReport {
  imported: number;
  updated: number;
  skipped: number;
  /** Sessions with no turns (nothing to import). */
  empty: number;
  failed: { sessionId: string; error: string }[];
}

// Two imports of the same database at once would both see a session as new and write it twice.
const running = new WeakMap<object, Promise<unknown>>();

function serialised<T>(key: object, run: () => Promise<T>): Promise<T> {
  const before = running.get(key) ?? Promise.resolve();
  const next = before.then(run, run);
  running.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

export function importSessions(deps: ImportDeps, logs: readonly SessionLog[], options: ImportOptions): Promise<ImportReport> {
  return serialised(deps.db, () => runImport(deps, logs, options));
}

async function runImport(deps: ImportDeps, logs: readonly SessionLog[], options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, updated: 0, skipped: 0, empty: 0, failed: [] };
  // The same session listed twice would be "new" twice in one plan.
  const seen = new Set<string>();
  const unique = logs.filter((log) => (seen.has(log.id) ? false : (seen.add(log.id), true)));
  const plan = await planImport(deps.db, unique, options);
  const now = options.now ?? (() => new Date());
  const progress = (done: number) => {
    try {
      options.onProgress?.(done, plan.length);
    } catch {
      // a progress listener must not stop the import
    }
  };
  let done = 0;
  for (const item of plan) {
    try {
      if (item.status === 'empty' || !item.draft) report.empty++;
      else if (item.status === 'unchanged') report.skipped++;
      else {
        const draft = item.draft;
        let path: string;
        if (item.status === 'changed' && item.path !== null) {
          const result = await deps.updateMemory(item.path, draft);
          path = (result && typeof result.path === 'string' && result.path) || item.path;
        } else {
          path = (await deps.writeMemory(draft)).path;
        }
        const row: SessionImportRow = {
          sessionId: draft.sessionId,
          workspace: options.workspace,
          path,
          sourceHash: draft.sourceHash,
          turns: draft.turns,
          importedAt: now().toISOString(),
        };
        await upsertSessionImport(deps.db, row);
        if (item.status === 'changed') report.updated++;
        else report.imported++;
      }
    } catch (error) {
      report.failed.push({ sessionId: item.sessionId, error: error instanceof Error ? error.message : String(error) });
    }
    progress(++done);
  }
  return report;
}
