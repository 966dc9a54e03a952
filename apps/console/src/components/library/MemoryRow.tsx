'use client';
// One memory in the Library's list: a one-line summary that opens in place to the memory itself.
import { isOptionalGap } from '@engram/engine/warnings';
import { useI18n } from '../../client/i18n.tsx';
import { LockIcon, PinIcon } from '../icons.tsx';
import { Marked } from '../notebook/Marked.tsx';
import { Badge } from '../ui.tsx';
import { Provenance, ScopeBadge } from '../workspace/common.tsx';
import { useDrafts } from './drafts.tsx';
import { MemoryDetailView } from './MemoryDetail.tsx';
import type { Memory } from './useLibraryPages.ts';

export function MemoryRow({ memory: m, words, open, onToggle }: { memory: Memory; words: readonly string[]; open: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  const fixable = m.warnings.filter((w) => !isOptionalGap(w)).length;
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
          {/* Only what the person can fix: a missing summary is an optional gap the engine fills in. */}
          {fixable > 0 ? <Badge tone="warn">⚠ {fixable}</Badge> : null}
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
