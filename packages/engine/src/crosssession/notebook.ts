// A session's private notebook, kept in the same per-session folder as the compaction channel's
// minor-rules book and archive (compaction/paths.ts decides where that folder is; this module only
// adds files to it, so deleting or trashing a session's compaction folder takes its notebook along).
//   notes.md          — private notes, written by the person or the agent; never injected;
//   session-rules.md  — this session's own rules; injected, highest precedence;
//   minor-rules.md    — the compaction channel's book (read here, written only by compaction).
// A replace never loses the old text: it is copied into notebook-bak/ first (a new file each time).
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CompactionFiles } from '../compaction/files.ts';
import { parseRulesBook, type RuleEntry } from '../compaction/rules-book.ts';
import { RULES_FILE, sessionDir } from '../compaction/paths.ts';
import { charLength, normaliseLineEnds } from '../compaction/text.ts';
import type { SessionScope } from '../compaction/types.ts';
import { DiaryError, fsCode } from '../diary/errors.ts';
import { createFileExclusive } from '../diary/fsio.ts';
import { withLayoutOf } from '../diary/lines.ts';
import { decodeText, readForRewrite, rewriteIfUnchanged, type DiaryFileText } from '../diary/textfile.ts';
import { EngramError } from '../errors.ts';
import { renderNotebookInjection } from './notebook-render.ts';
import { ensureDataDir } from '../security/install-token.ts';

export type NotebookBook = 'notes' | 'rules' | 'minor';
export type WritableBook = 'notes' | 'rules';
export type NotebookWriteMode = 'append' | 'replace';

export const NOTES_FILE = 'notes.md';
export const SESSION_RULES_FILE = 'session-rules.md';
export const NOTEBOOK_BACKUP_DIR = 'notebook-bak';
/** One write at most (characters). */
export const NOTEBOOK_WRITE_MAX = 20_000;
/** A whole book at most (characters): a notebook is not a place for documents. */
export const NOTEBOOK_FILE_MAX = 200_000;

const FILE_OF: Record<WritableBook, string> = { notes: NOTES_FILE, rules: SESSION_RULES_FILE };

/**
 * A session id that may name a folder. compaction/paths.ts would reduce any string to a safe segment,
 * but an id carrying a path separator or ".." is not an odd id, it is an attempt: refused outright.
 */
export function checkSessionId(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || sessionId.trim() === '') throw new DiaryError('path-escape', 'a session id is required');
  // eslint-disable-next-line no-control-regex
  if (sessionId.length > 200 || /[\\/\u0000-\u001f\u007f]/.test(sessionId) || sessionId.includes('..') || sessionId.trim() === '.') {
    throw new DiaryError('path-escape', `refusing a session id that could name another folder: ${JSON.stringify(sessionId.slice(0, 60))}`);
  }
  return sessionId;
}

export const isWritableBook = (which: unknown): which is WritableBook => which === 'notes' || which === 'rules';
export const isNotebookBook = (which: unknown): which is NotebookBook => isWritableBook(which) || which === 'minor';

export interface NotebookWriteResult {
  which: WritableBook;
  mode: NotebookWriteMode;
  /** Characters in the book after the write. */
  chars: number;
  /** false when a replace brought the same text. */
  changed: boolean;
  /** Where the replaced text was kept (relative to the data dir), null when nothing was replaced. */
  backup: string | null;
}

/**
 * A book's bytes as the words to show or inject: UTF-16 by its BOM as the scanner reads a diary, the
 * BOM dropped, line ends as LF. Bytes that are not text read as UTF-8 with U+FFFD — shown, never
 * written back (a write refuses such a book).
 */
const bookText = (bytes: Buffer): string => {
  const decoded = decodeText(bytes);
  return wordsOf(decoded.ok ? decoded.text : bytes.toString('utf8'));
};

/** A book's text without its BOM, line ends as LF: what is shown, injected and composed. */
const wordsOf = (text: string): string => normaliseLineEnds(text.replace(/^\uFEFF/, ''));

const readOrEmpty = async (path: string): Promise<string> => {
  try {
    return bookText(await readFile(path));
  } catch (error) {
    if (fsCode(error) === 'ENOENT') return '';
    throw error;
  }
};

/** The book for a rewrite (readForRewrite), or null when there is none yet (readForRewrite says so with 'not-found'). */
const readBookForRewrite = async (path: string): Promise<DiaryFileText | null> => {
  try {
    return await readForRewrite(path, basename(path));
  } catch (error) {
    if (error instanceof DiaryError && error.code === 'not-found') return null;
    throw error;
  }
};

const readOrEmptySync = (path: string): string => {
  try {
    return bookText(readFileSync(path));
  } catch (error) {
    if (fsCode(error) === 'ENOENT') return '';
    throw error;
  }
};

export class NotebookFiles {
  private readonly compaction: CompactionFiles;
  /** Writes to one book run one after another (a read-modify-write must not interleave). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly dataDir: string) {
    this.compaction = new CompactionFiles(dataDir);
  }

  private scopeOf(scope: SessionScope): SessionScope {
    return { workspace: typeof scope.workspace === 'string' ? scope.workspace : '', sessionId: checkSessionId(scope.sessionId) };
  }

  /** Path of a book relative to the data dir. */
  relativePath(scope: SessionScope, which: NotebookBook): string {
    const s = this.scopeOf(scope);
    return `${sessionDir(s)}/${which === 'minor' ? RULES_FILE : FILE_OF[which]}`;
  }

