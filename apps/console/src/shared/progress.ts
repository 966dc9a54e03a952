// Index progress → one 0–100 number for the bar. Phases take fixed shares of the bar, so the bar only
// ever moves forward even though each phase counts its own units. The shares follow where a lexical
// rebuild spends its time (2,000 memories: reading + parsing the files ≈ 45 %, storing ≈ 40 %);
// with embeddings on, the embed phase gets the last fifth.
export type ProgressPhase = 'scan' | 'parse' | 'tokenize' | 'store' | 'embed' | 'done';

const SPANS: Record<ProgressPhase, [number, number]> = {
  scan: [0, 40],
  parse: [40, 45],
  tokenize: [45, 50],
  store: [50, 80],
  embed: [80, 99],
  done: [100, 100],
};

export function progressPercent(p: { phase: ProgressPhase; done: number; total: number }): number {
  const [from, to] = SPANS[p.phase] ?? [0, 0];
  if (p.phase === 'done') return 100;
  const fraction = p.total > 0 ? Math.min(1, Math.max(0, p.done / p.total)) : 0;
  return Math.round(from + (to - from) * fraction);
}

/** One line of the NDJSON rebuild stream. */
export type RebuildEvent =
  | { type: 'progress'; phase: ProgressPhase; done: number; total: number; message?: string; percent: number }
  | { type: 'done'; percent: 100; report: unknown }
  | { type: 'error'; code: string; message: string };
