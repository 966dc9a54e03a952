// Past DSH sessions as seen from one engine: list a workspace's sessions with their import status,
// preview an import, and import (idempotently) as memories of that workspace. The console, the CLI
// and the plugin all go through this one class.
import type { ConfigSource, DatabaseSource, MemoryReader, MemoryWriter, SummaryQueueSource } from '../memories/ports.ts';
import { EngramError } from '../errors.ts';
import { formatDiary } from '../diary/format.ts';
import { parseDiaryText } from '../diary/parse.ts';
import { withTxtMeta } from '../diary/meta.ts';
import { importSessions, planImport, type ImportPlanItem, type ImportReport, type SessionMemoryDraft } from './import.ts';
import { findSessionFiles, listSessions, loadSession, resolveDshHome, type SessionListItem } from './list.ts';
import type { SessionLog } from './log.ts';
import type { Tokenizer } from '../types.ts';

export interface PastSession extends SessionListItem {
  /** What importing it now would do. */
  status: ImportPlanItem['status'];
  /** The memory an earlier import wrote. */
  path: string | null;
}

export interface PastSessionsOptions {
  /** The workspace folder: sessions whose cwd is it (or inside it). */
  cwd: string;
  /** Older paths of the same workspace (after a rename). */
  workspacePaths?: string[];
}

/** What importing past sessions needs of the engine: settings, database, reader, writer, the summary queue and the tokenizer (the topic split's words). */
export type PastSessionsEngine = ConfigSource &
  DatabaseSource &
  Pick<MemoryReader, 'read'> &
  Pick<MemoryWriter, 'write' | 'saveText'> &
  SummaryQueueSource & { readonly tokenizer: Tokenizer };

export interface ImportChoice {
  /**
   * Keep the model's reasoning in each turn. Unset: the words, tools and conclusions only, and a topic
   * imported earlier with its reasoning is left as it is (not rewritten without it).
   */
  thinking?: boolean;
}

export class PastSessions {
  constructor(private readonly engine: PastSessionsEngine) {}

  private home(): string {
    return resolveDshHome(this.engine.config.sessions.dshHome);
  }

  /** The workspace's past sessions, newest first, each with what an import would do. */
  async list(opts: PastSessionsOptions): Promise<PastSession[]> {
    const items = await listSessions(this.home(), { cwd: opts.cwd, workspacePaths: opts.workspacePaths });
    const logs = await this.load(items);
    const plan = new Map((await planImport(this.engine.db, logs, { tokenizer: this.engine.tokenizer })).map((p) => [p.sessionId, p]));
    return items.map((item) => {
      const p = plan.get(item.id);
      return { ...item, status: p?.status ?? 'empty', path: p?.path ?? null };
    });
  }

  /** What importing these sessions would write (drafts included); writes nothing. */
  async preview(ids: string[], choice: ImportChoice = {}): Promise<ImportPlanItem[]> {
    return planImport(this.engine.db, await this.logsOf(ids), { tokenizer: this.engine.tokenizer, thinking: choice.thinking === true ? true : undefined });
  }

  /** Imports the sessions as memories of `workspace`, one per topic; unchanged topics are skipped, changed ones rewritten in place. */
  async import(ids: string[], opts: ImportChoice & { workspace: string; onProgress?: (done: number, total: number) => void }): Promise<ImportReport> {
    const logs = await this.logsOf(ids);
    const writeMemory = async (draft: SessionMemoryDraft, title = draft.title) => {
      const r = await this.engine.write({
        title,
        content: draft.body,
        tags: draft.tags,
        date: draft.date,
        time: draft.time,
        meta: { workspace: opts.workspace, sessionId: draft.sessionId, origin: 'import' },
      });
      return { path: r.path };
    };
    return importSessions(
      {
        db: this.engine.db,
        writeMemory: (draft) => writeMemory(draft),
        updateMemory: async (path, draft) => this.rewrite(path, draft, (title) => writeMemory(draft, title)),
      },
      logs,
      { workspace: opts.workspace, onProgress: opts.onProgress, tokenizer: this.engine.tokenizer, thinking: opts.thinking === true ? true : undefined },
    );
  }

