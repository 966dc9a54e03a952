// Getting the lexical index at load: from the snapshot brought up to date with the documents that
// changed since it was written (by this or another process), or rebuilt from every live document's
// rows. Each way says why it could not serve, and the load falls back to the next.
import { documentsByIds, documentsChangedSince, documentVersions, indexRowsOfDocuments, type DocumentRow, type EngramDb } from '@engram/db';
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { lexicalEntry } from './rows.ts';
import { changedDocuments, type SnapshotMeta } from './snapshot-meta.ts';
import type { StoredRows } from './stored-rows.ts';

/** Documents whose index rows are read per query while loading (the db package's batch size). */
const LOAD_PAGE_DOCS = 200;

/** Above this share of changed documents a snapshot is not worth patching: the index is rebuilt. */
const SNAPSHOT_PATCH_LIMIT = 0.25;

/** Why a snapshot could not serve this load (the index is rebuilt instead). */
export interface Unusable {
  reason: string;
}

/** Where the rows of a load that kept the snapshot's rows came from: as is, the change log's, or the moved versions'. */
export type StoredRowsSource = 'snapshot' | 'log' | 'versions';

/**
 * The snapshot's index and rows brought up to date: at the same generation as is; after other
 * writes, the documents whose version moved (or that are new or gone) are read again and patched
 * in. Unusable when its versions do not match its rows or too much changed (the caller lists and rebuilds).
 */
export async function catchUpStoredRows(
  db: EngramDb,
  generation: number,
  index: LexicalIndex,
  meta: SnapshotMeta & { count: number },
  rows: StoredRows,
): Promise<{ index: LexicalIndex; over: Map<string, DocumentRow | null>; patched: number; rows: StoredRowsSource } | Unusable> {
  if (meta.count !== rows.size) return { reason: 'unusable: the versions do not match the rows' };
  let changed: string[] = [];
  let source: StoredRowsSource;
  // A few writes behind: the change log names the documents (no listing at all).
  const logged = meta.generation === generation ? [] : await documentsChangedSince(db, meta.generation, generation);
  if (logged && logged.length <= Math.max(8, rows.size * SNAPSHOT_PATCH_LIMIT)) {
    changed = logged;
    source = changed.length === 0 ? 'snapshot' : 'log';
  } else {
    source = 'versions';
    const now = await documentVersions(db);
    const versions = meta.versions;
    changed = changedDocuments(now, (id) => versions[id], Object.keys(versions));
    if (changed.length > Math.max(8, now.length * SNAPSHOT_PATCH_LIMIT)) return { reason: `${changed.length} of ${now.length} documents changed since the snapshot` };
  }
  const fresh = new Map((await documentsByIds(db, changed)).map((d) => [d.id, d]));
  const over = new Map<string, DocumentRow | null>(changed.map((id) => [id, fresh.get(id) ?? null]));
  for (const id of changed) index.removeDocument(id);
  for (const r of await indexRowsOfDocuments(db, changed.filter((id) => fresh.get(id)?.archived === false))) index.add(lexicalEntry(r, fresh.get(r.docId)!));
  return { index, over, patched: changed.length, rows: source };
}

/**
 * The index must hold exactly the live documents the versions say: a snapshot whose chunks
 * disagree with its own versions (written by a faulty build) is not patched, it is rebuilt.
 */
function consistent(index: LexicalIndex, versions: Record<string, string>): boolean {
  for (const docId of index.liveDocIds()) if (!(docId in versions) || versions[docId]!.endsWith('|1')) return false;
  return true;
}

/**
 * The snapshot, brought up to date with `docs`: documents whose version differs (or that are new
 * or gone) are dropped and re-added from their rows. Unusable when the snapshot has no versions,
 * disagrees with them, or too much changed.
 */
export async function patchSnapshot(db: EngramDb, index: LexicalIndex, meta: SnapshotMeta, docs: DocumentRow[], byId: Map<string, DocumentRow>): Promise<{ index: LexicalIndex; patched: number } | Unusable> {
  const versions = meta?.versions;
  if (typeof versions !== 'object' || versions === null || typeof meta.generation !== 'number') return { reason: 'unusable: no document versions' };
  const changed = changedDocuments(docs, (id) => versions[id], Object.keys(versions));
  if (changed.length > Math.max(8, docs.length * SNAPSHOT_PATCH_LIMIT)) return { reason: `${changed.length} of ${docs.length} documents changed since the snapshot` };
  if (!consistent(index, versions)) return { reason: 'unusable: chunks of a document the snapshot does not list as live' };
  for (const id of changed) index.removeDocument(id);
  const live = changed.filter((id) => byId.get(id)?.archived === false);
  for (const r of await indexRowsOfDocuments(db, live)) {
    const d = byId.get(r.docId);
    if (d) index.add(lexicalEntry(r, d));
  }
  return { index, patched: changed.length };
}

/** Builds the lexical index from every live document's rows. */
export async function rebuildLexical(db: EngramDb, options: LexicalOptions, docs: DocumentRow[], byId: Map<string, DocumentRow>): Promise<LexicalIndex> {
  // Built aside and swapped in at the end, so a recall running meanwhile sees the old index
  // rather than half of the new one. Rows are read a page of documents at a time: every chunk's
  // token string at once would set the heap's high-water mark, which V8 keeps long after.
  const lexical = new LexicalIndex(options);
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
