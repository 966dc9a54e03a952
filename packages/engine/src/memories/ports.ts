// What other domains need of the memory service, as small interfaces (#18). Cross-session memory,
// the workspace registry, scoped note blocks and past-session import are given an object with these
// methods (in practice the Engine facade); they never import the facade, so the facade can wire them
// without an import cycle and a test can hand them a fake.
import type { Database, DocumentRow } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import type { MemoryDetail, MemorySummary, WriteInput, WriteResult } from '../api.ts';
import type { MemoryIndexPage, MetaPatch } from '../memory-index.ts';
import type { SummaryQueue } from '../summaries/queue.ts';
import type { WriterLock } from '../diary/lock.ts';

export interface ListOptions {
  includeArchived?: boolean;
  /** That workspace + global (when scoping is on); absent/null = every memory. */
  workspace?: string | null;
  tag?: string;
  /**
   * Only memories whose file changed after this time (ms since the epoch): a cross-session brief asks
   * for what changed since it last looked, and building every memory's summary for it cost a
   * 50,000-note store seconds per brief.
   */
  modifiedAfterMs?: number;
}

export interface EditResult {
  docId: string;
  path: string;
  strategy: string;
}

/** The settings in effect (re-read on every use: a saved setting replaces the object). */
export interface ConfigSource {
  readonly config: EngramConfig;
}

/** The engine's database handle (drizzle) for a domain's own tables. */
export interface DatabaseSource {
  readonly db: Database['db'];
}

export interface MemoryLister {
  list(opts?: ListOptions): Promise<MemorySummary[]>;
}

/** A slice of the list, filtered by `text` (title or tag) and `folder` (category) before summaries are built. */
export interface MemoryPager {
  listPage(opts: ListOptions & { text?: string; folder?: string; offset?: number; limit: number; order?: 'list' | 'recent' }): Promise<{ total: number; items: MemorySummary[] }>;
}

/** The layered index, a page at a time: pinned first, then by last change (what engram_index returns). */
export interface MemoryIndexReader {
  memoryIndex(opts?: { workspace?: string | null; tag?: string; page?: number; pageSize?: number }): Promise<MemoryIndexPage>;
}

export interface MemoryReader extends MemoryLister {
  /** docId, relative path or the id in the file name → the document row. */
  resolve(idOrPath: string): Promise<DocumentRow | null>;
  read(idOrPath: string): Promise<MemoryDetail | null>;
}

export interface MemoryWriter {
  write(input: WriteInput): Promise<WriteResult>;
  edit(idOrPath: string, target: string, replacement: string): Promise<EditResult>;
  saveText(idOrPath: string, raw: string, expectedHash: string): Promise<MemoryDetail>;
  updateMeta(idOrPath: string, patch: MetaPatch): Promise<MemorySummary>;
}

export interface WriterLockSource {
  /** Cross-process single-writer lock of the data folder. */
  readonly writerLock: Pick<WriterLock, 'run'>;
}

export interface SummaryQueueSource {
  summaryQueue(): SummaryQueue;
}
