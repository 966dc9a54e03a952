import { and, asc, count, desc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { EngramDb } from './client.ts';
import { chunks, documents, indexManifest, meta, settingsOverlay } from './schema.ts';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocumentRow = typeof documents.$inferInsert;
export type ChunkRow = typeof chunks.$inferSelect;
export type NewChunkRow = typeof chunks.$inferInsert;
export type ManifestRow = typeof indexManifest.$inferSelect;

const INSERT_BATCH = 200;

/** Replaces a document and all its chunks atomically. */
export async function replaceDocument(db: EngramDb, doc: NewDocumentRow, docChunks: NewChunkRow[]): Promise<void> {
  await replaceDocuments(db, [{ doc, chunks: docChunks }]);
}

/** Replaces many documents (and their chunks) in one transaction. */
export async function replaceDocuments(
  db: EngramDb,
  items: { doc: NewDocumentRow; chunks: NewChunkRow[] }[],
): Promise<void> {
  if (items.length === 0) return;
  await db.transaction(async (tx) => {
    const ids = items.map((i) => i.doc.id);
    for (let i = 0; i < ids.length; i += INSERT_BATCH) {
      const slice = ids.slice(i, i + INSERT_BATCH);
      await tx.delete(chunks).where(inArray(chunks.docId, slice));
      await tx.delete(documents).where(inArray(documents.id, slice));
    }
    const docs = items.map((i) => i.doc);
    for (let i = 0; i < docs.length; i += INSERT_BATCH) await tx.insert(documents).values(docs.slice(i, i + INSERT_BATCH));
    const all = items.flatMap((i) => i.chunks);
    for (let i = 0; i < all.length; i += INSERT_BATCH) await tx.insert(chunks).values(all.slice(i, i + INSERT_BATCH));
  });
}

export async function deleteDocuments(db: EngramDb, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction(async (tx) => {
    for (let i = 0; i < ids.length; i += INSERT_BATCH) {
      const slice = ids.slice(i, i + INSERT_BATCH);
      await tx.delete(chunks).where(inArray(chunks.docId, slice));
      await tx.delete(documents).where(inArray(documents.id, slice));
    }
  });
}

export async function getDocument(db: EngramDb, id: string): Promise<DocumentRow | undefined> {
  const rows = await db.select().from(documents).where(eq(documents.id, id)).limit(1);
  return rows[0];
}

export async function listDocuments(db: EngramDb, options: { includeArchived?: boolean } = {}): Promise<DocumentRow[]> {
  const where = options.includeArchived ? undefined : eq(documents.archived, false);
  return db.select().from(documents).where(where).orderBy(desc(documents.date), asc(documents.path));
}

/** The keys of a document row, in the schema's order (a stored copy of rows names its columns with these). */
export const documentColumns = (): string[] => Object.keys(getTableColumns(documents));

/**
 * Documents whose title or text holds `needle` as written — a word inside a longer one the tokenizer
 * kept whole (长城 in 万里长城), which a word search cannot find — at most `limit`, by date, newest first.
 */
export async function documentsContaining(db: EngramDb, needle: string, limit: number): Promise<string[]> {
  if (needle === '' || limit <= 0) return [];
  const rows = await db.all<{ id: string }>(
    sql`SELECT id FROM documents WHERE instr(title, ${needle}) > 0 OR instr(summary, ${needle}) > 0 OR id IN (SELECT doc_id FROM chunks WHERE instr(text, ${needle}) > 0) ORDER BY date DESC, path ASC LIMIT ${limit}`,
  );
  return rows.map((r) => r.id);
}

/**
 * The warnings of every document that has any, in listing order (newest first), without reading the
 * rest of each row: what a status report needs at any corpus size.
 */
export async function documentWarnings(db: EngramDb, options: { limit?: number } = {}): Promise<string[]> {
  const rows = await db
    .select({ warnings: documents.warnings })
    .from(documents)
    .where(ne(documents.warnings, sql`'[]'`))
    .orderBy(desc(documents.date), asc(documents.path))
    .limit(options.limit ?? 500);
  return rows.flatMap((r) => r.warnings).slice(0, options.limit ?? 500);
}

export async function chunksOfDocument(db: EngramDb, docId: string): Promise<ChunkRow[]> {
  return db.select().from(chunks).where(eq(chunks.docId, docId)).orderBy(asc(chunks.ord));
}

/** Everything the in-memory lexical index needs, in one pass. */
export async function loadIndexRows(db: EngramDb) {
  return db
    .select({
      chunkId: chunks.id,
      docId: chunks.docId,
      ord: chunks.ord,
      tokens: chunks.tokens,
    })
    .from(chunks)
    .innerJoin(documents, eq(documents.id, chunks.docId))
    .where(eq(documents.archived, false))
    .orderBy(asc(chunks.docId), asc(chunks.ord));
}

/** Chunks of live documents with text and fingerprint (what the semantic channel embeds). */
export async function loadChunkTexts(db: EngramDb, docIds?: string[]) {
  const base = db
    .select({ id: chunks.id, text: chunks.text, fingerprint: chunks.fingerprint })
    .from(chunks)
    .innerJoin(documents, eq(documents.id, chunks.docId));
  if (!docIds) return base.where(eq(documents.archived, false));
  if (docIds.length === 0) return [];
  const out: { id: string; text: string; fingerprint: string }[] = [];
  for (let i = 0; i < docIds.length; i += INSERT_BATCH)
    out.push(...(await base.where(and(eq(documents.archived, false), inArray(chunks.docId, docIds.slice(i, i + INSERT_BATCH))))));
  return out;
}

export async function chunkTextsByIds(db: EngramDb, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += INSERT_BATCH) {
    const rows = await db.select({ id: chunks.id, text: chunks.text }).from(chunks).where(inArray(chunks.id, ids.slice(i, i + INSERT_BATCH)));
    for (const r of rows) out.set(r.id, r.text);
  }
  return out;
}

