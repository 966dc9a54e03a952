// The Library's filters beside a word search: category, tag, a date range and archived or not. Pure.
import { z } from 'zod';

export const ARCHIVE_FILTERS = ['active', 'archived', 'all'] as const;
export type ArchiveFilter = (typeof ARCHIVE_FILTERS)[number];

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD');

export const memoryFilters = z.object({
  /** A category ('/' = the top folder); '' = any. */
  category: z.string().max(300).default(''),
  tag: z.string().max(200).default(''),
  /** Inclusive, by the memory's own date. */
  from: day.or(z.literal('')).default(''),
  to: day.or(z.literal('')).default(''),
  archived: z.enum(ARCHIVE_FILTERS).default('active'),
});
export type MemoryFilters = z.infer<typeof memoryFilters>;

export interface FilterableMemory {
  category: string;
  tags: string[];
  date: string;
  archived: boolean;
}

export function passesFilters(m: FilterableMemory, f: MemoryFilters): boolean {
  if (f.archived === 'active' && m.archived) return false;
  if (f.archived === 'archived' && !m.archived) return false;
  if (f.category && (m.category || '/') !== f.category) return false;
  if (f.tag && !m.tags.includes(f.tag)) return false;
  if (f.from && m.date < f.from) return false;
  if (f.to && m.date > f.to) return false;
  return true;
}
