// Reading memories (#18, the console's memories router): the list (scoped, newest first), the
// layered index, resolving any id a memory can be reached by, the whole file, and the
// search → locate → detail steps inside one long memory. Reads the live in-memory index, refreshed
// first when another process wrote.
import { readFile } from 'node:fs/promises';
import type { DocumentRow } from '@engram/db';
import type { MemoryDetail, MemorySummary } from '../api.ts';
import { goneDiaryReadError } from '../diary/errors.ts';
import { safeJoin } from '../diary/fsio.ts';
import { docIdFor, normalisePath, resolveDocId } from '../diary/ids.ts';
import { pathsBeforeArchive } from '../diary/move.ts';
import { decodeText } from '../diary/textfile.ts';
import { EngramError, errorMessage, isEngramError } from '../errors.ts';
import { sha1 } from '../index/rows.ts';
import type { DiaryFolderGone } from '../index/service.ts';
import type { IndexFact } from '../index/stored-rows.ts';
import { pageOfIndex, pageOfOrdered, recentOrder, type MemoryIndexPage } from '../memory-index.ts';
import { blankDocMeta, visibleIn } from '../recall/scope.ts';
import { lexicalOptions, type EngineState } from '../runtime/state.ts';
import type { MemoryLocate, MemoryRef, MemorySegments } from '../segments/api.ts';
import { pickSegments } from '../segments/detail.ts';
import { locate as locateSegments } from '../segments/locate.ts';
import { splitSegments } from '../segments/split.ts';
import { byWhen, type DayMemory } from '../timeq/channel.ts';
import type { ListOptions, MemoryPager, MemoryReader } from './ports.ts';

/** The list's order: newest date first, then by path. */
const listOrder = (a: Pick<DocumentRow, 'date' | 'path'>, b: Pick<DocumentRow, 'date' | 'path'>): number => (a.date === b.date ? a.path.localeCompare(b.path) : a.date < b.date ? 1 : -1);

export class MemoryReaderService implements MemoryReader, MemoryPager {
  constructor(
    private readonly s: EngineState,
    /** The diary folder when it is gone under this engine, else null (IndexService.diaryFolderGone). */
    private readonly diaryFolderGone: () => DiaryFolderGone | null = () => null,
  ) {}

  /** A document row as the list shows it (chunks filled in by the caller that knows them). */
  summaryOf(d: DocumentRow): MemorySummary {
    return {
      ...(this.s.live.meta(d.id) ?? blankDocMeta(d.id)),
      time: d.time,
      summary: d.summary,
      summarySource: d.summarySource,
      mtimeMs: d.mtimeMs,
      chunks: 0,
      archived: d.archived,
      warnings: d.warnings,
      readOnly: d.root === 'legacy',
    };
  }

  /** The summary of a live document with its chunk count. */
  summaryWithChunks(d: DocumentRow): MemorySummary {
    return { ...this.summaryOf(d), chunks: this.s.live.chunkCount(d.id) };
  }

  /**
   * The summaries of these documents (archived ones too; unknown ids are left out), each row decoded
   * alone: a search names its few hits, and listing every memory to find them cost a 50,000-note
   * store seconds and ~170 MB per search.
   */
  async summariesOf(docIds: readonly string[]): Promise<Map<string, MemorySummary>> {
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    const out = new Map<string, MemorySummary>();
    for (const id of docIds) {
      const d = s.live.doc(id);
      if (d && !out.has(id)) out.set(id, this.summaryWithChunks(d));
    }
    return out;
  }

  /**
   * Memories, newest date first. `workspace` limits them to that workspace + global (when scoping is
   * on); `tag` to those carrying the tag.
   */
  async list(opts: ListOptions = {}): Promise<MemorySummary[]> {
    return (await this.rowsFor(opts)).sort(listOrder).map((d) => this.summaryWithChunks(d));
  }

  /**
   * A slice of the list, in its order, filtered on the rows before any summary is built: `text` in
   * the title or a tag (case-insensitive), `folder` the category or one under it; only `limit` from
   * `offset` are summarised (engram_list built all 50,000 summaries of a large store per call).
   * `order: 'recent'`: pinned first, then the newest date, then the latest change (memory-index.ts recentOrder).
   */
  async listPage(opts: ListOptions & { text?: string; folder?: string; offset?: number; limit: number; order?: 'list' | 'recent' }): Promise<{ total: number; items: MemorySummary[] }> {
    const text = opts.text?.trim().toLowerCase() ?? '';
    const folder = opts.folder?.trim() ?? '';
    const from = Math.max(0, Math.floor(opts.offset ?? 0));
    const limit = Math.max(0, Math.floor(opts.limit));
    if (text === '' && folder === '' && (opts.tag?.trim() ?? '') === '') {
      const page = await this.listPageByFacts(opts, from, limit, opts.order ?? 'list');
      if (page) return page;
    }
    const rows = (await this.rowsFor(opts))
      .filter((d) => (folder === '' || d.category === folder || d.category.startsWith(`${folder}/`)) && (text === '' || d.title.toLowerCase().includes(text) || d.tags.some((t) => t.toLowerCase().includes(text))))
      .sort(opts.order === 'recent' ? recentOrder : listOrder);
    return { total: rows.length, items: rows.slice(from, from + limit).map((d) => this.summaryWithChunks(d)) };
  }

