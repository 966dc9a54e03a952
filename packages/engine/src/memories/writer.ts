// Writing memories (#18, the console's memories router): create (through the write-hygiene gate),
// anchored edit, whole-file save, archive, Meta-line changes, summaries, and semantic write blocks.
// Every write runs under the writer queue + lock (runtime/state.ts `exclusive`), re-indexes the files
// it touched, and never changes bytes outside what it was asked to change.
import type { DocumentRow } from '@engram/db';
import type { MemoryDetail, MemorySummary, WriteInput, WriteResult } from '../api.ts';
import { docIdFor } from '../diary/ids.ts';
import { safeJoin } from '../diary/fsio.ts';
import { withLayoutOf } from '../diary/lines.ts';
import { canonicalKind, validateMeta, withMarkdownMeta, withTxtMeta, type MemoryMeta } from '../diary/meta.ts';
import { DiaryError, goneDiaryWriteError, isDiaryError } from '../diary/errors.ts';
import { normaliseTitle, parseDiaryText } from '../diary/parse.ts';
import { composeEntry } from '../diary/create.ts';
import { archiveEntry, assertWritableSize, createEntry, editEntry, pathsBeforeArchive } from '../diary/store.ts';
import { withSummary } from '../diary/summary-edit.ts';
import { readForRewrite, rewriteIfUnchanged } from '../diary/textfile.ts';
import { asDatabaseOutage, EngramError, errorMessage } from '../errors.ts';
import { gateWrite } from '../hygiene/gate.ts';
import { sha1 } from '../index/rows.ts';
import type { IndexService } from '../index/service.ts';
import type { MetaPatch } from '../memory-index.ts';
import { applyNotes, previewNotes, type NoteWriterHost } from '../notes.ts';
import { visibleIn } from '../recall/scope.ts';
import type { EngineState } from '../runtime/state.ts';
import { SummaryQueue, type SetSummaryResult, type SummaryWriteSource } from '../summaries/queue.ts';
import type { EditResult, MemoryWriter } from './ports.ts';
import type { MemoryReaderService } from './reader.ts';

export class MemoryWriterService implements MemoryWriter {
  private summaries: SummaryQueue | null = null;

  constructor(
    private readonly s: EngineState,
    private readonly reader: MemoryReaderService,
    private readonly indexer: IndexService,
  ) {}

