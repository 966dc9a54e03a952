import { EngramError } from '../errors.ts';

/** Stable failure codes of the diary layer (scripts and the console branch on these). */
export type DiaryErrorCode =
  | 'title-exists'
  | 'exists'
  | 'path-escape'
  | 'not-found'
  | 'not-a-file'
  | 'diary-dir-missing'
  | 'invalid-input'
  | 'already-archived'
  // a write whose file would exceed what the scanner indexes (DEFAULT_MAX_FILE_BYTES)
  | 'too-large'
  | 'not-archived'
  // anchored edits (editEntry); the pure anchoredReplace reports the same three without "target-"
  | 'target-too-short'
  | 'target-not-found'
  | 'target-ambiguous';

export class DiaryError extends EngramError {
  declare readonly code: DiaryErrorCode;
  constructor(code: DiaryErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'DiaryError';
  }
}

export const isDiaryError = (e: unknown, code?: DiaryErrorCode): e is DiaryError =>
  e instanceof DiaryError && (code === undefined || e.code === code);

/** The errno-style code of a Node fs error, if any. */
export const fsCode = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;
