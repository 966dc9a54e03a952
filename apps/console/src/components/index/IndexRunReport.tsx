'use client';
// What an index run did, in words in the reader's language. The counts are the engine's IndexReport
// (packages/engine/src/index/indexer.ts): `added` files had no row, `updated` files had one and
// were indexed again, `removed` rows lost their file, `unchanged` files were left as they were; the
// vectors are counted per chunk, `embedded` made now and `reused` kept. A full pass indexes every
// file again whether it changed or not (its `updated` is every file already indexed, its
// `unchanged` always 0), so its report says "re-indexed", leaves out the empty "unchanged" and tells
// that the number is not one of modified memories.
import { Children, Fragment, type ReactNode } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { IndexReport } from '../../client/index-run.tsx';
import { engineText } from '../../client/engine-text.ts';
import type { MessageKey } from '../../client/messages.ts';

type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

/** Under a second in ms, under a minute in seconds with one decimal, else minutes and whole seconds. */
export function durationText(ms: number, t: Translate): string {
  if (ms < 1_000) return t('common.ms', { n: ms });
  if (ms < 60_000) return t('index.report.seconds', { n: (ms / 1_000).toFixed(1) });
  const seconds = Math.round(ms / 1_000);
  return t('index.report.minutes', { m: Math.floor(seconds / 60), s: seconds % 60 });
}

export function IndexRunReport({ report }: { report: IndexReport }) {
  const { t, lang } = useI18n();
  const n = (value: number) => value.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US');
  const full = report.mode === 'full';
  const { semantic } = report;
  return (
    <div className="mt-2 flex flex-col gap-1 text-xs [overflow-wrap:anywhere]" data-testid="rebuild-report" data-mode={report.mode}>
      <p className="font-medium text-ok">
        {t(full ? 'index.report.fullDone' : 'index.report.syncDone', { time: durationText(report.ms, t), documents: n(report.documents), chunks: n(report.chunks) })}
      </p>
      <ReportLine label={t('index.report.files')}>
        <ReportCount testId="report-added">{t('index.report.added', { n: n(report.added) })}</ReportCount>
        <ReportCount testId="report-reindexed">{t('index.report.reindexed', { n: n(report.updated) })}</ReportCount>
        <ReportCount testId="report-removed">{t('index.report.removed', { n: n(report.removed) })}</ReportCount>
        {full ? null : <ReportCount testId="report-unchanged">{t('index.report.unchanged', { n: n(report.unchanged) })}</ReportCount>}
      </ReportLine>
      <ReportLine label={t('index.report.vectors')}>
        {semantic.skipped ? (
          // Beside the label, wrapping inside itself: a reason is a sentence (and may hold a path).
          <span className="min-w-0 flex-1" data-testid="report-vectors-skipped">{t('index.report.vectorsSkipped', { reason: engineText(semantic.skipped, lang) })}</span>
        ) : (
          // An array, not a fragment: ReportLine puts its separator between the two.
          [
            <ReportCount key="embedded" testId="report-embedded">
              {t('index.report.embedded', { n: n(semantic.embedded) })}
            </ReportCount>,
            <ReportCount key="reused" testId="report-reused">
              {t('index.report.reused', { n: n(semantic.reused) })}
            </ReportCount>,
          ]
        )}
      </ReportLine>
      {report.skipped.length ? <p className="text-warn">{t('index.rebuild.skipped', { n: n(report.skipped.length) })}</p> : null}
      {full ? (
        <p className="text-muted" data-testid="report-full-note">
          {t('index.report.fullNote')}
        </p>
      ) : null}
    </div>
  );
}

/** "文件：新增 3 · 重新索引 12 · …": the counts wrap between each other at 300 px, never inside one. */
function ReportLine({ label, children }: { label: string; children: ReactNode }) {
  const { lang } = useI18n();
  return (
    <p className="flex flex-wrap items-baseline gap-x-1.5 gap-y-0.5">
      <span className="text-muted">
        {label}
        {lang === 'zh' ? '：' : ':'}
      </span>
      {Children.toArray(children).map((child, i) => (
        <Fragment key={i}>
          {i > 0 ? (
            <span className="text-muted" aria-hidden="true">
              ·
            </span>
          ) : null}
          {child}
        </Fragment>
      ))}
    </p>
  );
}

function ReportCount({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <span className="whitespace-nowrap tabular-nums" data-testid={testId}>
      {children}
    </span>
  );
}