  /**
   * A changed session: the body is replaced; title, manual summary and Meta line stay. Unless the
   * person has made the memory theirs — locked it, or written in it (a line the new body would not
   * keep) — then it stays as it is and the continued session is written as a memory of its own
   * (`writeNew` with a free title), which later imports of the session update.
   */
  private async rewrite(path: string, draft: SessionMemoryDraft, writeNew: (title: string) => Promise<{ path: string }>): Promise<{ path: string; written?: 'new' }> {
    const current = await this.engine.read(path);
    if (!current) throw new EngramError('not-found', `the memory an earlier import wrote (${path}) is gone`);
    const parsed = parseDiaryText(current.raw, { root: 'diary', path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
    if (parsed.meta.locked || !keepsEveryLine(parsed.body, draft.body)) return { ...(await writeContinuation(draft.title, writeNew)), written: 'new' };
    // A generated summary described the old body: drop it so the queue writes a new one.
    const keepSummary = parsed.summarySource === 'manual';
    const meta = { ...parsed.meta, summary: keepSummary ? parsed.meta.summary : null };
    const text = withTxtMeta(formatDiary({ time: parsed.time, title: parsed.title, summary: keepSummary ? parsed.summary : '', body: draft.body, tags: parsed.tags.length > 0 ? parsed.tags : draft.tags }), meta);
    await this.engine.saveText(path, text, current.contentHash);
    if (!keepSummary) await this.engine.summaryQueue().enqueue(current.docId, current.path, { reset: true });
    return { path };
  }

  private async load(items: SessionListItem[]): Promise<SessionLog[]> {
    const out: SessionLog[] = [];
    for (const item of items) {
      try {
        out.push(await loadSession(item.file));
      } catch {
        // An unreadable log is listed with status 'empty' rather than failing the whole list.
      }
    }
    return out;
  }

  private async logsOf(ids: string[]): Promise<SessionLog[]> {
    if (!Array.isArray(ids) || ids.length === 0) throw new EngramError('bad-input', 'choose at least one session');
    const out: SessionLog[] = [];
    for (const id of ids) {
      const files = await findSessionFiles(this.home(), id);
      if (files.length === 0) throw new EngramError('not-found', `no session log for "${id}" under ${this.home()}`);
      if (files.length > 1) throw new EngramError('ambiguous', `"${id}" matches ${files.length} sessions; give more of the id`);
      out.push(await loadSession(files[0]!.file));
    }
    return out;
  }
}

/**
 * Whether rewriting the body on disk (`imported`) with a session's new body (`next`) keeps every word
 * in it: each of its lines, line endings and surrounding space aside, stands in the new body too (the
 * first line with its numbers aside: 共 1 轮 → 共 2 轮, draftImports' head). A continued session only
 * adds turns, and asking for the reasoning only adds lines to them; a line the person wrote or changed
 * is in no draft. Pure.
 */
export function keepsEveryLine(imported: string, next: string): boolean {
  const lines = (text: string) =>
    text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line, i) => (i === 0 ? line.replace(/\d+/g, '#') : line).trim())
      .filter((line) => line !== '');
  const wanted = new Set(lines(next));
  return lines(imported).every((line) => wanted.has(line));
}

/** Writes the continued session under the first free title of "<title>（续）", "<title>（续 2）"… */
async function writeContinuation(title: string, writeNew: (title: string) => Promise<{ path: string }>): Promise<{ path: string }> {
  for (let n = 1; ; n++) {
    try {
      return await writeNew(`${title}（续${n === 1 ? '' : ` ${n}`}）`);
    } catch (error) {
      if (n >= 50 || (error as { code?: unknown }).code !== 'title-exists') throw error;
    }
  }
}
