'use client';
// Settings, at the top of the page: install the pinned local model as a server job and follow it (phase in
// Chinese, bytes or files, a progress bar), then the provider uses it. The page polls the job; a
// reload finds the running job again because the server keeps it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { OpsKey } from '../../client/messages-ops.ts';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { formatBytes } from '../../client/messages-settings.ts';
import { Badge, Button, Card, ErrorNote, inputClass } from '../ui.tsx';

type Job = NonNullable<RouterOutputs['model']['status']['job']>;

const PHASES = ['queued', 'resolve', 'download', 'verify', 'write', 'runtime', 'switch', 'embed', 'done'] as const;
const ERRORS = ['source', 'integrity', 'io', 'aborted', 'runtime', 'switch', 'busy', 'unknown'] as const;

/** 0–100 over the whole job: the install's own steps take most of the bar, embedding the rest. */
export function jobPercent(job: Pick<Job, 'phase' | 'done' | 'total' | 'state'>): number {
  if (job.state === 'done') return 100;
  const span: Record<string, [number, number]> = {
    queued: [0, 0],
    resolve: [0, 3],
    download: [3, 60],
    verify: [60, 65],
    write: [65, 72],
    runtime: [72, 80],
    switch: [80, 82],
    embed: [82, 99],
    done: [100, 100],
  };
  const [from, to] = span[job.phase] ?? [0, 0];
  const fraction = job.total > 0 ? Math.min(1, job.done / job.total) : 0;
  return Math.round(from + (to - from) * fraction);
}

function amount(job: Job): string {
  if (job.total <= 0) return '';
  if (job.phase === 'download' && job.total > 10_000) return `${(job.done / 1e6).toFixed(1)} / ${(job.total / 1e6).toFixed(1)} MB`;
  return `${job.done} / ${job.total}`;
}

export function ModelInstallTool({ provider, onDone }: { provider: unknown; /** After a job finished well: the provider may have changed. */ onDone?: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [from, setFrom] = useState('');
  const status = useQuery(
    trpc.model.status.queryOptions(undefined, {
      staleTime: 0,
      refetchInterval: (q) => (q.state.data?.job?.state === 'running' ? 400 : false),
    }),
  );
  const install = useMutation(
    trpc.model.install.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.model.status.queryKey() }),
    }),
  );
  const job = status.data?.job ?? null;
  const running = job?.state === 'running' || install.isPending;
  const phaseLabel = (p: string) => ((PHASES as readonly string[]).includes(p) ? t(`model.phase.${p}` as OpsKey) : p);
  const errorLabel = (c: string) => t(`model.error.${(ERRORS as readonly string[]).includes(c) ? c : 'unknown'}` as OpsKey);
  const percent = job ? jobPercent(job) : 0;
  // A job seen running that is now done changed the settings (provider) and the index (vectors).
  const seenRunning = useRef<number | null>(null);
  useEffect(() => {
    if (job?.state === 'running') seenRunning.current = job.id;
    else if (job?.state === 'done' && seenRunning.current === job.id) {
      seenRunning.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.index.status.queryKey() });
      onDone?.();
    }
  }, [job?.id, job?.state, queryClient, trpc, onDone]);
  const explicit = provider === 'openai' || provider === 'local';

  return (
    <Card
      testId="model-install"
      title={
        <span className="flex flex-wrap items-center gap-2">
          {t('model.title')}
          {status.data ? (
            <span data-testid="model-installed" data-installed={status.data.installed}>
              <Badge tone={status.data.installed ? 'ok' : 'neutral'}>{status.data.installed ? t('model.installed') : t('model.notInstalled')}</Badge>
            </span>
          ) : null}
        </span>
      }
    >
      <div className="flex flex-col gap-2">
      {status.data ? (
        <p className="text-sm" data-testid="model-state">
          {t(status.data.installed ? 'settings.model.on' : 'settings.model.off')}
        </p>
      ) : null}
      {status.data ? (
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted" data-testid="model-size">
          <code>{status.data.model}</code>
          <span>{t('settings.model.size', { download: formatBytes(status.data.sizes.download), disk: formatBytes(status.data.sizes.disk) })}</span>
        </p>
      ) : null}
      <p className="text-xs text-muted">{t('model.desc')}</p>
      {explicit ? <p className="text-xs text-warn">{t('model.provider.kept', { provider: String(provider) })}</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        <input
          data-testid="model-from"
          aria-label={t('model.from')}
          placeholder={t('model.from')}
          className={`${inputClass} min-w-0 flex-[1_1_16rem]`}
          value={from}
          disabled={running}
          onChange={(e) => setFrom(e.target.value)}
        />
        <Button variant="primary" data-testid="model-install-start" disabled={running || !status.data} onClick={() => install.mutate({ ...(from.trim() ? { from: from.trim() } : {}), force: status.data?.installed ?? false })}>
          {running ? t('model.installing') : status.data?.installed ? t('model.reinstall') : t('model.install')}
        </Button>
      </div>
      {install.error ? <ErrorNote error={install.error} /> : null}
      {job ? (
        <div data-testid="model-job" data-state={job.state} data-phase={job.phase}>
          <div className="flex items-center justify-between gap-2 text-xs">
            <span data-testid="model-phase">{job.state === 'failed' ? t('model.failed') : phaseLabel(job.phase)}</span>
            <span className="text-muted tabular-nums">{job.state === 'running' ? amount(job) : ''}</span>
            <span className="font-semibold tabular-nums" data-testid="model-percent">
              {percent}%
            </span>
          </div>
          <div
            className="mt-1 h-2 overflow-hidden rounded-full bg-sunken"
            role="progressbar"
            aria-label={t('model.title')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            data-testid="model-progress"
          >
            <div className={`h-full rounded-full transition-[width] duration-200 ${job.state === 'failed' ? 'bg-danger' : 'bg-accent'}`} style={{ width: `${percent}%` }} />
          </div>
          {job.state === 'failed' && job.error ? (
            <div className="mt-2 text-sm text-danger" role="alert" data-testid="model-error" data-code={job.error.code}>
              {errorLabel(job.error.code)}
              <div className="mt-0.5 font-mono text-xs break-all opacity-75">{job.error.message}</div>
            </div>
          ) : null}
          {job.state === 'done' && job.result ? (
            <div className="mt-2 text-sm text-ok" role="status" data-testid="model-done">
              {t(job.result.alreadyInstalled ? 'model.doneAlready' : 'model.done', { vectors: job.result.vectors })}
            </div>
          ) : null}
        </div>
      ) : null}
      </div>
    </Card>
  );
}
