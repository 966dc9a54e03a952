// Bringing an archived memory back: the inverse of `forget`, which moves the file under the archive
// folder (diary.archiveFolder, 已整理 by default). The file moves back to its original sub-folder
// with a rename that never overwrites (a taken name gets -2, -3…), so no word is lost either way;
// then both paths are re-indexed so the memory is recalled again.
import { restoreEntry } from '../diary/store.ts';
import type { Engine } from '../engine.ts';
import { EngramError } from '../errors.ts';

export interface RestoreResult {
  /** The id of the memory at its restored path (a docId follows the path). */
  docId: string;
  from: string;
  to: string;
}

export async function restoreMemory(engine: Pick<Engine, 'read' | 'config' | 'index' | 'database' | 'indexOwner'>, idOrPath: string): Promise<RestoreResult> {
  // Refused before the file moves where a write would be refused (runtime/state.ts exclusive): a
  // moved file whose index cannot follow would look lost until another process caught up.
  if (engine.database.readOnly) throw new EngramError('read-only-data', engine.database.readOnly.reason);
  if (engine.indexOwner) throw new EngramError('index-owned-elsewhere', `the shared database is indexed by ${engine.indexOwner}: restore it there / 索引归属另一台机器,请在那里恢复`);
  const d = await engine.read(idOrPath);
  if (!d) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
  if (d.readOnly) throw new EngramError('read-only', `"${d.title}" is in the read-only legacy corpus`);
  if (!d.archived) throw new EngramError('not-archived', `"${d.title}" is not archived`);
  const moved = await restoreEntry(engine.config.diaryDir, d.path, engine.config.diary.archiveFolder);
  await engine.index({ paths: [moved.from, moved.to] });
  return { docId: moved.docId, from: moved.from, to: moved.to };
}