  /**
   * Every write runs here: one at a time under the writer lock (runtime/state.ts exclusive), and only
   * while the diary folder is there. Gone under this engine (deleted, a drive unmounted), a write is
   * refused as that, before anything is read or created — create, edit and archive otherwise failed
   * each its own way ("create it", "the memory was moved"), and the first is wrong for a drive.
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.s.exclusive(async () => {
      const gone = this.indexer.diaryFolderGone();
      if (gone) throw goneDiaryWriteError(gone.dir);
      return fn();
    });
  }

  private reindexPaths(paths: string[]): Promise<void> {
    return this.indexer.reindexPaths(paths);
  }

  private async requireWritable(idOrPath: string): Promise<DocumentRow> {
    const d = await this.reader.resolve(idOrPath);
    if (!d) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    if (d.root !== 'diary') throw new EngramError('read-only', `"${d.title}" is in the read-only legacy corpus`);
    return d;
  }

  async write(input: WriteInput): Promise<WriteResult> {
    if (!input || typeof input.content !== 'string' || input.content.trim() === '')
      throw new EngramError('bad-input', 'content is required');
    const s = this.s;
    const result = await this.exclusive(async (): Promise<WriteResult> => {
      // Another process may have written since our last look: the title check must see its entries.
      await s.live.refreshIfStale(s.db);
      // Titles are unique within what the writing workspace sees (its own memories + global).
      const scope = { workspace: s.scopeOf(input.meta?.workspace ?? null) };
      const visible = (id: string) => {
        const d = s.live.doc(id);
        return d && !d.archived && visibleIn(scope, d.workspace) ? d : undefined;
      };
      // Looked up, not listed: a one-shot write decodes only the rows it touches.
      const titleKeys = { has: (key: string) => s.live.titleTaken(key, (workspace) => visibleIn(scope, workspace)) };
      const entryInput = { ...input, folder: input.folder ?? s.config.diary.folder, format: s.config.diary.format };
      // Write hygiene: fragments refused, near-duplicates merged into the older memory, conflicts named.
      const gate = await gateWrite(
        {
          diaryDir: s.config.diaryDir, config: s.config, tokenizer: s.tokenizer, now: s.options.now?.() ?? new Date(),
          search: (tokens, limit) => s.live.lexical.search(tokens, limit), visibleDoc: visible, supersededBy: () => s.live.supersededBy(),
        },
        entryInput,
        titleKeys,
      );
      const conflicts = gate.conflicts.length > 0 ? { conflicts: gate.conflicts } : {};
      if (gate.kind === 'merged') {
        const kept = await this.kindGoalIntoMerged(gate.path, entryInput);
        if (!gate.identical || kept.changed) await this.reindexPaths([gate.path]);
        return { docId: gate.docId, path: gate.path, warnings: [...gate.warnings, ...kept.warnings], semanticIndexed: s.semantic?.status().state === 'ready', merged: true, ...conflicts };
      }
      const created = await createEntry(s.config.diaryDir, entryInput, { normalisedTitles: titleKeys }).catch((e: unknown) => {
        throw titleTakenError(e, (key) => s.live.titleHolder(key, (workspace) => visibleIn(scope, workspace)));
      });
      await this.reindexPaths([created.path]);
      const docId = docIdFor('diary', created.path);
      const semanticIndexed = s.semantic?.status().state === 'ready';
      return { docId, path: created.path, warnings: [...created.warnings, ...gate.warnings], semanticIndexed, ...conflicts };
    });
    await this.queueSummaryAfterWrite(result);
    return result;
  }

  /**
   * A write merged into an older memory keeps its kind and goal where the older one has none (the
   * goal is the writer's words); where the older memory says otherwise, its own stay and a warning says so.
   */
  private async kindGoalIntoMerged(path: string, input: WriteInput): Promise<{ changed: boolean; warnings: string[] }> {
    const { kind, goal } = composeEntry(input);
    if (kind === '' && goal === '') return { changed: false, warnings: [] };
    const file = safeJoin(this.s.config.diaryDir, path);
    const before = await readForRewrite(file, path);
    const meta = parseDiaryText(before.text, { root: 'diary', path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false }).meta;
    const next: MemoryMeta = { ...meta, supersedes: [...meta.supersedes], kind: meta.kind || kind, goal: meta.goal || goal };
    const warnings: string[] = [];
    if ((kind !== '' && meta.kind !== '' && canonicalKind(meta.kind) !== canonicalKind(kind)) || (goal !== '' && meta.goal !== '' && meta.goal !== goal))
      warnings.push(`并入的旧记忆已有自己的 kind / goal(${meta.kind || '—'} / ${meta.goal || '—'}),保留了它的 / the older memory keeps its own kind / goal`);
    if (next.kind === meta.kind && next.goal === meta.goal) return { changed: false, warnings };
    const text = path.toLowerCase().endsWith('.md') ? withMarkdownMeta(before.text, next) : withTxtMeta(before.text, next);
    if (text === null || text === before.text) return { changed: false, warnings };
    return { changed: await rewriteIfUnchanged(file, before, text), warnings };
  }

  /** A memory written without a summary (or grown by a merge, when its summary was generated) waits for one. */
  private async queueSummaryAfterWrite(result: WriteResult): Promise<void> {
    const d = this.s.live.doc(result.docId);
    if (!d || !this.s.config.summaries.enabled) return;
    const stale = result.merged === true && (d.summarySource === 'auto' || d.summarySource === 'rule');
    try {
      if (stale) await this.summaryQueue().enqueue(d.id, d.path, { reset: true });
      else if (!result.merged) await this.summaryQueue().enqueueIfMissing({ docId: d.id, path: d.path, summarySource: d.summarySource });
    } catch (e) {
      // The memory is written; a missing summary is only a worse recall line.
      this.s.log('warn', 'could not queue the memory for a summary', { docId: d.id, error: errorMessage(e) });
    }
  }

  /** The background summary queue over this engine's data (the plugin's worker drains it). */
  summaryQueue(): SummaryQueue {
    const s = this.s;
    this.summaries ??= new SummaryQueue({
      db: s.db,
      settings: () => s.config.summaries,
      read: (idOrPath) => this.reader.read(idOrPath),
      setSummary: (idOrPath, summary, source) => this.setSummary(idOrPath, summary, source),
      list: (workspace) => this.reader.list({ workspace }),
      now: s.options.now,
      log: s.log,
    });
    return this.summaries;
  }

