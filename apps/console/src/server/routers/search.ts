// The Library's search on the engine: the keyword channel (body included, the tokenizer's words, the
// same BM25 ranking as recall) instead of a substring match over titles, with the words each memory
// matched for highlighting, and the filters (category, tag, dates, archived).
import { searchMemories } from '@engram/engine';
import { z } from 'zod';
import { listInput } from '../../shared/validators.ts';
import { servicesOf } from '../services.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';
import { memoryFilters, passesFilters } from './search-filter.ts';

export const SEARCH_LIMIT_MAX = 500;

/**
 * The memories holding every searched word, in the engine's order; when none holds them all, every
 * memory that holds any (a person typing two words means both, but a near answer beats an empty list).
 */
export function everyWordFirst<H extends { matched: { token: string }[] }>(terms: readonly string[], hits: readonly H[]): H[] {
  const all = hits.filter((h) => terms.every((term) => h.matched.some((m) => m.token === term)));
  return all.length > 0 ? all : [...hits];
}

const searchInput = listInput
  .unwrap()
  .omit({ includeArchived: true })
  .extend({
    /** Words to find; '' lists the filtered memories in the Library's order. */
    query: z.string().max(500).default(''),
    limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(200),
  })
  .extend(memoryFilters.shape);

export const searchRouter = createTRPCRouter({
  /**
   * Memories matching the words (best first) and the filters, each with `matched` (the query words
   * found in it and where), then those whose path, folder or session id holds the text. Archived
   * memories only with `archived: 'archived' | 'all'`.
   */
  memories: procedure.input(searchInput).query(async ({ ctx, input }) => {
    const listed = await servicesOf(ctx.runtime).library.list({ includeArchived: input.archived !== 'active', workspace: input.workspace, includeGlobal: input.includeGlobal });
    const byId = new Map(listed.map((m) => [m.docId, m]));
    if (input.query.trim() === '') {
      const items = listed.filter((m) => passesFilters(m, input));
      return { terms: [] as string[], total: items.length, items: items.slice(0, input.limit).map((m) => ({ ...m, matched: [] as { token: string; fields: string[] }[] })) };
    }
    const found = await searchMemories(ctx.runtime.engine, input.query, SEARCH_LIMIT_MAX);
    const items = [];
    const seen = new Set<string>();
    for (const hit of everyWordFirst(found.terms, found.hits)) {
      const m = byId.get(hit.docId);
      if (m && passesFilters(m, input)) items.push({ ...m, matched: hit.matched });
      seen.add(hit.docId);
    }
    // After the engine's answers, what only the names hold (a path, a folder, a session id), as the
    // Library's own filter finds it: typing an id still finds its memory.
    const byName = await servicesOf(ctx.runtime).library.page({ includeArchived: input.archived !== 'active', workspace: input.workspace, includeGlobal: input.includeGlobal, query: input.query, category: '', tag: '', offset: 0, limit: SEARCH_LIMIT_MAX });
    for (const m of byName.items) if (!seen.has(m.docId) && passesFilters(m, input)) items.push({ ...m, matched: [] });
    return { terms: found.terms, total: items.length, items: items.slice(0, input.limit) };
  }),
});
