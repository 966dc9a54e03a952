'use client';
// Small presentational building blocks shared by the four pages.
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useI18n } from '../client/i18n.tsx';
import { describeError } from '../client/trpc.tsx';
import { engineText } from '../client/engine-text.ts';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-accent text-accent-fg hover:brightness-110 border-transparent',
  secondary: 'bg-panel text-fg border-line hover:bg-sunken',
  ghost: 'bg-transparent text-muted border-transparent hover:bg-sunken hover:text-fg',
  danger: 'bg-panel text-danger border-danger/40 hover:bg-danger-soft',
};

export function Button({ variant = 'secondary', className = '', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type="button"
      data-variant={variant}
      {...rest}
      className={`inline-flex items-center justify-center gap-1.5 rounded-md border px-3 py-1.5 text-sm font-medium whitespace-nowrap transition disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${className}`}
    />
  );
}

export function Card({ title, actions, children, className = '', testId }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section data-testid={testId} className={`rounded-xl border border-line bg-panel ${className}`}>
      {title || actions ? (
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-2.5">
          <h2 className="text-sm font-semibold">{title}</h2>
          {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
        </header>
      ) : null}
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}

export function PageHeader({ eyebrow, title, description, actions }: { eyebrow: string; title: string; description: string; actions?: ReactNode }) {
  return (
    <header className="mb-2 flex flex-col gap-2 @rail:mb-6 @rail:gap-3 @side:flex-row @side:items-end @side:justify-between">
      {/* In the 300 px sidebar the page's name is enough: the rows are what the space is for. */}
      <div className="min-w-0">
        <div className="text-xs font-semibold tracking-wider text-accent uppercase @max-rail:hidden">{eyebrow}</div>
        <h1 className="mt-1 text-base font-semibold tracking-tight @rail:text-xl @xwide:text-2xl">{title}</h1>
        <p className="mt-1 max-w-2xl text-sm text-muted @max-rail:hidden">{description}</p>
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </header>
  );
}

export function Badge({ children, tone = 'neutral', title }: { children: ReactNode; tone?: 'neutral' | 'accent' | 'warn' | 'danger' | 'ok'; title?: string }) {
  const tones = {
    neutral: 'bg-sunken text-muted',
    accent: 'bg-accent-soft text-accent',
    warn: 'bg-warn-soft text-warn',
    danger: 'bg-danger-soft text-danger',
    ok: 'bg-sunken text-ok',
  } as const;
  return (
    <span title={title} className={`inline-flex max-w-full min-w-0 items-center rounded px-1.5 py-0.5 text-xs leading-4 break-all ${tones[tone]}`}>
      {children}
    </span>
  );
}

export function Banner({ tone = 'warn', title, children, actions, testId }: { tone?: 'warn' | 'danger' | 'accent'; title: ReactNode; children?: ReactNode; actions?: ReactNode; testId?: string }) {
  const tones = { warn: 'border-warn/40 bg-warn-soft', danger: 'border-danger/40 bg-danger-soft', accent: 'border-accent/30 bg-accent-soft' } as const;
  return (
    <div data-testid={testId} role="status" className={`flex flex-col gap-2 rounded-xl border px-4 py-3 text-sm @rail:flex-row @rail:items-center ${tones[tone]}`}>
      <div className="min-w-0 flex-1">
        <div className="font-semibold">{title}</div>
        {children ? <div className="mt-0.5 text-muted">{children}</div> : null}
      </div>
      {actions ? <div className="flex gap-2">{actions}</div> : null}
    </div>
  );
}

export function ErrorNote({ error, onRetry, retryLabel }: { error: unknown; onRetry?: () => void; retryLabel?: string }) {
  const { t, lang } = useI18n();
  const d = describeError(error);
  return (
    <div data-testid="error-note" role="alert" className="flex flex-wrap items-center gap-2 rounded-lg border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger">
      <span className="min-w-0 flex-1 break-words">{engineText(d.message, lang)}</span>
      <span className="font-mono text-xs opacity-75">{[d.code, d.engramCode].filter(Boolean).join(' · ')}</span>
      {onRetry ? (
        <button type="button" className="underline" onClick={onRetry}>
          {retryLabel ?? t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function Stat({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-line bg-panel px-3 py-2.5">
      <div className="text-xs text-muted">{label}</div>
      <div data-testid={testId} className="mt-0.5 truncate text-lg font-semibold tabular-nums">
        {value}
      </div>
      {hint ? <div className="mt-0.5 truncate text-xs text-muted">{hint}</div> : null}
    </div>
  );
}

export function Muted({ children }: { children: ReactNode }) {
  return <p className="py-6 text-center text-sm text-muted">{children}</p>;
}

export const inputClass =
  'w-full min-w-0 rounded-md border border-line bg-panel px-2.5 py-1.5 text-sm text-fg placeholder:text-muted/70 focus:border-accent focus:outline-none disabled:bg-sunken disabled:text-muted';

/** The input look with a red border when invalid (swapped, not stacked: two border colours fight). */
export const inputClassFor = (invalid: boolean): string => (invalid ? inputClass.replace('border-line', 'border-danger').replace('focus:border-accent', 'focus:border-danger') : inputClass);

/**
 * Tabs inside a page. Every panel stays mounted (hidden when not chosen) so a half-written message
 * or a running import's view survives switching tabs.
 */
export function SubTabs<Id extends string>({
  tabs,
  active,
  onChange,
  label,
}: {
  tabs: { id: Id; label: ReactNode; badge?: ReactNode }[];
  active: Id;
  onChange: (id: Id) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-line" data-testid="subtabs">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === active}
          data-testid={`tab-${tab.id}`}
          onClick={() => onChange(tab.id)}
          className={`-mb-px flex shrink-0 items-center gap-1.5 border-b-2 px-2.5 py-1.5 text-sm whitespace-nowrap ${
            tab.id === active ? 'border-accent font-medium text-accent' : 'border-transparent text-muted hover:text-fg'
          }`}
        >
          {tab.label}
          {tab.badge}
        </button>
      ))}
    </div>
  );
}

/** A determinate progress bar (0–100) with the number beside it. */
export function ProgressBar({ percent, state, testId }: { percent: number; state: 'running' | 'done' | 'error'; testId: string }) {
  return (
    <div className="flex items-center gap-2">
      <div
        className="h-2.5 min-w-0 flex-1 overflow-hidden rounded-full bg-sunken"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid={testId}
        data-state={state}
      >
        <div className={`h-full rounded-full transition-[width] duration-200 ${state === 'error' ? 'bg-danger' : 'bg-accent'}`} style={{ width: `${percent}%` }} />
      </div>
      <span data-testid={`${testId}-percent`} className="w-10 shrink-0 text-right text-sm font-semibold tabular-nums">
        {percent}%
      </span>
    </div>
  );
}
