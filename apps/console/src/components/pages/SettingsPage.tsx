'use client';
// Settings: the model card on top, then the options by what a person wants (记忆来源, 召回, 模型) and
// every other option under 高级 (folded; engine sections A–…, with raw config paths). One draft of
// every option, saved as a patch of the changed paths. The engine merges it over the deploy base; a
// change of embedding fingerprint asks for confirmation first.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { engineText } from '../../client/engine-text.ts';
import { useI18n } from '../../client/i18n.tsx';
import { useIndexRun } from '../../client/index-run.tsx';
import { useToast } from '../../client/toast.tsx';
import { describeError, useTRPC } from '../../client/trpc.tsx';
import { buildPatch, changedPaths, getAt, setAt } from '../settings/draft.ts';
import { Field, withCode } from '../settings/fields.tsx';
import { ALL_FIELDS, type FieldSpec, type Pair, type SectionSpec } from '../settings/spec.ts';
import { ADVANCED_SECTIONS, GROUPS, groupOf, type GroupSpec } from '../settings/groups.ts';
import { validateDraft, type FieldErrors } from '../settings/validate.ts';
import { Dialog } from '../Dialog.tsx';
import { NotePreviewTool, TemplateButtons, TestEmbeddingTool } from '../settings/tools.tsx';
import { ModelInstallTool } from '../settings/ModelInstall.tsx';
import { Badge, Banner, Button, Card, ErrorNote, PageHeader } from '../ui.tsx';

const EDITABLE_PATHS = ALL_FIELDS.filter((f) => f.kind !== 'readonly').map((f) => f.path);

/** Advanced sections are lettered in the order they are shown (A, B, C …), whatever order the spec grew in. */
const sectionLetter = (id: string) => String.fromCharCode(65 + Math.max(0, ADVANCED_SECTIONS.findIndex((s) => s.id === id)));
const ADVANCED_COUNT = GROUPS.find((g) => g.id === 'advanced')!.fields.length;

/** Does a field match the settings search (label in either language, path, help)? */
function fieldMatches(f: (typeof ALL_FIELDS)[number], needle: string): boolean {
  if (!needle) return true;
  return [f.path, ...f.label, ...(f.help ?? [])].some((x) => x.toLowerCase().includes(needle));
}

interface Confirmation {
  reasons: string[];
  fatal: boolean;
  /** Set when the save moves the diary root: the new path, which the person confirms by name. */
  diaryDir?: string;
}