  /**
   * Sets a memory's summary in its file (the `> summary` paragraph, a .md's description) and records
   * its source. An 'auto' or 'rule' summary never replaces one a person wrote: the file is read
   * again under the write lock, and when it has a manual summary nothing is written (written: false).
   */
  async setSummary(idOrPath: string, summary: string, source: SummaryWriteSource): Promise<SetSummaryResult> {
    if (typeof summary !== 'string' || summary.trim() === '') throw new EngramError('bad-input', 'the summary must not be empty');
    if (source !== 'manual' && source !== 'auto' && source !== 'rule') throw new EngramError('bad-input', `unknown summary source "${String(source)}"`);
    return this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const file = safeJoin(this.s.config.diaryDir, d.path);
      // Decoded as the scanner does and written back in the file's own encoding, BOM and line endings.
      const before = await readForRewrite(file, d.path);
      const raw = before.text;
      const current = parseDiaryText(raw, { root: 'diary', path: d.path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false });
      if (source !== 'manual' && current.summarySource === 'manual') return { docId: d.id, path: d.path, written: false, source: 'manual' };
      const text = withSummary(raw, d.path, summary, source);
      if (text !== raw) {
        assertWritableSize(text, d.path);
        await rewriteIfUnchanged(file, before, text);
        await this.reindexPaths([d.path]);
      }
      return { docId: d.id, path: d.path, written: true, source };
    });
  }

  async edit(idOrPath: string, target: string, replacement: string): Promise<EditResult> {
    return this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const result = await editEntry(this.s.config.diaryDir, d.path, target, replacement, this.s.config.diary.updateMinTarget);
      await this.reindexPaths([d.path]);
      return { docId: d.id, path: d.path, strategy: result.strategy };
    });
  }

  /** Whole-file save from an editor; refuses when the file changed since it was read. */
  async saveText(idOrPath: string, raw: string, expectedHash: string): Promise<MemoryDetail> {
    if (typeof raw !== 'string' || raw.trim() === '') throw new EngramError('bad-input', 'the text must not be empty');
    assertWritableSize(raw, 'the diary');
    let path = '';
    await this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      path = d.path;
      const file = safeJoin(this.s.config.diaryDir, d.path);
      const current = await readForRewrite(file, d.path);
      if (sha1(current.text) !== expectedHash)
        throw new EngramError('conflict', `"${d.title}" changed on disk since it was opened; reload before saving`);
      // The file's encoding, BOM, permissions and the line endings of untouched lines are kept
      // (an editor hands back LF only); the bytes are checked again right before the rename.
      if (await rewriteIfUnchanged(file, current, withLayoutOf(current.text, raw))) await this.reindexPaths([d.path]);
    });
    // The words are saved: a server gone before the read-back must not look like a failed save.
    const after = await this.reader.read(idOrPath).catch((e: unknown) => {
      throw asDatabaseOutage(e, this.s.database.url, [path]);
    });
    if (!after) throw new EngramError('not-found', 'the memory disappeared after saving');
    return after;
  }

  /** Archives (never deletes): the file moves under the archive folder and leaves recall. */
  async forget(idOrPath: string): Promise<{ docId: string; from: string; to: string }> {
    return this.exclusive(async () => {
      // The docId or path it had before an earlier forget moved its file name nothing now.
      const before = (await this.reader.resolve(idOrPath)) ? null : await this.reader.archivedFrom(idOrPath);
      if (before) throw alreadyArchived(before.doc, before.from);
      const d = await this.requireWritable(idOrPath);
      if (d.archived) throw alreadyArchived(d, pathsBeforeArchive(d.path, this.s.config.diary.archiveFolder)[0] ?? null);
      if (d.locked) throw new EngramError('locked', `"${d.title}" is locked: unlock it before forgetting it`);
      const moved = await archiveEntry(this.s.config.diaryDir, d.path, this.s.config.diary.archiveFolder);
      await this.reindexPaths([d.path, moved.path]);
      return { docId: d.id, from: d.path, to: moved.path };
    });
  }

  /**
   * Changes a memory's metadata (pin, lock, workspace, supersedes) by rewriting only its Meta line
   * (the .md front-matter keys); every other byte of the file stays.
   */
  async updateMeta(idOrPath: string, patch: MetaPatch): Promise<MemorySummary> {
    const problem = validateMeta(patch);
    if (problem) throw new EngramError('bad-input', problem);
    const docId = await this.exclusive(async () => {
      const d = await this.requireWritable(idOrPath);
      const file = safeJoin(this.s.config.diaryDir, d.path);
      const before = await readForRewrite(file, d.path);
      const raw = before.text;
      const fileMeta = parseDiaryText(raw, { root: 'diary', path: d.path, mtimeMs: 0, size: 0, archiveFolder: '', requireTag: false, timePrefix: false }).meta;
      const current: MemoryMeta = {
        workspace: d.workspace,
        sessionId: d.sessionId,
        origin: (d.origin || '') as MemoryMeta['origin'],
        pinned: d.pinned,
        locked: d.locked,
        supersedes: d.supersedes,
        summary: d.summarySource === 'auto' || d.summarySource === 'rule' ? d.summarySource : null,
        // The row holds the folded kind: the file's own word (an alias, an unknown kind) is kept
        // unless the patch changes it.
        kind: fileMeta.kind,
        goal: fileMeta.goal,
      };
      const next: MemoryMeta = { ...current, ...patch, supersedes: [...(patch.supersedes ?? current.supersedes)] };
      const text = d.path.toLowerCase().endsWith('.md') ? withMarkdownMeta(raw, next) : withTxtMeta(raw, next);
      if (text === null) throw new EngramError('bad-input', `"${d.title}" has no closed front matter to record metadata in`);
      // Only the Meta line changes, in the file's own encoding; re-checked right before the rename.
      if (await rewriteIfUnchanged(file, before, text)) await this.reindexPaths([d.path]);
      return d.id;
    });
    const after = this.s.live.doc(docId);
    if (!after) throw new EngramError('not-found', 'the memory disappeared after the change');
    return this.reader.summaryWithChunks(after);
  }

  private noteHost(): NoteWriterHost {
    const s = this.s;
    const live = () => [...s.live.docs.values()].filter((d) => d.root === 'diary' && !d.archived);
    return {
      diaryDir: s.config.diaryDir,
      minTarget: s.config.diary.updateMinTarget,
      titles: () => new Set(live().map((d) => d.title)),
      diaryDocs: () => live().map((d) => ({ id: d.id, path: d.path, title: d.title })),
      write: (input) => this.write(input),
      edit: (docId, target, replacement) => this.edit(docId, target, replacement),
    };
  }

  /** What the semantic write blocks in `text` would do; writes nothing. */
  async previewNoteBlocks(text: string) {
    if (typeof text !== 'string') throw new EngramError('bad-input', 'text must be a string');
    await this.s.live.refreshIfStale(this.s.db);
    return previewNotes(this.noteHost(), text);
  }

  /** Applies the semantic write blocks in an assistant reply; hashes in `applied` are skipped. */
  async applyNoteBlocks(text: string, applied: Set<string>) {
    await this.s.live.refreshIfStale(this.s.db);
    return applyNotes(this.noteHost(), text, applied);
  }
}

