// Memory.md (seed 001-56): a file in the workspace folder a person can read, mirroring that
// workspace's memories (pinned first, then the most recently changed, one line each with its
// summary). It is generated: marked so on its first line, written atomically, rewritten when the
// memories change, and never a memory source — it is refused where the diary scan would read it.
// A Memory.md without the marker is the person's own file: it is never overwritten. The part under
// the notes marker (「手记」) is theirs too and is carried over verbatim on every rewrite.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { EngramConfig } from '../config/schema.ts';
import { localDateString, localTimeString } from '../diary/dates.ts';
import { DiaryError } from '../diary/errors.ts';
import { isDirectorySync } from '../diary/files.ts';
import { createFileExclusive, replaceIfUnchanged } from '../diary/fsio.ts';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { MemoryIndexReader } from '../memories/ports.ts';
import { errorMessage } from '../errors.ts';
import type { WorkspaceIndexEntry } from '../preview/texts.ts';

export const MEMORY_MIRROR_FILE = 'Memory.md';
/** The first line of a generated mirror starts with this; a file without it is never overwritten. */
export const MIRROR_MARKER = '<!-- engram:generated';
/** Everything from this line on is the person's own 「手记」, kept verbatim. */
export const NOTES_MARKER = '<!-- engram:notes';
/** The seed's per-workspace limit: the mirror lists at most this many. */
export const MIRROR_MAX_ITEMS = 500;

const HEAD =
  `${MIRROR_MARKER} 本文件由 Engram 自动生成，镜像这个工作区的记忆。改这里不会改记忆（记忆存在日记文件夹里），写入新记忆后会被重写；只有文末「手记」标记以下的内容会原样保留。 -->`;
const NOTES_HEAD = `${NOTES_MARKER} 以下是你自己的手记：Engram 重写本文件时原样保留 -->`;
const UPDATED = '更新于 ';

export interface MirrorWorkspace {
  id: string;
  name: string;
  /** The workspace folder ('' = none: global, or a workspace only memories know). */
  path: string;
}

/** 'changed': the person saved Memory.md while it was being built; nothing was written. */
export type MirrorStatus = 'written' | 'unchanged' | 'changed' | 'off' | 'foreign' | 'inside-diary' | 'no-folder' | 'failed';

export interface MirrorOutcome {
  status: MirrorStatus;
  /** The Memory.md path ('' when the workspace has no folder). */
  path: string;
  /** Memories listed (written / unchanged). */
  listed: number;
  /** For a person, in Chinese: what happened and, when nothing was written, why. */
  message: string;
}