  /** Absolute path of a book; throws DiaryError 'path-escape' for anything that would leave the data dir. */
  pathOf(scope: SessionScope, which: NotebookBook): string {
    const s = this.scopeOf(scope);
    return this.compaction.pathOf(this.relativePath(s, which));
  }

  async read(scope: SessionScope, which: WritableBook): Promise<string> {
    return readOrEmpty(this.pathOf(scope, which));
  }

  async readMinor(scope: SessionScope): Promise<RuleEntry[]> {
    return this.compaction.readRules(this.scopeOf(scope));
  }

  /** Synchronous reads for the system-prompt section, whose text() cannot wait. */
  readSync(scope: SessionScope, which: WritableBook): string {
    return readOrEmptySync(this.pathOf(scope, which));
  }

  readMinorSync(scope: SessionScope): RuleEntry[] {
    const text = readOrEmptySync(this.pathOf(scope, 'minor'));
    return text === '' ? [] : parseRulesBook(text);
  }

  /** The injected text ('' when both injected books are empty). */
  injectionSync(scope: SessionScope, maxChars: number, opts: { includeMinor?: boolean } = {}): string {
    if (maxChars <= 0) return '';
    const includeMinor = opts.includeMinor ?? true;
    return renderNotebookInjection({ rules: this.readSync(scope, 'rules'), minor: includeMinor ? this.readMinorSync(scope) : [], minorElsewhere: !includeMinor }, maxChars);
  }

  async write(scope: SessionScope, which: WritableBook, text: string, mode: NotebookWriteMode, now: Date): Promise<NotebookWriteResult> {
    if (!isWritableBook(which)) throw new EngramError('bad-input', `只能写 notes 或 rules,不能写 ${String(which)}(次要规则由压缩自动归纳)`);
    if (mode !== 'append' && mode !== 'replace') throw new EngramError('bad-input', `mode 只能是 append 或 replace`);
    if (typeof text !== 'string' || text.trim() === '') throw new EngramError('bad-input', '写入内容不能为空');
    const added = normaliseLineEnds(text).trim();
    if (charLength(added) > NOTEBOOK_WRITE_MAX) throw new EngramError('too-long', `一次最多写 ${NOTEBOOK_WRITE_MAX} 字,这次 ${charLength(added)} 字`);
    const s = this.scopeOf(scope);
    const path = this.pathOf(s, which);
    return this.serial(path, async () => {
      // The book as its bytes and encoding: the person may have saved it in their editor (UTF-16, a
      // BOM, CRLF), and it is written back only over those bytes, in that encoding. A book that is
      // not text (GBK) is refused as it is, never rewritten as U+FFFD.
      const before = await readBookForRewrite(path);
      const old = before?.text ?? '';
      const oldWords = wordsOf(old);
      // Composed in LF, then laid out as the book is: its BOM (without it a UTF-16 book would no
      // longer read as text) and its line endings, the old lines keeping their own.
      const composed = mode === 'replace' || oldWords.trim() === '' ? `${added}\n` : `${oldWords.replace(/\s+$/, '')}\n\n${added}\n`;
      const next = withLayoutOf(old, composed);
      const chars = charLength(next);
      if (chars > NOTEBOOK_FILE_MAX) throw new EngramError('too-long', `写入后这本有 ${chars} 字,超过上限 ${NOTEBOOK_FILE_MAX} 字;先整理(replace)再写`);
      if (next === old) return { which, mode, chars, changed: false, backup: null };
      await this.ensureDir(sessionDir(s));
      // Before the old text is replaced it is copied out; the copy is never overwritten.
      const backup = mode === 'replace' && old.trim() !== '' ? await this.backup(s, which, old, now) : null;
      if (before === null) await createFileExclusive(path, next);
      else await rewriteIfUnchanged(path, before, next);
      return { which, mode, chars, changed: true, backup };
    });
  }

  private async backup(scope: SessionScope, which: WritableBook, text: string, now: Date): Promise<string> {
    const dir = `${sessionDir(scope)}/${NOTEBOOK_BACKUP_DIR}`;
    await this.ensureDir(dir);
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const base = FILE_OF[which].replace(/\.md$/, '');
    for (let n = 1; ; n++) {
      const relative = `${dir}/${base}-${stamp}${n > 1 ? `-${n}` : ''}.md`;
      try {
        await createFileExclusive(this.compaction.pathOf(relative), text);
        return relative;
      } catch (error) {
        if (!(error instanceof DiaryError && error.code === 'exists') || n >= 1000) throw error;
      }
    }
  }

  /** Creates a folder under the data dir one level at a time, each level checked by safeJoin. */
  private async ensureDir(relative: string): Promise<void> {
    ensureDataDir(this.dataDir);
    const segments = relative.split('/');
    for (let i = 0; i < segments.length; i++) {
      await mkdir(this.compaction.pathOf(segments.slice(0, i + 1).join('/'))).catch((error) => {
        if (fsCode(error) !== 'EEXIST') throw error;
      });
    }
  }

  private serial<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const current = previous.then(run, run);
    const tail = current.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return current;
  }
}