/**
 * A taken title names the memory that holds it (message and `details.docId`), so a caller can offer
 * to change that memory instead; each adapter says how (the CLI: `engram edit ID`).
 */
function titleTakenError(e: unknown, holderOf: (titleKey: string) => string | null): unknown {
  if (!isDiaryError(e, 'title-exists')) return e;
  const title = String(e.details?.title ?? '');
  // Looked up in the title table, not found by listing every row (a one-shot write decodes few).
  const holderId = holderOf(normaliseTitle(title));
  const holder = holderId === null ? undefined : { id: holderId };
  const id = holder ? ` (${holder.id})` : '';
  return new DiaryError(
    'title-exists',
    `已有同名记忆「${title}」${id},没有写第二篇:请修改原来那篇,或换一个标题。 / a memory titled "${title}" already exists${id}: change that one instead, or choose another title`,
    { title, ...(holder ? { docId: holder.id } : {}) },
  );
}

/**
 * A forget of a memory an earlier forget archived, with where it is now (`details.path`, in the
 * diary folder) and where it was (`details.from`), for each adapter to say; the message stays the
 * words the console translates.
 */
function alreadyArchived(d: DocumentRow, from: string | null): EngramError {
  return new EngramError('already-archived', `"${d.title}" is already archived`, { docId: d.id, title: d.title, path: d.path, from });
}
