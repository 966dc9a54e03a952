// A hit's scores as small horizontal bars (fused, lexical, semantic): inline SVG, no chart library.
export interface ScoreBar {
  key: string;
  label: string;
  /** 0–1: the bar's length. */
  fraction: number;
  /** What is printed at the end of the bar. */
  text: string;
  color: string;
}

const ROW = 16;
const LABEL_W = 64;
const TEXT_W = 96;
const WIDTH = 360;

export function ScoreBars({ bars, testId }: { bars: ScoreBar[]; testId?: string }) {
  const track = WIDTH - LABEL_W - TEXT_W;
  return (
    <svg
      data-testid={testId}
      viewBox={`0 0 ${WIDTH} ${bars.length * ROW}`}
      width="100%"
      height={bars.length * ROW}
      preserveAspectRatio="xMinYMid meet"
      role="img"
      aria-label={bars.map((b) => `${b.label} ${b.text}`).join(', ')}
      className="max-w-[30rem]"
    >
      {bars.map((b, i) => {
        const y = i * ROW;
        const w = Math.max(b.fraction > 0 ? 2 : 0, Math.min(1, Math.max(0, b.fraction)) * track);
        return (
          <g key={b.key} data-bar={b.key}>
            <text x={0} y={y + 11.5} fontSize="11" fill="var(--muted)">
              {b.label}
            </text>
            <rect x={LABEL_W} y={y + 3} width={track} height={9} rx={3} fill="var(--sunken)" />
            <rect x={LABEL_W} y={y + 3} width={w} height={9} rx={3} fill={b.color} />
            <text x={LABEL_W + track + 6} y={y + 11.5} fontSize="11" fill="var(--fg)" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {b.text}
            </text>
          </g>
        );
      })}
    </svg>
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
