'use client';
// One control per config path. Each field reads and writes the draft through `get`/`set`; list-like
// editors keep their own text so typing a newline or comma is never swallowed by re-parsing.
import { useEffect, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { Badge, Button, inputClass, inputClassFor } from '../ui.tsx';
import { groupToList, linesToList, sameValue } from './draft.ts';
import type { FieldSpec, Pair } from './spec.ts';
import { rangeHint } from './validate.ts';

export interface FieldProps {
  spec: FieldSpec;
  value: unknown;
  onChange: (value: unknown) => void;
  locked: boolean;
  /** Extra UI rendered under the control (the template buttons). */
  extra?: React.ReactNode;
  /** What is wrong with the current value, shown under the field and tied to the control. */
  error?: Pair;
  /** Show the raw config path beside the label (only under 高级: elsewhere it is jargon). */
  showPath?: boolean;
}

const MASK_RE = /^•+$/;

const wide = (kind: FieldSpec['kind']) => ['textarea', 'lines', 'memories', 'aliases', 'template'].includes(kind);

export function Field({ spec, value, onChange, locked, extra, error, showPath = false }: FieldProps) {
  const { t, pick, lang } = useI18n();
  const id = `setting-${spec.path}`;
  const hint = rangeHint(spec);
  const describedBy = [error ? `${id}-error` : '', spec.help || hint ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${wide(spec.kind) ? '@rail:col-span-2' : ''}`} data-field={spec.path} data-invalid={error ? 'true' : undefined}>
      <div className="flex flex-wrap items-center gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          {withCode(pick(spec.label), lang)}
        </label>
        {showPath ? <code className="text-[11px] text-muted" data-testid="setting-path">{spec.path}</code> : null}
        {locked ? <Badge tone="warn">{t('settings.locked')}</Badge> : null}
        {spec.restart ? <Badge>{t('settings.restartBadge')}</Badge> : null}
      </div>
      <Control spec={spec} id={id} value={value} onChange={onChange} locked={locked} invalid={Boolean(error)} describedBy={describedBy} />
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-danger" data-testid={`${id}-error`}>
          {pick(error)}
        </p>
      ) : null}
      {spec.help || hint ? (
        <p id={`${id}-help`} className="text-xs text-muted">
          {withCode([spec.help ? pick(spec.help) : '', hint ? pick(hint) : ''].filter(Boolean).join(t('common.sep')), lang)}
        </p>
      ) : null}
      {extra}
    </div>
  );
}

/**
 * Help text names options, tools, env variables and headers (hint, engram_list, HOST, X-Forwarded-Host):
 * shown as code, so they read as the literal values to type rather than as untranslated words.
 */
export function withCode(text: string, lang: string): React.ReactNode {
  // Only Chinese text needs it: there a Latin run is an identifier; in English everything is Latin.
  if (lang !== 'zh') return text;
  const parts = text.split(/(\[?[A-Za-z_][\w\-./:]*[\w\]])/g);
  return parts.map((part, i) =>
    i % 2 === 1 && !/^(BM25|IDF|RRF|K|API|URL|LLM|Embedding|Base|Key|k1|b|ms|XML|DNS|token)$/.test(part) ? (
      <code key={i} className="rounded bg-sunken px-1 text-[11px]">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

function Control({
  spec,
  id,
  value,
  onChange,
  locked,
  invalid,
  describedBy,
}: {
  spec: FieldSpec;
  id: string;
  value: unknown;
  onChange: (v: unknown) => void;
  locked: boolean;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const { t, pick } = useI18n();
  const testId = id;
  const a11y = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy } as const;
  switch (spec.kind) {
    case 'bool':
      return (
        <label className="inline-flex w-fit cursor-pointer items-center gap-2 text-sm">
          <input id={id} data-testid={testId} type="checkbox" disabled={locked} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="h-4 w-4 accent-[var(--accent)]" />
          <span className="text-muted">{value === true ? t('common.yes') : t('common.no')}</span>
        </label>
      );
    case 'select':
      return (
        <select id={id} data-testid={testId} className={inputClass} disabled={locked} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)}>
          {(spec.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'number':
      return <NumberInput id={id} spec={spec} value={value} onChange={onChange} locked={locked} invalid={invalid} describedBy={describedBy} />;
    case 'textarea':
    case 'template':
      return (
        <textarea
          id={id}
          data-testid={testId}
          className={`${inputClass} resize-y ${spec.kind === 'template' ? 'prose-raw min-h-48' : 'min-h-16'}`}
          disabled={locked}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'secret':
      return <SecretInput id={id} value={value} onChange={onChange} locked={locked} />;
    case 'readonly':
      return (
        <div id={id} data-testid={testId} className="rounded-md bg-sunken px-2.5 py-1.5 font-mono text-xs break-all text-muted">
          {String(value ?? '') || '—'}
        </div>
      );
    case 'lines':
      return <ListText id={id} value={value} onChange={onChange} locked={locked} parse={linesToList} join={(l) => l.join('\n')} placeholder={t('settings.lines.ph')} invalid={invalid} describedBy={describedBy} />;
    case 'memories':
      return <MemoriesEditor id={id} value={value} onChange={onChange} locked={locked} />;
    case 'aliases':
      return <AliasesEditor id={id} value={value} onChange={onChange} locked={locked} />;
    default:
      return (
        <input
          id={id}
          data-testid={testId}
          className={inputClassFor(invalid)}
          {...a11y}
          disabled={locked}
          value={String(value ?? '')}
          placeholder={spec.placeholder ? pick(spec.placeholder) : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

function NumberInput({
  id,
  spec,
  value,
  onChange,
  locked,
  invalid,
  describedBy,
}: {
  id: string;
  spec: FieldSpec;
  value: unknown;
  onChange: (v: unknown) => void;
  locked: boolean;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const [text, setText] = useState(String(value ?? ''));
  useEffect(() => {
    if (Number(text) !== value) setText(String(value ?? ''));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only external changes resync the text
  }, [value]);
  return (
    <input
      id={id}
      data-testid={id}
      type="number"
      inputMode="decimal"
      className={inputClassFor(invalid)}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      disabled={locked}
      min={spec.min}
      max={spec.max}
      step={spec.step ?? 1}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        // An out-of-range value still goes to the draft: the engine's validation answers with a typed error.
        const next = Number(e.target.value);
        onChange(e.target.value.trim() === '' || !Number.isFinite(next) ? e.target.value : next);
      }}
    />
  );
}

function SecretInput({ id, value, onChange, locked }: { id: string; value: unknown; onChange: (v: unknown) => void; locked: boolean }) {
  const { t } = useI18n();
  const masked = typeof value === 'string' && MASK_RE.test(value);
  return (
    <div className="flex gap-2">
      <input
        id={id}
        data-testid={id}
        type="password"
        autoComplete="off"
        className={inputClass}
        disabled={locked}
        value={masked ? '' : String(value ?? '')}
        placeholder={masked ? t('settings.secret.set') : ''}
        onChange={(e) => onChange(e.target.value === '' && masked ? value : e.target.value)}
      />
      {masked && !locked ? (
        <Button variant="ghost" onClick={() => onChange('')}>
          {t('settings.remove')}
        </Button>
      ) : null}
    </div>
  );
}

function ListText({
  id,
  value,
  onChange,
  locked,
  parse,
  join,
  placeholder,
  invalid,
  describedBy,
}: {
  id: string;
  value: unknown;
  onChange: (v: unknown) => void;
  locked: boolean;
  parse: (s: string) => string[];
  join: (l: string[]) => string;
  placeholder?: string;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const list = Array.isArray(value) ? (value as string[]) : [];
  const [text, setText] = useState(join(list));
  useEffect(() => {
    if (!sameValue(parse(text), list)) setText(join(list));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only external changes resync the text
  }, [value]);
  return (
    <textarea
      id={id}
      data-testid={id}
      className={`${inputClassFor(invalid)} prose-raw min-h-16 resize-y`}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      disabled={locked}
      value={text}
      placeholder={placeholder}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parse(e.target.value));
      }}
    />
  );
}

type Memory = { text: string; critical: boolean };

function MemoriesEditor({ id, value, onChange, locked }: { id: string; value: unknown; onChange: (v: unknown) => void; locked: boolean }) {
  const { t } = useI18n();
  const items = Array.isArray(value) ? (value as Memory[]) : [];
  const update = (i: number, patch: Partial<Memory>) => onChange(items.map((m, j) => (j === i ? { ...m, ...patch } : m)));
  return (
    <div id={id} data-testid={id} className="flex flex-col gap-2">
      {items.map((m, i) => (
        <div key={i} className="flex flex-col gap-1.5 rounded-md border border-line p-2 @rail:flex-row @rail:items-start">
          <textarea
            className={`${inputClass} min-h-12 flex-1 resize-y`}
            disabled={locked}
            value={m.text}
            onChange={(e) => update(i, { text: e.target.value })}
          />
          <div className="flex items-center gap-2">
            <label className="flex items-center gap-1 text-xs whitespace-nowrap">
              <input type="checkbox" disabled={locked} checked={m.critical} onChange={(e) => update(i, { critical: e.target.checked })} />
              {t('settings.memories.critical')}
            </label>
            <Button variant="ghost" disabled={locked} onClick={() => onChange(items.filter((_, j) => j !== i))}>
              {t('settings.remove')}
            </Button>
          </div>
        </div>
      ))}
      <Button className="w-fit" disabled={locked} onClick={() => onChange([...items, { text: '', critical: false }])}>
        + {t('settings.memories.add')}
      </Button>
    </div>
  );
}

function AliasesEditor({ id, value, onChange, locked }: { id: string; value: unknown; onChange: (v: unknown) => void; locked: boolean }) {
  const { t } = useI18n();
  const groups = Array.isArray(value) ? (value as string[][]) : [];
  return (
    <div id={id} data-testid={id} className="flex flex-col gap-2">
      {groups.map((g, i) => (
        <div key={i} className="flex gap-2">
          <AliasGroupInput locked={locked} group={g} onChange={(next) => onChange(groups.map((x, j) => (j === i ? next : x)))} />
          <Button variant="ghost" disabled={locked} onClick={() => onChange(groups.filter((_, j) => j !== i))}>
            {t('settings.remove')}
          </Button>
        </div>
      ))}
      <Button className="w-fit" disabled={locked} onClick={() => onChange([...groups, []])}>
        + {t('settings.aliases.add')}
      </Button>
    </div>
  );
}

function AliasGroupInput({ group, onChange, locked }: { group: string[]; onChange: (g: string[]) => void; locked: boolean }) {
  const { t } = useI18n();
  const [text, setText] = useState(group.join(', '));
  useEffect(() => {
    if (!sameValue(groupToList(text), group)) setText(group.join(', '));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only external changes resync the text
  }, [group]);
  return (
    <input
      className={inputClass}
      disabled={locked}
      value={text}
      placeholder={t('settings.aliases.ph')}
      onChange={(e) => {
        setText(e.target.value);
        onChange(groupToList(e.target.value));
      }}
    />
  );
}