  /**
   * The list's page from the rows' index facts, in either order, decoding the page's rows only
   * (`engram list` and the sidebar's light view at 50,000 notes decoded them all to order them by
   * date); null when the facts lack a date (an older snapshot).
   */
  private async listPageByFacts(opts: ListOptions, from: number, limit: number, order: 'list' | 'recent'): Promise<{ total: number; items: MemorySummary[] } | null> {
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    const facts = s.live.indexFacts().filter(this.listedBy(opts));
    if (facts.some((f) => f.date === null)) return null;
    const dated = (facts as (IndexFact & { date: string })[]).sort(order === 'recent' ? recentOrder : listOrder);
    return { total: dated.length, items: dated.slice(from, from + limit).map((f) => this.summaryWithChunks(s.live.doc(f.id)!)) };
  }

  /** The rows list() shows, unordered. */
  private async rowsFor(opts: ListOptions): Promise<DocumentRow[]> {
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    const tag = opts.tag?.trim() ?? '';
    const listed = this.listedBy(opts);
    return [...s.live.docs.values()].filter((d) => listed(d) && (tag === '' || d.tags.includes(tag)));
  }

  /** Whether the list shows a memory, by what a row and its index facts both hold: changed after, archived, workspace. */
  private listedBy(opts: ListOptions): (m: Pick<IndexFact, 'mtimeMs' | 'archived' | 'workspace'>) => boolean {
    const scope = { workspace: this.s.scopeOf(opts.workspace) };
    const after = opts.modifiedAfterMs ?? Number.NEGATIVE_INFINITY;
    return (m) => m.mtimeMs > after && (opts.includeArchived || !m.archived) && visibleIn(scope, m.workspace);
  }

  /**
   * The layered index: pinned first, then by last change, paged (what engram_index returns). Ordered
   * by the rows' index facts and only the page's rows decoded (a tag filter reads every row's tags).
   */
  async memoryIndex(opts: { workspace?: string | null; tag?: string; page?: number; pageSize?: number } = {}): Promise<MemoryIndexPage> {
    const s = this.s;
    if ((opts.tag?.trim() ?? '') !== '') return pageOfIndex(await this.rowsFor({ workspace: opts.workspace, tag: opts.tag }), opts.page ?? 1, opts.pageSize ?? 20, (d) => this.summaryWithChunks(d));
    await s.live.refreshIfStale(s.db);
    const scope = { workspace: s.scopeOf(opts.workspace) };
    // Filtered from the facts kept in index order: no sort of every memory per call.
    const facts = s.live.indexFactsInIndexOrder().filter((f) => !f.archived && visibleIn(scope, f.workspace));
    return pageOfOrdered(facts, opts.page ?? 1, opts.pageSize ?? 20, (f) => this.summaryWithChunks(s.live.doc(f.id)!));
  }

  /** Accepts every identity a document can be reached by: docId, relative path, id in the file name. */
  async resolve(idOrPath: string): Promise<DocumentRow | null> {
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    // The id a search or list handed out, as given: one row, without decoding every other one (at
    // 50,000 memories the first read decoded all rows, 0.6 s, and each later one listed them again).
    const exact = typeof idOrPath === 'string' ? s.live.doc(idOrPath.trim()) : undefined;
    if (exact) return exact;
    const id = resolveDocId(idOrPath, s.live.identities());
    return id ? (s.live.doc(id) ?? null) : null;
  }

  /**
   * The archived memory `idOrPath` named before it was archived, with the path it had then: archiving
   * moves the file, so neither that path nor its docId (the path's hash) reaches it any more. A path
   * archived more than once: its latest file (a rename keeps the mtime). null when it names nothing
   * archived. Only archived rows' paths are hashed, and only when a name was not found.
   */
  async archivedFrom(idOrPath: string): Promise<{ doc: DocumentRow; from: string } | null> {
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    const wanted = typeof idOrPath === 'string' ? idOrPath.trim() : '';
    if (wanted === '') return null;
    const asPath = normalisePath(wanted);
    const asId = wanted.toLowerCase();
    let found: { fact: IndexFact; from: string } | null = null;
    for (const fact of s.live.indexFacts()) {
      if (!fact.archived || fact.root !== 'diary' || (found && found.fact.mtimeMs >= fact.mtimeMs)) continue;
      const from = pathsBeforeArchive(fact.path, s.config.diary.archiveFolder).find((p) => p === asPath || docIdFor('diary', p) === asId);
      if (from !== undefined) found = { fact, from };
    }
    const doc = found && s.live.doc(found.fact.id);
    return doc ? { doc, from: found!.from } : null;
  }

