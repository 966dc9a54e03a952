'use client';
// Import past sessions: pick a workspace → its sessions from the DSH logs with what an import would do
// (new / changed / unchanged / empty) → preview the memories (one per topic of a session) → import,
// with the model's reasoning if asked. The import runs on the server; this view polls its job
// (remembered across reloads) and shows the bar and the final report.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { useWorkspaceChoice } from '../../client/workspace.tsx';
import { Badge, Button, Card, ErrorNote, Muted, ProgressBar, inputClass } from '../ui.tsx';
import { useInvalidateWorkspaceData, useWorkspaces } from './common.tsx';
import { readStored, writeStored } from '../../client/storage.ts';

type PastSession = RouterOutputs['sessions']['list']['sessions'][number];
type Job = RouterOutputs['sessions']['importStatus'];

const JOB_KEY = 'engram.import.job';
const IMPORTABLE = new Set(['new', 'changed']);
const STATUS_TONE = { new: 'ok', changed: 'warn', unchanged: 'neutral', empty: 'neutral' } as const;

const day = (ms: number | null): string => {
  if (ms === null) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

export function ImportPanel() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const { workspace: chosen } = useWorkspaceChoice();
  const { workspaces } = useWorkspaces();
  const known = workspaces.filter((w) => w.kind === 'known');
  const [picked, setPicked] = useState<string | null>(null);
  const workspace = picked ?? (known.some((w) => w.id === chosen) ? chosen : '');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [previewIds, setPreviewIds] = useState<string[] | null>(null);
  const [thinking, setThinking] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);

  useEffect(() => setJobId(readStored(JOB_KEY)), []);
  useEffect(() => {
    setSelected(new Set());
    setPreviewIds(null);
  }, [workspace]);

  const sessions = useQuery({ ...trpc.sessions.list.queryOptions({ workspace: workspace || '-' }, { staleTime: 0 }), enabled: workspace !== '' });
  const list = useMemo(() => sessions.data?.sessions ?? [], [sessions.data]);
  const importable = list.filter((s) => IMPORTABLE.has(s.status));
  const preview = useQuery({ ...trpc.sessions.preview.queryOptions({ ids: previewIds ?? ['-'], thinking }, { staleTime: 0, retry: false }), enabled: previewIds !== null });

  const start = useMutation(
    trpc.sessions.import.mutationOptions({
      onSuccess: (job) => {
        writeStored(JOB_KEY, job.id);
        setJobId(job.id);
        setPreviewIds(null);
        setSelected(new Set());
      },
      onError: (e) => toast.error(e),
    }),
  );

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = importable.length > 0 && importable.every((s) => selected.has(s.id));

  return (
    <div className="flex min-w-0 flex-col gap-3">
      {jobId ? <JobCard jobId={jobId} onForget={() => (writeStored(JOB_KEY, null), setJobId(null))} /> : null}
      <Card title={t('library.tab.import')} testId="import-card">
        {known.length === 0 ? <Muted>{t('import.noWorkspaces')}</Muted> : null}
        <label className="flex min-w-0 flex-col gap-1 text-xs text-muted">
          {t('import.workspace')}
          <select data-testid="import-workspace" className={inputClass} value={workspace} onChange={(e) => setPicked(e.target.value)}>
            <option value="">{t('import.pickWorkspace')}</option>
            {known.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} — {w.path}
              </option>
            ))}
          </select>
        </label>
        {sessions.error ? (
          <div className="mt-2">
            <ErrorNote error={sessions.error} onRetry={() => void sessions.refetch()} />
          </div>
        ) : null}
        {sessions.data ? (
          <div className="mt-2 flex flex-col gap-2" data-testid="import-sessions">
            <div className="text-xs text-muted break-all">
              {t('import.home', { home: sessions.data.home })}
              {sessions.data.workspace.pastPaths.length > 0 ? ` · ${t('import.pastPaths', { paths: sessions.data.workspace.pastPaths.join(', ') })}` : ''}
            </div>
            {list.length === 0 ? <Muted>{t('import.empty')}</Muted> : null}
            {importable.length > 0 ? (
              <label className="flex items-center gap-1.5 text-sm text-muted">
                <input
                  type="checkbox"
                  data-testid="import-select-all"
                  checked={allChosen}
                  onChange={(e) => setSelected(e.target.checked ? new Set(importable.map((s) => s.id)) : new Set())}
                />
                {t('import.selectAll')}
                <span className="ml-auto tabular-nums">{t('import.selected', { n: selected.size })}</span>
              </label>
            ) : null}
            <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
              {list.map((s) => (
                <SessionRow key={s.id} session={s} checked={selected.has(s.id)} onToggle={() => toggle(s.id)} />
              ))}
            </ul>
            <label className="flex items-center gap-1.5 text-sm text-muted" title={t('import.thinkingHint')}>
              <input type="checkbox" data-testid="import-thinking" checked={thinking} onChange={(e) => setThinking(e.target.checked)} />
              {t('import.thinking')}
            </label>
            <div className="flex flex-wrap gap-2">
              <Button data-testid="import-preview" disabled={selected.size === 0 || preview.isFetching} onClick={() => setPreviewIds([...selected])}>
                {t('import.preview')}
              </Button>
              <Button
                variant="primary"
                data-testid="import-start"
                disabled={selected.size === 0 || start.isPending}
                onClick={() => start.mutate({ workspace, ids: [...selected], thinking })}
              >
                {t('import.start')}
              </Button>
            </div>
          </div>
        ) : null}
      </Card>
      {previewIds !== null ? (
        <Card title={t('import.previewTitle')} testId="import-preview-card">
          {preview.error ? <ErrorNote error={preview.error} /> : null}
          {preview.isFetching ? <Muted>{t('common.loading')}</Muted> : null}
          <ul className="flex flex-col gap-2">
            {(preview.data ?? []).map((p) => (
              <li key={p.sessionId} data-testid="import-preview-item" className="flex min-w-0 flex-col gap-1">
                <div className="flex flex-wrap items-center gap-1.5 text-sm">
                  <span className="min-w-0 flex-1 truncate font-medium">{p.title}</span>
                  <Badge tone={STATUS_TONE[p.status]}>{t(`import.status.${p.status}` as MessageKey)}</Badge>
                  <Badge>{t('import.turns', { n: p.turns })}</Badge>
                  {p.topics.length > 1 ? <Badge>{t('import.topics', { n: p.topics.length })}</Badge> : null}
                </div>
                {p.topics.map((topic) => (
                  <div key={topic.key} data-testid="import-preview-topic" className="flex min-w-0 flex-col gap-1">
                    {p.topics.length > 1 ? (
                      <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
                        <span className="min-w-0 flex-1 truncate">{topic.draft.title}</span>
                        <Badge tone={STATUS_TONE[topic.status]}>{t(`import.status.${topic.status}` as MessageKey)}</Badge>
                        <span>{t('import.topicTurns', { from: topic.draft.fromTurn, to: topic.draft.toTurn })}</span>
                      </div>
                    ) : null}
                    <pre className="prose-raw max-h-48 overflow-auto rounded-md bg-sunken p-2">{topic.draft.body}</pre>
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}

function SessionRow({ session: s, checked, onToggle }: { session: PastSession; checked: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  const disabled = !IMPORTABLE.has(s.status);
  return (
    <li data-testid="import-session" data-session-id={s.id} data-status={s.status}>
      <label className={`flex min-w-0 items-start gap-2 px-3 py-2 text-sm ${disabled ? 'opacity-70' : 'cursor-pointer hover:bg-sunken/60'}`}>
        <input type="checkbox" className="mt-1" checked={checked} disabled={disabled} onChange={onToggle} />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="truncate font-medium">{s.title || s.id}</span>
          <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <Badge tone={STATUS_TONE[s.status]}>{t(`import.status.${s.status}` as MessageKey)}</Badge>
            <span className="font-mono">s:{s.id.slice(0, 8)}</span>
            <span>{t('import.turns', { n: s.turns })}</span>
            <span className="tabular-nums">{day(s.startedAt ?? s.mtimeMs)}</span>
            {s.damaged ? <Badge tone="warn">⚠</Badge> : null}
          </span>
        </span>
      </label>
    </li>
  );
}

/** The current (or last) import job, polled while it runs; its end refreshes what it changed. */
function JobCard({ jobId, onForget }: { jobId: string; onForget: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const invalidate = useInvalidateWorkspaceData();
  const job = useQuery({
    ...trpc.sessions.importStatus.queryOptions({ jobId }, { staleTime: 0, retry: false }),
    refetchInterval: (q) => ((q.state.data as Job | undefined)?.status === 'running' ? 300 : false),
  });
  const status = job.data?.status;
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    // Also when the first answer is already "done": a short import can finish before the first poll.
    if (status && status !== 'running' && seen.current !== status) void invalidate();
    seen.current = status;
  }, [status, invalidate]);

  // A console restart forgets its jobs: the stale id is dropped rather than shown as an error.
  useEffect(() => {
    if (job.error) onForget();
  }, [job.error, onForget]);
  if (!job.data) return null;
  const j = job.data;
  const state = j.status === 'failed' ? 'error' : j.status === 'done' ? 'done' : 'running';
  return (
    <Card
      testId="import-job"
      title={j.status === 'running' ? t('import.running') : j.status === 'done' ? t('import.done') : t('import.failed')}
      actions={
        j.status !== 'running' ? (
          <Button className="!px-2 !py-0.5 !text-xs" onClick={onForget}>
            {t('common.close')}
          </Button>
        ) : null
      }
    >
      <ProgressBar percent={j.percent} state={state} testId="import-progress" />
      <div className="mt-1 text-xs text-muted tabular-nums">{t('import.progress', { done: j.done, total: j.total })}</div>
      {j.report ? (
        <div className="mt-2 flex flex-col gap-1 text-sm" data-testid="import-report">
          <span>
            {t('import.report', {
              imported: j.report.imported,
              updated: j.report.updated,
              skipped: j.report.skipped,
              empty: j.report.empty,
              failed: j.report.failed.length,
            })}
          </span>
          {j.report.failed.map((f) => (
            <span key={f.sessionId} className="text-xs text-danger break-words">
              s:{f.sessionId.slice(0, 8)} — {f.error}
            </span>
          ))}
        </div>
      ) : null}
      {j.error ? (
        <div className="mt-2 text-sm text-danger" role="alert">
          {j.error.message} <span className="font-mono text-xs opacity-75">{j.error.code}</span>
        </div>
      ) : null}
    </Card>
  );
}
