'use client';
// The background summary queue: counts by status and the latest jobs (failed ones with their error),
// each with a re-run. Shown on the Index page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Badge, Button, Card, ErrorNote, Muted } from '../ui.tsx';

const STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export function SummaryQueueCard() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.memories.summaryStatus.queryOptions());
  const jobs = useQuery(trpc.memories.summaryJobs.queryOptions({ limit: 20 }));
  const rerun = useMutation(
    trpc.memories.rerunSummary.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('memory.summary.queued'));
        await queryClient.invalidateQueries(trpc.memories.pathFilter());
      },
      onError: (e) => toast.error(e),
    }),
  );
  return (
    <Card
      title={t('summaries.title')}
      testId="summary-queue"
      actions={status.data && !status.data.enabled ? <Badge tone="warn">{t('summaries.off')}</Badge> : null}
    >
      {status.error ? <ErrorNote error={status.error} /> : null}
      <div className="grid grid-cols-2 gap-2 text-center @rail:grid-cols-4">
        {STATUSES.map((s) => (
          <div key={s} className="rounded-lg bg-sunken px-2 py-1.5" data-testid={`summary-count-${s}`}>
            <div className={`text-lg font-semibold tabular-nums ${s === 'failed' && (status.data?.failed ?? 0) > 0 ? 'text-danger' : ''}`}>{status.data?.[s] ?? '–'}</div>
            <div className="text-xs text-muted">{t(`summaries.${s}` as MessageKey)}</div>
          </div>
        ))}
      </div>
      <p className="mt-2 text-xs text-muted">{t('summaries.hint')}</p>
      {jobs.data && jobs.data.length === 0 ? <Muted>{t('summaries.empty')}</Muted> : null}
      <ul className="mt-2 flex flex-col divide-y divide-line text-xs">
        {(jobs.data ?? []).map((j) => (
          <li key={j.docId} className="flex min-w-0 flex-wrap items-center gap-1.5 py-1.5" data-testid="summary-job">
            <Badge tone={j.status === 'failed' ? 'danger' : j.status === 'done' ? 'ok' : 'neutral'}>{t(`summaries.${j.status}` as MessageKey)}</Badge>
            {j.source === 'rule' ? <Badge tone="warn">{t('summaries.rule')}</Badge> : null}
            <span className="min-w-0 flex-1 truncate font-mono">{j.path}</span>
            <Button className="!px-2 !py-0.5 !text-xs" disabled={rerun.isPending || j.status === 'running'} onClick={() => rerun.mutate({ id: j.docId })}>
              {t('memory.summary.rerun')}
            </Button>
            {j.error ? <span className="w-full break-words text-danger">{j.error}</span> : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}