  private rootDir(root: 'diary' | 'legacy'): string {
    return root === 'diary' ? this.s.config.diaryDir : this.s.config.legacyDir;
  }

  async read(idOrPath: string): Promise<MemoryDetail | null> {
    const d = await this.resolve(idOrPath);
    if (!d) return null;
    let raw: string;
    try {
      const file = safeJoin(this.rootDir(d.root), d.path);
      // The scanner's decoder (UTF-16 with a BOM too), so an editor opens what recall indexed.
      const bytes = await readFile(file);
      const decoded = decodeText(bytes);
      raw = decoded.ok ? decoded.text : bytes.toString('utf8');
    } catch (e) {
      // The whole folder gone (deleted, a drive unmounted) fails here, in safeJoin or the read, for a
      // memory the index still lists: said as that, not as this one file lost at an absolute path.
      // Asked only after a failure, so a read that works costs no extra stat.
      if (d.root === 'diary' && this.diaryFolderGone()) throw goneDiaryReadError(d.id, d.path);
      if (isEngramError(e)) throw e;
      throw new EngramError('file-unreadable', `cannot read ${d.path}: ${errorMessage(e)}`);
    }
    return { ...this.summaryWithChunks(d), raw, contentHash: sha1(raw) };
  }

  private async requireDetail(idOrPath: string): Promise<MemoryDetail> {
    if (typeof idOrPath !== 'string' || idOrPath.trim() === '') throw new EngramError('bad-input', 'an id or path is required');
    const detail = await this.read(idOrPath.trim());
    if (!detail) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    return detail;
  }

  private refOf(d: MemoryDetail, segmentCount: number): MemoryRef {
    return { docId: d.docId, title: d.title, date: d.date, path: d.path, chars: d.raw.length, segmentCount };
  }

  /**
   * Which segments of one memory a query is about (BM25 over that memory's segments, with the
   * engine's tokenizer), each with a preview around its first hit. The middle step of
   * search → locate → detail: for a long memory, find the part worth reading.
   */
  async locate(idOrPath: string, query: string): Promise<MemoryLocate> {
    if (typeof query !== 'string' || query.trim() === '') throw new EngramError('bad-query', 'query must be a non-empty string');
    const d = await this.requireDetail(idOrPath);
    const { segments, hits } = locateSegments(d.raw, query, this.s.tokenizer, { lexical: lexicalOptions(this.s.config) });
    return { ...this.refOf(d, segments.length), query, hits };
  }

  /** A memory's whole text, or only the chosen segments (0-based indexes from locate). */
  async detail(idOrPath: string, segments?: number[]): Promise<MemorySegments> {
    if (segments !== undefined && !Array.isArray(segments)) throw new EngramError('bad-input', 'segments must be a list of segment numbers');
    const d = await this.requireDetail(idOrPath);
    const all = splitSegments(d.raw);
    const pick = pickSegments(d.raw, all, segments, d.title);
    return {
      ...this.refOf(d, all.length),
      whole: pick.whole,
      segments: pick.segments.map((s) => ({ index: s.index, heading: s.heading, start: s.start, end: s.end, chars: s.end - s.start })),
      text: pick.text,
    };
  }

  /** Live diary entries (their date is when it happened; legacy files' is not) dated on one of `days`. */
  dayMemories(days: string[]): DayMemory[] {
    const live = this.s.live;
    const wanted = new Set(days);
    const out: DayMemory[] = [];
    for (const d of live.docs.values()) {
      if (d.root !== 'diary' || d.archived || !wanted.has(d.date)) continue;
      const meta = live.meta(d.id);
      if (!meta) continue;
      // Chunk ids are `${docId}#${ord}` (index/rows.ts): the first chunk is the memory's opening.
      const first = `${d.id}#0`;
      out.push({ meta, time: d.time, firstChunkId: live.chunkDoc.has(first) ? first : null });
    }
    return out;
  }

  /**
   * Diary entries dated on the given local days (YYYY-MM-DD), in the order they happened: by day,
   * then HH:MM (entries without a time last). Legacy files and archived entries are left out.
   */
  async memoriesOn(days: string[]): Promise<MemorySummary[]> {
    if (!Array.isArray(days) || days.some((d) => typeof d !== 'string')) throw new EngramError('bad-input', 'days must be a list of YYYY-MM-DD strings');
    const s = this.s;
    await s.live.refreshIfStale(s.db);
    return this.dayMemories(days)
      .sort(byWhen)
      .map((m) => this.summaryWithChunks(s.live.docs.get(m.meta.docId)!));
  }
}
