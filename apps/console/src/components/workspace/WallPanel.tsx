'use client';
// The wall between sessions: every message, newest first, and a form to post as the console —
// publicly, to a session (id prefix) or to a workspace — from the workspace the Library looks at.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { ALL_WORKSPACES, useWorkspaceChoice } from '../../client/workspace.tsx';
import { Badge, Button, Card, ErrorNote, Muted, inputClass } from '../ui.tsx';
import { GLOBAL, localDateTime, useWorkspaces } from './common.tsx';

const PAGE = 30;

export function WallPanel() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { workspace } = useWorkspaceChoice();
  const { nameOf, byId } = useWorkspaces();
  const [limit, setLimit] = useState(PAGE);
  const [text, setText] = useState('');
  const [to, setTo] = useState('');
  const wall = useQuery(trpc.wall.list.queryOptions({ limit }));
  // The console speaks from the workspace it looks at, when that is a real one.
  const from = workspace !== ALL_WORKSPACES && (workspace === GLOBAL || byId.get(workspace)?.kind === 'known') ? workspace : GLOBAL;

  const recipientLabel = (r: string): string => (r === '' ? t('wall.everyone') : r.startsWith('ws:') ? nameOf(r.slice(3)) : r);

  const post = useMutation(
    trpc.wall.post.mutationOptions({
      onSuccess: async () => {
        toast.ok(t('wall.posted'));
        setText('');
        await queryClient.invalidateQueries(trpc.wall.pathFilter());
      },
      onError: (e) => toast.error(e),
    }),
  );

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <form
        className="flex flex-col gap-2 rounded-xl border border-line bg-panel p-3"
        data-testid="wall-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) post.mutate({ text: text.trim(), ...(to.trim() ? { to: to.trim() } : {}), workspace: from });
        }}
      >
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('wall.text')}
          <textarea data-testid="wall-text" className={`${inputClass} min-h-20 resize-y`} value={text} placeholder={t('wall.text.ph')} onChange={(e) => setText(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('wall.to')}
          <input data-testid="wall-to" className={`${inputClass} font-mono`} value={to} placeholder={t('wall.to.ph')} onChange={(e) => setTo(e.target.value)} />
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 flex-1 text-xs text-muted">{t('wall.from', { name: nameOf(from) })}</span>
          <Button type="submit" variant="primary" data-testid="wall-post" disabled={!text.trim() || post.isPending}>
            {t('wall.post')}
          </Button>
        </div>
      </form>
      <Card
        title={t('library.tab.wall')}
        testId="wall-list"
        actions={
          <Button className="!px-2 !py-0.5 !text-xs" onClick={() => void wall.refetch()}>
            {t('common.refresh')}
          </Button>
        }
      >
        {wall.error ? <ErrorNote error={wall.error} onRetry={() => void wall.refetch()} /> : null}
        {wall.data && wall.data.items.length === 0 ? <Muted>{t('wall.empty')}</Muted> : null}
        <ul className="flex flex-col divide-y divide-line">
          {(wall.data?.items ?? []).map((m) => (
            <li key={m.id} className="flex min-w-0 flex-col gap-1 py-2" data-testid="wall-item">
              <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
                <span className="font-mono font-medium text-fg" title={m.fromSession}>
                  {m.fromSession === 'console' ? t('origin.console') : `s:${m.fromShort}`}
                </span>
                <Badge>{nameOf(m.fromWorkspace)}</Badge>
                <span>{t('wall.arrow')}</span>
                <Badge tone={m.recipient ? 'accent' : 'neutral'} title={m.to}>
                  {recipientLabel(m.recipient)}
                </Badge>
                <span className="ml-auto tabular-nums">{localDateTime(m.at)}</span>
              </div>
              <p className="text-sm break-words whitespace-pre-wrap">{m.text}</p>
            </li>
          ))}
        </ul>
        {wall.data?.hasMore ? (
          <Button className="mt-2 w-full" onClick={() => setLimit((n) => Math.min(200, n + PAGE))} disabled={limit >= 200}>
            {t('wall.more')}
          </Button>
        ) : null}
      </Card>
    </div>
  );
}
