'use client';
// Library: every memory as a row (title, date, scope, provenance, pin / lock, tags, chunks), filtered
// by workspace; a row opens in place to its full text, which can be edited and saved (the engine
// re-indexes that document), pinned, locked, moved, its summary regenerated, or archived. Beside the
// memories: the workspaces (identity, claims, rename, merge), the import of past sessions, the wall.
// This page holds the tabs and the filter state; each part is a module of its own in ../library/.
import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import { DiaryMissingBanner } from '../index/DiaryMissingBanner.tsx';
import { CorpusOverview } from '../library/CorpusOverview.tsx';
import { DraftsProvider } from '../library/drafts.tsx';
import { MemoriesView } from '../library/MemoriesView.tsx';
import { NO_FILTERS, useLibraryPages, type Filters } from '../library/useLibraryPages.ts';
import { useEngineSearch, type ArchiveState } from '../notebook/useEngineSearch.ts';
import { Badge, Button, PageHeader, SubTabs } from '../ui.tsx';
import { ImportPanel } from '../workspace/ImportPanel.tsx';
import { WallPanel } from '../workspace/WallPanel.tsx';
import { WorkspacesPanel } from '../workspace/WorkspacesPanel.tsx';

// A keystroke in the search box re-renders the Library: the other tabs' panels and the overview do
// not depend on the typed text, so they skip that render (docs/benchmarks.md, "Console").
const Workspaces = memo(WorkspacesPanel);
const Import = memo(ImportPanel);
const Wall = memo(WallPanel);

type LibraryTab = 'memories' | 'workspaces' | 'import' | 'wall';

export function LibraryPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [tab, setTab] = useState<LibraryTab>('memories');
  const [creating, setCreating] = useState(false);
  const { workspace, includeGlobal } = useWorkspaceChoice();
  const [archived, setArchived] = useState<ArchiveState>('active');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const scope = workspace !== ALL_WORKSPACES ? { workspace, includeGlobal } : {};
  const { from: _from, to: _to, ...paged } = filters;
  const pages = useLibraryPages({ includeArchived: archived === 'all', ...scope, ...paged, query: '' });
  // Words, dates or the archive go to the engine's search; the plain list stays paged and windowed.
  const library = useEngineSearch(pages, { ...scope, ...filters, archived });
  const pending = useQuery(trpc.workspaces.claims.queryOptions({ status: 'pending' }));
  // The overview's query (one request for both): says when the diary folder the rows were read from is gone.
  const status = useQuery(trpc.index.status.queryOptions());
  const pickFilter = useCallback((f: Partial<Filters>) => {
    setTab('memories');
    setFilters((cur) => ({ ...cur, ...f }));
  }, []);
  const pendingCount = pending.data?.length ?? 0;

  return (
    <DraftsProvider>
      <PageHeader
        eyebrow={t('library.eyebrow')}
        title={tab === 'memories' ? t('library.title') : t(`library.head.${tab}`)}
        description={tab === 'memories' ? t('library.desc') : t(`library.head.${tab}.desc`)}
        actions={
          tab === 'memories' && <>
            <Button
              onClick={() => {
                void library.refetch();
                void status.refetch();
              }}
            >
              {t('common.refresh')}
            </Button>
            <Button
              variant="primary"
              data-testid="library-new"
              onClick={() => {
                setTab('memories');
                setCreating((v) => !v);
              }}
            >
              {t('library.new')}
            </Button>
          </>
        }
      />
      <div className="page-grid">
        <div className="flex min-w-0 flex-col gap-3">
          {/* The rows below come from the index: with the folder gone their files are not on disk. */}
          {status.data ? <DiaryMissingBanner status={status.data} page="library" /> : null}
          <SubTabs<LibraryTab>
            label={t('library.eyebrow')}
            active={tab}
            onChange={setTab}
            tabs={[
              { id: 'memories', label: t('library.tab.memories') },
              {
                id: 'workspaces',
                label: t('library.tab.workspaces'),
                badge: pendingCount > 0 ? <Badge tone="warn">{pendingCount}</Badge> : undefined,
              },
              { id: 'import', label: t('library.tab.import') },
              { id: 'wall', label: t('library.tab.wall') },
            ]}
          />
          <div hidden={tab !== 'memories'} className="flex min-w-0 flex-col gap-3" data-testid="panel-memories">
            <MemoriesView
              library={library}
              filters={filters}
              setFilters={setFilters}
              archived={archived}
              setArchived={setArchived}
              creating={creating}
              setCreating={setCreating}
            />
          </div>
          <div hidden={tab !== 'workspaces'} data-testid="panel-workspaces">
            <Workspaces />
          </div>
          <div hidden={tab !== 'import'} data-testid="panel-import">
            <Import />
          </div>
          <div hidden={tab !== 'wall'} data-testid="panel-wall">
            <Wall />
          </div>
        </div>
        <aside className="page-aside">
          <CorpusOverview categories={library.categories} tagCounts={library.tags} onPick={pickFilter} />
        </aside>
      </div>
    </DraftsProvider>
  );
}
