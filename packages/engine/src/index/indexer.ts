// Full and incremental indexing: diary files → rows in libSQL → vectors. The files are the truth;
// every pass can be repeated, and a pass that dies half-way leaves the old rows or the new ones.
import {
  bumpGeneration,
  corpusCounts,
  deleteDocuments,
  documentHashes,
  getManifest,
  loadChunkTexts,
  putManifest,
  replaceDocumentsBulk,
  bulkWriteMode,
  type DocumentRow,
  type EngramDb,
  type IndexedFile,
} from '@engram/db';
import type { IndexProgress, IndexReport } from '../api.ts';
import type { EngramConfig } from '../config/schema.ts';
import { docIdFor } from '../diary/ids.ts';
import { listFiles, readResidentFile, readTextFile, streamRoots, type ScanStream } from '../diary/store.ts';
import { parseDiaryText } from '../diary/parse.ts';
import { safeJoin } from '../diary/fsio.ts';
import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ParsedDocument, Tokenizer } from '../types.ts';
import { corpusHash, documentRows, lexicalEntriesOf, sha1, type DocumentRows } from './rows.ts';
import { LexicalIndex, type LexicalOptions } from '../lexical/bm25.ts';
import { saveBuiltSnapshot, snapshotPathOf } from './live.ts';
import { StoredRowsBuilder } from './stored-rows.ts';
import { HeapBudget } from '../runtime/heap.ts';
import type { SemanticPort } from '../semantic/port.ts';
import { tokenizerIndexKey } from '../text/tokenizer-check.ts';

export const ENGINE_VERSION = '0.1.0';
const STORE_BATCH = 100;

export interface IndexRunContext {
  db: EngramDb;
  config: EngramConfig;
  tokenizer: Tokenizer;
  semantic: SemanticPort | null;
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  now?: () => Date;
  /**
   * The indexed diary files (path → size, mtime) as the in-memory index holds them, current with
   * the database; the manifest check lists the table when absent (see changedDiaryPaths).
   */
  indexedFiles?: () => Promise<Map<string, { size: number; mtimeMs: number }> | null>;
  /**
   * Leave the embedding to a fill after the pass (IndexService): the pass drops stale vectors and
   * reports what is left to embed in `embedLater`, so it holds the writer lock only for the rows
   * and the lexical index. Applies over a port that can fill.
   */
  deferEmbed?: boolean;
}

/** A pass's report without the corpus totals (IndexService.run adds them; a write's pass has no use for two counting scans). */
export interface IndexRunResult extends Omit<IndexReport, 'documents' | 'chunks'> {
  /** Documents whose rows changed (added, updated or removed): the in-memory index reloads these. */
  changedDocIds: string[];
  /**
   * The documents of the files the manifest check found differing from the in-memory index's view
   * (ctx.indexedFiles) whose rows this pass left as they were: docId → the stored content hash, null
   * when there is no row. Where the in-memory index holds something else, it missed a write (a writer
   * killed before announcing it): IndexService reloads those and announces them.
   */
  checkedUnchanged: Map<string, string | null>;
  resident: { text: string; critical: boolean }[];
  /** The chunks this pass left to embed (deferEmbed): those of these documents, 'all' (vectors were behind), or null. */
  embedLater: string[] | 'all' | null;
}

export async function runIndex(
  ctx: IndexRunContext,
  mode: 'full' | 'incremental',
  only?: string[],
): Promise<IndexRunResult> {
  // A full pass keeps the rows it stores for its snapshot (an embedded database's only), spilled
  // next to it while the pass runs and removed however the pass ends.
  const snapshot = mode === 'full' && only === undefined ? snapshotPathOf(ctx.config.databaseUrl) : null;
  const rows = snapshot === null ? undefined : new StoredRowsBuilder(`${snapshot}.tmp-${process.pid}-rows`);
  const undoBulk = mode === 'full' ? await bulkWriteMode(ctx.db) : null;
  try {
    return await indexPass(ctx, mode, only, rows);
  } finally {
    rows?.dispose();
    // An undo that fails leaves this connection copying the WAL later, nothing worse; the pass's own error stands.
    await undoBulk?.().catch(() => {});
  }
}

