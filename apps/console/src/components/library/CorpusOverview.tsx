'use client';
// The Library's side card: the index's counts and the commonest categories and tags, each a filter.
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Badge, Card } from '../ui.tsx';
import type { Filters } from './useLibraryPages.ts';

export const CorpusOverview = memo(function CorpusOverview({
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
