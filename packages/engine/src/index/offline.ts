// Recall's chunk texts when the database cannot be reached (a remote libSQL server that is down):
// the in-memory index still ranks, and the texts are cut again from the diary files — the files are
// the truth, and chunking is deterministic, so an unchanged file gives back the indexed text.
import { chunkTextsByIds, isUnreachable, type DocumentRow, type EngramDb } from '@engram/db';
import { readFile, stat } from 'node:fs/promises';
import type { EngramConfig } from '../config/schema.ts';
import { safeJoin } from '../diary/fsio.ts';
import { parseDiaryText } from '../diary/parse.ts';
import { chunkText } from '../text/chunk.ts';

export interface OfflineSource {
  /** One document's row (a lookup, not the whole table: every recall builds a source). */
  doc(id: string): DocumentRow | undefined;
  config: EngramConfig;
}

/** The chunk ids' texts, cut from the files (ids of unknown documents or vanished files are left out). */
export async function chunkTextsFromFiles(ids: string[], source: OfflineSource): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byDoc = new Map<string, number[]>();
  for (const id of ids) {
    const hash = id.lastIndexOf('#');
    if (hash < 0) continue;
    const docId = id.slice(0, hash);
    const ords = byDoc.get(docId) ?? [];
    ords.push(Number(id.slice(hash + 1)));
    byDoc.set(docId, ords);
  }
  const { config } = source;
  for (const [docId, ords] of byDoc) {
    const d = source.doc(docId);
    if (!d) continue;
    const dir = d.root === 'diary' ? config.diaryDir : config.legacyDir;
    try {
      const file = safeJoin(dir, d.path);
      const [raw, st] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
      const parsed = parseDiaryText(raw, {
        root: d.root,
        path: d.path,
        mtimeMs: st.mtimeMs,
        size: st.size,
        archiveFolder: config.diary.archiveFolder,
        requireTag: config.diary.requireTag,
        timePrefix: config.diary.timePrefix,
      });
      const pieces = chunkText(parsed.body, config.chunk);
      for (const ord of ords) {
        const text = pieces.length > 0 ? pieces[ord]?.text : ord === 0 ? parsed.summary || parsed.title : undefined;
        if (text !== undefined) out.set(`${docId}#${ord}`, text);
      }
    } catch {
      // A file gone since the last index: that hit has no text and is dropped by recall.
    }
  }
  return out;
}

/** Chunk texts from the database, or from the files when the database server is unreachable. */
export async function chunkTextsWithFallback(db: EngramDb, ids: string[], source: OfflineSource): Promise<Map<string, string>> {
  try {
    return await chunkTextsByIds(db, ids);
  } catch (e) {
    if (!isUnreachable(e)) throw e;
    return chunkTextsFromFiles(ids, source);
  }
}
