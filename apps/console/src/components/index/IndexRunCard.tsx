'use client';
// The progress card of the Index page's runs (同步改动 and 全量重建 alike): the phase, a bar that
// only moves forward, the error if the run failed, and the report once it is done.
import { useI18n } from '../../client/i18n.tsx';
import { useIndexRun, type IndexRunKind } from '../../client/index-run.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { Card } from '../ui.tsx';
import { IndexRunReport } from './IndexRunReport.tsx';
import { phaseLabel } from './phase.ts';

const TITLES: Record<IndexRunKind, { running: MessageKey; failed: MessageKey; done: MessageKey }> = {
  changes: { running: 'index.syncing', failed: 'index.sync.failed', done: 'index.sync' },
  full: { running: 'index.rebuilding', failed: 'index.rebuild.failed', done: 'index.rebuild' },
};

export function IndexRunCard() {
  const { t } = useI18n();
  const r = useIndexRun();
  if (!r.kind) return null;
  const titles = TITLES[r.kind];
  return (
    <Card testId="rebuild-card">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="font-medium">{t(r.running ? titles.running : r.error ? titles.failed : titles.done)}</span>
        <span className="min-w-0 flex-1 truncate text-right text-xs text-muted" data-testid="rebuild-phase" data-phase={r.phase ?? ''}>
          {r.phase ? phaseLabel(r.phase, t) : ''}
          {r.phase && r.total > 0 ? ` ${r.done}/${r.total}` : ''}
        </span>
        <span data-testid="rebuild-percent" className="font-semibold tabular-nums">
          {r.percent}%
        </span>
      </div>
      <div
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-sunken"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={r.percent}
        data-testid="rebuild-progress"
        data-state={r.running ? 'running' : r.error ? 'error' : 'done'}
      >
        <div className={`h-full rounded-full transition-[width] duration-200 ${r.error ? 'bg-danger' : 'bg-accent'}`} style={{ width: `${r.percent}%` }} />
      </div>
      {r.error ? (
        <div className="mt-2 text-sm text-danger [overflow-wrap:anywhere]" role="alert">
          {r.error.message} <span className="font-mono text-xs opacity-75">{r.error.code}</span>
        </div>
      ) : null}
      {r.report ? <IndexRunReport report={r.report} /> : null}
    </Card>
  );
}
