// The in-memory side of the index: a BM25 index and document metadata, loaded from libSQL and kept
// in step with it. Several processes may share one database: a generation counter in `meta` tells
// each of them when another one wrote, and `refresh` reloads only what changed. The snapshot's
// bookkeeping is snapshot-meta.ts, getting the lexical index at load snapshot-load.ts.
import { DatabaseUnreachableError, documentsByIds, documentsChangedSince, documentVersions, getManifest, indexRowsOfDocuments, isUnreachable, listDocuments, readGeneration, type DocumentRow, type EngramDb } from '@engram/db';
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DocIdentity } from '../diary/ids.ts';
import { normaliseTitle, parseFileName } from '../diary/parse.ts';
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { readLexicalSnapshot, writeLexicalSnapshot } from '../lexical/snapshot.ts';
import { indexOrder } from '../memory-index.ts';
import type { DocMeta } from '../recall/pipeline.ts';
import { lexicalEntry } from './rows.ts';
import { chunkDocsOf, type ChunkDocs } from './chunk-docs.ts';
import { catchUpStoredRows, patchSnapshot, rebuildLexical } from './snapshot-load.ts';
import { changedDocuments, documentVersion, holdsOnlyLive, snapshotHeader, snapshotMetaOf, snapshotPathOf, snapshotTermsProblem, versionSections, type LoadSource, type SnapshotMeta } from './snapshot-meta.ts';
import { rowSections, StoredRowDamaged, StoredRows, type IndexFact } from './stored-rows.ts';

export type { ChunkDocs } from './chunk-docs.ts';
export { changedDocuments, documentVersion, saveBuiltSnapshot, snapshotPathOf, type LoadSource, type SnapshotMeta } from './snapshot-meta.ts';

/** Documents patched into a loaded snapshot before it is saved again (at least; or 0.5 % of them). */
const SNAPSHOT_SAVE_AFTER = 16;

/**
 * Documents swapped into the live index between two turns of the event loop when many changed at
 * once (a folder flood): 10,000 at once held recall and every console page for seconds.
 */
const RELOAD_SLICE = 250;

/** A chunk's index row as the database gives it. */
type IndexRow = Awaited<ReturnType<typeof indexRowsOfDocuments>>[number];

/** Decoded stored rows kept per loaded snapshot (a recall touches a few dozen). */
const ROW_CACHE_MAX = 2_000;

export class LiveIndex {
  lexical: LexicalIndex;
  private readonly rowMap = new Map<string, DocumentRow>();
  /**
   * Rows still in the snapshot, decoded on demand, with the changes over them (null = gone): a
   * one-shot write at 5,000 memories touches a handful of rows and never decodes the others.
   */
  private stored: { rows: StoredRows; meta: SnapshotMeta; over: Map<string, DocumentRow | null>; close(): void; release(): void } | null = null;
  /** chunkId → docId of every live chunk: a view of the lexical index's own tables (no copy to build per load). */
  readonly chunkDoc: ChunkDocs = chunkDocsOf(() => this.lexical);
  generation = -1;
  /** Whether `load` has run: a one-shot command (the CLI) loads on first use, not at open. */
  loaded = false;

  /** The database's address, for messages (set by the engine). */
  url = '';

  constructor(private readonly options: LexicalOptions) {
    this.lexical = new LexicalIndex(options);
  }

  /** Every document row (decodes the rows still in the snapshot, once). */
  get docs(): Map<string, DocumentRow> {
    if (this.stored) this.materialize();
    return this.rowMap;
  }

  /** Rows decoded from the snapshot since the last load (all of them once `docs` was read). */
  get rowsDecoded(): number {
    return this.stored ? this.stored.rows.decoded : this.decodedBeforeMaterialize;
  }
  private decodedBeforeMaterialize = 0;
  private rowCache = new Map<string, DocumentRow>();
  private rowCacheOf: unknown = null;

