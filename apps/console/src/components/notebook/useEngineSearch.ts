'use client';
// The Library's rows when a search is on: words, dates or the archive go to search.memories (the
// engine's keyword channel, body included, with the matched words); otherwise the paged list as it
// was. The typed text shows at once; the request waits for a short pause in the typing.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '../../client/trpc.tsx';

export type ArchiveState = 'active' | 'archived' | 'all';

/** Typing pause before a search request (the text in the box is never delayed). */
const DEBOUNCE_MS = 150;

interface SearchInput {
  query: string;
  category: string;
  tag: string;
  from: string;
  to: string;
  archived: ArchiveState;
  workspace?: string;
  includeGlobal?: boolean;
}

interface Pages<M> {
  items: M[];
  total: number;
  scopeTotal: number;
  categories: [string, number][];
  tags: [string, number][];
  isLoading: boolean;
  isStale: boolean;
  error: unknown;
  loadMore: () => void;
  refetch: () => Promise<unknown>;
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Whether these filters need the engine search rather than the paged list. */
export const needsSearch = (f: Pick<SearchInput, 'query' | 'from' | 'to' | 'archived'>): boolean => Boolean(f.query.trim() || f.from || f.to || f.archived === 'archived');

export function useEngineSearch<P extends Pages<unknown>>(pages: P, input: SearchInput): P & { terms: string[] } {
  const trpc = useTRPC();
  const settled = useDebounced(input, DEBOUNCE_MS);
  // Into the search after the pause; out of it at once (a cleared box shows the list right away).
  const on = needsSearch(input) && needsSearch(settled);
  const search = useQuery({
    ...trpc.search.memories.queryOptions({ ...settled, query: settled.query.trim() }, { placeholderData: keepPreviousData }),
    enabled: on,
  });
  return useMemo(() => {
    if (!on) return { ...pages, terms: [] };
    const data = search.data;
    return {
      ...pages,
      items: (data?.items ?? []) as P['items'],
      total: data?.total ?? 0,
      isLoading: search.isLoading,
      isStale: search.isPlaceholderData,
      error: (search.error ?? pages.error) as P['error'],
      loadMore: () => undefined,
      refetch: () => Promise.all([pages.refetch(), search.refetch()]),
      terms: data?.terms ?? [],
    };
  }, [on, pages, search.data, search.isLoading, search.isPlaceholderData, search.error, search.refetch]);
}
