'use client';
// 「我的 agent 会看到什么」: type a message, see the blocks the plugin would inject for it, in order,
// with their token cost (engine previewInjection, the plugin's own rendering), then the memories that
// nearly made it, each with one sentence saying why and its value against the threshold. Pin, unpin,
// edit and archive right there, and preview again.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { describeError, useTRPC } from '../../client/trpc.tsx';
import type { RouterInputs, RouterOutputs } from '../../client/types.ts';
import { Dialog } from '../Dialog.tsx';
import { diaryProblem } from '../notebook/diary-check.ts';
import { DiaryProblemNote } from '../notebook/DiaryProblemNote.tsx';
import { FieldsEditor } from '../library/FieldsEditor.tsx';
import { TrySummary } from '../library/TrySummary.tsx';
import { fieldProblems, sameFields, tagList, type EditorFields, type FieldProblems } from '../notebook/fields-check.ts';
import type { EditorKey } from '../../client/messages-editor.ts';
import { nearMissReason } from '../notebook/near-miss.ts';
import { useArchive } from '../notebook/useArchive.ts';
import { BulletChart } from '../recall/BulletChart.tsx';
import { QueryForm, useQuerySubmission } from '../query/QueryForm.tsx';
import { Badge, Button, Card, ErrorNote, PageHeader, inputClass } from '../ui.tsx';
import { useInvalidateWorkspaceData } from '../workspace/common.tsx';
import { WorkspaceLevels } from './WorkspaceLevels.tsx';

type Preview = RouterOutputs['preview']['run'];
type Block = Preview['blocks'][number];
type NearMiss = Preview['nearMisses'][number];
type Submitted = RouterInputs['preview']['run'];

const BLOCK_LABEL = {
  resident: ['agent.block.resident', 'agent.block.resident.hint'],
  pinned: ['agent.block.pinned', 'agent.block.pinned.hint'],
  recalled: ['agent.block.recalled', 'agent.block.recalled.hint'],
} as const;

export function AgentViewPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [query, setQuery] = useState('');
  const { submitted, submit, workspace, setWorkspace } = useQuerySubmission<Submitted>();

  const preview = useQuery({
    ...trpc.preview.run.queryOptions(submitted ?? { query: '-' }, { staleTime: 0, gcTime: 60_000, retry: false }),
    enabled: submitted !== null,
  });

  const run = () => submit({ query: query.trim() }, () => void preview.refetch());

  return (
    <div>
      <PageHeader eyebrow={t('agent.eyebrow')} title={t('agent.title')} description={t('agent.desc')} />
      <div className="flex min-w-0 flex-col gap-3">
        <QueryForm
          testIdPrefix="agent"
          label={t('agent.query')}
          placeholder={t('agent.queryPh')}
          runLabel={t('agent.run')}
          query={query}
          onQuery={setQuery}
          workspace={workspace}
          onWorkspace={setWorkspace}
          busy={preview.isFetching}
          onRun={run}
        />
        {preview.error ? <ErrorNote error={preview.error} /> : null}
        {!submitted ? <p className="text-sm text-muted">{t('agent.empty')}</p> : null}
        {preview.data ? <PreviewReport data={preview.data} onChanged={() => void preview.refetch()} /> : null}
        <WorkspaceLevels workspace={workspace} />
      </div>
    </div>
  );
}

function PreviewReport({ data, onChanged }: { data: Preview; onChanged: () => void }) {
  const { t } = useI18n();
  const recalled = data.blocks.find((b) => b.kind === 'recalled');
  return (
    <div className="flex flex-col gap-3" data-testid="agent-result">
      <p className="text-sm font-medium" role="status" data-testid="agent-total">
        {t('agent.total', { n: data.totalTokens })}
      </p>
      <ol className="flex flex-col gap-2">
        {data.blocks.map((b) => (
          <li key={b.kind}>
            <BlockCard block={b} />
          </li>
        ))}
      </ol>
      {recalled && recalled.items.length === 0 && recalled.empty !== 'off' ? (
        <p className="text-sm text-warn" data-testid="agent-nothing">
          {t('agent.nothingRecalled')}
        </p>
      ) : null}
      <NearMisses misses={data.nearMisses} onChanged={onChanged} />
    </div>
  );
}

