// The diary store: reads both roots into ParsedDocuments, and creates / edits / archives diary
// files. The files are the source of truth; every write goes through fsio.ts (atomic, exclusive,
// inside the root). Each job has its module (files, scan, create, move); this one edits a passage
// and is the store's one door for the rest of the engine.
import { anchoredReplace, matchLineEndings, type ReplaceStrategy } from './edit.ts';
import { DiaryError, type DiaryErrorCode } from './errors.ts';
import { assertWritableSize, DIARY_EXTS, extOf } from './files.ts';
import { checkRelativePath, safeJoin } from './fsio.ts';
import { docIdFor } from './ids.ts';
import { readForRewrite, rewriteIfUnchanged } from './textfile.ts';

export { assertWritableSize, DEFAULT_MAX_FILE_BYTES, readTextFile, readTextFileSync } from './files.ts';
export { decodeText } from './textfile.ts';
export { listFiles, parseResidentMemories, readResidentFile, SCAN_BATCH, scanRoots, streamRoots, type ResidentMemory, type ScanOptions, type ScanResult, type ScanStream } from './scan.ts';
export {
  cleanEntryInput,
  composeEntry,
  createEntry,
  type ComposedEntry,
  type CreateEntryInput,
  type CreateEntryResult,
  type TitleLookup,
} from './create.ts';
export { archiveEntry, pathsBeforeArchive, restoreEntry, withCollisionSuffix, type MoveResult } from './move.ts';

export interface EditEntryResult {
  path: string;
  docId: string;
  strategy: ReplaceStrategy;
  /** Whether the bytes changed (replacing a passage with itself writes nothing). */
  changed: boolean;
}

const EDIT_CODES: Record<'target-too-short' | 'target-too-long' | 'not-found' | 'ambiguous', DiaryErrorCode> = {
  'target-too-short': 'target-too-short',
  'target-too-long': 'target-too-long',
  'not-found': 'target-not-found',
  ambiguous: 'target-ambiguous',
};

/**
 * Replaces one anchored passage of a diary. Any failure throws a DiaryError and leaves the file
 * byte for byte as it was; success replaces it atomically (keeping its permissions).
 */
export async function editEntry(diaryDir: string, relPath: string, target: string, replacement: string, minTarget: number): Promise<EditEntryResult> {
  const abs = safeJoin(diaryDir, relPath);
  if (!DIARY_EXTS.has(extOf(abs))) throw new DiaryError('invalid-input', `only .txt and .md diaries can be edited: ${relPath}`);
  const file = await readForRewrite(abs, relPath);
  const content = file.text;
  const result = anchoredReplace(content, target, matchLineEndings(content, replacement), minTarget);
  if (!result.ok) {
    throw new DiaryError(EDIT_CODES[result.code], `${relPath}: ${result.message}`, {
      path: relPath,
      ...(result.matches !== undefined ? { matches: result.matches } : {}),
    });
  }
  const changed = result.content !== content;
  if (changed) assertWritableSize(result.content, relPath);
  // Re-checked under the lock right before the rename: a change made meanwhile is not overwritten.
  if (changed) await rewriteIfUnchanged(abs, file, result.content);
  const path = checkRelativePath(relPath).join('/');
  return { path, docId: docIdFor('diary', path), strategy: result.strategy, changed };
}