/** Rewrites the stored tokens of every chunk and document (after a tokenizer change; no re-embedding). */
export async function updateTokens(
  db: EngramDb,
  chunkTokens: { id: string; tokens: string }[],
  docTokens: { id: string; titleTokens: string; summaryTokens: string; tagTokens: string }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const c of chunkTokens) await tx.update(chunks).set({ tokens: c.tokens }).where(eq(chunks.id, c.id));
    for (const d of docTokens)
      await tx.update(documents).set({ titleTokens: d.titleTokens, summaryTokens: d.summaryTokens, tagTokens: d.tagTokens }).where(eq(documents.id, d.id));
  });
}

/** Generations whose changed documents are kept in `meta`; a reader further behind lists every version instead. */
export const CHANGE_LOG_GENERATIONS = 64;

/**
 * Monotonic counter bumped by every write, so other processes notice and refresh their in-memory
 * index. With `changedDocIds` (an incremental pass: written, re-indexed or removed documents) it
 * also records which documents that generation changed, in the same transaction, so a reader that
 * is a few writes behind reads those rows instead of every document's version. Without it (a full
 * pass, a settings change) nothing is recorded and readers that span it compare every version.
 */
export async function bumpGeneration(db: EngramDb, changedDocIds?: readonly string[]): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.all<{ value: string }>(
      sql`INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) RETURNING value`,
    );
    const generation = Number(rows[0]?.value ?? '0');
    if (changedDocIds) {
      const value = JSON.stringify([...new Set(changedDocIds)]);
      await tx.insert(meta).values({ key: `changed:${generation}`, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
    }
    await tx.run(sql`DELETE FROM meta WHERE key LIKE 'changed:%' AND CAST(substr(key, 9) AS INTEGER) <= ${generation - CHANGE_LOG_GENERATIONS}`);
    return generation;
  });
}

/**
 * The documents changed by generations `after`+1 … `upTo`, or null when the log does not cover every
 * one of them (too far behind, or a full pass or settings change in between): then compare versions.
 */
export async function documentsChangedSince(db: EngramDb, after: number, upTo: number): Promise<string[] | null> {
  if (upTo <= after) return upTo === after ? [] : null;
  if (upTo - after > CHANGE_LOG_GENERATIONS) return null;
  const keys: string[] = [];
  for (let g = after + 1; g <= upTo; g++) keys.push(`changed:${g}`);
  const rows = await db.select().from(meta).where(inArray(meta.key, keys));
  if (rows.length !== keys.length) return null;
  const ids = new Set<string>();
  for (const r of rows) {
    const list: unknown = JSON.parse(r.value);
    if (!Array.isArray(list)) return null;
    for (const id of list) if (typeof id === 'string') ids.add(id);
  }
  return [...ids];
}

export async function readGeneration(db: EngramDb): Promise<number> {
  return Number((await getMeta(db, 'generation')) ?? '0');
}

export interface IndexedFile {
  id: string;
  contentHash: string;
  mtimeMs: number;
  size: number;
}

/**
 * Fingerprints of what is indexed per document (key `root:path`), to decide what an incremental pass
 * must redo: size and mtime say "unchanged" without reading the file, the hash when they differ.
 * `diaryPaths` limits it to those diary files (a write re-indexes one file, not the corpus).
 */
