'use client';
// Library: every memory as a row (title, date, scope, provenance, pin / lock, tags, chunks), filtered
// by workspace; a row opens in place to its full text, which can be edited and saved (the engine
// re-indexes that document), pinned, locked, moved, its summary regenerated, or archived. Beside the
// memories: the workspaces (identity, claims, rename, merge), the import of past sessions, the wall.
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { engineText } from '../../client/engine-text.ts';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { describeError, useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import { Badge, Button, Card, ErrorNote, Muted, PageHeader, SubTabs, inputClass } from '../ui.tsx';
import { Provenance, ScopeBadge, WorkspaceSwitcher, originLabel, useInvalidateWorkspaceData, useWorkspaces } from '../workspace/common.tsx';
import { ImportPanel } from '../workspace/ImportPanel.tsx';
import { WallPanel } from '../workspace/WallPanel.tsx';
import { WorkspacesPanel } from '../workspace/WorkspacesPanel.tsx';
import { LockIcon, PinIcon } from '../icons.tsx';
import { CreateMemoryForm } from './CreateMemoryForm.tsx';
import { Dialog } from '../Dialog.tsx';
import { DraftsProvider, isDirty, useDrafts } from '../library/drafts.tsx';
import { MemoryReader } from '../library/MemoryReader.tsx';
import { VirtualList } from '../library/VirtualList.tsx';
import { Marked } from '../notebook/Marked.tsx';
import { useArchive } from '../notebook/useArchive.ts';
import { diaryProblem } from '../notebook/diary-check.ts';
import { DiaryProblemNote } from '../notebook/DiaryProblemNote.tsx';
import { FieldsEditor } from '../library/FieldsEditor.tsx';
import { TrySummary } from '../library/TrySummary.tsx';
import { fieldProblems, tagList, type EditorFields, type FieldProblems } from '../notebook/fields-check.ts';
import type { EditorKey } from '../../client/messages-editor.ts';
import { useEngineSearch, type ArchiveState } from '../notebook/useEngineSearch.ts';

// A keystroke in the search box re-renders the Library: the other tabs' panels and the overview do
// not depend on the typed text, so they skip that render (docs/benchmarks.md, "Console").
const Workspaces = memo(WorkspacesPanel);
const Import = memo(ImportPanel);
const Wall = memo(WallPanel);

type Memory = RouterOutputs['memories']['page']['items'][number] & { matched?: { token: string; fields: string[] }[] };
type LibraryTab = 'memories' | 'workspaces' | 'import' | 'wall';

export function LibraryPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [tab, setTab] = useState<LibraryTab>('memories');
  const [creating, setCreating] = useState(false);
  const { workspace, includeGlobal } = useWorkspaceChoice();
  const [archived, setArchived] = useState<ArchiveState>('active');
  const [filters, setFilters] = useState<Filters>({ query: '', category: '', tag: '', from: '', to: '' });
  const scope = workspace !== ALL_WORKSPACES ? { workspace, includeGlobal } : {};
  const { from: _from, to: _to, ...paged } = filters;
  const pages = useLibraryPages({ includeArchived: archived === 'all', ...scope, ...paged, query: '' });
  // Words, dates or the archive go to the engine's search; the plain list stays paged and windowed.
  const library = useEngineSearch(pages, { ...scope, ...filters, archived });
  const pending = useQuery(trpc.workspaces.claims.queryOptions({ status: 'pending' }));
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
            <Button onClick={() => library.refetch()}>{t('common.refresh')}</Button>
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

interface Filters {
  query: string;
  category: string;
  tag: string;
  from: string;
  to: string;
}

const PAGE_SIZE = 100;

/**
 * The Library's rows, a page of 100 at a time from the server (search, filters and order applied
 * there). More pages load as the list scrolls; a new filter starts again from the first page, and
 * the previous rows stay visible until its answer arrives (typing never flashes an empty list).
 */
function useLibraryPages(input: Omit<Filters, 'from' | 'to'> & { includeArchived: boolean; workspace?: string; includeGlobal?: boolean }) {
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
type Library = LibraryPages & { terms?: string[] };

function MemoriesView({
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
  const [showFilters, setShowFilters] = useState(false);
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
          {library.tags.map(([name]) => (
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

function MemoryRow({ memory: m, words, open, onToggle }: { memory: Memory; words: readonly string[]; open: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  const hasDraft = useDrafts().dirtyIds.has(m.docId);
  return (
    <div data-testid="memory-row" data-doc-id={m.docId} data-pinned={m.pinned} data-workspace={m.workspace}>
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        data-testid="memory-row-button"
        className="flex w-full flex-col gap-1 px-4 py-2.5 text-left hover:bg-sunken/60 focus-visible:bg-accent-soft @max-rail:gap-0 @max-rail:px-2 @max-rail:py-1.5"
      >
        {/* One line per memory in the 300 px sidebar: title · date · first tag. */}
        <div className="flex w-full items-baseline gap-2 @max-rail:gap-1 @max-rail:text-sm">
          <span className="min-w-0 flex-1 truncate font-medium">
            {m.pinned ? <span className="hidden text-accent @max-rail:inline">📌 </span> : null}
            <Marked text={m.title || m.path} words={words} />
          </span>
          <span className="shrink-0 text-xs text-muted tabular-nums">
            {m.date}
            <span className="@max-rail:hidden">{m.time ? ` ${m.time}` : ''}</span>
          </span>
          {m.tags[0] ? <span className="hidden max-w-[5.5rem] shrink-0 truncate text-xs text-muted @max-rail:inline">#{m.tags[0]}</span> : null}
        </div>
        {/* The badges (scope, pin, lock, tags…) show in the 300 px sidebar once the memory is opened. */}
        <div className={`flex flex-wrap items-center gap-1.5 text-xs text-muted ${open ? '@max-rail:mt-1' : '@max-rail:hidden'}`}>
          {hasDraft ? (
            <span data-testid="memory-draft-badge">
              <Badge tone="warn">✎ {t('memory.draft')}</Badge>
            </span>
          ) : null}
          {m.pinned ? (
            <span data-testid="memory-pinned">
              <Badge tone="accent">
                <PinIcon /> {t('memory.pinned')}
              </Badge>
            </span>
          ) : null}
          {m.locked ? (
            <span data-testid="memory-locked">
              <Badge tone="warn">
                <LockIcon /> {t('memory.locked')}
              </Badge>
            </span>
          ) : null}
          <ScopeBadge workspace={m.workspace} scope={m.scope} />
          <Badge tone="accent">{m.category || '/'}</Badge>
          {m.supersededBy ? <Badge tone="warn">{t('memory.superseded')}</Badge> : null}
          {m.archived ? <Badge tone="warn">{t('common.archived')}</Badge> : null}
          {m.readOnly ? <Badge>{t('common.readOnly')}</Badge> : null}
          {m.warnings.length > 0 ? <Badge tone="warn">⚠ {m.warnings.length}</Badge> : null}
          {m.tags.slice(0, 6).map((tag) => (
            <Badge key={tag}>#{tag}</Badge>
          ))}
          <span className="ml-auto flex items-center gap-2 tabular-nums">
            <Provenance sessionId={m.sessionId} origin={m.origin} />
            {t(m.chunks === 1 ? 'common.chunk' : 'common.chunks', { n: m.chunks })}
          </span>
        </div>
        {!open && m.summary ? (
          <p className="line-clamp-1 text-xs text-muted @max-rail:hidden">
            <Marked text={m.summary} words={words} />
          </p>
        ) : null}
        {m.matched && m.matched.length > 0 ? (
          <p className="truncate text-xs text-muted" data-testid="memory-matched">
            {t('search.matched', { words: m.matched.map((w) => w.token).join('、') })}
          </p>
        ) : null}
      </button>
      {open ? <MemoryDetailView id={m.docId} /> : null}
    </div>
  );
}

function MemoryDetailView({ id }: { id: string }) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const drafts = useDrafts();
  const detail = useQuery(trpc.memories.read.queryOptions({ id }, { staleTime: 0 }));
  const draft = drafts.get(id);
  // A kept draft reopens in edit mode; otherwise a memory opens to be read.
  const [editing, setEditing] = useState(draft !== undefined);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const [conflict, setConflict] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  // The fields editor for the diary's .txt files; the text editor for the rest (.md).
  const fieldsQ = useQuery(trpc.memories.fields.queryOptions({ id }, { staleTime: 0, enabled: editing }));
  const queryClient = useQueryClient();
  const [serverProblems, setServerProblems] = useState<FieldProblems>({});

  const invalidateAll = useInvalidateWorkspaceData();
  const invalidate = () => invalidateAll();

  const save = useMutation(
    trpc.memories.save.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('library.edit.saved'));
        drafts.set(id, null);
        setEditing(false);
        await invalidate();
      },
      onError: (e) => {
        if (describeError(e).code === 'CONFLICT') setConflict(true);
        else toast.error(e);
      },
    }),
  );
  const saveFields = useMutation(
    trpc.memories.saveFields.mutationOptions({
      onSuccess: async (res) => {
        if (!res.ok) {
          setServerProblems({ [res.problem.field]: `edit.problem.${res.problem.code}` as EditorKey });
          return;
        }
        // The saved text shows at once; the lists catch up after.
        queryClient.setQueryData(trpc.memories.read.queryKey({ id }), res.memory);
        toast.ok(t('library.edit.saved'));
        drafts.set(id, null);
        setEditing(false);
        await invalidate();
      },
      onError: (e) => {
        if (describeError(e).code === 'CONFLICT') setConflict(true);
        else toast.error(e);
      },
    }),
  );
  const { archiveOne, restoreOne, busy: archiving } = useArchive();

  const structured = editing && fieldsQ.data?.editable === true;
  useEffect(() => {
    if (editing && (structured || fieldsQ.data)) editor.current?.focus();
  }, [editing, structured, fieldsQ.data]);

  if (detail.isLoading) return <div className="px-4 pb-3 text-sm text-muted">{t('common.loading')}</div>;
  if (detail.error || !detail.data) return <div className="px-4 pb-3">{detail.error ? <ErrorNote error={detail.error} /> : null}</div>;
  const d = detail.data;
  const text = draft?.text ?? d.raw;
  const dirty = isDirty(draft);
  const baseFields: EditorFields | null = fieldsQ.data ? { title: fieldsQ.data.fields.title, tags: fieldsQ.data.fields.tags.join(lang === 'zh' ? '，' : ', '), body: fieldsQ.data.fields.body, kind: fieldsQ.data.fields.kind ?? '', goal: fieldsQ.data.fields.goal ?? '' } : null;
  const fields = draft?.fields ?? baseFields;
  const problems: FieldProblems = structured && fields ? { ...fieldProblems(fields, draft?.baseFields ?? baseFields!), ...serverProblems } : {};
  const problem = editing && !structured ? diaryProblem(text) : null;
  const blocked = structured ? Object.keys(problems).length > 0 : problem !== null;
  const pending = save.isPending || saveFields.isPending;
  const submit = () => {
    if (!dirty || blocked || pending) return;
    if (structured && fields && draft) saveFields.mutate({ id: d.docId, expectedHash: draft.baseHash, title: fields.title, tags: tagList(fields.tags), body: fields.body, kind: fields.kind, goal: fields.goal });
    else if (!structured) save.mutate({ id: d.docId, raw: text, expectedHash: draft?.baseHash ?? d.contentHash });
  };
  const setFields = (next: EditorFields) => {
    if (!fieldsQ.data || !baseFields) return;
    setServerProblems({});
    setConflict(false);
    drafts.set(id, { text: draft?.text ?? d.raw, baseText: draft?.baseText ?? d.raw, baseHash: draft?.baseHash ?? fieldsQ.data.contentHash, fields: next, baseFields: draft?.baseFields ?? baseFields });
  };
  const stopEditing = () => {
    drafts.set(id, null);
    setEditing(false);
    setConfirmDiscard(false);
  };
  /** Leaving edit mode: free when nothing changed, asked first when something did. */
  const requestCancel = () => (dirty ? setConfirmDiscard(true) : stopEditing());

  return (
    <div className="flex flex-col gap-2 border-t border-line bg-sunken/40 px-4 py-3" data-testid="memory-detail" data-editing={editing}>
      <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
        <span className="font-mono break-all">{d.root}/{d.path}</span>
        {d.readOnly ? <span>{t('library.legacy')}</span> : null}
      </div>
      <MemoryMeta memory={d} />
      {d.warnings.length > 0 ? (
        <ul className="rounded-md bg-warn-soft px-3 py-2 text-xs text-warn">
          {d.warnings.map((w) => (
            <li key={w}>{engineText(w, lang)}</li>
          ))}
        </ul>
      ) : null}
      {editing && !d.readOnly && !fieldsQ.data ? (
        <div className="text-sm text-muted">{fieldsQ.error ? <ErrorNote error={fieldsQ.error} /> : t('common.loading')}</div>
      ) : structured && fields ? (
        <FieldsEditor
          value={fields}
          onChange={setFields}
          problems={problems}
          onSave={submit}
          onCancel={requestCancel}
          name={d.title || d.path}
          idBase={`edit-${d.docId}`}
          bodyRef={editor}
          bodyClass="max-h-[75vh] min-h-56 [field-sizing:content]"
        />
      ) : editing && !d.readOnly ? (
        <textarea
          ref={editor}
          data-testid="memory-editor"
          aria-label={t('memory.editor.label', { title: d.title || d.path })}
          className={`${inputClass} prose-raw max-h-[75vh] min-h-56 resize-y [field-sizing:content]`}
          value={text}
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `problem-${d.docId}` : undefined}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              requestCancel();
            }
            if ((e.ctrlKey || e.metaKey) && e.key === 's') {
              e.preventDefault();
              submit();
            }
          }}
          onChange={(e) => {
            drafts.set(id, { text: e.target.value, baseHash: draft?.baseHash ?? d.contentHash, baseText: draft?.baseText ?? d.raw });
            setConflict(false);
          }}
        />
      ) : (
        <MemoryReader raw={d.raw} labels={{ tags: t('memory.read.tags'), meta: t('memory.read.meta') }} />
      )}
      {editing ? <DiaryProblemNote problem={problem} id={`problem-${d.docId}`} /> : null}
      {conflict ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger" role="alert">
          <span className="flex-1">{t('library.edit.conflict')}</span>
          <Button
            onClick={async () => {
              setConflict(false);
              stopEditing();
              await detail.refetch();
            }}
          >
            {t('library.edit.reload')}
          </Button>
        </div>
      ) : null}
      {!d.readOnly ? (
        <div className="flex flex-wrap items-center gap-2">
          {editing ? (
            <>
              <Button
                variant="primary"
                data-testid="memory-save"
                disabled={!dirty || pending || blocked}
                onClick={submit}
              >
                {t('library.edit.save')}
              </Button>
              <Button data-testid="memory-cancel" onClick={requestCancel}>
                {t('common.cancel')}
              </Button>
              {dirty ? <span className="text-xs text-warn">{t('memory.draft')}</span> : null}
              <TrySummary draft={() => (structured && fields ? { title: fields.title, body: fields.body } : { title: d.title, body: text })} />
            </>
          ) : (
            <Button data-testid="memory-edit" onClick={() => setEditing(true)}>
              {t('memory.edit')}
            </Button>
          )}
          <span className="flex-1" />
          {d.locked && !d.archived ? <span className="inline-flex items-center gap-1 text-xs text-muted">
              <LockIcon /> {t('memory.lockedHint')}
            </span> : null}
          {!d.archived && !d.locked ? (
            confirmArchive ? (
              <>
                <span className="text-xs text-muted">{t('library.archive.confirm', { title: d.title })}</span>
                <Button variant="danger" data-testid="memory-archive-confirm" disabled={archiving} onClick={() => void archiveOne(d.docId, d.title).then(() => setConfirmArchive(false)).catch(() => undefined)}>
                  {t('library.archive')}
                </Button>
                <Button onClick={() => setConfirmArchive(false)}>{t('common.cancel')}</Button>
              </>
            ) : (
              <Button variant="ghost" data-testid="memory-archive" onClick={() => setConfirmArchive(true)}>
                {t('library.archive')}
              </Button>
            )
          ) : null}
          {d.archived && !d.readOnly ? (
            <Button data-testid="memory-restore" disabled={archiving} onClick={() => void restoreOne(d.docId, d.title).catch(() => undefined)}>
              {t('archive.restore')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {confirmDiscard ? (
        <Dialog
          title={t('memory.discard.title')}
          testId="memory-discard-confirm"
          onCancel={() => {
            setConfirmDiscard(false);
            editor.current?.focus();
          }}
          actions={
            <>
              <Button data-autofocus data-testid="memory-discard-keep" onClick={() => setConfirmDiscard(false)}>
                {t('memory.discard.keep')}
              </Button>
              <Button variant="danger" data-testid="memory-discard-yes" onClick={stopEditing}>
                {t('memory.discard.yes')}
              </Button>
            </>
          }
        >
          <p className="text-muted">{t('memory.discard.body', { title: d.title || d.path })}</p>
        </Dialog>
      ) : null}
    </div>
  );
}

type Detail = RouterOutputs['memories']['read'];

/** Pin, lock, move, provenance and the summary's source (with a re-run for generated or missing ones). */
function MemoryMeta({ memory: d }: { memory: Detail }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateWorkspaceData();
  const { workspaces, nameOf, labelOf } = useWorkspaces();
  const [target, setTarget] = useState('');
  const onError = (e: unknown) => toast.error(e);

  const pin = useMutation(
    trpc.memories.setPinned.mutationOptions({
      onSuccess: async (m) => {
        toast.ok(t(m.pinned ? 'memory.pinned.done' : 'memory.unpinned.done'));
        await invalidate();
      },
      onError,
    }),
  );
  const lock = useMutation(
    trpc.memories.setLocked.mutationOptions({
      onSuccess: async (m) => {
        toast.ok(t(m.locked ? 'memory.locked.done' : 'memory.unlocked.done'));
        await invalidate();
      },
      onError,
    }),
  );
  const move = useMutation(
    trpc.memories.move.mutationOptions({
      onSuccess: async (m) => {
        toast.ok(t('memory.moved', { name: nameOf(m.workspace) }));
        setTarget('');
        await invalidate();
      },
      onError,
    }),
  );
  const rerun = useMutation(
    trpc.memories.rerunSummary.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('memory.summary.queued'));
        await invalidate();
      },
      onError,
    }),
  );

  const source = (['manual', 'auto', 'rule', 'none'] as const).find((s) => s === d.summarySource) ?? 'none';
  const targets = workspaces.filter((w) => w.id !== d.workspace && w.kind !== 'orphan');
  const busy = pin.isPending || lock.isPending || move.isPending;

  return (
    <div className="flex flex-col gap-2 rounded-md border border-line bg-panel px-3 py-2 text-xs" data-testid="memory-meta">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1">
        <dt className="text-muted">{t('memory.workspace')}</dt>
        <dd>
          <ScopeBadge workspace={d.workspace} />
        </dd>
        <dt className="text-muted">{t('memory.origin')}</dt>
        <dd className="flex flex-wrap items-center gap-2">
          {d.sessionId ? (
            <span className="font-mono" title={d.sessionId} data-testid="memory-session">
              {t('memory.session')} s:{d.sessionId.slice(0, 8)}
            </span>
          ) : null}
          <span>{originLabel(d.origin, t)}</span>
        </dd>
        <dt className="text-muted">{t('memory.summary')}</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <span data-testid="memory-summary-source" data-source={source}>
            <Badge tone={source === 'manual' ? 'accent' : source === 'none' ? 'warn' : 'neutral'}>{t(`memory.summary.${source}`)}</Badge>
          </span>
          {source !== 'manual' && !d.readOnly && !d.archived ? (
            <Button className="!px-2 !py-0.5 !text-xs" data-testid="memory-summary-rerun" disabled={rerun.isPending} onClick={() => rerun.mutate({ id: d.docId })}>
              {t('memory.summary.rerun')}
            </Button>
          ) : null}
        </dd>
      </dl>
      {!d.readOnly && !d.archived ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            aria-pressed={d.pinned}
            data-testid="memory-pin"
            disabled={busy}
            variant={d.pinned ? 'primary' : 'secondary'}
            onClick={() => pin.mutate({ id: d.docId, pinned: !d.pinned })}
          >
            <PinIcon /> {t(d.pinned ? 'memory.unpin' : 'memory.pin')}
          </Button>
          <Button
            aria-pressed={d.locked}
            data-testid="memory-lock"
            disabled={busy}
            variant={d.locked ? 'primary' : 'secondary'}
            onClick={() => lock.mutate({ id: d.docId, locked: !d.locked })}
          >
            <LockIcon /> {t(d.locked ? 'memory.unlock' : 'memory.lock')}
          </Button>
          <span className="flex min-w-0 flex-[1_1_12rem] items-center gap-1.5">
            <select
              aria-label={t('memory.move')}
              data-testid="memory-move"
              className={`${inputClass} min-w-0 flex-1 !py-1`}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
            >
              <option value="">{t('memory.move')}…</option>
              {targets.map((w) => (
                <option key={w.id} value={w.id}>
                  {labelOf(w)}
                </option>
              ))}
            </select>
            <Button data-testid="memory-move-submit" disabled={!target || busy} onClick={() => move.mutate({ id: d.docId, workspace: target })}>
              {t('memory.move.submit')}
            </Button>
          </span>
        </div>
      ) : null}
    </div>
  );
}