function BlockCard({ block }: { block: Block }) {
  const { t } = useI18n();
  const [label, hint] = BLOCK_LABEL[block.kind];
  return (
    <section className="rounded-xl border border-line bg-panel p-3" data-testid={`agent-block-${block.kind}`} data-tokens={block.tokens}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h2 className="text-sm font-semibold">{t(label)}</h2>
        <Badge tone={block.tokens > 0 ? 'accent' : 'neutral'}>{t('agent.tokens', { n: block.tokens })}</Badge>
        <Badge>{t(block.placement === 'system' ? 'agent.placement.system' : 'agent.placement.message')}</Badge>
      </div>
      <p className="mt-1 text-xs text-muted">{t(hint)}</p>
      {block.empty ? <p className="mt-1 text-sm text-muted">{t(block.empty === 'off' ? 'agent.block.off' : 'agent.block.nothing')}</p> : null}
      {block.items.length > 0 ? (
        <ul className="mt-2 flex flex-col gap-0.5 text-sm" data-testid={`agent-items-${block.kind}`}>
          {block.items.map((item, i) => (
            <li key={`${item.docId ?? ''}${i}`} className="truncate" data-testid="agent-item">
              <span className="tabular-nums text-muted">{item.date}</span> · {item.title}
              {item.pinned ? <span className="ml-1 text-xs text-accent">{t('agent.pinned')}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {block.text ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-xs text-accent">{t('agent.showText')}</summary>
          <pre className="mt-1 max-h-72 overflow-auto rounded-md bg-sunken p-2 text-xs whitespace-pre-wrap break-words" data-testid={`agent-text-${block.kind}`}>
            {block.text}
          </pre>
        </details>
      ) : null}
    </section>
  );
}

function NearMisses({ misses, onChanged }: { misses: NearMiss[]; onChanged: () => void }) {
  const { t } = useI18n();
  return (
    <Card title={t('agent.nearMisses')} testId="agent-near-misses">
      <p className="mb-2 text-xs text-muted">{t('agent.nearMisses.desc')}</p>
      {misses.length === 0 ? <p className="text-sm text-muted">{t('agent.nearMisses.none')}</p> : null}
      <ul className="flex flex-col gap-3">
        {misses.map((m) => (
          <NearMissRow key={m.docId} miss={m} onChanged={onChanged} />
        ))}
      </ul>
    </Card>
  );
}

function NearMissRow({ miss, onChanged }: { miss: NearMiss; onChanged: () => void }) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const invalidateAll = useInvalidateWorkspaceData();
  const [editing, setEditing] = useState(false);
  const reason = nearMissReason(miss, lang);
  const { archiveOne, busy } = useArchive(onChanged);
  const pin = useMutation(
    trpc.memories.setPinned.mutationOptions({
      onSuccess: async (_r, input) => {
        toast.ok(t(input.pinned ? 'agent.pinned' : 'agent.unpinned'));
        await invalidateAll();
        onChanged();
      },
      onError: (e) => toast.error(e),
    }),
  );
  return (
    <li className="flex flex-col gap-1 border-b border-line pb-3 last:border-b-0 last:pb-0" data-testid="near-miss" data-doc={miss.docId}>
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
        <span className="min-w-0 truncate text-sm font-medium">{miss.title}</span>
        <span className="text-xs tabular-nums text-muted">{miss.date}</span>
        {miss.pinned ? <Badge tone="accent">{t('agent.pinned')}</Badge> : null}
      </div>
      <p className="text-sm" data-testid="near-miss-reason">
        {reason.sentence}
      </p>
      {reason.measured ? <BulletChart measured={reason.measured} label={t(`agent.measure.${reason.measured.kind}`)} thresholdLabel={t('agent.measure.threshold')} /> : null}
      <div className="flex flex-wrap gap-1.5">
        <Button data-testid="near-miss-pin" disabled={pin.isPending || miss.archived} onClick={() => pin.mutate({ id: miss.docId, pinned: !miss.pinned })}>
          {t(miss.pinned ? 'agent.unpin' : 'agent.pin')}
        </Button>
        <Button data-testid="near-miss-edit" disabled={miss.archived} onClick={() => setEditing(true)}>
          {t('agent.edit')}
        </Button>
        <Button data-testid="near-miss-archive" variant="danger" disabled={busy || miss.archived} onClick={() => void archiveOne(miss.docId, miss.title).catch(() => undefined)}>
          {t('agent.archive')}
        </Button>
      </div>
      {editing ? (
        <EditDialog
          id={miss.docId}
          onClose={() => setEditing(false)}
          onSaved={async () => {
            setEditing(false);
            toast.ok(t('agent.saved'));
            await invalidateAll();
            onChanged();
          }}
        />
      ) : null}
    </li>
  );
}

function EditDialog({ id, onClose, onSaved }: { id: string; onClose: () => void; onSaved: () => Promise<void> }) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const detail = useQuery(trpc.memories.read.queryOptions({ id }, { staleTime: 0 }));
  const fieldsQ = useQuery(trpc.memories.fields.queryOptions({ id }, { staleTime: Infinity }));
  const [text, setText] = useState<string | null>(null);
  const [fields, setFields] = useState<EditorFields | null>(null);
  const [serverProblems, setServerProblems] = useState<FieldProblems>({});
  const idBase = useId();
  const onError = (e: unknown) => toast.error(describeError(e).code === 'CONFLICT' ? new Error(t('library.edit.conflict')) : e);
  const save = useMutation(trpc.memories.save.mutationOptions({ onSuccess: () => onSaved(), onError }));
  const saveFields = useMutation(
    trpc.memories.saveFields.mutationOptions({
      onSuccess: (res) => (res.ok ? onSaved() : setServerProblems({ [res.problem.field]: `edit.problem.${res.problem.code}` as EditorKey })),
      onError,
    }),
  );
  const structured = fieldsQ.data?.editable === true;
  const base: EditorFields | null = fieldsQ.data ? { title: fieldsQ.data.fields.title, tags: fieldsQ.data.fields.tags.join(lang === 'zh' ? '，' : ', '), body: fieldsQ.data.fields.body, kind: fieldsQ.data.fields.kind ?? '', goal: fieldsQ.data.fields.goal ?? '' } : null;
  const value = fields ?? base;
  const problems: FieldProblems = structured && value && base ? { ...fieldProblems(value, base, fieldsQ.data?.layout), ...serverProblems } : {};
  // The text editor stays for files the fields editor does not write (read-only).
  const raw = text ?? detail.data?.raw ?? '';
  const problem = structured ? null : diaryProblem(raw);
  const problemId = useId();
  const changed = structured ? fields !== null && base !== null && !sameFields(fields, base) : text !== null;
  const blocked = structured ? Object.keys(problems).length > 0 : problem !== null;
  const submit = () => {
    if (!changed || blocked || save.isPending || saveFields.isPending) return;
    if (structured && value && fieldsQ.data) saveFields.mutate({ id, expectedHash: fieldsQ.data.contentHash, title: value.title, tags: tagList(value.tags), body: value.body, kind: value.kind, goal: value.goal });
    else if (!structured && detail.data) save.mutate({ id, raw, expectedHash: detail.data.contentHash });
  };
  return (
    <Dialog
      title={t('agent.editTitle')}
      testId="agent-edit"
      onCancel={onClose}
      actions={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" data-testid="agent-edit-save" disabled={!fieldsQ.data || !detail.data || save.isPending || saveFields.isPending || !changed || blocked} onClick={submit}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      {detail.error ? <ErrorNote error={detail.error} /> : null}
      {fieldsQ.error ? <ErrorNote error={fieldsQ.error} /> : null}
      {!fieldsQ.data ? <p className="text-sm text-muted">{t('common.loading')}</p> : null}
      {structured && value ? (
        <FieldsEditor
          value={value}
          onChange={(next) => {
            setServerProblems({});
            setFields(next);
          }}
          problems={problems}
          onSave={submit}
          onCancel={onClose}
          name={detail.data?.title ?? value.title}
          idBase={idBase}
          bodyClass="h-56"
          layout={fieldsQ.data?.layout}
        />
      ) : fieldsQ.data ? (
        <>
          <textarea
            data-testid="agent-edit-text"
            aria-label={t('agent.editTitle')}
            className={`${inputClass} h-72 w-full font-mono text-xs`}
            value={raw}
            aria-invalid={problem !== null}
            aria-describedby={problem ? problemId : undefined}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if ((e.ctrlKey || e.metaKey) && e.key === 's') {
                e.preventDefault();
                submit();
              }
            }}
          />
          <DiaryProblemNote problem={problem} id={problemId} />
        </>
      ) : null}
      {fieldsQ.data ? <TrySummary draft={() => (structured && value ? { title: value.title, body: value.body } : { title: detail.data?.title ?? '', body: raw })} /> : null}
    </Dialog>
  );
}