export function SettingsPage({ onGoToIndex }: { onGoToIndex: () => void }) {
  const { t, pick } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const indexRun = useIndexRun();
  const settings = useQuery(trpc.settings.get.queryOptions(undefined, { staleTime: Infinity }));
  const original = settings.data?.effective;
  const locked = useMemo(() => new Set(settings.data?.lockedByEnv ?? []), [settings.data]);
  const [draft, setDraft] = useState<unknown>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  /** A diary-root move the person confirmed while another confirmation (re-embedding) is still asked. */
  const [confirmedDiaryDir, setConfirmedDiaryDir] = useState<string | undefined>(undefined);
  const [restartNote, setRestartNote] = useState<string[]>([]);
  /** Errors the server found on a field (kept until that field changes). */
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [showErrors, setShowErrors] = useState(false);
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const [advancedOpen, setAdvancedOpen] = useState(false);
  /** A field to put the cursor in once it is on screen (it may sit in the folded 高级 part). */
  const [focusPath, setFocusPath] = useState<string | null>(null);
  useEffect(() => {
    if (!focusPath) return;
    document.getElementById(`setting-${focusPath}`)?.focus();
    setFocusPath(null);
  }, [focusPath]);
  const focusField = (path: string) => {
    if (groupOf(path) === 'advanced') setAdvancedOpen(true);
    setFocusPath(path);
  };
  // A search that finds something under 高级 shows it without a click.
  const advancedShown = advancedOpen || (needle !== '' && ADVANCED_SECTIONS.some((s) => s.fields.some((f) => fieldMatches(f, needle))));

  useEffect(() => {
    if (original && draft === null) setDraft(original);
  }, [original, draft]);

  const dirty = useMemo(() => (draft && original ? changedPaths(draft, original, EDITABLE_PATHS) : []), [draft, original]);
  const get = useCallback((path: string) => getAt(draft, path), [draft]);
  const localErrors = useMemo(() => (draft ? validateDraft(ALL_FIELDS, get) : {}), [draft, get]);
  const errors = useMemo(() => ({ ...serverErrors, ...localErrors }), [serverErrors, localErrors]);
  const errorCount = Object.keys(errors).length;

  const save = useMutation(trpc.settings.save.mutationOptions());

  /** Saves the changed paths; true when the settings were stored. */
  const submit = async (confirm?: 'rebuild' | 'save-only', confirmDiaryDir?: string): Promise<boolean> => {
    if (!draft) return false;
    if (Object.keys(localErrors).length > 0) {
      // Nothing is sent while a field is wrong: show where, and put the cursor there.
      setShowErrors(true);
      const first = GROUPS.flatMap((g) => g.fields).find((f) => localErrors[f.path]);
      if (first) focusField(first.path);
      return false;
    }
    try {
      const diaryDir = confirmDiaryDir ?? confirmedDiaryDir;
      const res = await save.mutateAsync({ patch: buildPatch(draft, dirty), ...(confirm ? { confirm } : {}), ...(diaryDir ? { confirmDiaryDir: diaryDir } : {}) });
      if (!res.ok) {
        // The diary root is asked about first; a confirmed path is sent again with the next answer.
        if (res.confirmDiaryDir && res.confirmDiaryDir !== diaryDir) setConfirmation({ reasons: res.reasons, fatal: false, diaryDir: res.confirmDiaryDir });
        else {
          if (diaryDir) setConfirmedDiaryDir(diaryDir);
          setConfirmation({ reasons: res.reasons, fatal: res.fatal });
        }
        return false;
      }
      setConfirmedDiaryDir(undefined);
      setConfirmation(null);
      const restart = [...res.restartRequired, ...dirty.filter((p) => ALL_FIELDS.find((f) => f.path === p)?.restart)];
      setRestartNote(restart);
      const fresh = await settings.refetch();
      if (fresh.data) setDraft(fresh.data.effective);
      toast.ok(t('settings.saved'));
      return true;
    } catch (e) {
      const onField = fieldOfError(describeError(e).message);
      if (onField) {
        setServerErrors({ [onField.path]: onField.message });
        setShowErrors(true);
        focusField(onField.path);
      } else toast.error(e);
      return false;
    }
  };

  // The install may have switched the provider (none → auto): show the stored settings again, unless
  // the person has unsaved changes (those stay; the provider shows as changed if it differs).
  const onModelInstalled = useCallback(() => {
    void settings.refetch().then((fresh) => {
      if (fresh.data && dirty.length === 0) setDraft(fresh.data.effective);
    });
  }, [settings, dirty.length]);

  const saveAndRebuild = async () => {
    // Save without the engine's in-call rebuild, then run the streamed rebuild so the bar shows progress.
    if (!(await submit('save-only'))) return;
    onGoToIndex();
    await indexRun.start('full');
  };

  const fieldProps: FieldsProps = {
    get,
    locked,
    dirty,
    errors,
    showErrors,
    onChange: (path, v) => {
      setServerErrors((e) => (e[path] ? {} : e));
      setDraft((d: unknown) => setAt(d, path, v));
    },
  };

  if (settings.error) return <ErrorNote error={settings.error} onRetry={() => settings.refetch()} retryLabel={t('common.retry')} />;

  return (
    <div>
      <PageHeader eyebrow={t('settings.eyebrow')} title={t('settings.title')} description={t('settings.desc')} />
      <div className="page-grid">
        <div className="flex min-w-0 flex-col gap-3" data-testid="settings-form">
          {restartNote.length > 0 ? (
            <Banner tone="accent" title={t('settings.restart', { paths: restartNote.join(', ') })} testId="settings-restart-note" />
          ) : null}
          <ModelInstallTool provider={draft ? get('embedding.provider') : undefined} onDone={onModelInstalled} />
          <input
            type="search"
            data-testid="settings-search"
            aria-label={t('settings.search')}
            placeholder={t('settings.search')}
            className="w-full min-w-0 rounded-md border border-line bg-panel px-2.5 py-1.5 text-sm"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {!draft ? <div className="text-sm text-muted">{t('common.loading')}</div> : null}
          {draft
            ? GROUPS.filter((g) => g.id !== 'advanced' && (!needle || g.fields.some((f) => fieldMatches(f, needle)))).map((group) => (
                <GroupCard key={group.id} group={group} needle={needle} {...fieldProps} />
              ))
            : null}
          {draft ? (
            <section id="settings-group-advanced" className="scroll-mt-4 flex flex-col gap-3" data-testid="settings-group-advanced" data-open={advancedShown}>
              <header className="flex flex-wrap items-center gap-x-3 gap-y-1 px-1">
                {/* At least 12rem for the words, so a 300 px sidebar puts the button under them instead of squeezing them. */}
                <div className="min-w-0 flex-[1_1_12rem]">
                  <h2 className="text-sm font-semibold">{t('settings.group.advanced')}</h2>
                  <p className="text-xs text-muted" data-testid="settings-group-explain">{t('settings.group.advanced.explain')}</p>
                </div>
                <Button data-testid="settings-advanced-toggle" aria-expanded={advancedShown} aria-controls="settings-advanced-body" onClick={() => setAdvancedOpen(!advancedShown)}>
                  {advancedShown ? t('settings.advanced.hide') : t('settings.advanced.show', { n: ADVANCED_COUNT })}
                </Button>
              </header>
              {advancedShown ? (
                <div id="settings-advanced-body" className="flex flex-col gap-3">
                  {ADVANCED_SECTIONS.filter((section) => !needle || section.fields.some((f) => fieldMatches(f, needle))).map((section) => (
                    <SectionCard needle={needle} key={section.id} section={section} {...fieldProps} />
                  ))}
                </div>
              ) : null}
            </section>
          ) : null}
          <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center gap-2 rounded-xl border border-line bg-panel/95 px-3 py-2 shadow-lg backdrop-blur">
            <span className="flex-1 text-sm text-muted" data-testid="settings-dirty">
              {dirty.length ? t('settings.dirty', { n: dirty.length }) : t('settings.clean')}
            </span>
            {showErrors && errorCount > 0 ? (
              <span className="text-sm font-medium text-danger" role="alert" data-testid="settings-errors">
                {t('settings.errors', { n: errorCount })}
              </span>
            ) : null}
            <Button data-testid="settings-reset" disabled={!dirty.length || save.isPending} onClick={() => setDraft(original ?? null)}>
              {t('settings.reset')}
            </Button>
            <Button variant="primary" data-testid="settings-save" disabled={!dirty.length || save.isPending} onClick={() => void submit()}>
              {save.isPending ? t('settings.saving') : t('settings.save')}
            </Button>
          </div>
        </div>
        <aside className="page-aside">
          <Card>
            <nav className="flex flex-col gap-0.5 text-sm" data-testid="settings-nav">
              {GROUPS.map((g) => (
                <a
                  key={g.id}
                  href={`#settings-group-${g.id}`}
                  className="rounded px-2 py-1 font-medium text-fg hover:bg-sunken"
                  onClick={(e) => {
                    e.preventDefault();
                    if (g.id === 'advanced') setAdvancedOpen(true);
                    document.getElementById(`settings-group-${g.id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                  }}
                >
                  {t(g.title)}
                </a>
              ))}
              {advancedShown
                ? ADVANCED_SECTIONS.map((s) => (
                    <a key={s.id} href={`#settings-${s.id}`} className="rounded py-1 pr-2 pl-4 text-muted hover:bg-sunken hover:text-fg" onClick={(e) => { e.preventDefault(); document.getElementById(`settings-${s.id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' }); }}>
                      <span className="mr-2 font-mono text-xs">{sectionLetter(s.id)}</span>
                      {pick(s.title)}
                    </a>
                  ))
                : null}
            </nav>
          </Card>
          <Card title={t('settings.aside.title')}>
            <p className="text-sm text-muted">{t('settings.aside.body')}</p>
          </Card>
        </aside>
      </div>
      {confirmation?.diaryDir ? (
        <DiaryMoveDialog
          path={confirmation.diaryDir}
          busy={save.isPending}
          onConfirm={() => void submit(undefined, confirmation.diaryDir)}
          onCancel={() => setConfirmation(null)}
        />
      ) : confirmation ? (
        <ConfirmDialog
          confirmation={confirmation}
          busy={save.isPending}
          onRebuild={() => void saveAndRebuild()}
          onSaveOnly={() => void submit('save-only')}
          onCancel={() => {
            setConfirmation(null);
            setConfirmedDiaryDir(undefined);
          }}
        />
      ) : null}
    </div>
  );
}

/** Moving the diary root is never silent: the dialog names the new folder, and only that is sent. */
function DiaryMoveDialog({ path, busy, onConfirm, onCancel }: { path: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog
      title={t('diaryMove.title')}
      testId="settings-diary-confirm"
      onCancel={onCancel}
      actions={
        <>
          <Button onClick={onCancel} data-testid="settings-diary-cancel" data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button variant="primary" onClick={onConfirm} disabled={busy} data-testid="settings-diary-move">
            {t('diaryMove.confirm')}
          </Button>
        </>
      }
    >
      <p className="text-muted">{t('diaryMove.body')}</p>
      <p className="mt-2">
        <code className="break-all rounded bg-sunken px-1.5 py-0.5 text-sm" data-testid="settings-diary-path">
          {path}
        </code>
      </p>
    </Dialog>
  );
}

interface FieldsProps {
  get: (path: string) => unknown;
  locked: Set<string>;
  dirty: string[];
  errors: FieldErrors;
  /** Every error shows once a save was tried; before that only on fields the user changed. */
  showErrors: boolean;
  onChange: (path: string, value: unknown) => void;
}

/** The controls of a group or section: the ones whose condition holds and that match the search. */
function FieldGrid({ fields, needle, showPaths, get, locked, dirty, errors, showErrors, onChange }: FieldsProps & { fields: FieldSpec[]; needle: string; showPaths: boolean }) {
  if (!fields.length) return null;
  return (
    <div className="grid grid-cols-1 gap-x-5 gap-y-3.5 @rail:grid-cols-2">
      {fields
        .filter((f) => (!f.showIf || f.showIf(get)) && fieldMatches(f, needle))
        .map((f) => (
          <Field
            key={f.path}
            spec={f}
            value={get(f.path)}
            locked={locked.has(f.path)}
            showPath={showPaths}
            onChange={(v) => onChange(f.path, v)}
            error={showErrors || dirty.includes(f.path) ? errors[f.path] : undefined}
            extra={f.kind === 'template' ? <TemplateButtons disabled={locked.has(f.path)} onFill={(text) => onChange(f.path, text)} onClear={() => onChange(f.path, '')} /> : undefined}
          />
        ))}
    </div>
  );
}

/** A person-facing group: its name, one line on what it is for, its controls (no raw config paths). */
function GroupCard({ group, needle, ...props }: FieldsProps & { group: GroupSpec; needle: string }) {
  const { t } = useI18n();
  const changed = group.fields.filter((f) => props.dirty.includes(f.path)).length;
  return (
    <div id={`settings-group-${group.id}`} className="scroll-mt-4" data-testid={`settings-group-${group.id}`}>
      <Card title={t(group.title)} actions={changed ? <Badge tone="accent">● {changed}</Badge> : undefined}>
        <p className="mb-3 text-xs text-muted" data-testid="settings-group-explain">
          {t(group.explain)}
        </p>
        <FieldGrid fields={group.fields} needle={needle} showPaths={group.showPaths} {...props} />
        {group.id === 'model' ? <TestEmbeddingTool embedding={props.get('embedding')} /> : null}
      </Card>
    </div>
  );
}

/** An engine section under 高级: lettered, with the raw config path beside each label. */
function SectionCard({ section, needle, ...props }: FieldsProps & { section: SectionSpec; needle: string }) {
  const { pick, lang } = useI18n();
  const changed = section.fields.filter((f) => props.dirty.includes(f.path)).length;
  return (
    <div id={`settings-${section.id}`} className="scroll-mt-4" data-testid={`settings-section-${section.id}`}>
      <Card
        title={
          <span className="flex items-center gap-2">
            <span className="rounded bg-accent-soft px-1.5 py-0.5 font-mono text-xs text-accent">{sectionLetter(section.id)}</span>
            {pick(section.title)}
          </span>
        }
        actions={changed ? <Badge tone="accent">● {changed}</Badge> : undefined}
      >
        {section.description ? <p className="mb-3 text-xs text-muted">{withCode(pick(section.description), lang)}</p> : null}
        <FieldGrid fields={section.fields} needle={needle} showPaths {...props} />
        {section.tool === 'note-preview' ? <NotePreviewTool /> : null}
      </Card>
    </div>
  );
}

function ConfirmDialog({ confirmation, busy, onRebuild, onSaveOnly, onCancel }: { confirmation: Confirmation; busy: boolean; onRebuild: () => void; onSaveOnly: () => void; onCancel: () => void }) {
  const { t, lang } = useI18n();
  return (
    <Dialog
      title={t('settings.confirm.title')}
      testId="settings-confirm"
      onCancel={onCancel}
      actions={
        <>
          <Button onClick={onCancel} data-testid="settings-confirm-cancel" data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button onClick={onSaveOnly} disabled={busy} data-testid="settings-confirm-save-only">
            {t('settings.confirm.saveOnly')}
          </Button>
          <Button variant="primary" onClick={onRebuild} disabled={busy} data-testid="settings-confirm-rebuild">
            {t('settings.confirm.rebuild')}
          </Button>
        </>
      }
    >
      <p className="text-muted">{t('settings.confirm.body')}</p>
      <ul className="mt-2 list-disc pl-5" data-testid="settings-confirm-reasons">
        {confirmation.reasons.map((r) => (
          <li key={r}>{engineText(r, lang)}</li>
        ))}
      </ul>
      {confirmation.fatal ? <p className="mt-2 text-warn">{t('settings.confirm.fatal')}</p> : null}
    </Dialog>
  );
}

/** A server validation message that names a settings path ("recall.kMax: …") belongs under that field. */
function fieldOfError(message: string): { path: string; message: Pair } | null {
  const field = [...ALL_FIELDS].sort((a, b) => b.path.length - a.path.length).find((f) => f.kind !== 'readonly' && message.includes(f.path));
  return field ? { path: field.path, message: [message, message] } : null;
}