async function indexPass(
  ctx: IndexRunContext,
  mode: 'full' | 'incremental',
  only: string[] | undefined,
  rows: StoredRowsBuilder | undefined,
): Promise<IndexRunResult> {
  only = only === undefined ? undefined : [...new Set(only)];
  const t0 = performance.now();
  const progress = ctx.onProgress ?? (() => {});
  const { config } = ctx;
  progress({ phase: 'scan', done: 0, total: 0, message: config.diaryDir });
  // Decided before the scan: whether this pass may compare the folder's (path, size, mtime) with
  // the index instead of reading every file (see changedDiaryPaths).
  const manifest = await getManifest(ctx.db);
  const tokenizerChanged = manifest !== undefined && manifest.tokenizer !== tokenizerIndexKey(ctx.tokenizer);
  const chunkChanged =
    manifest !== undefined && (manifest.chunkSize !== config.chunk.size || manifest.chunkOverlap !== config.chunk.overlap);
  const redoAll = mode === 'full' || tokenizerChanged || chunkChanged;
  let fastUnchanged = 0;
  let checkedAgainstLive: string[] = [];
  if (!only && !redoAll && manifest !== undefined) {
    const liveView = (await ctx.indexedFiles?.()) ?? null;
    const changed = await changedDiaryPaths(ctx.db, config, liveView);
    if (changed) {
      fastUnchanged = changed.indexed - changed.paths.length;
      only = changed.paths;
      if (liveView) checkedAgainstLive = changed.paths;
      progress({ phase: 'scan', done: 0, total: 0, message: `${changed.paths.length} changed` });
    }
  }
  // The documents come a batch at a time and each batch is stored before the next is read: a full
  // pass over 50,000 files never holds more than one batch of parsed files and rows.
  const scan = only
    ? await diaryPathStream(config, only)
    : await streamRoots({
        diaryDir: config.diaryDir,
        legacyDir: config.legacyDir,
        runtimeFile: config.diary.runtimeFile,
        archiveFolder: config.diary.archiveFolder,
        requireTag: config.diary.requireTag,
        timePrefix: config.diary.timePrefix,
        batchSize: STORE_BATCH,
      });
  ctx.signal?.throwIfAborted();

  // With `only`, the pass is limited to those diary paths: other rows are neither read, compared nor removed.
  const existing = await documentHashes(ctx.db, only);

  let unchanged = 0;
  let added = 0;
  let updated = 0;
  // Only keys the table held can be removed at the end, so only those are remembered as seen (a
  // first build over 50,000 files kept 50,000 keys it never looked up).
  const seenKeys = new Set<string>();
  const docWarnings: string[] = [];
  const indexedAt = (ctx.now ?? (() => new Date()))().toISOString();
  const changedDocIds: string[] = [];
  let seen = 0;
  // A full pass writes every document: the lexical index is built from the same rows as they are
  // stored and saved as the snapshot, so the load after the pass does not read them all back.
  const built = mode === 'full' && !only ? { lexical: new LexicalIndex(lexicalOptionsOf(config)), docs: [] as { id: string; contentHash: string; indexedAt: string; archived: boolean }[], rows } : null;
  progress({ phase: 'store', done: 0, total: scan.total });
  const heap = new HeapBudget();
  for await (const docs of scan.batches()) {
    ctx.signal?.throwIfAborted();
    const toTokenize: typeof docs = [];
    for (const doc of docs) {
      const key = `${doc.root}:${doc.path}`;
      docWarnings.push(...doc.warnings);
      const before = existing.get(key);
      if (!before) added += 1;
      else {
        seenKeys.add(key);
        if (!redoAll && before.contentHash === sha1(doc.raw)) {
          unchanged += 1;
          continue;
        }
        updated += 1;
      }
      toTokenize.push(doc);
    }
    // Told what comes, the on-demand jieba builds one dictionary for the batch: a subset for a few
    // changed notes, the whole one at once when a batch is half full and more files follow (a build:
    // it built subsets for the first 40,000 characters first, a second of a 5,000-note build).
    const bulk = toTokenize.length >= STORE_BATCH / 2 && seen + docs.length < scan.total;
    if (toTokenize.length > 0) ctx.tokenizer.prepare?.(toTokenize.map((d) => d.raw), bulk ? 'bulk' : undefined);
    const batch: DocumentRows[] = toTokenize.map((doc) => documentRows(doc, docIdFor(doc.root, doc.path), ctx.tokenizer, config.chunk, indexedAt));
    await replaceDocumentsBulk(ctx.db, batch);
    for (const b of batch) changedDocIds.push(b.doc.id);
    if (built) {
      for (const rowsOfDoc of batch) {
        const { doc } = rowsOfDoc;
        built.docs.push({ id: doc.id, contentHash: doc.contentHash, indexedAt, archived: doc.archived ?? false });
        // documentRows sets every column, so the row reads back as stored (the snapshot tests compare
        // these rows with a listing of the table).
        built.rows?.add(doc as DocumentRow);
        if (doc.archived) continue;
        for (const entry of lexicalEntriesOf(rowsOfDoc)) built.lexical.add(entry);
      }
    }
    seen += docs.length;
    heap.check();
    progress({ phase: 'store', done: seen, total: scan.total });
  }
  ctx.signal?.throwIfAborted();
  // Removed last, once every file has been seen: a pass that stops before this point removes nothing.
  const removedIds = [...existing.entries()].filter(([key]) => !seenKeys.has(key)).map(([, v]) => v.id);
  await deleteDocuments(ctx.db, removedIds);
  changedDocIds.push(...removedIds);

  const { degraded, later: embedLater, ...semantic } = await syncVectors(ctx, mode === 'full' ? 'full' : 'incremental', changedDocIds, removedIds);

  // A pass over some files (a write, a changed-files open) leaves the manifest as the last whole pass
  // wrote it: hashing the corpus again would read every row for each write.
  const embedding = ctx.semantic ? (ctx.semantic.status().fingerprint as Record<string, unknown> | null) : null;
  if (!only || !manifest || JSON.stringify(manifest.embedding ?? null) !== JSON.stringify(embedding)) {
    // A full pass wrote every document there is (and removed the rest): its own list is the table.
    const all = built ? built.docs : [...(await documentHashes(ctx.db)).values()];
    await putManifest(ctx.db, {
      engineVersion: ENGINE_VERSION,
      tokenizer: tokenizerIndexKey(ctx.tokenizer),
      chunkSize: config.chunk.size,
      chunkOverlap: config.chunk.overlap,
      corpusHash: corpusHash(all),
      builtAt: mode === 'full' || !manifest ? indexedAt : manifest.builtAt,
      embedding,
    });
  }
  if (changedDocIds.length > 0 || mode === 'full') {
    // An incremental pass records what it changed, so other processes catch up by reading those rows.
    const generation = await bumpGeneration(ctx.db, mode === 'full' ? undefined : changedDocIds);
    if (built) {
      // No finishBulkAdd: the built index is dropped once saved, and compacting it first would hold
      // a second copy of the posting lists at the pass's peak (the snapshot compacts as it writes).
      saveBuiltSnapshot(config.databaseUrl, built.lexical, lexicalOptionsOf(config), built.docs, generation, tokenizerIndexKey(ctx.tokenizer), built.rows);
    }
  }

  const checkedUnchanged = new Map<string, string | null>();
  const changedSet = new Set(changedDocIds);
  for (const path of checkedAgainstLive) {
    const id = docIdFor('diary', path);
    if (!changedSet.has(id)) checkedUnchanged.set(id, existing.get(`diary:${path}`)?.contentHash ?? null);
  }

  progress({ phase: 'done', done: 1, total: 1 });
  return {
    mode,
    added,
    updated,
    removed: removedIds.length,
    // Files the manifest check found unchanged were not read: they count as unchanged too.
    unchanged: unchanged + fastUnchanged,
    warnings: [...degraded, ...scan.warnings, ...docWarnings],
    skipped: scan.skipped,
    semantic,
    ms: Math.round(performance.now() - t0),
    changedDocIds,
    checkedUnchanged,
    resident: scan.resident,
    embedLater,
  };
}

