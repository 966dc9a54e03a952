// The in-memory side of the index: a BM25 index and document metadata, loaded from libSQL and kept
// in step with it. Several processes may share one database: a generation counter in `meta` tells
// each of them when another one wrote, and `refresh` reloads only what changed.
import { DatabaseUnreachableError, documentColumns, documentsByIds, documentVersions, filePathOfUrl, indexRowsOfDocuments, isUnreachable, listDocuments, readGeneration, type DocumentRow, type EngramDb } from '@engram/db';
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { readLexicalSnapshot, writeLexicalSnapshot } from '../lexical/snapshot.ts';
import type { DocMeta } from '../recall/pipeline.ts';
import { lexicalEntry } from './rows.ts';

/** Documents whose index rows are read per query while loading (the db package's batch size). */
const LOAD_PAGE_DOCS = 200;

/** Above this share of changed documents a snapshot is not worth patching: the index is rebuilt. */
const SNAPSHOT_PATCH_LIMIT = 0.25;

/** Documents patched into a loaded snapshot before it is saved again (at least; or 0.5 % of them). */
const SNAPSHOT_SAVE_AFTER = 16;

/** What a lexical snapshot was built from: the generation and each document's version. */
export interface SnapshotMeta {
  generation: number;
  /** docId → documentVersion() of the rows the index holds. */
  versions: Record<string, string>;
  /**
   * The document rows as of `generation`, one array per row in the order of `columns`: a load at the
   * same generation needs no listing of the table, one after other writes reads only the versions
   * and the rows that changed. Absent in snapshots saved by a full index pass.
   */
  rows?: StoredRows;
}

/** Document rows stored column by column: a 5,000-row listing as objects is ~2.8 MB of repeated keys. */
export interface StoredRows {
  columns: string[];
  values: unknown[][];
}

export function storeRows(docs: DocumentRow[]): StoredRows {
  const columns = documentColumns();
  return { columns, values: docs.map((d) => columns.map((c) => (d as unknown as Record<string, unknown>)[c])) };
}

/** Whether stored rows can be read back: stored with this schema's columns. */
function rowsUsable(stored: StoredRows | undefined): stored is StoredRows {
  if (!stored || !Array.isArray(stored.columns) || !Array.isArray(stored.values)) return false;
  const columns = documentColumns();
  return stored.columns.length === columns.length && stored.columns.every((c, i) => c === columns[i]);
}

/** The stored rows back as objects, or null when they were stored with other columns (another schema). */
export function restoreRows(stored: StoredRows | undefined): DocumentRow[] | null {
  if (!rowsUsable(stored)) return null;
  const columns = stored.columns;
  const out: DocumentRow[] = [];
  for (const values of stored.values) {
    if (!Array.isArray(values) || values.length !== columns.length) return null;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    out.push(row as unknown as DocumentRow);
  }
  return out;
}

/** A document's indexed version: a re-index, an edit or an archive changes it. */
export const documentVersion = (d: { contentHash: string; indexedAt: string; archived: boolean }) => `${d.contentHash}|${d.indexedAt}|${d.archived ? 1 : 0}`;

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
export function saveBuiltSnapshot(databaseUrl: string, lexical: LexicalIndex, options: LexicalOptions, docs: { id: string; contentHash: string; indexedAt: string; archived: boolean }[], generation: number): void {
  const path = snapshotPathOf(databaseUrl);
  if (path === null) return;
  const versions: Record<string, string> = {};
  for (const d of docs) versions[d.id] = documentVersion(d);
  try {
    writeLexicalSnapshot<SnapshotMeta>(path, lexical, options, { generation, versions });
  } catch {
    // The load after the pass rebuilds instead.
  }
}

export class LiveIndex {
  lexical: LexicalIndex;
  readonly docs = new Map<string, DocumentRow>();
  readonly chunkDoc = new Map<string, string>();
  private readonly chunksOfDoc = new Map<string, string[]>();
  generation = -1;
  /** Whether `load` has run: a one-shot command (the CLI) loads on first use, not at open. */
  loaded = false;

  /** The database's address, for messages (set by the engine). */
  url = '';

  constructor(private readonly options: LexicalOptions) {
    this.lexical = new LexicalIndex(options);
  }

