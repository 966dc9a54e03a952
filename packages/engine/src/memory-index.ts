// The layered index a model reads first: pinned memories, then the most recently changed. Pure.
import type { MemorySummary } from './api.ts';
import type { MemoryMeta } from './diary/meta.ts';

export type MetaPatch = Partial<Pick<MemoryMeta, 'pinned' | 'locked' | 'workspace' | 'supersedes'>>;

export interface MemoryIndexPage {
  items: MemorySummary[];
  total: number;
  page: number;
  pages: number;
  pageSize: number;
}

/** Pinned first; within each group the latest change first; ties by path (stable across calls). */
export function indexOrder(a: MemorySummary, b: MemorySummary): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  return a.path.localeCompare(b.path);
}

export function pageOfIndex(all: MemorySummary[], page: number, pageSize: number): MemoryIndexPage {
  const size = Math.min(100, Math.max(1, Math.floor(pageSize) || 20));
  const sorted = [...all].sort(indexOrder);
  const pages = Math.max(1, Math.ceil(sorted.length / size));
  const p = Math.min(pages, Math.max(1, Math.floor(page) || 1));
  return { items: sorted.slice((p - 1) * size, p * size), total: sorted.length, page: p, pages, pageSize: size };
}
