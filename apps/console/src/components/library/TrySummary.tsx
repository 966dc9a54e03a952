'use client';
// 「试一下 AI 摘要」 (seed 001-51): the memory's text as it stands in the editor, saved or not, goes to
// the plugin's POST /engram/summary/try, which asks DSH's model exactly as the summary queue would
// and answers without writing anything. Only the plugin reaches DSH's model, so this works when the
// console is opened from DSH (the page is then served through the host); opened on its own, the
// button says so.
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { Badge, Button } from '../ui.tsx';

/** The plugin's route, at the host's origin (not under the console's base path). */
export const SUMMARY_TRY_PATH = '/engram/summary/try';

interface Tried {
  source: 'auto' | 'rule';
  summary: string;
  route: { provider: string; model: string } | null;
  ms: number;
  error?: string;
}

type State = { kind: 'idle' } | { kind: 'asking' } | { kind: 'done'; tried: Tried } | { kind: 'unavailable' } | { kind: 'failed'; message: string };

export function TrySummary({ draft }: { draft: () => { title: string; body: string } }) {
  const { t } = useI18n();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const ask = async () => {
    setState({ kind: 'asking' });
    try {
      const res = await fetch(SUMMARY_TRY_PATH, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(draft()) });
      const type = res.headers.get('content-type') ?? '';
      // Opened on its own port, the console itself answers (a 404 page): no plugin, no model.
      if (!type.includes('application/json') || res.status === 404) return setState({ kind: 'unavailable' });
      const body = (await res.json()) as Tried & { error?: string };
      if (!res.ok) return setState({ kind: 'failed', message: body.error ?? String(res.status) });
      setState({ kind: 'done', tried: body });
    } catch (error) {
      setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <div className="flex w-full min-w-0 flex-col gap-1.5" data-testid="try-summary">
      <div>
        <Button data-testid="try-summary-run" disabled={state.kind === 'asking'} onClick={() => void ask()}>
          {state.kind === 'asking' ? t('trySummary.asking') : t('trySummary.run')}
        </Button>
      </div>
      {state.kind === 'unavailable' ? <p className="text-xs text-muted">{t('trySummary.unavailable')}</p> : null}
      {state.kind === 'failed' ? (
        <p className="text-xs text-danger" role="alert">
          {t('trySummary.failed', { message: state.message })}
        </p>
      ) : null}
      {state.kind === 'done' ? (
        <div className="rounded-md border border-line bg-panel px-3 py-2 text-sm" role="status" data-testid="try-summary-result" data-source={state.tried.source}>
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <Badge tone={state.tried.source === 'auto' ? 'ok' : 'warn'}>{t(state.tried.source === 'auto' ? 'trySummary.auto' : 'trySummary.rule')}</Badge>
            {state.tried.route ? <span className="font-mono">{`${state.tried.route.provider}/${state.tried.route.model}`}</span> : null}
            <span className="tabular-nums">{t('trySummary.ms', { n: state.tried.ms })}</span>
          </div>
          <p className="mt-1 break-words">{state.tried.summary}</p>
          {state.tried.error ? <p className="mt-1 text-xs text-warn">{t('trySummary.why', { error: state.tried.error })}</p> : null}
          <p className="mt-1 text-xs text-muted">{t('trySummary.notSaved')}</p>
        </div>
      ) : null}
    </div>
  );
}