/**
 * The BM25 parameters of a config, as runtime/state.ts's lexicalOptions gives them to the live
 * index (test/index/snapshot.test.ts checks they agree: a difference only makes the snapshot of a
 * full pass unusable, and the load rebuilds).
 */
export const lexicalOptionsOf = (c: EngramConfig): LexicalOptions => ({
  k1: c.recall.bm25K1,
  b: c.recall.bm25B,
  fieldWeights: c.recall.fieldWeights,
  singleCharWeight: c.recall.singleCharWeight,
});

/** The diary's file types (as the scanner reads them, diary/store.ts). */
const DIARY_EXTS: ReadonlySet<string> = new Set(['txt', 'md']);

/**
 * The manifest check that lets an unchanged corpus open without reading it: the diary folder's
 * files (path, size, mtime) against what the index recorded. Returns the paths to look at —
 * new, gone, or with another size or mtime (their hash then decides) — or null when this shortcut
 * does not apply and the whole scan must run: a legacy corpus is configured (its resident memories
 * and title rules come from the scan), or a folder could not be listed (the scan reports it).
 */
export async function changedDiaryPaths(
  db: EngramDb,
  config: EngramConfig,
  /** The indexed files as the in-memory index holds them (current with the database); listed from the table when absent. */
  known: Map<string, { size: number; mtimeMs: number }> | null = null,
): Promise<{ paths: string[]; indexed: number } | null> {
  if (config.legacyDir) return null;
  const skipped: { path: string; reason: string }[] = [];
  const files = await listFiles(config.diaryDir, DIARY_EXTS, skipped);
  if (skipped.some((s) => /director/.test(s.reason))) return null;
  let indexed = known;
  if (!indexed) {
    indexed = new Map<string, IndexedFile>();
    for (const [key, v] of await documentHashes(db)) if (key.startsWith('diary:')) indexed.set(key.slice('diary:'.length), v);
  }
  const changed: string[] = [];
  // The root once, then each relative path after it (path.join normalises every one: ~10 % of this check at 50,000 files).
  const root = config.diaryDir.endsWith(sep) ? config.diaryDir : `${config.diaryDir}${sep}`;
  for (const path of files) {
    // A plain join, not safeJoin (a realpath per path segment, half of this check at 5,000 files):
    // the listing came from inside the root, and only (size, mtime) is compared here — a path
    // reported changed is read through safeJoin by parseDiaryFiles. Synchronous: 5,000 stats take
    // ~20 ms this way and ~80 ms as promises through the thread pool.
    let st: { size: number; mtimeMs: number } | undefined;
    try {
      st = statSync(`${root}${path}`);
    } catch {
      st = undefined;
    }
    const row = indexed.get(path);
    if (!row || !st || st.size !== row.size || st.mtimeMs !== row.mtimeMs) changed.push(path);
  }
  const present = new Set(files);
  for (const path of indexed.keys()) if (!present.has(path)) changed.push(path);
  return { paths: changed, indexed: indexed.size };
}

