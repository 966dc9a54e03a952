// The in-memory side of the index: a BM25 index and document metadata, loaded from libSQL and kept
// in step with it. Several processes may share one database: a generation counter in `meta` tells
// each of them when another one wrote, and `refresh` reloads only what changed.
import { DatabaseUnreachableError, documentsByIds, documentsChangedSince, documentVersions, filePathOfUrl, indexRowsOfDocuments, isUnreachable, listDocuments, readGeneration, type DocumentRow, type EngramDb } from '@engram/db';
import { rmSync } from 'node:fs';
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { Deferred, JsonList, JsonStrings, readLexicalSnapshot, writeLexicalSnapshot, type SnapshotPart, type SnapshotSection } from '../lexical/snapshot.ts';
import type { DocMeta } from '../recall/pipeline.ts';
import { lexicalEntry } from './rows.ts';
import { normaliseTitle } from '../diary/parse.ts';
import { rowSections, StoredRowDamaged, StoredRows } from './stored-rows.ts';

/** Documents whose index rows are read per query while loading (the db package's batch size). */
const LOAD_PAGE_DOCS = 200;

/** Above this share of changed documents a snapshot is not worth patching: the index is rebuilt. */
const SNAPSHOT_PATCH_LIMIT = 0.25;

/** Documents patched into a loaded snapshot before it is saved again (at least; or 0.5 % of them). */
const SNAPSHOT_SAVE_AFTER = 16;

/**
 * Documents swapped into the live index between two turns of the event loop when many changed at
 * once (a folder flood): 10,000 at once held recall and every console page for seconds.
 */
const RELOAD_SLICE = 250;

/** A chunk's index row as the database gives it. */
type IndexRow = Awaited<ReturnType<typeof indexRowsOfDocuments>>[number];

/** The live chunks' documents, read through to the current lexical index. */
/** Decoded stored rows kept per loaded snapshot (a recall touches a few dozen). */
const ROW_CACHE_MAX = 2_000;

export interface ChunkDocs extends Iterable<[string, string]> {
  readonly size: number;
  get(chunkId: string): string | undefined;
  has(chunkId: string): boolean;
  keys(): IterableIterator<string>;
}

function chunkDocsOf(index: () => LexicalIndex): ChunkDocs {
  return {
    get size() {
      return index().size;
    },
    get: (chunkId) => index().docOfChunk(chunkId),
    has: (chunkId) => index().docOfChunk(chunkId) !== undefined,
    *keys() {
      for (const [chunkId] of index().liveChunks()) yield chunkId;
    },
    [Symbol.iterator]: () => index().liveChunks(),
  };
}

/** What a lexical snapshot was built from: the generation and each document's version. */
export interface SnapshotMeta {
  generation: number;
  /** docId → documentVersion() of the rows the index holds. */
  versions: Record<string, string>;
}

type VersionedDoc = { id: string; contentHash: string; indexedAt: string; archived: boolean };

/** A document's indexed version: a re-index, an edit or an archive changes it. */
export const documentVersion = (d: { contentHash: string; indexedAt: string; archived: boolean }) => `${d.contentHash}|${d.indexedAt}|${d.archived ? 1 : 0}`;

/**
 * The versions ride in two deferred sections, not in the header: at 50,000 documents they are
 * 4 MB of JSON, which as one header string sat on the peak of a full build, and an open at the same
 * generation or a few writes behind never reads them.
 */
function versionSections(docs: readonly VersionedDoc[]): [string, SnapshotPart][] {
  return [
    ['versions.ids', new Deferred(new JsonStrings(docs.length, (i) => docs[i]!.id))],
    ['versions.values', new Deferred(new JsonStrings(docs.length, (i) => documentVersion(docs[i]!)))],
  ];
}

/**
 * The header's generation with the version sections, or null when they are missing or do not pair
 * up. The id → version record is built on first use: an open at the same generation, or a few
 * writes behind (the change log), never looks at it.
 */
