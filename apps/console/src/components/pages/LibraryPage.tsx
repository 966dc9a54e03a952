'use client';
// Library: every memory as a row (title, date, category, tags, chunks); a row opens in place to its
// full text, which can be edited and saved (the engine re-indexes that document) or archived.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { describeError, useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { Badge, Button, Card, ErrorNote, Muted, PageHeader, inputClass } from '../ui.tsx';
import { CreateMemoryForm } from './CreateMemoryForm.tsx';

type Memory = RouterOutputs['memories']['list'][number];

export function LibraryPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [includeArchived, setIncludeArchived] = useState(false);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [tag, setTag] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const list = useQuery(trpc.memories.list.queryOptions({ includeArchived }));
  const memories = useMemo(() => list.data ?? [], [list.data]);
  const categories = useMemo(() => [...new Set(memories.map((m) => m.category))].sort(), [memories]);
  const tagCounts = useMemo(() => countTags(memories), [memories]);
  const shown = useMemo(() => filterMemories(memories, search, category, tag), [memories, search, category, tag]);

  return (
    <div>
      <PageHeader
        eyebrow={t('library.eyebrow')}
        title={t('library.title')}
        description={t('library.desc')}
        actions={
          <>
            <Button onClick={() => list.refetch()}>{t('common.refresh')}</Button>
            <Button variant="primary" data-testid="library-new" onClick={() => setCreating((v) => !v)}>
              {t('library.new')}
            </Button>
          </>
        }
      />
      <div className="page-grid">
        <div className="flex min-w-0 flex-col gap-3">
          {creating ? <CreateMemoryForm categories={categories} onDone={() => setCreating(false)} /> : null}
          <div className="flex flex-wrap items-center gap-2">
            <input
              data-testid="library-search"
              className={`${inputClass} flex-[2_1_12rem]`}
              placeholder={t('library.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <select className={`${inputClass} flex-[1_1_8rem]`} value={category} onChange={(e) => setCategory(e.target.value)} aria-label={t('library.allCategories')}>
              <option value="">{t('library.allCategories')}</option>
              {categories.map((c) => (
                <option key={c} value={c || '/'}>
                  {c || '/'}
                </option>
              ))}
            </select>
            <select className={`${inputClass} flex-[1_1_8rem]`} value={tag} onChange={(e) => setTag(e.target.value)} aria-label={t('library.allTags')}>
              <option value="">{t('library.allTags')}</option>
              {tagCounts.map(([name]) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <label className="flex items-center gap-1.5 text-sm text-muted">
              <input type="checkbox" checked={includeArchived} onChange={(e) => setIncludeArchived(e.target.checked)} />
              {t('library.includeArchived')}
            </label>
          </div>
          {list.error ? <ErrorNote error={list.error} onRetry={() => list.refetch()} retryLabel={t('common.retry')} /> : null}
          <div className="overflow-hidden rounded-xl border border-line bg-panel" data-testid="library-list">
            <div className="flex items-center justify-between border-b border-line px-4 py-2 text-xs text-muted">
              <span>{list.isLoading ? t('common.loading') : t('library.count', { shown: shown.length, total: memories.length })}</span>
            </div>
            {!list.isLoading && memories.length === 0 ? <Muted>{t('library.empty')}</Muted> : null}
            {memories.length > 0 && shown.length === 0 ? <Muted>{t('library.noMatch')}</Muted> : null}
            <ul className="divide-y divide-line">
              {shown.map((m) => (
                <MemoryRow key={m.docId} memory={m} open={open === m.docId} onToggle={() => setOpen(open === m.docId ? null : m.docId)} />
              ))}
            </ul>
          </div>
        </div>
        <aside className="page-aside">
          <CorpusOverview memories={memories} tagCounts={tagCounts} />
        </aside>
      </div>
    </div>
  );
}

function MemoryRow({ memory: m, open, onToggle }: { memory: Memory; open: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  return (
    <li data-testid="memory-row" data-doc-id={m.docId}>
      <button type="button" onClick={onToggle} aria-expanded={open} className="flex w-full flex-col gap-1 px-4 py-2.5 text-left hover:bg-sunken/60">
        <div className="flex w-full items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate font-medium">{m.title || m.path}</span>
          <span className="shrink-0 text-xs text-muted tabular-nums">
            {m.date}
            {m.time ? ` ${m.time}` : ''}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
          <Badge tone="accent">{m.category || '/'}</Badge>
          {m.archived ? <Badge tone="warn">{t('common.archived')}</Badge> : null}
          {m.readOnly ? <Badge>{t('common.readOnly')}</Badge> : null}
          {m.warnings.length > 0 ? <Badge tone="warn">⚠ {m.warnings.length}</Badge> : null}
          {m.tags.slice(0, 6).map((tag) => (
            <Badge key={tag}>#{tag}</Badge>
          ))}
          <span className="ml-auto tabular-nums">{t('common.chunks', { n: m.chunks })}</span>
        </div>
        {!open && m.summary ? <p className="line-clamp-1 text-xs text-muted">{m.summary}</p> : null}
      </button>
      {open ? <MemoryDetailView id={m.docId} /> : null}
    </li>
  );
}

function MemoryDetailView({ id }: { id: string }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const detail = useQuery(trpc.memories.read.queryOptions({ id }, { staleTime: 0 }));
  const [draft, setDraft] = useState<string | null>(null);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const [conflict, setConflict] = useState(false);

  const invalidate = () =>
    Promise.all([queryClient.invalidateQueries(trpc.memories.pathFilter()), queryClient.invalidateQueries(trpc.index.pathFilter())]);

  const save = useMutation(
    trpc.memories.save.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('library.edit.saved'));
        setDraft(null);
        await invalidate();
      },
      onError: (e) => {
        if (describeError(e).code === 'CONFLICT') setConflict(true);
        else toast.error(e);
      },
    }),
  );
  const archive = useMutation(
    trpc.memories.archive.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('library.archived.done'));
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );

  if (detail.isLoading) return <div className="px-4 pb-3 text-sm text-muted">{t('common.loading')}</div>;
  if (detail.error || !detail.data) return <div className="px-4 pb-3">{detail.error ? <ErrorNote error={detail.error} /> : null}</div>;
  const d = detail.data;
  const text = draft ?? d.raw;
  const dirty = draft !== null && draft !== d.raw;

  return (
    <div className="flex flex-col gap-2 border-t border-line bg-sunken/40 px-4 py-3" data-testid="memory-detail">
      <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
        <span className="font-mono">{d.root}/{d.path}</span>
        {d.readOnly ? <span>{t('library.legacy')}</span> : null}
      </div>
      {d.warnings.length > 0 ? (
        <ul className="rounded-md bg-warn-soft px-3 py-2 text-xs text-warn">
          {d.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {d.readOnly ? (
        <pre className="prose-raw max-h-[28rem] overflow-auto rounded-md border border-line bg-panel p-3">{d.raw}</pre>
      ) : (
        <textarea
          data-testid="memory-editor"
          className={`${inputClass} prose-raw min-h-56 resize-y`}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setDraft(e.target.value);
            setConflict(false);
          }}
        />
      )}
      {conflict ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger" role="alert">
          <span className="flex-1">{t('library.edit.conflict')}</span>
          <Button
            onClick={async () => {
              setConflict(false);
              setDraft(null);
              await detail.refetch();
            }}
          >
            {t('library.edit.reload')}
          </Button>
        </div>
      ) : null}
      {!d.readOnly ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="primary"
            data-testid="memory-save"
            disabled={!dirty || save.isPending}
            onClick={() => save.mutate({ id: d.docId, raw: text, expectedHash: d.contentHash })}
          >
            {t('library.edit.save')}
          </Button>
          {dirty ? <Button onClick={() => setDraft(null)}>{t('common.cancel')}</Button> : null}
          <span className="flex-1" />
          {!d.archived ? (
            confirmArchive ? (
              <>
                <span className="text-xs text-muted">{t('library.archive.confirm', { title: d.title })}</span>
                <Button variant="danger" data-testid="memory-archive-confirm" disabled={archive.isPending} onClick={() => archive.mutate({ id: d.docId })}>
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
        </div>
      ) : null}
    </div>
  );
}

function CorpusOverview({ memories, tagCounts }: { memories: Memory[]; tagCounts: [string, number][] }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const status = useQuery(trpc.index.status.queryOptions());
  const byCategory = useMemo(() => {
    const counts = new Map<string, number>();
    for (const m of memories) counts.set(m.category, (counts.get(m.category) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]);
  }, [memories]);
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
      <h4 className="mt-4 mb-1.5 text-xs font-semibold text-muted">{t('library.overview.categories')}</h4>
      <ul className="flex flex-col gap-1">
        {byCategory.slice(0, 8).map(([name, n]) => (
          <li key={name} className="flex items-center gap-2 text-xs">
            <span className="w-24 truncate">{name || '/'}</span>
            <span className="h-1.5 flex-1 rounded bg-sunken">
              <span className="block h-1.5 rounded bg-accent" style={{ width: `${(n / max) * 100}%` }} />
            </span>
            <span className="w-6 text-right text-muted tabular-nums">{n}</span>
          </li>
        ))}
      </ul>
      {tagCounts.length > 0 ? (
        <>
          <h4 className="mt-4 mb-1.5 text-xs font-semibold text-muted">{t('library.overview.tags')}</h4>
          <div className="flex flex-wrap gap-1">
            {tagCounts.slice(0, 16).map(([name, n]) => (
              <Badge key={name}>
                #{name} <span className="ml-1 opacity-60">{n}</span>
              </Badge>
            ))}
          </div>
        </>
      ) : null}
    </Card>
  );
}

function countTags(memories: Memory[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const m of memories) for (const tag of m.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function filterMemories(memories: Memory[], search: string, category: string, tag: string): Memory[] {
  const needle = search.trim().toLowerCase();
  return memories.filter((m) => {
    if (category && (m.category || '/') !== category) return false;
    if (tag && !m.tags.includes(tag)) return false;
    if (!needle) return true;
    return [m.title, m.summary, m.path, m.category, ...m.tags].some((s) => s.toLowerCase().includes(needle));
  });
}
