'use client';
// The Library's memories tab: the new-memory form, the search and filters, and the windowed list.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import type { ArchiveState } from '../notebook/useEngineSearch.ts';
import { ErrorNote, Muted } from '../ui.tsx';
import { WorkspaceSwitcher, useWorkspaces } from '../workspace/common.tsx';
import { CreateMemoryForm } from './CreateMemoryForm.tsx';
import { LibraryFilters } from './LibraryFilters.tsx';
import { MemoryRow } from './MemoryRow.tsx';
import type { Filters, Library, Memory } from './useLibraryPages.ts';
import { useListKeys } from './useListKeys.ts';
import { VirtualList } from './VirtualList.tsx';

export function MemoriesView({
  library,
  filters,
  setFilters,
  archived,
  setArchived,
  creating,
  setCreating,
}: {
  library: Library;
  filters: Filters;
  setFilters: (f: Filters) => void;
  archived: ArchiveState;
  setArchived: (v: ArchiveState) => void;
  creating: boolean;
  setCreating: (v: boolean) => void;
}) {
  const { t } = useI18n();
  const { workspace } = useWorkspaceChoice();
  const { nameOf } = useWorkspaces();
  const [open, setOpen] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  useListKeys({ search, list: listRef, close: () => setOpen(null) });
  const categories = useMemo(() => library.categories.map(([c]) => c).sort(), [library.categories]);
  const writeInto = workspace === ALL_WORKSPACES ? undefined : workspace;
  const filtered = Boolean(filters.query.trim() || filters.category || filters.tag || filters.from || filters.to || archived !== 'active');
  const keyOf = useCallback((m: Memory) => m.docId, []);

  return (
    <>
      <WorkspaceSwitcher />
      {creating ? (
        <CreateMemoryForm
          categories={categories}
          workspace={writeInto}
          workspaceName={writeInto ? nameOf(writeInto) : undefined}
          onDone={() => setCreating(false)}
        />
      ) : null}
      <LibraryFilters search={search} filters={filters} setFilters={setFilters} archived={archived} setArchived={setArchived} categories={categories} tags={library.tags} />
      {library.error ? <ErrorNote error={library.error} onRetry={() => void library.refetch()} retryLabel={t('common.retry')} /> : null}
      <div ref={listRef} className="overflow-hidden rounded-xl border border-line bg-panel" data-testid="library-list" data-stale={library.isStale}>
        <div className="flex items-center justify-between border-b border-line px-4 py-2 text-xs text-muted">
          <span role="status" data-testid="library-count">
            {library.isLoading ? t('common.loading') : t('library.count', { shown: library.total, total: library.scopeTotal })}
          </span>
        </div>
        {!library.isLoading && !library.error && library.scopeTotal === 0 ? <Muted>{t('library.empty')}</Muted> : null}
        {!library.isLoading && !library.error && library.scopeTotal > 0 && library.total === 0 && filtered ? <Muted>{t('library.noMatch')}</Muted> : null}
        <VirtualList
          testId="memory-rows"
          items={library.items}
          keyOf={keyOf}
          onNearEnd={library.loadMore}
          renderRow={(m) => <MemoryRow memory={m} words={library.terms ?? []} open={open === m.docId} onToggle={() => setOpen(open === m.docId ? null : m.docId)} />}
        />
      </div>
    </>
  );
}
