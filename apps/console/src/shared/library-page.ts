// One page of the Library, cut on the server: the scope's memories filtered by the search box,
// category and tag, ordered (pinned first, then newest by date and time), with the facets the filters
// offer. Pure, so the order and the search are tested without a browser; the browser only ever holds
// the page it shows, not thousands of memories.
import { z } from 'zod';
import { listInput } from './validators.ts';

export const PAGE_LIMIT_MAX = 200;

export const pageInput = listInput.unwrap().extend({
  /** Words to find in title, summary, tags, path, category or session id (all must match). */
  query: z.string().max(200).default(''),
  /** A category ('/' = the top folder); '' = any. */
  category: z.string().max(300).default(''),
  tag: z.string().max(200).default(''),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(100),
});
export type PageInput = z.infer<typeof pageInput>;

export interface PageableMemory {
  docId: string;
  title: string;
  summary: string;
  path: string;
  category: string;
  tags: string[];
  sessionId?: string | null;
  pinned: boolean;
  date: string;
  time: string | null;
}

export interface MemoryPage<M> {
  /** Memories matching the filters (all pages). */
  total: number;
  /** Memories in the scope before the filters. */
  scopeTotal: number;
  offset: number;
  items: M[];
  /** [name, count] over the scope, most used first. */
  categories: [string, number][];
  tags: [string, number][];
}

/** Pinned first, then newest first: by date, then time of day (an entry without a time last), then path. */
export function compareForLibrary(a: PageableMemory, b: PageableMemory): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  const at = a.time ?? '';
  const bt = b.time ?? '';
  if (at !== bt) return at < bt ? 1 : -1;
  return a.path.localeCompare(b.path);
}

const haystack = (m: PageableMemory) => [m.title, m.summary, m.path, m.category, m.sessionId ?? '', ...m.tags].join('\n').toLowerCase();

function counted(values: Iterable<string>): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function pageOfMemories<M extends PageableMemory>(scope: readonly M[], input: Pick<PageInput, 'query' | 'category' | 'tag' | 'offset' | 'limit'>): MemoryPage<M> {
  const words = input.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matching = scope.filter((m) => {
    if (input.category && (m.category || '/') !== input.category) return false;
    if (input.tag && !m.tags.includes(input.tag)) return false;
    if (words.length === 0) return true;
    const text = haystack(m);
    return words.every((w) => text.includes(w));
  });
  matching.sort(compareForLibrary);
  return {
    total: matching.length,
    scopeTotal: scope.length,
    offset: input.offset,
    items: matching.slice(input.offset, input.offset + input.limit),
    categories: counted(scope.map((m) => m.category)),
    tags: counted(scope.flatMap((m) => m.tags)),
  };
}
