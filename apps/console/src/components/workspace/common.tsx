'use client';
// Pieces every workspace-aware view shares: the workspace list with names, the switcher, the scope
// badge and the provenance line.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import { Badge, inputClass } from '../ui.tsx';

export type WorkspaceInfo = RouterOutputs['workspaces']['list'][number];

export const GLOBAL = 'global';

/** The registry's list, plus a name for any id (a memory may name a workspace merged away since). */
export function useWorkspaces() {
  const trpc = useTRPC();
  const { t } = useI18n();
  const list = useQuery(trpc.workspaces.list.queryOptions());
  const byId = useMemo(() => new Map((list.data ?? []).map((w) => [w.id, w])), [list.data]);
  const nameOf = (id: string): string => (id === GLOBAL ? t('ws.global') : (byId.get(id)?.name ?? id));
  return { list, workspaces: list.data ?? [], byId, nameOf, labelOf: (w: Pick<WorkspaceInfo, 'id' | 'name' | 'kind'>) => workspaceLabel(w, list.data ?? [], t) };
}

/** A workspace's name for a list; two with one name (two clones) are told apart by their ids. */
export function workspaceLabel(w: Pick<WorkspaceInfo, 'id' | 'name' | 'kind'>, all: readonly Pick<WorkspaceInfo, 'name' | 'kind'>[], t: (k: MessageKey) => string): string {
  if (w.kind === 'global') return t('ws.global');
  if (w.kind === 'orphan') return `${w.id} ${t('ws.orphan')}`;
  return all.filter((o) => o.kind === 'known' && o.name === w.name).length > 1 ? `${w.name} · ${w.id}` : w.name;
}

/** Everything a workspace change may have moved: memories, counts, claims, sessions. */
export function useInvalidateWorkspaceData() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.memories.pathFilter()),
      queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
      queryClient.invalidateQueries(trpc.sessions.list.pathFilter()),
      queryClient.invalidateQueries(trpc.index.pathFilter()),
      // The Library's word search answers from the same memories.
      queryClient.invalidateQueries(trpc.search.pathFilter()),
    ]);
}

/** A labelled choice of the workspace a query runs as (All, or one workspace): the recall and preview forms. */
export function ScopeSelect({ value, onChange, testId }: { value: string; onChange: (workspace: string) => void; testId: string }) {
  const { t } = useI18n();
  const { workspaces, labelOf } = useWorkspaces();
  return (
    <label className="flex min-w-0 flex-[1_1_8rem] flex-col gap-1 text-xs text-muted">
      {t('ws.switcher')}
      <select data-testid={testId} className={inputClass} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={ALL_WORKSPACES}>{t('ws.all')}</option>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {labelOf(w)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** All / global / each workspace with its memory count; a choice that no longer exists falls back to All. */
export function WorkspaceSwitcher({ testId = 'workspace-switcher' }: { testId?: string }) {
  const { t } = useI18n();
  const { workspace, setWorkspace, includeGlobal, setIncludeGlobal } = useWorkspaceChoice();
  const { list, workspaces, labelOf } = useWorkspaces();
  const total = workspaces.reduce((n, w) => n + w.memories, 0);

  useEffect(() => {
    if (list.data && workspace !== ALL_WORKSPACES && !list.data.some((w) => w.id === workspace)) setWorkspace(ALL_WORKSPACES);
  }, [list.data, workspace, setWorkspace]);

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1.5" data-testid="workspace-bar">
      <label className="flex min-w-0 flex-[1_1_14rem] items-center gap-2 text-xs text-muted">
        <span className="shrink-0">{t('ws.switcher')}</span>
        <select data-testid={testId} className={`${inputClass} min-w-0`} value={workspace} onChange={(e) => setWorkspace(e.target.value)}>
          <option value={ALL_WORKSPACES}>{t('ws.count', { name: t('ws.all'), n: total })}</option>
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {t('ws.count', { name: labelOf(w), n: w.memories })}
            </option>
          ))}
        </select>
      </label>
      {workspace !== ALL_WORKSPACES && workspace !== GLOBAL ? (
        <label className="flex shrink-0 items-center gap-1.5 text-sm text-muted">
          <input type="checkbox" data-testid="workspace-include-global" checked={includeGlobal} onChange={(e) => setIncludeGlobal(e.target.checked)} />
          {t('ws.includeGlobal')}
        </label>
      ) : null}
    </div>
  );
}

/** Where a memory lives: global, or its workspace by name (the id in the tooltip). */
export function ScopeBadge({ workspace, scope }: { workspace: string; scope?: 'workspace' | 'global' | 'all' }) {
  const { t } = useI18n();
  const { nameOf } = useWorkspaces();
  const isGlobal = workspace === GLOBAL;
  const label = isGlobal ? t('ws.global') : nameOf(workspace);
  const hint = scope && scope !== 'all' ? `${t(scope === 'workspace' ? 'scope.workspace' : 'scope.global')} · ${workspace}` : workspace;
  return (
    <span data-testid="memory-scope" data-scope={isGlobal ? 'global' : 'workspace'} data-workspace={workspace}>
      <Badge tone={isGlobal ? 'neutral' : 'ok'} title={hint}>
        {isGlobal ? '◎' : '▣'} {label}
      </Badge>
    </span>
  );
}

const ORIGINS: Record<string, MessageKey> = { agent: 'origin.agent', console: 'origin.console', cli: 'origin.cli', import: 'origin.import' };

export function originLabel(origin: string, t: (k: MessageKey) => string): string {
  return t(ORIGINS[origin] ?? 'origin.unknown');
}

/** `s:1a2b3c4d · 控制台`: the writing session's short id (full id on hover) and who wrote it. */
export function Provenance({ sessionId, origin }: { sessionId: string | null; origin: string }) {
  const { t } = useI18n();
  if (!sessionId && !origin) return null;
  return (
    <span data-testid="memory-provenance" className="font-mono text-[11px] text-muted" title={sessionId ?? undefined}>
      {sessionId ? `s:${sessionId.slice(0, 8)} · ` : ''}
      {originLabel(origin, t)}
    </span>
  );
}

/** Local `YYYY-MM-DD HH:MM` of an ISO time ('–' when there is none). */
export function localDateTime(iso: string | null): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