  /** One document row, without decoding the others. */
  doc(id: string): DocumentRow | undefined {
    if (!this.stored) return this.rowMap.get(id);
    const { rows, over } = this.stored;
    if (over.has(id)) return over.get(id) ?? undefined;
    // A recall reads the same few rows in several stages (decay, gate titles, the answer): each is
    // decoded once per loaded snapshot. Bounded, and dropped whenever the stored rows change.
    if (this.rowCacheOf !== rows) {
      this.rowCacheOf = rows;
      this.rowCache.clear();
    }
    const cached = this.rowCache.get(id);
    if (cached) return cached;
    const i = rows.indexOf(id);
    if (i === undefined) return undefined;
    try {
      const row = rows.row(i);
      if (this.rowCache.size >= ROW_CACHE_MAX) this.rowCache.clear();
      this.rowCache.set(id, row);
      return row;
    } catch (e) {
      // Left out this once; the next use reloads from the database (the damaged snapshot is gone).
      this.storedRowsDamaged(e);
      return undefined;
    }
  }

  /**
   * A stored row did not read back (the snapshot file was damaged after it was opened or written
   * wrong): the file is removed, so it is rebuilt, and the next refresh reloads from the database.
   */
  private storedRowsDamaged(error: unknown): void {
    if (!(error instanceof StoredRowDamaged)) throw error;
    this.snapshotDamaged(error.message);
  }

  private snapshotDamaged(reason: string): void {
    const path = this.snapshotFile();
    if (path !== null) rmSync(path, { force: true });
    this.loaded = false;
    this.lastLoad = { kind: 'rebuilt', reason: `unusable: ${reason}` };
  }