/** Just these diary paths (relative to the diary root), read and parsed a batch at a time; a path that no longer exists is left out. */
async function diaryPathStream(config: EngramConfig, paths: string[]): Promise<ScanStream> {
  const skipped: { path: string; reason: string }[] = [];
  // The resident memories come from their own small file: a pass over a few paths reads it too.
  const resident = await readResidentFile({ runtimeFile: config.diary.runtimeFile, legacyDir: config.legacyDir });
  async function* batches(): AsyncGenerator<ParsedDocument[]> {
    for (let i = 0; i < paths.length; i += STORE_BATCH) {
      const docs: ParsedDocument[] = [];
      for (const path of paths.slice(i, i + STORE_BATCH)) {
        const file = safeJoin(config.diaryDir, path);
        // The scanner's reader (regular files only, its size limit, its decoder incl. UTF-16): a file the
        // whole scan refuses must not get in through a write or the manifest check.
        const read = await readTextFile(file);
        if (!read.ok) {
          if (!/\bENOENT\b/.test(read.reason)) skipped.push({ path, reason: read.reason }); // gone: removed from the index
          continue;
        }
        docs.push(
          parseDiaryText(read.text, {
            root: 'diary',
            path,
            mtimeMs: read.mtimeMs,
            size: read.size,
            archiveFolder: config.diary.archiveFolder,
            requireTag: config.diary.requireTag,
            timePrefix: config.diary.timePrefix,
          }),
        );
      }
      yield docs;
      // Timers and I/O run between batches, as in the whole scan (diary/scan.ts).
      await nextTurn();
    }
  }
  return { total: paths.length, batches, warnings: resident.warnings, skipped, resident: resident.resident };
}