const CorpusOverview = memo(function CorpusOverview({
  categories: byCategory,
  tagCounts,
  onPick,
}: {
  categories: [string, number][];
  tagCounts: [string, number][];
  /** A category or tag clicked here becomes the Library's filter. */
  onPick: (f: Partial<Filters>) => void;
}) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const status = useQuery(trpc.index.status.queryOptions());
  const max = Math.max(1, ...byCategory.map(([, n]) => n));
  return (
    <Card title={t('library.overview')} testId="corpus-overview">
      <div className="grid grid-cols-3 gap-2 text-center">
        {(
          [
            [status.data?.documents, 'library.overview.docs'],
            [status.data?.chunks, 'library.overview.chunks'],
            [status.data?.vectors, 'library.overview.vectors'],
          ] as const
        ).map(([n, label]) => (
          <div key={label} className="rounded-lg bg-sunken px-2 py-2">
            <div className="text-lg font-semibold tabular-nums">{n ?? '–'}</div>
            <div className="text-xs text-muted">{t(label)}</div>
          </div>
        ))}
      </div>
      <h3 className="mt-4 mb-1.5 text-xs font-semibold text-muted">{t('library.overview.categories')}</h3>
      <ul className="flex flex-col gap-1">
        {byCategory.slice(0, 8).map(([name, n]) => (
          <li key={name}>
            <button type="button" className="flex w-full items-center gap-2 rounded px-1 text-left text-xs hover:bg-sunken" onClick={() => onPick({ category: name || '/', tag: '' })}>
            <span className="w-24 truncate">{name || '/'}</span>
            <span className="h-1.5 flex-1 rounded bg-sunken">
              <span className="block h-1.5 rounded bg-accent" style={{ width: `${(n / max) * 100}%` }} />
            </span>
            <span className="w-10 text-right text-muted tabular-nums">{n}</span>
            </button>
          </li>
        ))}
      </ul>
      {tagCounts.length > 0 ? (
        <>
          <h3 className="mt-4 mb-1.5 text-xs font-semibold text-muted">{t('library.overview.tags')}</h3>
          <div className="flex flex-wrap gap-1">
            {tagCounts.slice(0, 16).map(([name, n]) => (
              <button key={name} type="button" className="rounded hover:ring-1 hover:ring-accent" onClick={() => onPick({ tag: name, category: '' })}>
                <Badge>
                  #{name} <span className="ml-1 opacity-60">{n}</span>
                </Badge>
              </button>
            ))}
          </div>
        </>
      ) : null}
    </Card>
  );
});

