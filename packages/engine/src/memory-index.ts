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

/** What the index orders by: a summary, or a row's index facts (index/stored-rows.ts) before its summary is built. */
type IndexKey = Pick<MemorySummary, 'pinned' | 'mtimeMs' | 'path'>;

/** Pinned first; within each group the latest change first; ties by path (stable across calls). */
export function indexOrder(a: IndexKey, b: IndexKey): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  return a.path.localeCompare(b.path);
}

/** One page of `all` in index order; `summarise` turns only that page's entries into summaries. */
export function pageOfIndex<T extends IndexKey>(all: readonly T[], page: number, pageSize: number, summarise: (entry: T) => MemorySummary = (e) => e as unknown as MemorySummary): MemoryIndexPage {
  return pageOfOrdered([...all].sort(indexOrder), page, pageSize, summarise);
}

/** One page of `sorted`, already in index order (indexOrder). */
export function pageOfOrdered<T>(sorted: readonly T[], page: number, pageSize: number, summarise: (entry: T) => MemorySummary): MemoryIndexPage {
  const size = Math.min(100, Math.max(1, Math.floor(pageSize) || 20));
  const pages = Math.max(1, Math.ceil(sorted.length / size));
  const p = Math.min(pages, Math.max(1, Math.floor(page) || 1));
  return { items: sorted.slice((p - 1) * size, p * size).map(summarise), total: sorted.length, page: p, pages, pageSize: size };
}

/** What the recent list orders by. */
type RecentKey = { pinned: boolean; date: string; mtimeMs: number; path: string };

/** Pinned first, then the newest diary date, then the latest change; ties by path (a light view's "recent" list). */
export function recentOrder(a: RecentKey, b: RecentKey): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  return a.path.localeCompare(b.path);
}