const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The mirror's text. Pure: `updatedAt` is shown as given, `notes` (from the notes marker on) kept verbatim. */
export function renderMemoryMirror(workspace: Pick<MirrorWorkspace, 'name' | 'path'>, entries: readonly WorkspaceIndexEntry[], updatedAt: string, notes: string | null): string {
  const lines = [HEAD, `# 工作区记忆：${flat(workspace.name) || workspace.path}`, ''];
  lines.push(`${UPDATED}${updatedAt} · 共 ${entries.length} 条（置顶在前，其余按最近更新）`, '');
  if (entries.length === 0) lines.push('（这个工作区还没有记忆。）');
  for (const e of entries) {
    const summary = flat(e.summary);
    lines.push(`- ${e.date} · ${flat(e.title)}${e.pinned ? '〔置顶〕' : ''}${summary ? `：${summary}` : ''} (docId: ${e.docId})`);
  }
  lines.push('', notes ?? `${NOTES_HEAD}\n## 手记\n`);
  const text = lines.join('\n');
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** A file's text is a generated mirror: its first line carries the marker. */
export const isGeneratedMirror = (text: string): boolean => text.replace(/^\uFEFF/, '').split('\n', 1)[0]!.startsWith(MIRROR_MARKER);

/** The person's notes part of a mirror (from the notes marker on), null when it has none. */
export function notesOf(text: string): string | null {
  const at = text.search(new RegExp(`^${NOTES_MARKER}`, 'm'));
  return at < 0 ? null : text.slice(at);
}

/** The text without its 更新于 line: two renders of the same memories compare equal. */
const withoutTimestamp = (text: string): string => text.replace(new RegExp(`^${UPDATED}[^·\\n]*·`, 'm'), '');

/** The workspace's own memories in the index's order (pinned first, then by last change), global ones left out. */
async function ownEntries(engine: MemoryIndexReader, id: string): Promise<WorkspaceIndexEntry[]> {
  const out: WorkspaceIndexEntry[] = [];
  for (let page = 1; out.length < MIRROR_MAX_ITEMS; page++) {
    const result = await engine.memoryIndex({ workspace: id, page, pageSize: 100 });
    for (const m of result.items) {
      if (m.workspace === id && out.length < MIRROR_MAX_ITEMS) out.push({ docId: m.docId, date: m.date, title: m.title, summary: m.summary, pinned: m.pinned, global: false });
    }
    if (page >= result.pages) break;
  }
  return out;
}

/** `inner` is `outer` or inside it (both absolute). */
function within(inner: string, outer: string): boolean {
  const rel = relative(resolve(outer), resolve(inner));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}


/**
 * Writes (or rewrites) the workspace's Memory.md when its memories changed; never throws. Refused,
 * with the reason, when the setting is off, the workspace has no folder, the folder is one the diary
 * scan reads (the mirror would come back as a memory), or a Memory.md there is not ours.
 */
export async function refreshMemoryMirror(
  engine: MemoryIndexReader & { config: Pick<EngramConfig, 'diaryDir' | 'legacyDir'> & { workspace: Pick<EngramConfig['workspace'], 'mirror'> } },
  workspace: MirrorWorkspace,
  options: { now?: Date } = {},
): Promise<MirrorOutcome> {
  const folder = workspace.path;
  const path = folder ? join(folder, MEMORY_MIRROR_FILE) : '';
  const outcome = (status: MirrorStatus, message: string, listed = 0): MirrorOutcome => ({ status, path, listed, message });
  const config = engine.config;
  if (!config.workspace.mirror) return outcome('off', '设置里关掉了 Memory.md 镜像，没有写入。');
  if (workspace.id === GLOBAL_WORKSPACE || !folder) return outcome('no-folder', '这个工作区没有对应的文件夹，不写 Memory.md。');
  if (!isDirectorySync(folder)) return outcome('no-folder', `工作区文件夹不存在：${folder}，没有写入 Memory.md。`);
  for (const root of [config.diaryDir, config.legacyDir]) {
    if (root && within(path, root)) {
      return outcome('inside-diary', `工作区文件夹在日记文件夹（${root}）里面：Memory.md 会被当成一条记忆读回去，所以没有写入。`);
    }
  }
  try {
    let existing: string | null = null;
    let existingBytes: Buffer | null = null;
    if (existsSync(path)) {
      existingBytes = await readFile(path);
      existing = existingBytes.toString('utf8');
      if (!isGeneratedMirror(existing)) {
        return outcome('foreign', `工作区里已有一份不是 Engram 生成的 Memory.md（${path}）。为了不覆盖你自己的内容，没有写入记忆镜像；把它改名或挪走后会自动生成，也可以在设置里关掉「Memory.md 镜像」。`);
      }
    }
    const own = await ownEntries(engine, workspace.id);
    const now = options.now ?? new Date();
    const text = renderMemoryMirror(workspace, own, `${localDateString(now.getTime())} ${localTimeString(now.getTime())}`, existing === null ? null : notesOf(existing));
    if (existing !== null && withoutTimestamp(existing) === withoutTimestamp(text)) return outcome('unchanged', `Memory.md 已是最新（${own.length} 条）。`, own.length);
    // Listing the memories takes a moment, in which the person's editor may save Memory.md (their 手记,
    // or a file of their own where there was none): written only over what was read, or where
    // nothing is; otherwise their save stays and the next refresh starts from it.
    try {
      if (existingBytes === null) await createFileExclusive(path, text);
      else await replaceIfUnchanged(path, existingBytes, Buffer.from(text, 'utf8'));
    } catch (error) {
      if (error instanceof DiaryError && (error.code === 'conflict' || error.code === 'exists')) {
        return outcome('changed', `Memory.md 在生成时被改过（${path}）：这次没有写入，以免覆盖你的修改；下次刷新会在它的基础上更新。`);
      }
      throw error;
    }
    return outcome('written', `已写入 Memory.md（${own.length} 条）。`, own.length);
  } catch (error) {
    return outcome('failed', `写 Memory.md 失败：${errorMessage(error)}`);
  }
}

/**
 * Every known workspace's mirror, for a process that does not know which workspace a write touched
 * (the console): each folder that still exists is refreshed (a rewrite only where its memories changed).
 */
export async function refreshAllMirrors(
  engine: Parameters<typeof refreshMemoryMirror>[0],
  registry: { list(): Promise<{ id: string; name: string; path: string; kind: string; pathExists: boolean }[]> },
): Promise<MirrorOutcome[]> {
  if (!engine.config.workspace.mirror) return [];
  const out: MirrorOutcome[] = [];
  for (const w of await registry.list()) {
    if (w.kind === 'known' && w.pathExists) out.push(await refreshMemoryMirror(engine, { id: w.id, name: w.name, path: w.path }));
  }
  return out;
}
