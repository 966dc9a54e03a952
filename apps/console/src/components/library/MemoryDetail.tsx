'use client';
// An opened memory: where it lives, its switches, its warnings, and its text, read or edited (the
// fields editor for the diary's .txt files, the text editor for the rest); a kept draft reopens here.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isOptionalGap } from '@engram/engine/warnings';
import { engineText } from '../../client/engine-text.ts';
import { useI18n } from '../../client/i18n.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { DiaryProblemNote } from '../notebook/DiaryProblemNote.tsx';
import { diaryProblem } from '../notebook/diary-check.ts';
import { fieldProblems, tagList, type EditorFields, type FieldProblems } from '../notebook/fields-check.ts';
import { Button, ErrorNote, inputClass } from '../ui.tsx';
import { ArchiveActions } from './ArchiveActions.tsx';
import { DiscardDialog } from './DiscardDialog.tsx';
import { isDirty, useDrafts } from './drafts.tsx';
import { FieldsEditor } from './FieldsEditor.tsx';
import { MemoryMeta } from './MemoryMeta.tsx';
import { MemoryReader } from './MemoryReader.tsx';
import { TrySummary } from './TrySummary.tsx';
import { useSaveMemory } from './useSaveMemory.ts';

export function MemoryDetailView({ id }: { id: string }) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const drafts = useDrafts();
  const detail = useQuery(trpc.memories.read.queryOptions({ id }, { staleTime: 0 }));
  const draft = drafts.get(id);
  // A kept draft reopens in edit mode; otherwise a memory opens to be read.
  const [editing, setEditing] = useState(draft !== undefined);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [conflict, setConflict] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  // The fields editor for every writable memory (.txt and .md); the text editor for read-only files.
  const fieldsQ = useQuery(trpc.memories.fields.queryOptions({ id }, { staleTime: 0, enabled: editing }));
  const [serverProblems, setServerProblems] = useState<FieldProblems>({});
  const queryClient = useQueryClient();
  /**
   * Editing starts from the fields as the file holds them now: fields kept from an earlier edit (or a
   * refetch still under way after a save) would show the old text, and their version would make the
   * save a conflict. So they are dropped and fetched again; the editor waits for them.
   */
  const startEditing = () => {
    void queryClient.resetQueries({ queryKey: trpc.memories.fields.queryKey({ id }), exact: true });
    setEditing(true);
  };

  const { save, saveFields } = useSaveMemory(id, {
    saved: () => setEditing(false),
    conflict: () => setConflict(true),
    problem: setServerProblems,
  });

  const structured = editing && fieldsQ.data?.editable === true;
  useEffect(() => {
    if (editing && (structured || fieldsQ.data)) editor.current?.focus();
  }, [editing, structured, fieldsQ.data]);

  if (detail.isLoading) return <div className="px-4 pb-3 text-sm text-muted">{t('common.loading')}</div>;
  if (detail.error || !detail.data) return <div className="px-4 pb-3">{detail.error ? <ErrorNote error={detail.error} /> : null}</div>;
  const d = detail.data;
  // What the person can fix, and the optional gaps (a missing summary) the engine fills in itself.
  const toFix = d.warnings.filter((w) => !isOptionalGap(w));
  const gaps = d.warnings.filter(isOptionalGap);
  const text = draft?.text ?? d.raw;
  const dirty = isDirty(draft);
  const baseFields: EditorFields | null = fieldsQ.data ? { title: fieldsQ.data.fields.title, tags: fieldsQ.data.fields.tags.join(lang === 'zh' ? '，' : ', '), body: fieldsQ.data.fields.body, kind: fieldsQ.data.fields.kind ?? '', goal: fieldsQ.data.fields.goal ?? '' } : null;
  const fields = draft?.fields ?? baseFields;
  const problems: FieldProblems = structured && fields ? { ...fieldProblems(fields, draft?.baseFields ?? baseFields!, fieldsQ.data?.layout), ...serverProblems } : {};
  const problem = editing && !structured ? diaryProblem(text) : null;
  const blocked = structured ? Object.keys(problems).length > 0 : problem !== null;
  const pending = save.isPending || saveFields.isPending;
  const submit = () => {
    if (!dirty || blocked || pending) return;
    if (structured && fields && draft) saveFields.mutate({ id: d.docId, expectedHash: draft.baseHash, title: fields.title, tags: tagList(fields.tags), body: fields.body, kind: fields.kind, goal: fields.goal });
    else if (!structured) save.mutate({ id: d.docId, raw: text, expectedHash: draft?.baseHash ?? d.contentHash });
  };
  const setFields = (next: EditorFields) => {
    if (!fieldsQ.data || !baseFields) return;
    setServerProblems({});
    setConflict(false);
    drafts.set(id, { text: draft?.text ?? d.raw, baseText: draft?.baseText ?? d.raw, baseHash: draft?.baseHash ?? fieldsQ.data.contentHash, fields: next, baseFields: draft?.baseFields ?? baseFields });
  };
  const stopEditing = () => {
    drafts.set(id, null);
    setEditing(false);
    setConfirmDiscard(false);
  };
  /** Leaving edit mode: free when nothing changed, asked first when something did. */
  const requestCancel = () => (dirty ? setConfirmDiscard(true) : stopEditing());

  return (
    <div className="flex flex-col gap-2 border-t border-line bg-sunken/40 px-4 py-3" data-testid="memory-detail" data-editing={editing}>
      <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
        <span className="font-mono break-all">{d.root}/{d.path}</span>
        {d.readOnly ? <span>{t('library.legacy')}</span> : null}
      </div>
      <MemoryMeta memory={d} />
      {toFix.length > 0 ? (
        <ul className="rounded-md bg-warn-soft px-3 py-2 text-xs text-warn" data-testid="memory-warnings">
          {toFix.map((w) => (
            <li key={w}>{engineText(w, lang)}</li>
          ))}
        </ul>
      ) : null}
      {/* Optional gaps (no summary: the engine uses the body's beginning) are said, not flagged. */}
      {gaps.length > 0 ? (
        <ul className="px-1 text-xs text-muted" data-testid="memory-notes">
          {gaps.map((w) => (
            <li key={w}>{engineText(w, lang)}</li>
          ))}
        </ul>
      ) : null}
      {editing && !d.readOnly && !fieldsQ.data ? (
        <div className="text-sm text-muted">{fieldsQ.error ? <ErrorNote error={fieldsQ.error} /> : t('common.loading')}</div>
      ) : structured && fields ? (
        <FieldsEditor
          value={fields}
          onChange={setFields}
          problems={problems}
          onSave={submit}
          onCancel={requestCancel}
          name={d.title || d.path}
          idBase={`edit-${d.docId}`}
          layout={fieldsQ.data?.layout}
          bodyRef={editor}
          bodyClass="max-h-[75vh] min-h-56 [field-sizing:content]"
        />
      ) : editing && !d.readOnly ? (
        <textarea
          ref={editor}
          data-testid="memory-editor"
          aria-label={t('memory.editor.label', { title: d.title || d.path })}
          className={`${inputClass} prose-raw max-h-[75vh] min-h-56 resize-y [field-sizing:content]`}
          value={text}
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `problem-${d.docId}` : undefined}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              requestCancel();
            }
            if ((e.ctrlKey || e.metaKey) && e.key === 's') {
              e.preventDefault();
              submit();
            }
          }}
          onChange={(e) => {
            drafts.set(id, { text: e.target.value, baseHash: draft?.baseHash ?? d.contentHash, baseText: draft?.baseText ?? d.raw });
            setConflict(false);
          }}
        />
      ) : (
        <MemoryReader raw={d.raw} labels={{ tags: t('memory.read.tags'), meta: t('memory.read.meta') }} />
      )}
      {editing ? <DiaryProblemNote problem={problem} id={`problem-${d.docId}`} /> : null}
      {conflict ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger" role="alert">
          <span className="flex-1">{t('library.edit.conflict')}</span>
          <Button
            onClick={async () => {
              setConflict(false);
              stopEditing();
              await detail.refetch();
            }}
          >
            {t('library.edit.reload')}
          </Button>
        </div>
      ) : null}
      {!d.readOnly ? (
        <div className="flex flex-wrap items-center gap-2">
          {editing ? (
            <>
              <Button
                variant="primary"
                data-testid="memory-save"
                disabled={!dirty || pending || blocked}
                onClick={submit}
              >
                {t('library.edit.save')}
              </Button>
              <Button data-testid="memory-cancel" onClick={requestCancel}>
                {t('common.cancel')}
              </Button>
              {dirty ? <span className="text-xs text-warn">{t('memory.draft')}</span> : null}
              <TrySummary draft={() => (structured && fields ? { title: fields.title, body: fields.body } : { title: d.title, body: text })} />
            </>
          ) : (
            <Button data-testid="memory-edit" onClick={startEditing}>
              {t('memory.edit')}
            </Button>
          )}
          <span className="flex-1" />
          <ArchiveActions memory={d} />
        </div>
      ) : null}
      {confirmDiscard ? (
        <DiscardDialog
          title={d.title || d.path}
          onKeep={() => setConfirmDiscard(false)}
          onCancel={() => {
            setConfirmDiscard(false);
            editor.current?.focus();
          }}
          onDiscard={stopEditing}
        />
      ) : null}
    </div>
  );
}
