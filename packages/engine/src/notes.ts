// Semantic write blocks (<<<DailyNoteStart>>> … <<<DailyNoteEnd>>>) found in an assistant reply:
// preview (parse only) and apply (through the same writer as the tools: Engine.write / Engine.edit).
import { readFile } from 'node:fs/promises';
import { anchoredReplace } from './diary/edit.ts';
import { safeJoin } from './diary/fsio.ts';
import { parseNoteBlocks, type NoteBlock } from './diary/semantic-block.ts';
import { EngramError, errorMessage } from './errors.ts';

export interface NoteBlockPreview {
  index: number;
  command: 'create' | 'update';
  hash: string;
  title?: string;
  folder?: string;
  tags?: string[];
  content?: string;
  target?: string;
  replace?: string;
  /** What applying it would do, or why it would fail. */
  outcome: { ok: true; action: string } | { ok: false; code: string; message: string };
}

export interface NoteBlockResult {
  index: number;
  hash: string;
  command: 'create' | 'update';
  ok: boolean;
  /** true when this block's hash was already applied (a replayed delivery). */
  duplicate: boolean;
  docId?: string;
  path?: string;
  code?: string;
  message?: string;
}

/** The parts of the engine the note writer needs. */
export interface NoteWriterHost {
  diaryDir: string;
  minTarget: number;
  titles(): Set<string>;
  diaryDocs(): { id: string; path: string; title: string }[];
  write(input: { title: string; content: string; folder?: string; tags?: string[]; date?: string; time?: string }): Promise<{ docId: string; path: string }>;
  edit(docId: string, target: string, replacement: string): Promise<{ docId: string; path: string }>;
}

/** Finds the one diary document whose text the anchor matches; several or none is an error. */
export async function locateTarget(host: NoteWriterHost, target: string): Promise<{ id: string; path: string; title: string }> {
  const matches: { id: string; path: string; title: string }[] = [];
  let shortCode: string | null = null;
  for (const doc of host.diaryDocs()) {
    let raw: string;
    try {
      raw = await readFile(safeJoin(host.diaryDir, doc.path), 'utf8');
    } catch {
      continue;
    }
    const r = anchoredReplace(raw, target, '', host.minTarget);
    if (r.ok) matches.push(doc);
    else if (r.code === 'target-too-short') shortCode = r.message;
    else if (r.code === 'ambiguous') throw new EngramError('target-ambiguous', `the target text occurs several times in "${doc.title}"`);
  }
  if (shortCode) throw new EngramError('target-too-short', shortCode);
  if (matches.length === 0) throw new EngramError('target-not-found', 'no diary contains the target text');
  if (matches.length > 1) throw new EngramError('target-ambiguous', `the target text occurs in ${matches.length} diaries: ${matches.map((m) => m.title).join(', ')}`);
  return matches[0]!;
}

function describe(block: NoteBlock): Omit<NoteBlockPreview, 'outcome'> {
  return block.command === 'create'
    ? { index: block.index, command: 'create', hash: block.hash, title: block.title, folder: block.folder, tags: block.tags, content: block.content }
    : { index: block.index, command: 'update', hash: block.hash, target: block.target, replace: block.replace };
}

export async function previewNotes(host: NoteWriterHost, text: string): Promise<{ blocks: NoteBlockPreview[]; errors: { index: number; message: string }[] }> {
  const parsed = parseNoteBlocks(text);
  const blocks: NoteBlockPreview[] = [];
  for (const b of parsed.blocks) {
    let outcome: NoteBlockPreview['outcome'];
    if (b.command === 'create') {
      outcome = host.titles().has(b.title)
        ? { ok: false, code: 'title-exists', message: `a memory titled "${b.title}" exists: use command: update` }
        : { ok: true, action: `create "${b.title}"${b.folder ? ` in ${b.folder}/` : ''}` };
    } else {
      try {
        const doc = await locateTarget(host, b.target);
        outcome = { ok: true, action: `${b.replace === '' ? 'delete a passage in' : 'replace a passage in'} "${doc.title}"` };
      } catch (e) {
        outcome = { ok: false, code: (e as EngramError).code ?? 'error', message: errorMessage(e) };
      }
    }
    blocks.push({ ...describe(b), outcome });
  }
  return { blocks, errors: parsed.errors };
}

/** Applies every block once: a hash already in `applied` is skipped (replayed delivery). */
export async function applyNotes(host: NoteWriterHost, text: string, applied: Set<string>): Promise<{ results: NoteBlockResult[]; errors: { index: number; message: string }[] }> {
  const parsed = parseNoteBlocks(text);
  const results: NoteBlockResult[] = [];
  for (const b of parsed.blocks) {
    const base = { index: b.index, hash: b.hash, command: b.command };
    if (applied.has(b.hash)) {
      results.push({ ...base, ok: true, duplicate: true });
      continue;
    }
    applied.add(b.hash);
    try {
      if (b.command === 'create') {
        const w = await host.write({ title: b.title, content: b.content, folder: b.folder, tags: b.tags, date: b.date, time: b.time });
        results.push({ ...base, ok: true, duplicate: false, docId: w.docId, path: w.path });
      } else {
        const doc = await locateTarget(host, b.target);
        const r = await host.edit(doc.id, b.target, b.replace);
        results.push({ ...base, ok: true, duplicate: false, docId: r.docId, path: r.path });
      }
    } catch (e) {
      results.push({ ...base, ok: false, duplicate: false, code: (e as EngramError).code ?? 'error', message: errorMessage(e) });
    }
  }
  return { results, errors: parsed.errors };
}
