'use client';
// Index: what is indexed and how (counts, tokenizer, embedding fingerprint, build time, warnings),
// per-folder details, the two index runs with a live progress card (同步改动, the quick incremental
// pass, first; 全量重建 after it), the live pick-up of files other tools put in the folder (its
// pass's progress), and the integrity check.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useIndexRun } from '../../client/index-run.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { Badge, Banner, Button, Card, ErrorNote, PageHeader, Stat } from '../ui.tsx';
import { SummaryQueueCard } from '../workspace/SummaryQueueCard.tsx';
import { CompactionSection } from './CompactionSection.tsx';
import { ModelUsageCard } from '../usage/ModelUsageCard.tsx';
import { engineText } from '../../client/engine-text.ts';
import { progressPercent } from '../../shared/progress.ts';
import { IndexRunCard } from '../index/IndexRunCard.tsx';
import { DiaryMissingBanner } from '../index/DiaryMissingBanner.tsx';
import { phaseLabel } from '../index/phase.ts';

type Status = RouterOutputs['index']['status'];

export function IndexPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const status = useQuery(trpc.index.status.queryOptions());
  const run = useIndexRun();

  return (
    <div>
      <PageHeader
        eyebrow={t('index.eyebrow')}
        title={t('index.title')}
        description={t('index.desc')}
        actions={
          <>
            <Button onClick={() => status.refetch()}>{t('common.refresh')}</Button>
            <IntegrityButton />
            <Button variant="primary" data-testid="index-sync" title={t('index.sync.title')} disabled={run.running} onClick={() => void run.start('changes')}>
              {run.running && run.kind === 'changes' ? t('index.syncing') : t('index.sync')}
            </Button>
            <Button data-testid="index-rebuild" disabled={run.running} onClick={() => void run.start('full')}>
              {run.running && run.kind === 'full' ? t('index.rebuilding') : t('index.rebuild')}
            </Button>
          </>
        }
      />
      <div className="page-grid">
        <div className="flex min-w-0 flex-col gap-3">
          {status.error ? <ErrorNote error={status.error} onRetry={() => status.refetch()} retryLabel={t('common.retry')} /> : null}
          {status.data ? <DiaryMissingBanner status={status.data} page="index" /> : null}
          {status.data ? <MismatchBanner status={status.data} onRebuild={() => void run.start('full')} busy={run.running} /> : null}
          <IndexRunCard />
          <LiveSyncProgress />
          {status.data ? <StatusView status={status.data} /> : <div className="text-sm text-muted">{t('common.loading')}</div>}
          {status.data ? (
            <div className="@wide:hidden">
              <PathsCard status={status.data} />
            </div>
          ) : null}
          <PluginLogCard />
          <SummaryQueueCard />
          <ModelUsageCard />
          <CompactionSection />
        </div>
        <aside className="page-aside">
          <Card title={t('index.aside.title')}>
            <p className="text-sm text-muted">{t('index.aside.body')}</p>
          </Card>
          {status.data ? <PathsCard status={status.data} /> : null}
        </aside>
      </div>
    </div>
  );
}

function MismatchBanner({ status: s, onRebuild, busy }: { status: Status; onRebuild: () => void; busy: boolean }) {
  const { t, lang } = useI18n();
  const lines: string[] = [];
  if (s.tokenizer.mismatch) lines.push(t('index.mismatch.tokenizer', { built: s.tokenizer.builtWith ?? '?', active: s.tokenizer.active }));
  if (s.chunkParams.adviseRebuild && s.chunkParams.builtWith) {
    lines.push(
      t('index.mismatch.chunk', {
        built: `${s.chunkParams.builtWith.size}/${s.chunkParams.builtWith.overlap}`,
        now: `${s.chunkParams.size}/${s.chunkParams.overlap}`,
      }),
    );
  }
  if (s.semantic.state === 'mismatch') lines.push([s.semantic.reason, s.semantic.action].filter(Boolean).map((x) => engineText(x!, lang)).join(' — '));
  if (lines.length === 0) return null;
  return (
    <Banner
      tone="warn"
      testId="mismatch-banner"
      title={t('index.mismatch.title')}
      actions={
        <Button variant="primary" disabled={busy} onClick={onRebuild}>
          {t('index.rebuild')}
        </Button>
      }
    >
      {lines.map((l) => (
        <div key={l}>{l}</div>
      ))}
      <div>{s.semantic.state === 'mismatch' && s.semantic.action ? null : t('index.mismatch.action')}</div>
    </Banner>
  );
}

