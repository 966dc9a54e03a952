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

/**
 * A scope made ready for many page requests: ordered once, with each memory's search text and the
 * facets computed once. The server keeps one per scope until the index changes, so a keystroke pays
 * only the scan of the search texts and the slice.
 */
export interface PreparedScope<M> {
  sorted: M[];
  /** Lower-cased search text of `sorted[i]`. */
  haystacks: string[];
  categories: [string, number][];
  tags: [string, number][];
}

export function prepareScope<M extends PageableMemory>(scope: readonly M[]): PreparedScope<M> {
  const sorted = [...scope].sort(compareForLibrary);
  return {
    sorted,
    haystacks: sorted.map(haystack),
    categories: counted(scope.map((m) => m.category)),
    tags: counted(scope.flatMap((m) => m.tags)),
  };
}

type Filter = Pick<PageInput, 'query' | 'category' | 'tag'>;

/** Positions in `sorted` of the memories matching the filters (in order). */
export function matchingPositions<M extends PageableMemory>(prepared: PreparedScope<M>, input: Filter): number[] {
  const words = input.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const out: number[] = [];
  const { sorted, haystacks } = prepared;
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i]!;
    if (input.category && (m.category || '/') !== input.category) continue;
    if (input.tag && !m.tags.includes(input.tag)) continue;
    if (words.length > 0 && !words.every((w) => haystacks[i]!.includes(w))) continue;
    out.push(i);
  }
  return out;
}

export function pageOfPrepared<M extends PageableMemory>(
  prepared: PreparedScope<M>,
  input: Pick<PageInput, 'offset' | 'limit'>,
  positions: readonly number[],
): MemoryPage<M> {
  return {
    total: positions.length,
    scopeTotal: prepared.sorted.length,
    offset: input.offset,
    items: positions.slice(input.offset, input.offset + input.limit).map((i) => prepared.sorted[i]!),
    categories: prepared.categories,
    tags: prepared.tags,
  };
}

export function pageOfMemories<M extends PageableMemory>(scope: readonly M[], input: Pick<PageInput, 'query' | 'category' | 'tag' | 'offset' | 'limit'>): MemoryPage<M> {
  const prepared = prepareScope(scope);
  return pageOfPrepared(prepared, input, matchingPositions(prepared, input));
}
