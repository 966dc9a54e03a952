// A hit's scores as small horizontal bars (fused, lexical, semantic). HTML, not SVG: an SVG's text
// scales with its width and shrank to ≈ 7 px at 300 px. Each bar is drawn against a fixed scale of its
// own channel (never the best hit of this recall, which made the top hit always full and 0.0164 vs
// 0.0161 look alike), with an optional tick for the threshold a gate compares it with.
export interface ScoreBar {
  key: string;
  label: string;
  value: number;
  /** What a full bar means: the bar is value / scale long. */
  scale: number;
  /** A gate's threshold on the same scale, drawn as a tick. */
  threshold?: number;
  /** What is printed beside the bar. */
  text: string;
  color: string;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function ScoreBars({ bars, testId }: { bars: ScoreBar[]; testId?: string }) {
  return (
    <ul data-testid={testId} className="flex max-w-[32rem] flex-col gap-1">
      {bars.map((b) => {
        const fraction = clamp01(b.value / b.scale);
        return (
          <li
            key={b.key}
            data-testid="score-bar"
            data-bar={b.key}
            data-value={b.value}
            data-scale={b.scale}
            className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-xs"
          >
            <span className="w-12 shrink-0 text-muted">{b.label}</span>
            <span data-testid="score-bar-track" className="relative h-2.5 min-w-[6rem] flex-1 rounded bg-sunken" aria-hidden="true">
              <span data-testid="score-bar-fill" className="absolute inset-y-0 left-0 rounded" style={{ width: `${fraction * 100}%`, background: b.color }} />
              {b.threshold !== undefined ? (
                <span className="absolute -inset-y-0.5 w-0.5 bg-fg" style={{ left: `calc(${clamp01(b.threshold / b.scale) * 100}% - 1px)` }} />
              ) : null}
            </span>
            <span data-testid="score-bar-text" className="min-w-0 break-words tabular-nums">
              {b.text}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** Timing as one stacked bar: where the milliseconds of a recall went. */
export function TimingBar({ parts, total }: { parts: { key: string; label: string; ms: number; color: string }[]; total: number }) {
  const sum = Math.max(total, parts.reduce((a, p) => a + p.ms, 0), 0.001);
  let x = 0;
  return (
    <svg viewBox="0 0 300 10" width="100%" height="10" preserveAspectRatio="none" role="img" aria-label={parts.map((p) => `${p.label} ${p.ms.toFixed(1)} ms`).join(', ')}>
      <rect x="0" y="0" width="300" height="10" rx="3" fill="var(--sunken)" />
      {parts.map((p) => {
        const w = (p.ms / sum) * 300;
        const r = <rect key={p.key} x={x} y={0} width={w} height={10} fill={p.color} />;
        x += w;
        return r;
      })}
    </svg>
  );
}