/** Polled while a pass runs or files wait, every 10 s otherwise (a flood can start at any time). */
const LIVE_SYNC_POLL_MS = { busy: 1_000, idle: 10_000 };

/**
 * The live sync's pass over files other tools put in the folder (a git pull, a sync folder, an
 * unzip): shown only while one runs or files wait for the next one.
 */
function LiveSyncProgress() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const sync = useQuery({
    ...trpc.index.liveSync.queryOptions(),
    refetchInterval: (q) => (q.state.data?.running || q.state.data?.pending ? LIVE_SYNC_POLL_MS.busy : LIVE_SYNC_POLL_MS.idle),
  });
  const s = sync.data;
  // When a pass ends the counts above are stale: read them again.
  const queryClient = useQueryClient();
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && s && !s.running) void queryClient.invalidateQueries(trpc.index.status.pathFilter());
    wasRunning.current = Boolean(s?.running);
  }, [s, queryClient, trpc]);
  const p = s?.running ? s.progress : null;
  const counting = p && p.phase !== 'done' && p.total > 0;
  if (!s || (!counting && s.pending === 0)) return null;
  const percent = p ? progressPercent(p) : 0;
  return (
    <Card testId="live-sync-card">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="font-medium">{t('index.liveSync.title')}</span>
        <span className="min-w-0 flex-1 truncate text-right text-xs text-muted" data-testid="live-sync-phase" data-phase={p?.phase ?? ''}>
          {counting ? `${phaseLabel(p.phase, t)} ${p.done}/${p.total}` : ''}
          {s.pending > 0 ? `${counting ? ' · ' : ''}${t('index.liveSync.pending', { n: s.pending })}` : ''}
        </span>
        <span className="font-semibold tabular-nums" data-testid="live-sync-percent">
          {percent}%
        </span>
      </div>
      <div className="mt-2 h-2.5 overflow-hidden rounded-full bg-sunken" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid="live-sync-progress">
        <div className="h-full rounded-full bg-accent transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-2 text-xs text-muted">{t('index.liveSync.hint')}</p>
    </Card>
  );
}

