// Archiving and restoring a diary: a move inside the diary root that never overwrites (a colliding
// name gets -2, -3… before its id) and never deletes.
import { lstat, mkdir } from 'node:fs/promises';
import { DiaryError, isDiaryError, isGoneError, movedAwayError } from './errors.ts';
import { checkRelativePath, moveNoOverwrite, safeJoin } from './fsio.ts';
import { docIdFor } from './ids.ts';
import { parseFileName } from './parse.ts';

export interface MoveResult {
  /** The new relative path. */
  path: string;
  from: string;
  to: string;
  /** docId of the file at its new path. */
  docId: string;
}

/** `name` with a collision counter, placed before an embedded id so the id stays recognisable. */
export function withCollisionSuffix(name: string, n: number): string {
  if (n <= 1) return name;
  const ext = /\.[^.]+$/.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - ext.length);
  const id = parseFileName(name).id;
  if (id && stem.toLowerCase().endsWith(`-${id}`)) {
    return `${stem.slice(0, stem.length - id.length - 1)}-${n}${stem.slice(stem.length - id.length - 1)}${ext}`;
  }
  return `${stem}-${n}${ext}`;
}

/** `name` without the -2, -3… withCollisionSuffix gave it, or null when it has none. */
export function withoutCollisionSuffix(name: string): string | null {
  const ext = /\.[^.]+$/.exec(name)?.[0] ?? '';
  const stem = name.slice(0, name.length - ext.length);
  const id = parseFileName(name).id;
  const idTail = id && stem.toLowerCase().endsWith(`-${id}`) ? stem.slice(stem.length - id.length - 1) : '';
  const head = stem.slice(0, stem.length - idTail.length);
  // 2 and up, no leading zero: a date's "-06" is not a counter.
  const counter = /-(?:[2-9]|[1-9]\d+)$/.exec(head);
  return counter ? `${head.slice(0, counter.index)}${idTail}${ext}` : null;
}

/**
 * The paths a file archived at `archivedPath` may have had before archiveEntry moved it: its
 * sub-path below the archive folder, and that without the collision counter its name may have
 * been given (a name can end in -2 of its own). [] when the file is not in the archive folder.
 */
export function pathsBeforeArchive(archivedPath: string, archiveFolder: string): string[] {
  const segments = checkRelativePath(archivedPath);
  const archiveSegments = checkRelativePath(archiveFolder);
  if (archiveSegments.length === 0 || segments.length <= archiveSegments.length || !archiveSegments.every((s, i) => segments[i] === s)) return [];
  const folders = segments.slice(archiveSegments.length, -1);
  const name = segments[segments.length - 1]!;
  const unsuffixed = withoutCollisionSuffix(name);
  return [name, ...(unsuffixed === null ? [] : [unsuffixed])].map((n) => [...folders, n].join('/'));
}

async function moveWithinRoot(diaryDir: string, fromSegments: string[], toDirSegments: string[]): Promise<MoveResult> {
  const fromRel = fromSegments.join('/');
  const src = safeJoin(diaryDir, fromRel);
  try {
    const st = await lstat(src);
    if (!st.isFile()) throw new DiaryError('not-a-file', `not a regular file: ${fromRel}`);
  } catch (e) {
    if (isDiaryError(e)) throw e;
    if (isGoneError(e)) throw movedAwayError(fromRel);
    throw e;
  }
  const toDirRel = toDirSegments.join('/');
  await mkdir(safeJoin(diaryDir, toDirRel), { recursive: true });
  const name = fromSegments[fromSegments.length - 1]!;
  for (let n = 1; n <= 1000; n++) {
    const toRel = [...toDirSegments, withCollisionSuffix(name, n)].join('/');
    try {
      await moveNoOverwrite(src, safeJoin(diaryDir, toRel));
      return { path: toRel, from: fromRel, to: toRel, docId: docIdFor('diary', toRel) };
    } catch (e) {
      if (!isDiaryError(e, 'exists')) throw e;
    }
  }
  throw new DiaryError('exists', `could not find a free name for ${name} in ${toDirRel}`);
}

/** Moves a diary into `<archiveFolder>/<its sub-path>`; never overwrites (adds -2, -3… instead), never deletes. */
export async function archiveEntry(diaryDir: string, relPath: string, archiveFolder: string): Promise<MoveResult> {
  const segments = checkRelativePath(relPath);
  const archiveSegments = checkRelativePath(archiveFolder);
  if (segments.length === 0 || archiveSegments.length === 0) throw new DiaryError('invalid-input', 'a file path and an archive folder are required');
  if (archiveSegments.every((s, i) => segments[i] === s)) throw new DiaryError('already-archived', `${relPath} is already in ${archiveFolder}/`);
  return moveWithinRoot(diaryDir, segments, [...archiveSegments, ...segments.slice(0, -1)]);
}

/** Moves an archived diary back to its original sub-folder (the inverse of archiveEntry). */
export async function restoreEntry(diaryDir: string, relPath: string, archiveFolder: string): Promise<MoveResult> {
  const segments = checkRelativePath(relPath);
  const archiveSegments = checkRelativePath(archiveFolder);
  if (archiveSegments.length === 0 || !archiveSegments.every((s, i) => segments[i] === s) || segments.length <= archiveSegments.length) {
    throw new DiaryError('not-archived', `${relPath} is not inside ${archiveFolder}/`);
  }
  return moveWithinRoot(diaryDir, segments, segments.slice(archiveSegments.length, -1));
}
