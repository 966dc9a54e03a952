'use client';
// Cross-compaction memory: per session the stored blocks (L1 summary sections, L2 dialogue and tool
// results) each with its remove button, the overview of the current window, the minor rules, the
// trash (restore or delete for good, per block or all at once) and the audit log of those actions.
// Shown on the Index page.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Badge, Card, ErrorNote, Muted } from '../ui.tsx';
import { CompactionTrashActions } from '../compaction/TrashActions.tsx';
import { StoredBlockActions, TrashedBlockActions } from '../compaction/BlockActions.tsx';
import { auditAction, auditTarget } from '../compaction/audit-line.ts';

const clip = (text: string, max: number) => (Array.from(text).length > max ? `${Array.from(text).slice(0, max - 1).join('')}…` : text);

export function CompactionSection() {
  const { pick } = useI18n();
  const trpc = useTRPC();
  const sessions = useQuery(trpc.compaction.sessions.queryOptions());
  const [selected, setSelected] = useState<{ workspace: string; sessionId: string } | null>(null);
  const current = selected ?? (sessions.data?.[0] ? { workspace: sessions.data[0].workspace, sessionId: sessions.data[0].sessionId } : null);

  return (
    <Card title={pick(['跨压缩记忆', 'Cross-compaction memory'])} testId="compaction-section">
      {sessions.error ? <ErrorNote error={sessions.error} onRetry={() => sessions.refetch()} /> : null}
      {sessions.data && sessions.data.length === 0 ? (
        <Muted>{pick(['还没有会话被压缩过。', 'No session has been compacted yet.'])}</Muted>
      ) : null}
      {sessions.data && sessions.data.length > 0 ? (
        <div className="flex flex-col gap-3">
          <ul className="flex flex-col gap-1 text-sm" data-testid="compaction-sessions">
            {sessions.data.map((s) => {
              const active = current?.sessionId === s.sessionId && current.workspace === s.workspace;
              return (
                <li key={`${s.workspace}\u0000${s.sessionId}`}>
                  <button className={`text-left ${active ? 'font-semibold' : ''}`} onClick={() => setSelected({ workspace: s.workspace, sessionId: s.sessionId })}>
                    {s.sessionId} <span className="text-muted">· {s.workspace || 'global'}</span>{' '}
                    <Badge>{pick([`${s.compactions} 次压缩`, `${s.compactions} compactions`])}</Badge> <Badge tone="accent">{pick([`${s.blocks} 块`, `${s.blocks} blocks`])}</Badge>
                    {s.trashed > 0 ? <Badge tone="warn">{pick([`回收站 ${s.trashed}`, `trash ${s.trashed}`])}</Badge> : null}
                  </button>
                </li>
              );
            })}
          </ul>
          {current ? <SessionDetail scope={current} /> : null}
        </div>
      ) : null}
    </Card>
  );
}

function SessionDetail({ scope }: { scope: { workspace: string; sessionId: string } }) {
  const { pick, t } = useI18n();
  const trpc = useTRPC();
  const detail = useQuery(trpc.compaction.session.queryOptions(scope));
  if (detail.error) return <ErrorNote error={detail.error} onRetry={() => detail.refetch()} />;
  if (!detail.data) return <Muted>…</Muted>;
  const d = detail.data;
  const titles = new Map([...d.blocks, ...d.trashed].map((b) => [b.id, b.title]));
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="compaction-detail">
      <section>
        <h4 className="font-semibold">{pick([`当前窗口的总览(${d.overviewTokens} token)`, `Overview of the current window (${d.overviewTokens} tokens)`])}</h4>
        {d.overview ? <pre className="whitespace-pre-wrap text-xs">{d.overview}</pre> : <Muted>{pick(['(没有值得注入的总览)', '(nothing worth an overview)'])}</Muted>}
      </section>
      <section>
        <h4 className="font-semibold">{pick(['保存的块', 'Stored blocks'])}</h4>
        <ul className="flex flex-col gap-1" data-testid="compaction-blocks">
          {d.blocks.map((b) => (
            <li key={b.id} data-testid="compaction-block" data-id={b.id}>
              <StoredBlockActions scope={scope} id={b.id} trash={d.trash} /> <Badge tone={b.layer === 'L1' ? 'accent' : 'neutral'}>{b.layer} {b.kind}</Badge> {clip(b.title, 60)}{' '}
              <span className="text-muted">
                · {Array.from(b.body).length} {pick(['字', 'chars'])}
                {b.cutFrom !== null ? ` (${pick(['原长', 'cut from'])} ${b.cutFrom})` : ''}
                {b.injectedAt ? ` · ${pick(['已注入', 'injected'])}` : ''}
              </span>
            </li>
          ))}
        </ul>
      </section>
      {d.rules.length > 0 ? (
        <section>
          <h4 className="font-semibold">{pick(['次要规则', 'Minor rules'])}</h4>
          <ul className="flex flex-col gap-1">
            {d.rules.map((r) => (
              <li key={r.text}>
                {r.text} <span className="text-muted">×{r.hits}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {d.archive ? (
        <Muted>
          {pick([`压缩存档 ${d.archive.sections} 节;按体积淘汰 ${d.archive.head.evicted} 节;超限未写入 ${d.archive.head.refused} 条`, `Archive: ${d.archive.sections} sections; ${d.archive.head.evicted} evicted by size; ${d.archive.head.refused} refused as oversized`])}
        </Muted>
      ) : null}
      <section>
        <h4 className="font-semibold">{pick(['回收站', 'Trash'])}</h4>
        <CompactionTrashActions scope={scope} blocks={d.blocks.length} trashed={d.trashed.length} />
        {d.trashed.length === 0 ? (
          <Muted>{pick(['空', 'Empty'])}</Muted>
        ) : (
          <ul className="flex flex-col gap-1" data-testid="compaction-trash">
            {d.trashed.map((b) => (
              <li key={b.id} data-testid="compaction-trashed" data-id={b.id}>
                <TrashedBlockActions scope={scope} id={b.id} /> {clip(b.title, 60)} <span className="text-muted">· {b.deletedAt}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h4 className="font-semibold">{pick(['删除审计', 'Delete audit'])}</h4>
        {d.audit.length === 0 ? (
          <Muted>{pick(['没有记录', 'No entries'])}</Muted>
        ) : (
          <ul className="flex flex-col gap-1" data-testid="compaction-audit">
            {d.audit.map((a) => (
              <li key={a.id} data-testid="compaction-audit-line" data-action={a.action}>
                {a.at} · {auditAction(a.action, t)} · {a.target === 'session' ? pick(['整个会话', 'whole session']) : auditTarget(a.target, titles, t)} · {pick([`${a.count} 块`, `${a.count} blocks`])} {a.detail ? `· ${a.detail}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