/** `command` spans of a message as code (a command to type, not a word to translate). */
function withTicks(text: string): ReactNode {
  return text.split(/`([^`]+)`/g).map((part, i) => (i % 2 === 1 ? <code key={i} className="rounded bg-sunken px-1 text-xs">{part}</code> : part));
}

function semanticStateLabel(state: string, t: (k: MessageKey) => string): string {
  const keys: Record<string, MessageKey> = { ready: 'index.sem.ready', off: 'index.sem.off', mismatch: 'index.sem.mismatch', error: 'index.sem.error', degraded: 'index.sem.degraded' };
  return keys[state] ? t(keys[state]) : state;
}

function StatusView({ status: s }: { status: Status }) {
  const { t, lang } = useI18n();
  const semTone = s.semantic.state === 'ready' ? 'ok' : s.semantic.state === 'off' ? 'neutral' : 'warn';
  return (
    <>
      <div className="grid grid-cols-2 gap-2 @rail:grid-cols-4" data-testid="index-stats">
        <Stat label={t('index.documents')} value={s.documents} hint={`${t('index.archived')} ${s.archived}`} testId="stat-documents" />
        <Stat label={t('index.chunks')} value={s.chunks} testId="stat-chunks" />
        <Stat label={t('index.vectors')} value={s.vectors} hint={s.semantic.dimensions ? `${s.semantic.dimensions}d` : undefined} testId="stat-vectors" />
        <Stat label={t('index.builtAt')} value={s.builtAt ? <BuiltAt iso={s.builtAt} /> : t('index.never')} testId="stat-built-at" />
      </div>
      <Card title={t('index.tokenizer')} actions={<Badge tone={s.tokenizer.mismatch ? 'warn' : 'accent'}>{s.tokenizer.active}</Badge>}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">{t('index.tokenizer.configured')}</dt>
          <dd>{s.tokenizer.configured}</dd>
          <dt className="text-muted">{t('index.tokenizer.builtWith')}</dt>
          {/* The index key names the tokenizer and its terms version (jieba+terms2): an identifier, shown as one. */}
          <dd className="font-mono text-xs">{s.tokenizer.builtWith ?? '–'}</dd>
          <dt className="text-muted">{t('index.chunkParams')}</dt>
          <dd>
            {s.chunkParams.size} / {s.chunkParams.overlap}
            {s.chunkParams.builtWith ? <span className="text-muted"> {t('index.chunkParams.built', { size: s.chunkParams.builtWith.size, overlap: s.chunkParams.builtWith.overlap })}</span> : null}
          </dd>
        </dl>
        {s.tokenizer.fallbackReason ? <p className="mt-2 text-xs text-warn">{t('index.tokenizer.fallback', { engine: s.tokenizer.active, reason: '' })}
            <span className="font-mono break-all">{s.tokenizer.fallbackReason}</span></p> : null}
      </Card>
      <Card title={t('index.embedding')} actions={<Badge tone={semTone}>{semanticStateLabel(s.semantic.state, t)}</Badge>} testId="index-embedding">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">{t('index.embedding.provider')}</dt>
          <dd>{s.semantic.provider === 'none' ? t('common.none') : s.semantic.provider}</dd>
          <dt className="text-muted">{t('index.embedding.dimensions')}</dt>
          <dd>{s.semantic.dimensions || '–'}</dd>
          {s.semantic.reason ? (
            <>
              <dt className="text-muted">{t('index.embedding.state')}</dt>
              <dd className="min-w-0 [overflow-wrap:anywhere]">{engineText(s.semantic.reason, lang)}</dd>
            </>
          ) : null}
          {s.semantic.action ? (
            <>
              <dt className="text-muted">→</dt>
              <dd className="min-w-0 font-medium [overflow-wrap:anywhere]">{withTicks(engineText(s.semantic.action, lang))}</dd>
            </>
          ) : null}
        </dl>
      </Card>
      <Card title={t('index.folders')} testId="index-folders">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-muted">
              <th className="py-1 font-normal">{t('index.folder.root')}</th>
              <th className="py-1 font-normal">{t('index.folder.category')}</th>
              <th className="py-1 text-right font-normal">{t('index.folder.documents')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {s.folders.map((f) => (
              <tr key={`${f.root}/${f.category}`}>
                <td className="py-1">{f.root === 'diary' ? t('index.root.diary') : f.root === 'legacy' ? t('index.root.legacy') : f.root}</td>
                <td className="py-1">{f.category || '/'}</td>
                <td className="py-1 text-right tabular-nums">{f.documents}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <WarningsCards summary={s.warningSummary} />
    </>
  );
}

/**
 * The index's warnings as counts by kind over every file (the status list itself is capped): what a
 * person can fix as warnings, the optional gaps (a missing summary) as notes, each in the reader's language.
 */
function WarningsCards({ summary }: { summary: Status['warningSummary'] }) {
  const { t, lang } = useI18n();
  const kindLine = (k: Status['warningSummary']['kinds'][number]) =>
    t(k.optional ? 'index.warnings.optionalKind' : 'index.warnings.kind', { n: k.count.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-US'), message: engineText(k.message, lang), example: k.example });
  const fixable = [...summary.general, ...summary.listed].map((w) => engineText(w, lang));
  const fixableKinds = summary.kinds.filter((k) => !k.optional);
  const optionalKinds = summary.kinds.filter((k) => k.optional);
  return (
    <>
      {summary.fixable > 0 ? (
        <Card title={`${t('index.warnings')} (${summary.fixable.toLocaleString()})`} testId="index-warnings">
          <ul className="max-h-64 overflow-auto text-xs text-warn [overflow-wrap:anywhere]">
            {fixable.map((w, i) => (
              <li key={`${i}-${w}`} className="font-mono">{w}</li>
            ))}
            {fixableKinds.map((k) => (
              <li key={k.message}>{kindLine(k)}</li>
            ))}
          </ul>
        </Card>
      ) : null}
      {optionalKinds.length > 0 ? (
        <Card title={t('index.warnings.optional')} testId="index-notes">
          <ul className="text-xs text-muted [overflow-wrap:anywhere]">
            {optionalKinds.map((k) => (
              <li key={k.message}>{kindLine(k)}</li>
            ))}
          </ul>
        </Card>
      ) : null}
    </>
  );
}

function IntegrityButton() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const check = useMutation(
    trpc.index.integrity.mutationOptions({
      onSuccess: (r) => {
        const text = `${t('index.integrity')}: ${r.ok ? 'OK' : 'FAIL'} · checked ${r.checked} · min cos ${r.minCos.toFixed(4)}${r.reason ? ` · ${r.reason}` : ''}`;
        if (r.ok) toast.ok(text);
        else toast.error(new Error(text));
      },
      onError: (e) => toast.error(e),
    }),
  );
  return (
    <Button data-testid="index-integrity" disabled={check.isPending} onClick={() => check.mutate()}>
      {check.isPending ? t('index.integrity.running') : t('index.integrity')}
    </Button>
  );
}

/** Local `YYYY-MM-DD HH:MM`. */
function shortDateTime(iso: string): [string, string] | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return [`${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`, `${p(d.getHours())}:${p(d.getMinutes())}`];
}

/**
 * The build time in a stat tile, which truncates its value: date and time may wrap onto two lines
 * (each kept whole) so a narrow tile never cuts them.
 */
function BuiltAt({ iso }: { iso: string }) {
  const parts = shortDateTime(iso);
  if (!parts) return <span className="block whitespace-normal break-all text-base">{iso}</span>;
  return (
    <span className="block whitespace-normal text-base leading-snug" title={iso}>
      <span className="whitespace-nowrap">{parts[0]}</span> <span className="whitespace-nowrap">{parts[1]}</span>
    </span>
  );
}

const LOG_LINES = 200;

/** The plugin's own log file (the host keeps plugin logs only in memory), newest line last. */
function PluginLogCard() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const log = useQuery(trpc.index.pluginLog.queryOptions({ lines: LOG_LINES }));
  const tone = (level: string) => (level === 'error' ? 'text-danger' : level === 'warn' ? 'text-warn' : 'text-muted');
  const levelLabel = (level: string) => (level === 'info' || level === 'warn' || level === 'error' ? t(`pluginLog.level.${level}`) : level);
  return (
    <Card
      title={t('pluginLog.title')}
      testId="plugin-log"
      actions={
        <Button data-testid="plugin-log-refresh" disabled={log.isFetching} onClick={() => void log.refetch()}>
          {t('common.refresh')}
        </Button>
      }
    >
      <p className="mb-2 text-xs text-muted">{t('pluginLog.desc')}</p>
      {log.error ? <ErrorNote error={log.error} onRetry={() => void log.refetch()} retryLabel={t('common.retry')} /> : null}
      {log.data && log.data.lines.length === 0 ? (
        <p className="py-3 text-sm text-muted" data-testid="plugin-log-empty">
          {t('pluginLog.empty')}
        </p>
      ) : null}
      {log.data && log.data.lines.length > 0 ? (
        <>
          <div className="mb-1 text-xs text-muted">{t('pluginLog.count', { n: log.data.lines.length })}</div>
          <ol className="max-h-80 overflow-auto rounded-md bg-sunken px-2 py-1.5 font-mono text-xs" data-testid="plugin-log-lines" data-allow-en>
            {log.data.lines.map((l, i) => (
              <li key={`${i}-${l.time}`} className="break-words py-0.5" data-level={l.level}>
                {l.time ? <span className="mr-2 text-muted">{l.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</span> : null}
                {l.level ? <span className={`mr-2 font-semibold ${tone(l.level)}`}>{levelLabel(l.level)}</span> : null}
                <span>{l.message}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {log.data ? (
        <div className="mt-2 text-xs text-muted">
          {t('pluginLog.file')}: <code className="break-all">{log.data.file}</code>
        </div>
      ) : null}
    </Card>
  );
}

function PathsCard({ status: s }: { status: Status }) {
  const { t } = useI18n();
  return (
    <Card title={t('index.paths')}>
      <dl className="flex flex-col gap-1.5 text-xs">
        {(
          [
            [t('index.paths.diary'), s.diaryDir],
            [t('index.paths.data'), s.dataDir],
            [t('index.paths.database'), s.databaseUrl],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <dt className="text-muted">{k}</dt>
            <dd className="font-mono break-all">{v}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