function snapshotMetaOf(header: unknown, extra: Map<string, SnapshotSection>): (SnapshotMeta & { count: number }) | null {
  const { generation, count } = (header ?? {}) as { generation?: unknown; count?: unknown };
  const ids = extra.get('versions.ids');
  const values = extra.get('versions.values');
  if (typeof generation !== 'number' || typeof count !== 'number' || !(ids instanceof JsonList) || !(values instanceof JsonList)) return null;
  let versions: Record<string, string> | null = null;
  return {
    generation,
    count,
    get versions() {
      if (versions) return versions;
      let keys: string[], list: string[];
      try {
        [keys, list] = [ids.list(), values.list()];
      } catch {
        return (versions = {}); // a damaged section: every document then reads as changed, and the load rebuilds
      }
      versions = {};
      if (keys.length !== count || list.length !== count) return versions; // every document then reads as changed
      for (let i = 0; i < keys.length; i++) versions[keys[i]!] = list[i]!;
      return versions;
    },
  };
}

/**
 * Whether the index holds only live documents of `docs`: checked before a snapshot is written, so
 * an index that disagrees with its rows (a faulty build) is never saved for others to trust.
 */
function holdsOnlyLive(index: LexicalIndex, docs: readonly VersionedDoc[]): boolean {
  const live = new Set(docs.filter((d) => !d.archived).map((d) => d.id));
  for (const docId of index.liveDocIds()) if (!live.has(docId)) return false;
  return true;
}

/**
 * The documents of `current` whose version differs from the held one (or that are not held), then
 * the held ones `current` no longer has: what a load or a refresh must read again.
 */
export function changedDocuments(current: Iterable<{ id: string; contentHash: string; indexedAt: string; archived: boolean }>, heldVersion: (id: string) => string | undefined, heldIds: Iterable<string>): string[] {
  const seen = new Set<string>();
  const changed: string[] = [];
  for (const d of current) {
    seen.add(d.id);
    if (heldVersion(d.id) !== documentVersion(d)) changed.push(d.id);
  }
  for (const id of heldIds) if (!seen.has(id)) changed.push(id);
  return changed;
}

/** How the last load got its lexical index (tests and benchmarks read it). */
export type LoadSource = { kind: 'rebuilt'; reason: string } | { kind: 'snapshot'; patched: number };

/** The lexical snapshot of a database: next to an embedded database file; none for a remote or in-memory one. */
export function snapshotPathOf(databaseUrl: string): string | null {
  const file = filePathOfUrl(databaseUrl);
  return file === null ? null : `${file}.lexical`;
}

/**
 * Saves a lexical index built by a full index pass as the snapshot, so the load that follows the
 * pass maps it instead of reading every row back (best effort, like every snapshot write).
 */
export function saveBuiltSnapshot(databaseUrl: string, lexical: LexicalIndex, options: LexicalOptions, docs: VersionedDoc[], generation: number): void {
  const path = snapshotPathOf(databaseUrl);
  if (path === null) return;
  if (!holdsOnlyLive(lexical, docs)) return;
  try {
    writeLexicalSnapshot(path, lexical, options, { generation, count: docs.length }, versionSections(docs));
  } catch {
    // The load after the pass rebuilds instead.
  }
}

