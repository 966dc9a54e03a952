'use client';
// An open memory's facts and switches: workspace, origin, summary source, pin, lock, move.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { LockIcon, PinIcon } from '../icons.tsx';
import { Badge, Button, inputClass } from '../ui.tsx';
import { ScopeBadge, originLabel, useInvalidateWorkspaceData, useWorkspaces } from '../workspace/common.tsx';

export type Detail = RouterOutputs['memories']['read'];

/** Pin, lock, move, provenance and the summary's source (with a re-run for generated or missing ones). */
export function MemoryMeta({ memory: d }: { memory: Detail }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateWorkspaceData();
  const { workspaces, nameOf, labelOf } = useWorkspaces();
  const [target, setTarget] = useState('');
  const onError = (e: unknown) => toast.error(e);
  /** Each switch says what it did, then the lists and this memory are read again. */
  const done = async (message: string) => {
    toast.ok(message);
    await invalidate();
  };

  const pin = useMutation(trpc.memories.setPinned.mutationOptions({ onSuccess: (m) => done(t(m.pinned ? 'memory.pinned.done' : 'memory.unpinned.done')), onError }));
  const lock = useMutation(trpc.memories.setLocked.mutationOptions({ onSuccess: (m) => done(t(m.locked ? 'memory.locked.done' : 'memory.unlocked.done')), onError }));
  const move = useMutation(
    trpc.memories.move.mutationOptions({
      onSuccess: (m) => {
        setTarget('');
        return done(t('memory.moved', { name: nameOf(m.workspace) }));
      },
      onError,
    }),
  );
  const rerun = useMutation(trpc.memories.rerunSummary.mutationOptions({ onSuccess: () => done(t('memory.summary.queued')), onError }));

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
