'use client';
// Workspaces: register a folder, answer pending claims (is this folder a known workspace, moved or
// cloned?), and per workspace its identity (path, strong / weak key), memory count, rename and merge;
// the claim records underneath, newest first.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { Badge, Button, Card, ErrorNote, Muted, inputClass } from '../ui.tsx';
import { GLOBAL, localDateTime, useInvalidateWorkspaceData, useWorkspaces, type WorkspaceInfo } from './common.tsx';

type Claim = RouterOutputs['workspaces']['claims'][number];

const shortKey = (key: string | null): string => (key ? key.slice(0, 12) : '');
const when = localDateTime;

export function WorkspacesPanel() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const { list, workspaces } = useWorkspaces();
  const claims = useQuery(trpc.workspaces.claims.queryOptions({}));
  const pending = (claims.data ?? []).filter((c) => c.status === 'pending');

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <RegisterForm />
      {list.error ? <ErrorNote error={list.error} onRetry={() => void list.refetch()} /> : null}
      <Card title={t('wsp.pending', { n: pending.length })} testId="ws-pending">
        {pending.length === 0 ? <Muted>{t('wsp.pending.none')}</Muted> : null}
        <ul className="flex flex-col gap-3">
          {pending.map((c) => (
            <PendingClaim key={c.id} claim={c} />
          ))}
        </ul>
      </Card>
      <Card title={t('wsp.list')} testId="ws-list">
        <ul className="flex flex-col divide-y divide-line">
          {workspaces.map((w) => (
            <WorkspaceItem key={w.id} workspace={w} others={workspaces.filter((o) => o.id !== w.id && o.kind !== 'orphan')} />
          ))}
        </ul>
      </Card>
      <Card title={t('wsp.claims')} testId="ws-claims">
        {claims.error ? <ErrorNote error={claims.error} /> : null}
        {!claims.error && claims.data && claims.data.length === 0 ? <Muted>{t('wsp.claims.none')}</Muted> : null}
        <ul className="flex flex-col gap-1.5 text-xs">
          {(claims.data ?? []).map((c) => (
            <li key={c.id} className="flex flex-col gap-0.5 border-b border-line pb-1.5 last:border-0" data-testid="ws-claim" data-status={c.status}>
              <div className="flex flex-wrap items-center gap-1.5">
                <span className="text-muted tabular-nums">{when(c.at)}</span>
                <Badge>{t(`wsp.claim.decision.${c.decision}` as MessageKey)}</Badge>
                <Badge tone={c.status === 'pending' ? 'warn' : c.status === 'rejected' ? 'danger' : 'ok'}>{t(`wsp.claim.status.${c.status}` as MessageKey)}</Badge>
                {c.workspaceId ? <span className="font-mono">{c.workspaceId}</span> : null}
              </div>
              <div className="font-mono break-all text-muted">{c.path}</div>
              {c.reason ? <div className="break-words text-muted">{c.reason}</div> : null}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

function RegisterForm() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateWorkspaceData();
  const [path, setPath] = useState('');
  const register = useMutation(
    trpc.workspaces.register.mutationOptions({
      onSuccess: async (r) => {
        toast.ok(t('wsp.register.done', { name: r.name, decision: t(`wsp.decision.${r.decision.kind}` as MessageKey) }));
        setPath('');
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-xl border border-line bg-panel p-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (path.trim()) register.mutate({ path: path.trim() });
      }}
    >
      <label className="flex min-w-0 flex-[1_1_14rem] flex-col gap-1 text-xs text-muted">
        {t('wsp.register')}
        <input data-testid="ws-register-path" className={`${inputClass} font-mono`} value={path} placeholder={t('wsp.register.ph')} onChange={(e) => setPath(e.target.value)} />
      </label>
      <Button type="submit" data-testid="ws-register-submit" disabled={!path.trim() || register.isPending}>
        {t('wsp.register.submit')}
      </Button>
    </form>
  );
}

function PendingClaim({ claim: c }: { claim: Claim }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateWorkspaceData();
  const { nameOf, byId } = useWorkspaces();
  const accept = useMutation(
    trpc.workspaces.acceptClaim.mutationOptions({
      onSuccess: async (r) => {
        toast.ok(t('wsp.pending.accepted', { name: nameOf(r.workspaceId ?? ''), n: r.rewrite.moved.length }));
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );
  const reject = useMutation(
    trpc.workspaces.rejectClaim.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('wsp.pending.rejected'));
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );
  const busy = accept.isPending || reject.isPending;
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-warn/40 bg-warn-soft px-3 py-2 text-sm" data-testid="ws-pending-claim" data-claim-id={c.id}>
      <div className="font-mono text-xs break-all">{c.path}</div>
      <div className="text-xs text-muted break-words">{c.reason}</div>
      <ul className="flex flex-col gap-1.5">
        {c.candidates.map((id) => (
          <li key={id} className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <Button data-testid="ws-claim-accept" disabled={busy} onClick={() => accept.mutate({ claimId: c.id, workspaceId: id })}>
              {t('wsp.pending.is', { name: nameOf(id) })}
            </Button>
            <span className="min-w-0 flex-1 font-mono text-xs break-all text-muted">{byId.get(id)?.path || id}</span>
          </li>
        ))}
      </ul>
      <div>
        <Button variant="ghost" data-testid="ws-claim-reject" disabled={busy} onClick={() => reject.mutate({ claimId: c.id })}>
          {t('wsp.pending.reject')}
        </Button>
      </div>
    </li>
  );
}

function WorkspaceItem({ workspace: w, others }: { workspace: WorkspaceInfo; others: WorkspaceInfo[] }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidate = useInvalidateWorkspaceData();
  const [name, setName] = useState<string | null>(null);
  const [into, setInto] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { labelOf } = useWorkspaces();
  const label = labelOf(w);
  const intoName = others.find((o) => o.id === into);

  const rename = useMutation(
    trpc.workspaces.rename.mutationOptions({
      onSuccess: async (r) => {
        toast.ok(t('wsp.renamed', { name: r.name }));
        setName(null);
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );
  const mirror = useMutation(
    trpc.workspaces.mirror.mutationOptions({
      onSuccess: (r) => {
        const text = t(`wsp.mirror.${r.status}` as MessageKey, { path: r.path, n: r.listed });
        if (r.status === 'written' || r.status === 'unchanged') toast.ok(text);
        else toast.error(new Error(text));
      },
      onError: (e) => toast.error(e),
    }),
  );
  const merge = useMutation(
    trpc.workspaces.merge.mutationOptions({
      onSuccess: async (r) => {
        toast.ok(t('wsp.merged', { n: r.moved.length }));
        setConfirming(false);
        setInto('');
        await invalidate();
      },
      onError: (e) => toast.error(e),
    }),
  );

  return (
    <li className="flex min-w-0 flex-col gap-1.5 py-2.5" data-testid="ws-item" data-workspace={w.id}>
      <div className="flex flex-wrap items-baseline gap-2">
        {name === null ? (
          <span className="min-w-0 flex-1 truncate font-medium" data-testid="ws-name">
            {label}
          </span>
        ) : (
          <form
            className="flex min-w-0 flex-1 gap-1.5"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) rename.mutate({ id: w.id, name: name.trim() });
            }}
          >
            <input data-testid="ws-rename-input" className={`${inputClass} !py-1`} value={name} autoFocus onChange={(e) => setName(e.target.value)} />
            <Button type="submit" data-testid="ws-rename-save" disabled={!name.trim() || rename.isPending}>
              {t('common.save')}
            </Button>
            <Button onClick={() => setName(null)}>{t('common.cancel')}</Button>
          </form>
        )}
        <Badge tone="accent">{t('wsp.memories', { n: w.memories })}</Badge>
      </div>
      <div className="font-mono text-[11px] text-muted">{w.id}</div>
      {w.kind === 'known' ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
          <dt className="text-muted">{t('wsp.path')}</dt>
          <dd className="font-mono break-all">
            {w.path} {!w.pathExists ? <Badge tone="warn">{t('wsp.pathMissing')}</Badge> : null}
          </dd>
          <dt className="text-muted">{t('wsp.strong')}</dt>
          <dd className="font-mono" title={w.strongKey ?? ''}>
            {shortKey(w.strongKey) || t('wsp.none')}
          </dd>
          <dt className="text-muted">{t('wsp.weak')}</dt>
          <dd className="font-mono" title={w.weakKey}>
            {shortKey(w.weakKey) || t('wsp.none')}
          </dd>
          <dt className="text-muted">{t('wsp.lastSeen')}</dt>
          <dd className="tabular-nums">{when(w.lastSeenAt)}</dd>
        </dl>
      ) : null}
      {w.id !== GLOBAL ? (
        <div className="flex flex-wrap items-center gap-1.5">
          {w.kind === 'known' && name === null ? (
            <Button className="!px-2 !py-1 !text-xs" data-testid="ws-rename" onClick={() => setName(w.name)}>
              {t('wsp.rename')}
            </Button>
          ) : null}
          {w.kind === 'known' && w.pathExists ? (
            <Button className="!px-2 !py-1 !text-xs" data-testid="ws-mirror" disabled={mirror.isPending} onClick={() => mirror.mutate({ id: w.id })}>
              {t('wsp.mirror')}
            </Button>
          ) : null}
          <select
            aria-label={t('wsp.merge')}
            data-testid="ws-merge-into"
            className={`${inputClass} min-w-0 flex-[1_1_10rem] !py-1 !text-xs`}
            value={into}
            onChange={(e) => {
              setInto(e.target.value);
              setConfirming(false);
            }}
          >
            <option value="">{t('wsp.merge')}</option>
            {others.map((o) => (
              <option key={o.id} value={o.id}>
                {labelOf(o)}
              </option>
            ))}
          </select>
          {into && !confirming ? (
            <Button className="!px-2 !py-1 !text-xs" data-testid="ws-merge" onClick={() => setConfirming(true)}>
              {t('wsp.merge.submit')}…
            </Button>
          ) : null}
        </div>
      ) : null}
      {confirming && intoName ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-xs" role="alert">
          <span className="min-w-0 flex-1">{t('wsp.merge.confirm', { from: label, into: labelOf(intoName) })}</span>
          <Button variant="danger" data-testid="ws-merge-confirm" disabled={merge.isPending} onClick={() => merge.mutate({ from: w.id, into })}>
            {t('wsp.merge.submit')}
          </Button>
          <Button onClick={() => setConfirming(false)}>{t('common.cancel')}</Button>
        </div>
      ) : null}
    </li>
  );
}
