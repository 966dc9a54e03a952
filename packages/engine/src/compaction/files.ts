// The compaction channel's files: the minor-rules book and the archive of each session, and the
// trash they move to. Every path is built by safeJoin under the data dir (no "..", no absolute
// path, no way out through a symlink); every write is atomic; every delete first proves its target
// lies strictly inside the folder it belongs to.
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { safeJoin, writeFileAtomic } from '../diary/fsio.ts';
import { fsCode } from '../diary/errors.ts';
import { parseArchive, emptyArchive, renderArchive, type ArchiveDoc } from './archive.ts';
import { ARCHIVE_FILE, assertStrictlyInside, COMPACTION_DIR, LOOK_AGAIN_FILE, RULES_FILE, sessionDir, TRASH_DIR, safeSegment } from './paths.ts';
import { parseRulesBook, renderRulesBook, type RuleEntry } from './rules-book.ts';
import type { LookAgainState, SessionScope } from './types.ts';

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (fsCode(error) === 'ENOENT') return null;
    throw error;
  }
}

export class CompactionFiles {
  constructor(readonly dataDir: string) {}

  /** Absolute path of a file or folder under the data dir; throws DiaryError 'path-escape'. */
  pathOf(relative: string): string {
    return safeJoin(this.dataDir, relative);
  }

  /** Creates a folder under the data dir one level at a time, checking each level. */
  private async ensureDir(relative: string): Promise<string> {
    const segments = relative.split('/');
    let path = '';
    for (let i = 0; i < segments.length; i++) {
      path = segments.slice(0, i + 1).join('/');
      await mkdir(this.pathOf(path), { recursive: false }).catch((error) => {
        if (fsCode(error) !== 'EEXIST') throw error;
      });
    }
    return this.pathOf(relative);
  }

  rulesPath(scope: SessionScope): string {
    return this.pathOf(`${sessionDir(scope)}/${RULES_FILE}`);
  }

  archivePath(scope: SessionScope): string {
    return this.pathOf(`${sessionDir(scope)}/${ARCHIVE_FILE}`);
  }

  async readRules(scope: SessionScope): Promise<RuleEntry[]> {
    const text = await readOrNull(this.rulesPath(scope));
    return text === null ? [] : parseRulesBook(text);
  }

  async writeRules(scope: SessionScope, entries: readonly RuleEntry[]): Promise<void> {
    await this.ensureDir(sessionDir(scope));
    await writeFileAtomic(this.rulesPath(scope), renderRulesBook(entries, scope.sessionId));
  }

  async readArchive(scope: SessionScope): Promise<ArchiveDoc> {
    const text = await readOrNull(this.archivePath(scope));
    return text === null ? emptyArchive() : parseArchive(text);
  }

  async writeArchive(scope: SessionScope, doc: ArchiveDoc, maxBytes: number): Promise<void> {
    await this.ensureDir(sessionDir(scope));
    await writeFileAtomic(this.archivePath(scope), renderArchive(doc, scope.sessionId, maxBytes));
  }

  lookAgainPath(scope: SessionScope): string {
    return this.pathOf(`${sessionDir(scope)}/${LOOK_AGAIN_FILE}`);
  }

  /** What "look again" needs after a restart; null when never written or unreadable (then it is rebuilt at the next step). */
  async readLookAgain(scope: SessionScope): Promise<LookAgainState | null> {
    const text = await readOrNull(this.lookAgainPath(scope));
    if (text === null) return null;
    try {
      const value = JSON.parse(text) as Partial<LookAgainState>;
      if (typeof value?.question !== 'string') return null;
      const route = value.mainRoute;
      const mainRoute = route && typeof route.provider === 'string' && typeof route.model === 'string' ? { provider: route.provider, model: route.model } : null;
      return { question: value.question, mainRoute, at: typeof value.at === 'string' ? value.at : '' };
    } catch {
      return null;
    }
  }

  async writeLookAgain(scope: SessionScope, state: LookAgainState): Promise<void> {
    await this.ensureDir(sessionDir(scope));
    await writeFileAtomic(this.lookAgainPath(scope), `${JSON.stringify(state)}\n`);
  }

  /** The trash entry a session's folder moved to when it was trashed at `stamp`. */
  trashEntryName(scope: SessionScope, stamp: string): string {
    return safeSegment(`${stamp}_${sessionDir(scope).split('/').slice(1).join('__')}`);
  }

  /** The trash entries' names (none when there is no trash yet). */
  async trashEntries(): Promise<string[]> {
    return (await readOrNullDir(this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}`))) ?? [];
  }

  /** Moves a session's folder into the trash; returns the trash entry's name, null when there was none. */
  async trashSession(scope: SessionScope, stamp: string): Promise<string | null> {
    const from = this.pathOf(sessionDir(scope));
    if ((await readOrNullDir(from)) === null) return null;
    assertStrictlyInside(this.pathOf(COMPACTION_DIR), from);
    const name = this.trashEntryName(scope, stamp);
    await this.ensureDir(`${COMPACTION_DIR}/${TRASH_DIR}`);
    const to = this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}/${name}`);
    await rename(from, to);
    return name;
  }

  /** Moves a trash entry back to the session's folder (refused when the folder exists again). */
  async restoreSession(scope: SessionScope, trashName: string): Promise<boolean> {
    const from = this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}/${safeSegment(trashName)}`);
    if ((await readOrNullDir(from)) === null) return false;
    assertStrictlyInside(this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}`), from);
    const rel = sessionDir(scope);
    await this.ensureDir(rel.split('/').slice(0, -1).join('/'));
    const to = this.pathOf(rel);
    if ((await readOrNullDir(to)) !== null) return false;
    await rename(from, to);
    return true;
  }

  /** Removes one trash entry for good. */
  async purgeTrashEntry(trashName: string): Promise<boolean> {
    const trashRoot = this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}`);
    const target = this.pathOf(`${COMPACTION_DIR}/${TRASH_DIR}/${safeSegment(trashName)}`);
    if ((await readOrNullDir(target)) === null) return false;
    assertStrictlyInside(trashRoot, target);
    await rm(target, { recursive: true, force: true });
    return true;
  }

  /** Removes a session's folder for good (when the trash is off). */
  async removeSession(scope: SessionScope): Promise<boolean> {
    const target = this.pathOf(sessionDir(scope));
    if ((await readOrNullDir(target)) === null) return false;
    assertStrictlyInside(this.pathOf(COMPACTION_DIR), target);
    await rm(target, { recursive: true, force: true });
    return true;
  }
}

async function readOrNullDir(path: string): Promise<string[] | null> {
  try {
    return await readdir(path);
  } catch (error) {
    const code = fsCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
