'use client';
// A value against its threshold: a bar for the value, a tick for the threshold, the numbers as text
// beside it (HTML, so they stay readable at 300 px instead of shrinking with an SVG).
import type { Measured } from './gates.ts';
import { formatAgainst } from './gates.ts';

export function BulletChart({ measured, label, thresholdLabel }: { measured: Measured; label: string; thresholdLabel: string }) {
  const { value, threshold } = measured;
  const top = Math.max(value, threshold) * 1.25 || 1;
  const shown = formatAgainst(value, threshold, measured.unit);
  const passed = value >= threshold;
  return (
    <div className="flex min-w-0 flex-col gap-0.5" data-testid="gate-bullet" data-value={value} data-threshold={threshold}>
      <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="text-muted">{label}</span>
        <span className={`font-semibold tabular-nums ${passed ? 'text-ok' : 'text-danger'}`}>{shown.value}</span>
        <span className="text-muted tabular-nums">
          {passed ? '≥' : '<'} {thresholdLabel} {shown.threshold}
        </span>
      </div>
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" className="h-2 w-full max-w-[24rem]" role="img" aria-label={`${label} ${shown.value}, ${thresholdLabel} ${shown.threshold}`}>
        <rect x="0" y="1.5" width="100" height="5" rx="1.5" fill="var(--sunken)" />
        <rect x="0" y="1.5" width={(value / top) * 100} height="5" rx="1.5" fill={passed ? 'var(--ok)' : 'var(--danger)'} />
        <rect x={(threshold / top) * 100 - 0.6} y="0" width="1.2" height="8" fill="var(--fg)" />
      </svg>
    </div>
  );
}