  meta(docId: string): DocMeta | undefined {
    const d = this.docs.get(docId);
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
    for (const d of this.docs.values()) {
      if (d.archived || d.supersedes.length === 0) continue;
      for (const old of d.supersedes) if (old !== d.id && !map.has(old)) map.set(old, d.id);
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
  /** Where the last load got the document rows: the snapshot as is, the snapshot caught up with the versions, or the table. */
  lastRows: 'snapshot' | 'caught-up' | 'listed' | null = null;

  private snapshotFile(): string | null {
    return this.snapshotPath !== undefined ? this.snapshotPath : snapshotPathOf(this.url);
  }

  /**
   * Full reload from the database. The lexical index comes from the snapshot when one matches the
   * options, patched with the documents that changed since it was written (a write by this or
   * another process); otherwise, or when it is damaged, it is rebuilt from the rows and saved.
   */
  async load(db: EngramDb): Promise<void> {
    const generation = await readGeneration(db);
    const snapshotPath = this.snapshotFile();
    const read = snapshotPath === null ? null : readLexicalSnapshot<SnapshotMeta>(snapshotPath, this.options);
    const docs = await this.currentRows(db, generation, read?.ok ? read.meta : null);
    const byId = new Map(docs.map((d) => [d.id, d]));
    if (read && !read.ok) this.lastLoad = { kind: 'rebuilt', reason: read.reason };
    const fromSnapshot = read?.ok ? await this.patchedSnapshot(db, read.index, read.meta, docs, byId) : null;
    const lexical = fromSnapshot?.index ?? (await this.rebuild(db, docs, byId));
    if (fromSnapshot) this.lastLoad = { kind: 'snapshot', patched: fromSnapshot.patched };
    else if (snapshotPath === null) this.lastLoad = { kind: 'rebuilt', reason: 'no snapshot for this database' };
    this.lexical = lexical;
    this.supersededCache = null;
    this.docs.clear();
    this.chunkDoc.clear();
    this.chunksOfDoc.clear();
    for (const d of docs) this.docs.set(d.id, d);
    for (const [chunkId, docId] of lexical.liveChunks()) this.track(chunkId, docId);
    this.generation = generation;
    this.loaded = true;
    // Saving costs more than patching a few documents (a 5,000-memory index is ~7 MB), so a
    // one-shot write does not rewrite it each time: it is saved once the patch has grown, or when
    // the snapshot has no rows yet (a full pass saves only the index).
    const stale = !fromSnapshot || fromSnapshot.patched > Math.max(SNAPSHOT_SAVE_AFTER, docs.length * 0.005) || !fromSnapshot.hadRows;
    if (snapshotPath !== null && stale) this.saveSnapshot(snapshotPath, docs, generation);
  }

  /**
   * Every document row, as cheaply as the snapshot allows: its own rows when nothing was written
   * since (same generation); its rows with the changed ones read again when the versions moved
   * (a write by this or another process: one narrow listing plus the changed rows); else the table.
   */
  private async currentRows(db: EngramDb, generation: number, meta: SnapshotMeta | null): Promise<DocumentRow[]> {
    const stored = meta ? restoreRows(meta.rows) : null;
    this.lastRows = !meta || !stored ? 'listed' : meta.generation === generation ? 'snapshot' : 'caught-up';
    if (!meta || !stored) return listDocuments(db, { includeArchived: true });
    if (meta.generation === generation) return stored;
    const byId = new Map(stored.map((d) => [d.id, d]));
    const versions = await documentVersions(db);
    const changed = versions.filter((v) => { const d = byId.get(v.id); return !d || documentVersion(d) !== documentVersion(v); }).map((v) => v.id);
    const present = new Set(versions.map((v) => v.id));
    const fresh = new Map((await documentsByIds(db, changed)).map((d) => [d.id, d]));
    const out: DocumentRow[] = [];
    for (const d of stored) if (present.has(d.id)) out.push(fresh.get(d.id) ?? d);
    for (const id of changed) if (!byId.has(id) && fresh.has(id)) out.push(fresh.get(id)!);
    return out;
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
    const changed: string[] = [];
    for (const d of docs) if (versions[d.id] !== documentVersion(d)) changed.push(d.id);
    for (const id of Object.keys(versions)) if (!byId.has(id)) changed.push(id);
    if (changed.length > Math.max(8, docs.length * SNAPSHOT_PATCH_LIMIT)) {
      this.lastLoad = { kind: 'rebuilt', reason: `${changed.length} of ${docs.length} documents changed since the snapshot` };
      return null;
    }
    // The index must hold exactly the live documents the versions say: a snapshot whose chunks
    // disagree with its own versions (written by a faulty build) is not patched, it is rebuilt.
    const liveInSnapshot = new Set<string>();
    for (const [, docId] of index.liveChunks()) liveInSnapshot.add(docId);
    for (const docId of liveInSnapshot) if (!(docId in versions) || versions[docId]!.endsWith('|1')) {
      this.lastLoad = { kind: 'rebuilt', reason: 'unusable: chunks of a document the snapshot does not list as live' };
      return null;
    }
    for (const id of changed) index.removeDocument(id);
    const live = changed.filter((id) => byId.get(id)?.archived === false);
    for (const r of await indexRowsOfDocuments(db, live)) {
      const d = byId.get(r.docId);
      if (d) index.add(lexicalEntry(r, d));
    }
    return { index, patched: changed.length, hadRows: rowsUsable(meta.rows) };
  }

  /** Best effort: a snapshot that cannot be written (read-only data, a full disk) only costs the next process a rebuild. */
  private saveSnapshot(path: string, docs: DocumentRow[], generation: number): void {
    const versions: Record<string, string> = {};
    for (const d of docs) versions[d.id] = documentVersion(d);
    try {
      writeLexicalSnapshot<SnapshotMeta>(path, this.lexical, this.options, { generation, versions, rows: storeRows(docs) });
    } catch {
      // Nothing to do: the in-memory index is complete either way.
    }
  }

  /** How many chunks a document has in the index. */
  chunkCount(docId: string): number {
    return this.chunksOfDoc.get(docId)?.length ?? 0;
  }

  private track(chunkId: string, docId: string) {
    this.chunkDoc.set(chunkId, docId);
    const list = this.chunksOfDoc.get(docId);
    if (list) list.push(chunkId);
    else this.chunksOfDoc.set(docId, [chunkId]);
  }

  dropDocument(docId: string): void {
    this.supersededCache = null;
    for (const c of this.chunksOfDoc.get(docId) ?? []) this.chunkDoc.delete(c);
    this.chunksOfDoc.delete(docId);
    this.lexical.removeDocument(docId);
    this.docs.delete(docId);
  }

  /** Reloads the given documents (or drops them when they are gone from the database). */
  async reloadDocuments(db: EngramDb, docIds: string[]): Promise<void> {
    if (docIds.length === 0) return;
    const ids = [...new Set(docIds)];
    // Read first, change after: a read that fails (a remote server gone) leaves the index as it was.
    const docs = await documentsByIds(db, ids);
    const rows = await indexRowsOfDocuments(db, ids);
    for (const id of ids) this.dropDocument(id);
    for (const d of docs) this.docs.set(d.id, d);
    this.supersededCache = null;
    for (const r of rows) {
      const d = this.docs.get(r.docId);
      if (!d) continue;
      this.lexical.add(lexicalEntry(r, d));
      this.track(r.chunkId, r.docId);
    }
    if (rows.length > 100) this.lexical.finishBulkAdd();
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

  private async refreshOnce(db: EngramDb): Promise<boolean> {
    if (!this.loaded) {
      await this.load(db);
      return true;
    }
    const generation = await readGeneration(db);
    if (generation === this.generation) return false;
    const rows = await documentVersions(db);
    const seen = new Set<string>();
    const changed: string[] = [];
    for (const r of rows) {
      seen.add(r.id);
      const mine = this.docs.get(r.id);
      if (!mine || mine.contentHash !== r.contentHash || mine.indexedAt !== r.indexedAt || mine.archived !== r.archived) changed.push(r.id);
    }
    for (const id of [...this.docs.keys()]) if (!seen.has(id)) changed.push(id);
    await this.reloadDocuments(db, changed);
    this.generation = generation;
    return changed.length > 0;
  }
}