export async function documentHashes(db: EngramDb, diaryPaths?: string[]): Promise<Map<string, IndexedFile>> {
  const columns = { id: documents.id, root: documents.root, path: documents.path, contentHash: documents.contentHash, mtimeMs: documents.mtimeMs, size: documents.size };
  const rows: { id: string; root: string; path: string; contentHash: string; mtimeMs: number; size: number }[] = [];
  if (!diaryPaths) rows.push(...(await db.select(columns).from(documents)));
  else
    for (let i = 0; i < diaryPaths.length; i += INSERT_BATCH)
      rows.push(...(await db.select(columns).from(documents).where(and(eq(documents.root, 'diary'), inArray(documents.path, diaryPaths.slice(i, i + INSERT_BATCH))))));
  return new Map(rows.map((r) => [`${r.root}:${r.path}`, { id: r.id, contentHash: r.contentHash, mtimeMs: r.mtimeMs, size: r.size }]));
}

/** Live counts, computed from the tables on every call (never from the manifest). */
export async function corpusCounts(db: EngramDb) {
  const [docRow] = await db
    .select({ n: count(), archived: sql<number>`coalesce(sum(${documents.archived}), 0)` })
    .from(documents);
  const [chunkRow] = await db
    .select({ n: count() })
    .from(chunks)
    .innerJoin(documents, eq(documents.id, chunks.docId))
    .where(eq(documents.archived, false));
  const total = Number(docRow?.n ?? 0);
  const archived = Number(docRow?.archived ?? 0);
  return { documents: total - archived, archived, chunks: Number(chunkRow?.n ?? 0) };
}

export async function folderCounts(db: EngramDb) {
  return db
    .select({ root: documents.root, category: documents.category, documents: count() })
    .from(documents)
    .where(eq(documents.archived, false))
    .groupBy(documents.root, documents.category)
    .orderBy(asc(documents.root), asc(documents.category));
}

export async function getManifest(db: EngramDb): Promise<ManifestRow | undefined> {
  const rows = await db.select().from(indexManifest).where(eq(indexManifest.id, 'main')).limit(1);
  return rows[0];
}

export async function putManifest(db: EngramDb, row: Omit<ManifestRow, 'id'>): Promise<void> {
  await db
    .insert(indexManifest)
    .values({ id: 'main', ...row })
    .onConflictDoUpdate({ target: indexManifest.id, set: row });
}

export async function readSettingsOverlay(db: EngramDb): Promise<Record<string, unknown>> {
  const rows = await db.select().from(settingsOverlay).where(eq(settingsOverlay.id, 'overlay')).limit(1);
  return rows[0]?.json ?? {};
}

/**
 * The stored overlay as the text in the row, unparsed ('' when there is none): what the engine
 * backs up when the JSON no longer parses (readSettingsOverlay throws on it).
 */
export async function readSettingsOverlayText(db: EngramDb): Promise<string> {
  const rows = await db
    .select({ json: sql<unknown>`${settingsOverlay.json}` })
    .from(settingsOverlay)
    .where(eq(settingsOverlay.id, 'overlay'))
    .limit(1);
  return rows.length === 0 || rows[0]!.json === null || rows[0]!.json === undefined ? '' : String(rows[0]!.json);
}

export async function writeSettingsOverlay(db: EngramDb, json: Record<string, unknown>): Promise<void> {
  const updatedAt = new Date().toISOString();
  await db
    .insert(settingsOverlay)
    .values({ id: 'overlay', json, updatedAt })
    .onConflictDoUpdate({ target: settingsOverlay.id, set: { json, updatedAt } });
}

export async function getMeta(db: EngramDb, key: string): Promise<string | undefined> {
  const rows = await db.select().from(meta).where(eq(meta.key, key)).limit(1);
  return rows[0]?.value;
}

export async function setMeta(db: EngramDb, key: string, value: string): Promise<void> {
  await db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } });
}

export { and, eq };

export async function documentsByIds(db: EngramDb, ids: string[]): Promise<DocumentRow[]> {
  const out: DocumentRow[] = [];
  for (let i = 0; i < ids.length; i += INSERT_BATCH)
    out.push(...(await db.select().from(documents).where(inArray(documents.id, ids.slice(i, i + INSERT_BATCH)))));
  return out;
}

export async function indexRowsOfDocuments(db: EngramDb, docIds: string[]) {
  const out: { chunkId: string; docId: string; ord: number; tokens: string }[] = [];
  for (let i = 0; i < docIds.length; i += INSERT_BATCH)
    out.push(
      ...(await db
        .select({ chunkId: chunks.id, docId: chunks.docId, ord: chunks.ord, tokens: chunks.tokens })
        .from(chunks)
        .innerJoin(documents, eq(documents.id, chunks.docId))
        .where(and(eq(documents.archived, false), inArray(chunks.docId, docIds.slice(i, i + INSERT_BATCH))))
        .orderBy(asc(chunks.docId), asc(chunks.ord))),
    );
  return out;
}

export async function documentVersions(db: EngramDb) {
  return db.select({ id: documents.id, contentHash: documents.contentHash, indexedAt: documents.indexedAt, archived: documents.archived }).from(documents);
}