  /**
   * Each indexed diary file (path relative to the diary root) with the size and mtime it was indexed
   * at: what an open's manifest check compares the folder with, without listing the table.
   */
  indexedDiaryFiles(): Map<string, { size: number; mtimeMs: number }> {
    const out = new Map<string, { size: number; mtimeMs: number }>();
    const put = (key: string, file: { size: number; mtimeMs: number }) => {
      if (key.startsWith('diary:')) out.set(key.slice('diary:'.length), { size: file.size, mtimeMs: file.mtimeMs });
    };
    if (!this.stored) {
      for (const d of this.rowMap.values()) put(`${d.root}:${d.path}`, d);
      return out;
    }
    const { rows, over } = this.stored;
    // Straight from the stored tables (50,000 files at every one-shot command's open).
    const { keys, sizes, mtimes } = rows.indexedFiles();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!key.startsWith('diary:') || (over.size > 0 && over.has(rows.idAt(i)))) continue;
      out.set(key.slice('diary:'.length), { size: sizes[i]!, mtimeMs: mtimes[i]! });
    }
    for (const d of over.values()) if (d) put(`${d.root}:${d.path}`, d);
    return out;
  }

  /** Closes the snapshot file the stored rows and the index's lists are read from (the engine closes). */
  close(): void {
    this.stored?.release();
  }

  /**
   * Whether a live memory with this title (normaliseTitle's key) is visible in a scope, without
   * decoding rows: the snapshot's title table, then the rows changed since it was written.
   */
  titleTaken(titleKey: string, visible: (workspace: string) => boolean): boolean {
    return this.titleHolder(titleKey, visible) !== null;
  }

  /** The id of a live memory titled `titleKey` in a workspace `visible` accepts, found without listing rows. */
  titleHolder(titleKey: string, visible: (workspace: string) => boolean): string | null {
    const live = (d: DocumentRow) => !d.archived && visible(d.workspace) && normaliseTitle(d.title) === titleKey;
    if (!this.stored) {
      for (const d of this.rowMap.values()) if (live(d)) return d.id;
      return null;
    }
    const { rows, over } = this.stored;
    const stored = rows.liveWithTitle(titleKey, visible).map((i) => rows.idAt(i)).find((id) => !over.has(id));
    if (stored !== undefined) return stored;
    for (const d of over.values()) if (d && live(d)) return d.id;
    return null;
  }

  private materialize(): void {
    const { rows, over, close } = this.stored!;
    let all: DocumentRow[];
    try {
      all = rows.all();
    } catch (e) {
      this.storedRowsDamaged(e);
      throw new Error('the index snapshot was damaged; it was removed and the index is reloaded from the database on the next call / 索引快照已损坏,已删除,下次调用时从数据库重新加载', { cause: e });
    }
    this.stored = null;
    close();
    this.decodedBeforeMaterialize = rows.decoded;
    this.rowMap.clear();
    const ids = rows.ids();
    for (let i = 0; i < rows.size; i++) {
      const id = ids[i]!;
      if (!over.has(id)) this.rowMap.set(id, all[i]!);
      else if (over.get(id)) this.rowMap.set(id, over.get(id)!);
    }
    for (const [id, d] of over) if (d && !this.rowMap.has(id)) this.rowMap.set(id, d);
  }

  /**
   * Every row's index facts (what the memory index and the list order and filter by) without decoding
   * the rows still in the snapshot (the memory index at 50,000 notes decoded every row: seconds,
   * +200 MB), kept until a document changes: made per call, they were ~60 ms of each engram_index.
   */
  indexFacts(): readonly IndexFact[] {
    return this.heldFacts().all;
  }

  /** indexFacts() in the memory index's order (pinned, then latest change, then path), sorted once per change. */
  indexFactsInIndexOrder(): readonly IndexFact[] {
    const facts = this.heldFacts();
    return (facts.ordered ??= [...facts.all].sort(indexOrder));
  }

  private facts: { all: readonly IndexFact[]; ordered: readonly IndexFact[] | null } | null = null;

  private heldFacts(): { all: readonly IndexFact[]; ordered: readonly IndexFact[] | null } {
    return (this.facts ??= { all: this.buildIndexFacts(), ordered: null });
  }

  /** What is derived from every document (identities, index facts): dropped when one changes. */
  private documentsChanged(): void {
    this.identityCache = null;
    this.facts = null;
  }

  private buildIndexFacts(): IndexFact[] {
    const fromRow = (d: DocumentRow): IndexFact => ({ id: d.id, archived: d.archived, workspace: d.workspace, pinned: d.pinned, mtimeMs: d.mtimeMs, date: d.date, root: d.root, path: d.path });
    const stored = this.stored;
    const facts = stored?.rows.indexFacts() ?? null;
    if (!stored || !facts) return [...this.docs.values()].map(fromRow);
    const { over } = stored;
    const out: IndexFact[] = [];
    for (const f of facts) {
      if (!over.has(f.id)) out.push(f);
      else {
        const d = over.get(f.id);
        if (d) out.push(fromRow(d));
      }
    }
    const seen = new Set(facts.map((f) => f.id));
    for (const [id, d] of over) if (d && !seen.has(id)) out.push(fromRow(d));
    return out;
  }

  /** The indexed version of a document this index holds (see documentVersion), without decoding its row. */
  private versionOf(id: string): string | undefined {
    if (!this.stored) {
      const d = this.rowMap.get(id);
      return d && documentVersion(d);
    }
    const { meta, over } = this.stored;
    const versions = meta.versions;
    if (over.has(id)) {
      const d = over.get(id);
      return d ? documentVersion(d) : undefined;
    }
    return Object.hasOwn(versions, id) ? versions[id] : undefined;
  }

  /** The ids of every document this index holds. */
  private knownIds(): string[] {
    if (!this.stored) return [...this.rowMap.keys()];
    const { rows, over } = this.stored;
    const out = rows.ids().filter((id) => !over.has(id));
    for (const [id, d] of over) if (d) out.push(id);
    return out;
  }

  private putDoc(d: DocumentRow): void {
    this.documentsChanged();
    if (this.stored) this.stored.over.set(d.id, d);
    else this.rowMap.set(d.id, d);
  }

  private removeDoc(id: string): void {
    this.documentsChanged();
    if (this.stored) this.stored.over.set(id, null);
    else this.rowMap.delete(id);
  }

  private identityCache: DocIdentity[] | null = null;

  /**
   * Every document's identities (id, root and path, the id inside its file name), for resolving
   * what a person or a model calls a memory, built from the index's facts without decoding a row
   * and kept until a document changes (at 50,000 memories a read by path decoded every row first).
   */
  identities(): DocIdentity[] {
    return (this.identityCache ??= this.indexFacts().map((f) => ({ id: f.id, root: f.root, path: f.path, embeddedId: parseFileName(basename(f.path)).id })));
  }

  meta(docId: string): DocMeta | undefined {
    const d = this.doc(docId);
    return (
      d && {
        docId: d.id,
        root: d.root,
        path: d.path,
        title: d.title,
        date: d.date,
        category: d.category,
        tags: d.tags,
        workspace: d.workspace,
        sessionId: d.sessionId,
        origin: d.origin,
        pinned: d.pinned,
        locked: d.locked,
        supersededBy: this.supersededBy().get(d.id) ?? null,
        // Rows stored before kind / goal existed have neither.
        kind: d.kind ?? '',
        goal: d.goal ?? '',
      }
    );
  }

  private supersededCache: Map<string, string> | null = null;

  /** docId → the live memory that replaces it (built lazily; any document change invalidates it). */
  supersededBy(): Map<string, string> {
    if (this.supersededCache) return this.supersededCache;
    const map = new Map<string, string>();
    const add = (d: DocumentRow) => {
      if (!d.archived) for (const old of d.supersedes) if (old !== d.id && !map.has(old)) map.set(old, d.id);
    };
    if (!this.stored) for (const d of this.rowMap.values()) add(d);
    else {
      // The snapshot's pairs, but not those of rows changed since (their current row decides).
      const { rows, over } = this.stored;
      for (const [by, old] of rows.supersessions()) if (!over.has(by) && !map.has(old)) map.set(old, by);
      for (const d of over.values()) if (d) add(d);
    }
    this.supersededCache = map;
    return map;
  }

  /**
   * Where the lexical snapshot lives: next to an embedded database file (`<db>.lexical`); a remote
   * or in-memory database has none. Set by the engine or by tests; null turns snapshots off.
   */
  snapshotPath: string | null | undefined = undefined;
  lastLoad: LoadSource | null = null;
  /**
   * Where the last load got the document rows: the snapshot as is; the snapshot and the rows the
   * change log names; the snapshot and the rows whose version moved; or a listing of the table.
   */
  lastRows: 'snapshot' | 'log' | 'versions' | 'listed' | null = null;

  /** Where this index's snapshot lives, or null when it has none (a remote or in-memory database). */
  snapshotFile(): string | null {
    return this.snapshotPath !== undefined ? this.snapshotPath : snapshotPathOf(this.url);
  }

  /**
   * Full reload from the database. The lexical index comes from the snapshot when one matches the
   * options, patched with the documents that changed since it was written (a write by this or
   * another process); otherwise, or when it is damaged, it is rebuilt from the rows and saved. The
   * document rows come from the snapshot too when it has them (nothing listed at the same
   * generation; the versions and the changed rows after other writes), else from the table.
   */
  async load(db: EngramDb): Promise<void> {
    const generation = await readGeneration(db);
    const snapshotPath = this.snapshotFile();
    // A list the index reads from the file later that does not read back: the file goes, as for a damaged row.
    const onDamaged = (reason: string) => this.snapshotDamaged(reason);
    const file = snapshotPath === null ? null : readLexicalSnapshot<unknown>(snapshotPath, this.options, { onDamaged });
    // The terms the rows hold (the manifest's tokenizer key): a snapshot of others is rebuilt, and what is built here holds these.
    const rowsTerms = (await getManifest(db))?.tokenizer ?? null;
    const termsProblem = file?.ok ? snapshotTermsProblem(file.meta, rowsTerms) : null;
    const fileMeta = file?.ok && !termsProblem ? snapshotMetaOf(file.meta, file.extra) : null;
    // A file refused (other terms than the rows', or no document versions) is released: its index is never searched.
    if (file?.ok && !fileMeta) file.release();
    const read = !file ? null : !file.ok ? file : fileMeta ? { ...file, meta: fileMeta } : ({ ok: false, reason: termsProblem ?? 'unusable: no document versions' } as const);
    if (read && !read.ok) this.lastLoad = { kind: 'rebuilt', reason: read.reason };
    const storedRows = read?.ok ? StoredRows.from(read.extra) : null;
    const caught = read?.ok && storedRows ? await catchUpStoredRows(db, generation, read.index, read.meta, storedRows) : null;
    const withRows = caught && 'index' in caught ? caught : null;
    if (caught && 'reason' in caught) this.lastLoad = { kind: 'rebuilt', reason: caught.reason };
    if (withRows) this.lastRows = withRows.rows;
    this.supersededCache = null;
    this.documentsChanged();
    this.rowMap.clear();
    // The index those rows came with is replaced below, but a recall in flight may still search it
    // (it took the index before an await): its file closes once nothing can reach it (snapshot.ts).
    this.stored = null;
    this.decodedBeforeMaterialize = 0;
    let patched: number | null;
    if (withRows) {
      this.lexical = withRows.index;
      const snapshot = read as Extract<typeof read, { ok: true }>; // rows came from it
      this.stored = { rows: storedRows!, meta: snapshot.meta, over: withRows.over, close: snapshot.close, release: snapshot.release };
      patched = withRows.patched;
    } else {
      const docs = await listDocuments(db, { includeArchived: true });
      const byId = new Map(docs.map((d) => [d.id, d]));
      const patchedRead = read?.ok && !storedRows ? await patchSnapshot(db, read.index, read.meta, docs, byId) : null;
      const fromSnapshot = patchedRead && 'index' in patchedRead ? patchedRead : null;
      if (patchedRead && 'reason' in patchedRead) this.lastLoad = { kind: 'rebuilt', reason: patchedRead.reason };
      this.lexical = fromSnapshot?.index ?? (await rebuildLexical(db, this.options, docs, byId));
      for (const d of docs) this.rowMap.set(d.id, d);
      patched = fromSnapshot ? fromSnapshot.patched : null;
      this.lastRows = 'listed';
      // Its rows are not used (the table was listed); its index is, when the patch took.
      if (read?.ok) (fromSnapshot ? read.close() : read.release());
    }
    if (patched !== null) this.lastLoad = { kind: 'snapshot', patched };
    else if (snapshotPath === null) this.lastLoad = { kind: 'rebuilt', reason: 'no snapshot for this database' };
    this.generation = generation;
    this.loaded = true;
    // Anything derived from the documents while this load awaited was derived from half of it.
    this.documentsChanged();
    // Saving costs more than patching a few documents (a 5,000-memory index is ~7 MB), so a
    // one-shot write does not rewrite it each time: it is saved once the patch has grown, or when
    // it has no rows yet (a full pass saves only the index), or its rows lack the memory index's
    // facts (written before the pinned column: saved once, so engram_index stops decoding every row).
    const count = withRows ? storedRows!.size : this.rowMap.size;
    const lacksFacts = withRows !== null && !storedRows!.hasIndexFacts;
    if (snapshotPath !== null && (patched === null || !withRows || lacksFacts || patched > Math.max(SNAPSHOT_SAVE_AFTER, count * 0.005))) this.saveSnapshot(snapshotPath, [...this.docs.values()], generation, rowsTerms);
  }

  /** Best effort: a snapshot that cannot be written (read-only data, a full disk) only costs the next process a rebuild. */
  private saveSnapshot(path: string, docs: DocumentRow[], generation: number, terms: string | null): void {
    if (!holdsOnlyLive(this.lexical, docs)) return;
    try {
      writeLexicalSnapshot(path, this.lexical, this.options, snapshotHeader(generation, docs.length, terms), [...versionSections(docs), ...rowSections(docs)]);
    } catch {
      // Nothing to do: the in-memory index is complete either way.
    }
  }

  /** Everything is read again on the next use (after a full pass; until then the old state answers). */
  invalidate(): void {
    this.loaded = false;
  }

  /** How many chunks a document has in the index. */
  chunkCount(docId: string): number {
    return this.lexical.chunkCountOf(docId);
  }

  dropDocument(docId: string): void {
    this.supersededCache = null;
    this.lexical.removeDocument(docId);
    this.removeDoc(docId);
  }

  /**
   * A reload of many documents in progress: it yields between slices, and a refresh meanwhile
   * answers from the state so far instead of reloading the same documents again at once.
   */
  private reloading: Promise<void> | null = null;

  /** Reloads the given documents (or drops them when they are gone from the database). */
  async reloadDocuments(db: EngramDb, docIds: string[]): Promise<void> {
    if (docIds.length === 0) return;
    const ids = [...new Set(docIds)];
    if (ids.length <= RELOAD_SLICE) {
      // Read first, change after: a read that fails (a remote server gone) leaves the index as it was.
      const docs = await documentsByIds(db, ids);
      return this.swapIn(ids, docs, await indexRowsOfDocuments(db, ids));
    }
    const reload = this.reloadInSlices(db, ids);
    this.reloading = reload;
    try {
      await reload;
    } finally {
      if (this.reloading === reload) this.reloading = null;
    }
  }

  /**
   * reloadDocuments for many documents: read a slice at a time, then swapped in a slice at a time,
   * with a turn of the event loop between slices (an embedded database answers synchronously, so
   * awaiting its reads alone never lets a timer or a request in). Still every read before any change.
   */
  private async reloadInSlices(db: EngramDb, ids: readonly string[]): Promise<void> {
    const read: { ids: readonly string[]; docs: DocumentRow[]; rows: IndexRow[] }[] = [];
    for (let i = 0; i < ids.length; i += RELOAD_SLICE) {
      if (i > 0) await nextTurn();
      const slice = ids.slice(i, i + RELOAD_SLICE);
      read.push({ ids: slice, docs: await documentsByIds(db, [...slice]), rows: await indexRowsOfDocuments(db, [...slice]) });
    }
    for (const slice of read) {
      await nextTurn();
      this.swapIn(slice.ids, slice.docs, slice.rows, false);
    }
    this.lexical.finishBulkAdd(); // once, not per slice: it copies the tables
  }

  /** Replaces the given documents' rows and chunks with these (rows ordered by document, as read). */
  private swapIn(ids: readonly string[], docs: readonly DocumentRow[], rows: readonly IndexRow[], finish = true): void {
    for (const id of ids) this.dropDocument(id);
    for (const d of docs) this.putDoc(d);
    this.supersededCache = null;
    for (const r of rows) {
      const d = this.doc(r.docId);
      if (!d) continue;
      this.lexical.add(lexicalEntry(r, d));
    }
    if (finish && rows.length > 100) this.lexical.finishBulkAdd();
  }

  /**
   * Set while the database server cannot be reached: recall answers from the last state loaded
   * (this in-memory index; texts from the files), and this says why it may be behind.
   */
  unreachable: string | null = null;

  /**
   * Catches up with writes made by another process; cheap when nothing changed. An unreachable
   * (remote) database keeps the last state instead of failing the caller.
   */
  async refreshIfStale(db: EngramDb): Promise<boolean> {
    // A large reload is under way (a pass's, or another refresh's): answer from the state so far;
    // whoever started it brings the generation up to date when it ends.
    if (this.reloading) return false;
    try {
      const changed = await this.refreshOnce(db);
      this.unreachable = null;
      return changed;
    } catch (e) {
      if (!isUnreachable(e)) throw e;
      this.unreachable = (e instanceof DatabaseUnreachableError ? e : new DatabaseUnreachableError(this.url, e)).message;
      return false;
    }
  }

  /** The documents whose version differs from the one this index holds (or that are new or gone). */
  private async changedByVersion(db: EngramDb): Promise<string[]> {
    return changedDocuments(await documentVersions(db), (id) => this.versionOf(id), this.knownIds());
  }

  /**
   * How the last refresh caught up: nothing to do, the change log, or a comparison of every
   * document's version (a listing of the table; what a refresh should rarely need).
   */
  lastRefresh: 'loaded' | 'current' | 'log' | 'versions' | null = null;

  private async refreshOnce(db: EngramDb): Promise<boolean> {
    if (!this.loaded) {
      await this.load(db);
      this.lastRefresh = 'loaded';
      return true;
    }
    const generation = await readGeneration(db);
    if (generation === this.generation) {
      this.lastRefresh = 'current';
      return false;
    }
    const logged = this.generation >= 0 ? await documentsChangedSince(db, this.generation, generation) : null;
    this.lastRefresh = logged ? 'log' : 'versions';
    const changed = logged ?? (await this.changedByVersion(db));
    await this.reloadDocuments(db, changed);
    this.generation = generation;
    return changed.length > 0;
  }
}
