'use client';
// The Library's rows, a page of 100 at a time from the server, and the filter state they answer.
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';

/** What the Library's search box and filter selects hold. */
export interface Filters {
  query: string;
  category: string;
  tag: string;
  from: string;
  to: string;
}

export const NO_FILTERS: Filters = { query: '', category: '', tag: '', from: '', to: '' };

/** One row: a page item, with the matched words when the engine's search answered it. */
export type Memory = RouterOutputs['memories']['page']['items'][number] & { matched?: { token: string; fields: string[] }[] };

const PAGE_SIZE = 100;

/**
 * The Library's rows, a page of 100 at a time from the server (search, filters and order applied
 * there). More pages load as the list scrolls; a new filter starts again from the first page, and
 * the previous rows stay visible until its answer arrives (typing never flashes an empty list).
 */
export function useLibraryPages(input: Omit<Filters, 'from' | 'to'> & { includeArchived: boolean; workspace?: string; includeGlobal?: boolean }) {
  const trpc = useTRPC();
  const key = JSON.stringify(input);
  const [pages, setPages] = useState({ key, count: 1 });
  const count = pages.key === key ? pages.count : 1;
  const results = useQueries({
    queries: Array.from({ length: count }, (_, i) => ({
      ...trpc.memories.page.queryOptions({ ...input, offset: i * PAGE_SIZE, limit: PAGE_SIZE }),
      placeholderData: i === 0 ? keepPreviousData : undefined,
    })),
  });
  const first = results[0]!;
  const items = useMemo(() => results.flatMap((r) => r.data?.items ?? []), [results]);
  const total = first.data?.total ?? 0;
  const loadingMore = results.some((r) => r.isFetching);
  const more = useCallback(() => {
    if (items.length < total && !loadingMore) setPages({ key, count: count + 1 });
  }, [items.length, total, loadingMore, key, count]);
  return {
    items,
    total,
    scopeTotal: first.data?.scopeTotal ?? 0,
    categories: first.data?.categories ?? [],
    tags: first.data?.tags ?? [],
    isLoading: first.isLoading,
    /** True while the rows shown are the previous filter's. */
    isStale: first.isPlaceholderData,
    error: results.find((r) => r.error)?.error ?? null,
    loadMore: more,
    refetch: () => Promise.all(results.map((r) => r.refetch())),
  };
}

export type LibraryPages = ReturnType<typeof useLibraryPages>;
/** The rows as the list shows them: the pages, with the search's words to highlight when searching. */
export type Library = LibraryPages & { terms?: string[] };
