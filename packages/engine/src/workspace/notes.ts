// Semantic write blocks from a session that works in a workspace: a new memory carries the
// session's workspace, session id and origin; an update may only touch what that session sees
// (its workspace + global). Engine.applyNoteBlocks knows no session, so this builds the note
// writer from the engine's public methods (the same writer and writer lock underneath).
import type { WriteResult } from '../api.ts';
import type { MemoryMeta } from '../diary/meta.ts';
import type { ConfigSource, MemoryLister, MemoryWriter } from '../memories/ports.ts';
import { applyNotes, type NoteBlockResult, type NoteWriterHost } from '../notes.ts';

export interface NoteScope {
  /** The session's workspace (or 'global'). */
  workspace: string;
  sessionId: string | null;
  origin?: MemoryMeta['origin'];
}

/** What scoped note blocks need: the settings, the memory list and the writer. */
export type ScopedNoteEngine = ConfigSource & MemoryLister & Pick<MemoryWriter, 'write' | 'edit'>;

/** Applies the blocks in `text` once each (hashes in `applied` are skipped), scoped to `scope`. */
export async function applyScopedNoteBlocks(
  engine: ScopedNoteEngine,
  text: string,
  applied: Set<string>,
  scope: NoteScope,
): Promise<{ results: NoteBlockResult[]; errors: { index: number; message: string }[] }> {
  const visible = (await engine.list({ workspace: scope.workspace })).filter((m) => m.root === 'diary');
  const meta: Partial<MemoryMeta> = { workspace: scope.workspace, origin: scope.origin ?? 'agent', ...(scope.sessionId ? { sessionId: scope.sessionId } : {}) };
  const host: NoteWriterHost = {
    diaryDir: engine.config.diaryDir,
    minTarget: engine.config.diary.updateMinTarget,
    titles: () => new Set(visible.map((m) => m.title)),
    diaryDocs: () => visible.map((m) => ({ id: m.docId, path: m.path, title: m.title })),
    write: (input): Promise<WriteResult> => engine.write({ ...input, meta }),
    edit: (docId, target, replacement) => engine.edit(docId, target, replacement),
  };
  return applyNotes(host, text, applied);
}
