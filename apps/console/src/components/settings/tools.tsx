'use client';
// The Settings page's tools: embedding connection test, built-in guideline template, and the
// semantic-write preview. They call the engine; nothing here parses or embeds on its own.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Badge, Button, ErrorNote, inputClass } from '../ui.tsx';

export function TestEmbeddingTool({ embedding }: { embedding: unknown }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const test = useMutation(trpc.settings.testEmbedding.mutationOptions());
  // Nothing to connect to without a provider.
  if ((embedding as { provider?: unknown } | null)?.provider === 'none') return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-line pt-3">
      <Button
        data-testid="settings-test-embedding"
        disabled={test.isPending}
        onClick={() => test.mutate({ embedding: (embedding ?? {}) as Record<string, unknown> })}
      >
        {test.isPending ? t('settings.testing') : t('settings.test')}
      </Button>
      {test.data ? (
        <span className="text-sm" data-testid="settings-test-result">
          <Badge tone={test.data.ok ? 'ok' : 'danger'}>{test.data.ok ? 'OK' : 'FAIL'}</Badge>{' '}
          {test.data.dimensions ? `${test.data.dimensions}d ` : ''}
          {test.data.ms !== undefined ? `${Math.round(test.data.ms)} ms ` : ''}
          {test.data.message ?? ''}
        </span>
      ) : null}
      {test.error ? (
        <div className="w-full">
          <ErrorNote error={test.error} />
        </div>
      ) : null}
    </div>
  );
}

export function TemplateButtons({ disabled, onFill, onClear }: { disabled: boolean; onFill: (text: string) => void; onClear: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [loading, setLoading] = useState(false);
  const fill = async () => {
    setLoading(true);
    try {
      const { text } = await queryClient.fetchQuery(trpc.settings.builtinTemplate.queryOptions());
      onFill(text);
    } catch (e) {
      toast.error(e);
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Button data-testid="settings-template-fill" disabled={disabled || loading} onClick={() => void fill()}>
        {t('settings.template.fill')}
      </Button>
      <Button variant="ghost" data-testid="settings-template-clear" disabled={disabled} onClick={onClear}>
        {t('settings.template.clear')}
      </Button>
    </div>
  );
}

export function NotePreviewTool() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [text, setText] = useState('');
  const preview = useMutation(trpc.settings.preview.mutationOptions());
  return (
    <div className="flex flex-col gap-2">
      <textarea
        data-testid="settings-preview-input"
        className={`${inputClass} prose-raw min-h-36 resize-y`}
        placeholder={t('settings.preview.ph')}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div>
        <Button data-testid="settings-preview-run" disabled={!text.trim() || preview.isPending} onClick={() => preview.mutate({ text })}>
          {t('settings.preview.run')}
        </Button>
      </div>
      {preview.error ? <ErrorNote error={preview.error} /> : null}
      {preview.data ? (
        <div className="flex flex-col gap-2" data-testid="settings-preview-result">
          {preview.data.blocks.length === 0 && preview.data.errors.length === 0 ? <p className="text-sm text-muted">{t('settings.preview.empty')}</p> : null}
          {preview.data.errors.map((e) => (
            <div key={`e${e.index}`} className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
              #{e.index + 1}: {e.message}
            </div>
          ))}
          {preview.data.blocks.map((b, i) => (
            <dl key={i} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md border border-line p-3 text-sm">
              {Object.entries(b)
                .filter(([k]) => k !== 'hash' && k !== 'index')
                .map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="text-muted">{k}</dt>
                    <dd className={k === 'content' || k === 'target' || k === 'replace' ? 'prose-raw' : ''}>{Array.isArray(v) ? v.join(', ') : String(v)}</dd>
                  </div>
                ))}
            </dl>
          ))}
        </div>
      ) : null}
    </div>
  );
}
