'use client';
// The Library's search box and filters (category, tag, archived, dates); in the 300 px sidebar the
// filters fold behind one button so the list keeps the room.
import { useState, type RefObject } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { ArchiveState } from '../notebook/useEngineSearch.ts';
import { inputClass } from '../ui.tsx';
import type { Filters } from './useLibraryPages.ts';

export function LibraryFilters({
  search,
  filters,
  setFilters,
  archived,
  setArchived,
  categories,
  tags,
}: {
  /** The search box, for the list's `/` key. */
  search: RefObject<HTMLInputElement | null>;
  filters: Filters;
  setFilters: (f: Filters) => void;
  archived: ArchiveState;
  setArchived: (v: ArchiveState) => void;
  categories: string[];
  tags: [string, number][];
}) {
  const { t } = useI18n();
  const [showFilters, setShowFilters] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2" role="search">
      <input
        ref={search}
        data-testid="library-search"
        type="search"
        aria-label={t('library.search')}
        className={`${inputClass} flex-[2_1_12rem]`}
        placeholder={t('library.search')}
        value={filters.query}
        onChange={(e) => setFilters({ ...filters, query: e.target.value })}
      />
      <button
        type="button"
        data-testid="library-filters-toggle"
        aria-expanded={showFilters}
        className="hidden rounded-md border border-line px-2 py-1.5 text-xs text-muted @max-rail:inline-block"
        onClick={() => setShowFilters((v) => !v)}
      >
        {t('search.filters')}
      </button>
      <div className={`contents ${showFilters ? '' : '@max-rail:hidden'}`}>
      <select
        data-testid="library-category"
        className={`${inputClass} flex-[1_1_8rem]`}
        value={filters.category}
        onChange={(e) => setFilters({ ...filters, category: e.target.value })}
        aria-label={t('library.allCategories')}
      >
        <option value="">{t('library.allCategories')}</option>
        {categories.map((c) => (
          <option key={c} value={c || '/'}>
            {c || '/'}
          </option>
        ))}
      </select>
      <select
        data-testid="library-tag"
        className={`${inputClass} flex-[1_1_8rem]`}
        value={filters.tag}
        onChange={(e) => setFilters({ ...filters, tag: e.target.value })}
        aria-label={t('library.allTags')}
      >
        <option value="">{t('library.allTags')}</option>
        {tags.map(([name]) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <select
        data-testid="library-archived"
        className={`${inputClass} flex-[1_1_6rem]`}
        value={archived}
        onChange={(e) => setArchived(e.target.value as ArchiveState)}
        aria-label={t('search.archived')}
      >
        <option value="active">{t('search.active')}</option>
        <option value="archived">{t('search.archived')}</option>
        <option value="all">{t('search.allStates')}</option>
      </select>
      <label className="flex flex-[1_1_8rem] items-center gap-1 text-xs text-muted">
        {t('search.from')}
        <input data-testid="library-from" type="date" className={`${inputClass} min-w-0`} value={filters.from} onChange={(e) => setFilters({ ...filters, from: e.target.value })} />
      </label>
      <label className="flex flex-[1_1_8rem] items-center gap-1 text-xs text-muted">
        {t('search.to')}
        <input data-testid="library-to" type="date" className={`${inputClass} min-w-0`} value={filters.to} onChange={(e) => setFilters({ ...filters, to: e.target.value })} />
      </label>
      </div>
    </div>
  );
}
