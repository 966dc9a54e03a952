'use client';
// A memory as fields — title, tags, kind and goal (the Meta line's), body — instead of the raw file: the server splices what
// changed into the file (memories.saveFields), so the file's own layout stays. Each problem is shown
// under its field and tied to it (aria-describedby); Ctrl/⌘+S saves, Esc asks to cancel; 预览 renders
// the body as it will be read (summary quote, `##` sections, lists) with the tags under it.
import type { KeyboardEvent, Ref } from 'react';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { EditorFields, FieldName, FieldProblems, FieldsLayout } from '../notebook/fields-check.ts';
import { tagList } from '../notebook/fields-check.ts';
import { inputClassFor } from '../ui.tsx';
import { MemoryReader } from './MemoryReader.tsx';

/** The kinds seed 004 names; a file's other word (an alias, an unknown kind) is offered as written. */
const KINDS = ['fact', 'pref', 'lesson', 'task', 'proj'] as const;

export interface FieldsEditorProps {
  value: EditorFields;
  onChange: (next: EditorFields) => void;
  problems: FieldProblems;
  onSave: () => void;
  onCancel: () => void;
  /** The memory's title, naming the body field for screen readers. */
  name: string;
  /** Unique per open editor: the ids that tie errors to fields. */
  idBase: string;
  bodyRef?: Ref<HTMLTextAreaElement>;
  /** Extra classes of the body field (the Library lets it grow with the text). */
  bodyClass?: string;
  /** A .md front matter holds the summary: the body's hint says so. */
  layout?: FieldsLayout;
}

export function FieldsEditor({ value, onChange, problems, onSave, onCancel, name, idBase, bodyRef, bodyClass = 'min-h-56', layout = 'lines' }: FieldsEditorProps) {
  const { t } = useI18n();
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const set = (field: FieldName | 'goal', text: string) => onChange({ ...value, [field]: text });
  const ids = (field: FieldName, hint = false) => [problems[field] ? `${idBase}-${field}-problem` : '', hint ? `${idBase}-${field}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      onSave();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    }
  };
  const problem = (field: FieldName) =>
    problems[field] ? (
      <p id={`${idBase}-${field}-problem`} role="alert" data-testid={`edit-problem-${field}`} className="text-xs font-medium text-danger">
        {t(problems[field])}
      </p>
    ) : null;
  const tags = tagList(value.tags);

  return (
    <div className="flex flex-col gap-2.5" data-testid="fields-editor" onKeyDown={onKeyDown}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idBase}-title`} className="text-xs font-medium text-muted">
          {t('edit.title')}
        </label>
        <input
          id={`${idBase}-title`}
          data-testid="edit-title"
          className={inputClassFor(Boolean(problems.title))}
          value={value.title}
          aria-invalid={problems.title ? true : undefined}
          aria-describedby={ids('title')}
          onChange={(e) => set('title', e.target.value)}
        />
        {problem('title')}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idBase}-tags`} className="text-xs font-medium text-muted">
          {t('edit.tags')}
        </label>
        <input
          id={`${idBase}-tags`}
          data-testid="edit-tags"
          className={inputClassFor(Boolean(problems.tags))}
          value={value.tags}
          placeholder={t('edit.tags.hint')}
          aria-invalid={problems.tags ? true : undefined}
          aria-describedby={ids('tags', true)}
          onChange={(e) => set('tags', e.target.value)}
        />
        <p id={`${idBase}-tags-hint`} className="sr-only">
          {t('edit.tags.hint')}
        </p>
        {problem('tags')}
      </div>
      {value.kind !== undefined ? (
        <div className="flex flex-wrap gap-2.5">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${idBase}-kind`} className="text-xs font-medium text-muted">
              {t('edit.kind')}
            </label>
            <select
              id={`${idBase}-kind`}
              data-testid="edit-kind"
              className={inputClassFor(Boolean(problems.kind))}
              value={value.kind}
              aria-invalid={problems.kind ? true : undefined}
              aria-describedby={ids('kind')}
              onChange={(e) => set('kind', e.target.value)}
            >
              <option value="">{t('edit.kind.none')}</option>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`edit.kind.${k}`)}
                </option>
              ))}
              {value.kind !== '' && !(KINDS as readonly string[]).includes(value.kind) ? <option value={value.kind}>{value.kind}</option> : null}
            </select>
            {problem('kind')}
          </div>
          <div className="flex min-w-48 flex-1 flex-col gap-1">
            <label htmlFor={`${idBase}-goal`} className="text-xs font-medium text-muted">
              {t('edit.goal')}
            </label>
            <input
              id={`${idBase}-goal`}
              data-testid="edit-goal"
              className={inputClassFor(false)}
              value={value.goal ?? ''}
              aria-describedby={`${idBase}-goal-hint`}
              onChange={(e) => set('goal', e.target.value)}
            />
            <p id={`${idBase}-goal-hint`} className="text-xs text-muted">
              {t('edit.goal.hint')}
            </p>
          </div>
        </div>
      ) : null}
      <div className="flex flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={`${idBase}-body`} className="text-xs font-medium text-muted">
            {t('edit.body')}
          </label>
          <span className="flex-1" />
          <div className="inline-flex rounded-md border border-line p-0.5 text-xs" role="group">
            {(['write', 'preview'] as const).map((k) => (
              <button
                key={k}
                type="button"
                data-testid={`edit-tab-${k}`}
                aria-pressed={tab === k}
                className={`rounded px-2 py-0.5 ${tab === k ? 'bg-accent-soft font-medium text-accent' : 'text-muted hover:text-fg'}`}
                onClick={() => setTab(k)}
              >
                {t(k === 'write' ? 'edit.write' : 'edit.preview')}
              </button>
            ))}
          </div>
        </div>
        {tab === 'write' ? (
          <textarea
            ref={bodyRef}
            id={`${idBase}-body`}
            data-testid="memory-editor"
            aria-label={t('memory.editor.label', { title: name })}
            className={`${inputClassFor(Boolean(problems.body))} prose-raw resize-y ${bodyClass}`}
            value={value.body}
            spellCheck={false}
            aria-invalid={problems.body ? true : undefined}
            aria-describedby={ids('body', true)}
            onChange={(e) => set('body', e.target.value)}
          />
        ) : (
          <div data-testid="edit-preview" className="flex flex-col gap-2">
            <h2 className="text-base font-semibold">{value.title.trim() || name}</h2>
            {value.body.trim() ? (
              <MemoryReader raw={value.body} labels={{ tags: t('memory.read.tags'), meta: t('memory.read.meta') }} />
            ) : (
              <p className="text-sm text-muted">{t('edit.preview.empty')}</p>
            )}
            {tags.length ? (
              <p className="flex flex-wrap gap-1 text-xs" data-testid="edit-preview-tags">
                {tags.map((tag) => (
                  <span key={tag} className="rounded bg-sunken px-1.5 py-0.5 text-muted">
                    #{tag}
                  </span>
                ))}
              </p>
            ) : null}
          </div>
        )}
        <p id={`${idBase}-body-hint`} className="text-xs text-muted">
          {t(layout === 'front-matter' ? 'edit.body.hint.md' : 'edit.body.hint')} <span data-allow-en>{t('edit.shortcut')}</span>
        </p>
        {problem('body')}
      </div>
    </div>
  );
}