export class LiveIndex {
  lexical: LexicalIndex;
  private readonly rowMap = new Map<string, DocumentRow>();
  /**
   * Rows still in the snapshot, decoded on demand, with the changes over them (null = gone): a
   * one-shot write at 5,000 memories touches a handful of rows and never decodes the others.
   */
  private stored: { rows: StoredRows; meta: SnapshotMeta; over: Map<string, DocumentRow | null>; close(): void } | null = null;
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
    const path = this.snapshotFile();
    if (path !== null) rmSync(path, { force: true });
    this.loaded = false;
    this.lastLoad = { kind: 'rebuilt', reason: `unusable: ${error.message}` };
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
    for (const [i, key, file] of rows.indexedFiles()) if (!over.has(rows.idAt(i))) put(key, file);
    for (const d of over.values()) if (d) put(`${d.root}:${d.path}`, d);
    return out;
  }

  /** Closes the snapshot file the stored rows are read from (the engine closes; a later use reloads). */
  close(): void {
    this.stored?.close();
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
    if (this.stored) this.stored.over.set(d.id, d);
    else this.rowMap.set(d.id, d);
  }

  private removeDoc(id: string): void {
    if (this.stored) this.stored.over.set(id, null);
    else this.rowMap.delete(id);
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
    const file = snapshotPath === null ? null : readLexicalSnapshot<unknown>(snapshotPath, this.options);
    const fileMeta = file?.ok ? snapshotMetaOf(file.meta, file.extra) : null;
    const read = !file ? null : !file.ok ? file : fileMeta ? { ...file, meta: fileMeta } : ({ ok: false, reason: 'unusable: no document versions' } as const);
    if (read && !read.ok) this.lastLoad = { kind: 'rebuilt', reason: read.reason };
    const storedRows = read?.ok ? StoredRows.from(read.extra) : null;
    const withRows = read?.ok && storedRows ? await this.fromStoredRows(db, generation, read.index, read.meta, storedRows) : null;
    this.supersededCache = null;
    this.rowMap.clear();
    this.stored?.close();
    this.stored = null;
    this.decodedBeforeMaterialize = 0;
    let patched: number | null;
    if (withRows) {
      this.lexical = withRows.index;
      const snapshot = read as Extract<typeof read, { ok: true }>; // rows came from it
      this.stored = { rows: storedRows!, meta: snapshot.meta, over: withRows.over, close: snapshot.close };
      patched = withRows.patched;
    } else {
      const docs = await listDocuments(db, { includeArchived: true });
      const byId = new Map(docs.map((d) => [d.id, d]));
      const fromSnapshot = read?.ok && !storedRows ? await this.patchedSnapshot(db, read.index, read.meta, docs, byId) : null;
      this.lexical = fromSnapshot?.index ?? (await this.rebuild(db, docs, byId));
      for (const d of docs) this.rowMap.set(d.id, d);
      patched = fromSnapshot ? fromSnapshot.patched : null;
      this.lastRows = 'listed';
      if (read?.ok) read.close(); // its rows are not used: the table was listed
    }
    if (patched !== null) this.lastLoad = { kind: 'snapshot', patched };
    else if (snapshotPath === null) this.lastLoad = { kind: 'rebuilt', reason: 'no snapshot for this database' };
    this.generation = generation;
    this.loaded = true;
    // Saving costs more than patching a few documents (a 5,000-memory index is ~7 MB), so a
    // one-shot write does not rewrite it each time: it is saved once the patch has grown, or when
    // it has no rows yet (a full pass saves only the index).
    const count = withRows ? storedRows!.size : this.rowMap.size;
    if (snapshotPath !== null && (patched === null || !withRows || patched > Math.max(SNAPSHOT_SAVE_AFTER, count * 0.005))) this.saveSnapshot(snapshotPath, [...this.docs.values()], generation);
  }

  /**
   * The snapshot's index and rows brought up to date: at the same generation as is; after other
   * writes, the documents whose version moved (or that are new or gone) are read again and patched
   * in. Null when the snapshot is unusable or too much changed (the caller lists and rebuilds).
   */
  private async fromStoredRows(db: EngramDb, generation: number, index: LexicalIndex, meta: SnapshotMeta & { count: number }, rows: StoredRows) {
    if (meta.count !== rows.size) {
      this.lastLoad = { kind: 'rebuilt', reason: 'unusable: the versions do not match the rows' };
      return null;
    }
    let changed: string[] = [];
    // A few writes behind: the change log names the documents (no listing at all).
    const logged = meta.generation === generation ? [] : await documentsChangedSince(db, meta.generation, generation);
    if (logged && logged.length <= Math.max(8, rows.size * SNAPSHOT_PATCH_LIMIT)) {
      changed = logged;
      this.lastRows = changed.length === 0 ? 'snapshot' : 'log';
    } else {
      this.lastRows = 'versions';
      const now = await documentVersions(db);
      const versions = meta.versions;
      changed = changedDocuments(now, (id) => versions[id], Object.keys(versions));
      if (changed.length > Math.max(8, now.length * SNAPSHOT_PATCH_LIMIT)) {
        this.lastLoad = { kind: 'rebuilt', reason: `${changed.length} of ${now.length} documents changed since the snapshot` };
        return null;
      }
    }
    const fresh = new Map((await documentsByIds(db, changed)).map((d) => [d.id, d]));
    const over = new Map<string, DocumentRow | null>(changed.map((id) => [id, fresh.get(id) ?? null]));
    for (const id of changed) index.removeDocument(id);
    for (const r of await indexRowsOfDocuments(db, changed.filter((id) => fresh.get(id)?.archived === false))) index.add(lexicalEntry(r, fresh.get(r.docId)!));
    return { index, over, patched: changed.length };
  }

  /**
   * The index must hold exactly the live documents the versions say: a snapshot whose chunks
   * disagree with its own versions (written by a faulty build) is not patched, it is rebuilt.
   */
  private consistent(index: LexicalIndex, versions: Record<string, string>): boolean {
    for (const docId of index.liveDocIds())
      if (!(docId in versions) || versions[docId]!.endsWith('|1')) {
        this.lastLoad = { kind: 'rebuilt', reason: 'unusable: chunks of a document the snapshot does not list as live' };
        return false;
      }
    return true;
  }

  /** Builds the lexical index from every live document's rows. */
  private async rebuild(db: EngramDb, docs: DocumentRow[], byId: Map<string, DocumentRow>): Promise<LexicalIndex> {
    // Built aside and swapped in at the end, so a recall running meanwhile sees the old index
    // rather than half of the new one. Rows are read a page of documents at a time: every chunk's
    // token string at once would set the heap's high-water mark, which V8 keeps long after.
    const lexical = new LexicalIndex(this.options);
    const ids = docs.filter((d) => !d.archived).map((d) => d.id).sort();
    for (let i = 0; i < ids.length; i += LOAD_PAGE_DOCS) {
      for (const r of await indexRowsOfDocuments(db, ids.slice(i, i + LOAD_PAGE_DOCS))) {
        const d = byId.get(r.docId);
        if (d) lexical.add(lexicalEntry(r, d));
      }
    }
    lexical.finishBulkAdd();
    return lexical;
  }

  /**
   * The snapshot, brought up to date with `docs`: documents whose version differs (or that are new
   * or gone) are dropped and re-added from their rows. Null when there is no usable snapshot or
   * too much changed.
   */
  private async patchedSnapshot(db: EngramDb, index: LexicalIndex, meta: SnapshotMeta, docs: DocumentRow[], byId: Map<string, DocumentRow>) {
    const versions = meta?.versions;
    if (typeof versions !== 'object' || versions === null || typeof meta.generation !== 'number') {
      this.lastLoad = { kind: 'rebuilt', reason: 'unusable: no document versions' };
      return null;
    }
    const changed = changedDocuments(docs, (id) => versions[id], Object.keys(versions));
    if (changed.length > Math.max(8, docs.length * SNAPSHOT_PATCH_LIMIT)) {
      this.lastLoad = { kind: 'rebuilt', reason: `${changed.length} of ${docs.length} documents changed since the snapshot` };
      return null;
    }
    if (!this.consistent(index, versions)) return null;
    for (const id of changed) index.removeDocument(id);
    const live = changed.filter((id) => byId.get(id)?.archived === false);
    for (const r of await indexRowsOfDocuments(db, live)) {
      const d = byId.get(r.docId);
      if (d) index.add(lexicalEntry(r, d));
    }
    return { index, patched: changed.length };
  }

  /** Best effort: a snapshot that cannot be written (read-only data, a full disk) only costs the next process a rebuild. */
  private saveSnapshot(path: string, docs: DocumentRow[], generation: number): void {
    if (!holdsOnlyLive(this.lexical, docs)) return;
    try {
      writeLexicalSnapshot(path, this.lexical, this.options, { generation, count: docs.length }, [...versionSections(docs), ...rowSections(docs)]);
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
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const read: { ids: readonly string[]; docs: DocumentRow[]; rows: IndexRow[] }[] = [];
    for (let i = 0; i < ids.length; i += RELOAD_SLICE) {
      if (i > 0) await turn();
      const slice = ids.slice(i, i + RELOAD_SLICE);
      read.push({ ids: slice, docs: await documentsByIds(db, [...slice]), rows: await indexRowsOfDocuments(db, [...slice]) });
    }
    for (const slice of read) {
      await turn();
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

  private async refreshOnce(db: EngramDb): Promise<boolean> {
    if (!this.loaded) {
      await this.load(db);
      return true;
    }
    const generation = await readGeneration(db);
    if (generation === this.generation) return false;
    const changed = (this.generation >= 0 ? await documentsChangedSince(db, this.generation, generation) : null) ?? (await this.changedByVersion(db));
    await this.reloadDocuments(db, changed);
    this.generation = generation;
    return changed.length > 0;
  }
}
