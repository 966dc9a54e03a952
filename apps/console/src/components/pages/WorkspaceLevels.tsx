'use client';
// The workspace layer level by level (seed 001-55): for the chosen workspace, what hint / index /
// full / off would put in the system prompt and at what token cost, the level in effect marked.
// The engine's previewWorkspaceLevels renders each with the function the plugin injects with.
import { useQuery } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterOutputs } from '../../client/types.ts';
import { ALL_WORKSPACES } from '../../client/workspace.tsx';
import { Badge, Card, ErrorNote } from '../ui.tsx';

type Levels = RouterOutputs['preview']['workspaceLevels'];
type Level = Levels['levels'][number];

export function WorkspaceLevels({ workspace }: { workspace: string }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const levels = useQuery(trpc.preview.workspaceLevels.queryOptions(workspace !== ALL_WORKSPACES ? { workspace } : {}, { staleTime: 0 }));
  return (
    <Card title={t('agent.levels')} testId="agent-levels">
      <div className="p-3">
        <p className="mb-2 text-xs text-muted">{t('agent.levels.desc')}</p>
        {levels.error ? <ErrorNote error={levels.error} /> : null}
        {levels.data ? (
          <ol className="grid gap-2 sm:grid-cols-2">
            {levels.data.levels.map((l) => (
              <li key={l.level}>
                <LevelCard level={l} max={levels.data.maxItems} />
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </Card>
  );
}

function LevelCard({ level, max }: { level: Level; max: number }) {
  const { t } = useI18n();
  return (
    <section
      className={`h-full rounded-lg border p-2.5 ${level.current ? 'border-accent' : 'border-line'}`}
      data-testid={`agent-level-${level.level}`}
      data-tokens={level.tokens}
      data-current={level.current}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h3 className="text-sm font-semibold">{t(`agent.level.${level.level}`)}</h3>
        <Badge tone={level.tokens > 0 ? 'accent' : 'neutral'}>{t('agent.tokens', { n: level.tokens })}</Badge>
        {level.current ? <Badge tone="ok">{t('agent.levels.current')}</Badge> : null}
      </div>
      <p className="mt-1 text-xs text-muted">{t(`agent.level.${level.level}.desc`, { max })}</p>
      {level.level === 'index' || level.level === 'full' ? (
        <p className="mt-1 text-xs text-muted">{t('agent.levels.listed', { n: level.items.length, total: level.total })}</p>
      ) : null}
      {level.text ? (
        <details className="mt-1.5">
          <summary className="cursor-pointer text-xs text-accent">{t('agent.showText')}</summary>
          <pre className="mt-1 max-h-60 overflow-auto rounded-md bg-sunken p-2 text-xs whitespace-pre-wrap break-words" data-testid={`agent-level-text-${level.level}`}>
            {level.text}
          </pre>
        </details>
      ) : null}
    </section>
  );
}
