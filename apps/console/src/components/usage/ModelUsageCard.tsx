'use client';
// Tokens of model-assisted work per day (compaction assistance, summaries, relevance judge): one line
// per day that had calls — today always — with the total and each kind's tokens and calls. Shown on
// the Index page; the numbers come from `usage.daily`.
import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Card, ErrorNote, Muted } from '../ui.tsx';

const DAYS = 14;
const WORK = ['compaction', 'summary', 'judge'] as const;

export function ModelUsageCard() {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const usage = useQuery(trpc.usage.daily.queryOptions({ days: DAYS }));
  const number = (n: number) => n.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en');
  const cell = (u: { calls: number; tokens: number }) => t('usage.cell', { tokens: number(u.tokens), calls: number(u.calls) });
  const days = usage.data?.days ?? [];
  const shown = days.filter((d, i) => i === 0 || d.total.calls > 0);
  return (
    <Card title={t('usage.title')} testId="model-usage">
      {usage.error ? <ErrorNote error={usage.error} onRetry={() => usage.refetch()} /> : null}
      <p className="text-xs text-muted">{t('usage.desc')}</p>
      {usage.data && days.every((d) => d.total.calls === 0) ? <Muted>{t('usage.empty', { n: DAYS })}</Muted> : null}
      <ul className="mt-2 flex flex-col divide-y divide-line text-xs">
        {usage.data && days.some((d) => d.total.calls > 0)
          ? shown.map((d, i) => (
              <li key={d.day} className="flex flex-col gap-1 py-1.5" data-testid="usage-day" data-day={d.day}>
                <div className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-medium tabular-nums">{d.day}</span>
                  {i === 0 ? <span className="text-muted">{t('usage.today')}</span> : null}
                  <span className="ml-auto tabular-nums" data-testid="usage-total">
                    {t('usage.total')} {cell(d.total)}
                  </span>
                </div>
                <div className="grid grid-cols-1 gap-x-3 text-muted @rail:grid-cols-3">
                  {WORK.map((w) => (
                    <span key={w} className="tabular-nums" data-testid={`usage-${w}`}>
                      {t(`usage.${w}`)} {cell(d.byWork[w])}
                    </span>
                  ))}
                </div>
              </li>
            ))
          : null}
      </ul>
    </Card>
  );
}