const TYPING = 'input, textarea, select, [contenteditable="true"]';

/**
 * The Library's keys while its page is shown: / focuses the search, j / k move between the rows
 * (focus on the row, so Enter opens it), Escape closes the open row (an unsaved draft asks first:
 * the editor handles its own Escape before this sees it).
 */
function useListKeys({ search, list, close }: { search: React.RefObject<HTMLInputElement | null>; list: React.RefObject<HTMLDivElement | null>; close: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const root = list.current;
      if (!root || root.closest('[data-active="false"]') || root.closest('[hidden]') || e.defaultPrevented) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (document.querySelector('[role="dialog"]')) return;
      const typing = Boolean(target?.closest(TYPING));
      if (e.key === 'Escape') {
        if (typing && target !== search.current) return;
        if (target === search.current) {
          search.current?.blur();
          return;
        }
        close();
        return;
      }
      if (typing) return;
      if (e.key === '/') {
        e.preventDefault();
        search.current?.focus();
        return;
      }
      if (e.key !== 'j' && e.key !== 'k') return;
      const rows = [...root.querySelectorAll<HTMLButtonElement>('[data-testid="memory-row-button"]')];
      if (rows.length === 0) return;
      e.preventDefault();
      const at = rows.findIndex((r) => r === document.activeElement);
      const next = at === -1 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (e.key === 'j' ? 1 : -1)));
      rows[next]!.focus();
      rows[next]!.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [search, list, close]);
}