/**
 * Brings the vector table in line with the chunk table. Failures degrade, they never abort the run;
 * `degraded` names each failed batch and why (the report's warnings carry it to the person).
 */
export async function syncVectors(
  ctx: IndexRunContext,
  mode: 'full' | 'incremental',
  changedDocIds: string[],
  removedDocIds: string[],
): Promise<IndexReport['semantic'] & { degraded: string[]; later: string[] | 'all' | null }> {
  if (!ctx.semantic) return { embedded: 0, reused: 0, degradedBatches: 0, skipped: 'semantic channel not configured', degraded: [], later: null };
  const status = ctx.semantic.status();
  if (status.state === 'off' || status.state === 'error' || status.state === 'mismatch')
    return { embedded: 0, reused: 0, degradedBatches: 0, skipped: status.reason ?? status.state, degraded: [], later: null };
  if (ctx.deferEmbed && ctx.semantic.fill) {
    // Only what is stale goes now (vectors of removed chunks, and of chunks whose text, context or
    // windowing changed); the embedding is the fill's, after the lock is released. A full pass, or
    // vectors windowed otherwise than the settings say, checks every chunk; vectors behind the
    // chunk table (a fill stopped by a close, degraded batches) are all filled in, not only this pass's.
    if (mode === 'full') await ctx.semantic.prepareRebuild?.();
    const everything = mode === 'full' || status.outdated === true;
    const behind = everything || status.vectors < (await corpusCounts(ctx.db)).chunks;
    const chunks = everything ? await loadChunkTexts(ctx.db) : await loadChunkTexts(ctx.db, changedDocIds);
    await ctx.semantic.sync(chunks, {
      mode: everything ? 'full' : 'incremental',
      removedDocIds: [...new Set(removedDocIds)],
      changedDocIds,
      signal: ctx.signal,
      embed: false,
    });
    const removed = new Set(removedDocIds);
    const later = behind ? 'all' : changedDocIds.filter((id) => !removed.has(id));
    // Reused vectors are counted by the fill (it sees every chunk that keeps one; the model may not be loaded yet here).
    return { embedded: 0, reused: 0, degradedBatches: 0, skipped: null, degraded: [], later: later.length === 0 ? null : later };
  }
  if (mode === 'full') await ctx.semantic.prepareRebuild?.();
  // Batches that degraded in an earlier run left chunks without vectors, and nothing marks their
  // documents as changed: when vectors are behind the chunk table, sync everything (unchanged
  // vectors are reused by fingerprint, so only the missing ones are embedded).
  // Vectors windowed otherwise than the settings now say (semantic/fingerprint.ts) are all embedded again the same way.
  const behind = mode === 'incremental' && (status.outdated === true || status.vectors < (await corpusCounts(ctx.db)).chunks);
  const syncMode = behind ? 'full' : mode;
  const chunks = syncMode === 'full' ? await loadChunkTexts(ctx.db) : await loadChunkTexts(ctx.db, changedDocIds);
  const removedPrefixes = new Set(removedDocIds);
  const report = await ctx.semantic.sync(chunks, {
    mode: syncMode,
    removedDocIds: [...removedPrefixes],
    changedDocIds,
    signal: ctx.signal,
    onProgress: (done, total) => ctx.onProgress?.({ phase: 'embed', done, total }),
  });
  // The port types batches loosely; the channel reports { index, size, reason } (semantic/channel.ts).
  const degraded = (report.degradedBatches as { index?: number; size?: number; reason?: string }[]).map(
    (b) => `semantic batch ${b.index} (${b.size} chunk${b.size === 1 ? '' : 's'}) degraded: ${b.reason}; those chunks are found lexically until the next index run embeds them`,
  );
  return { embedded: report.embedded, reused: report.reused, degradedBatches: report.degradedBatches.length, skipped: null, degraded, later: null };
}
