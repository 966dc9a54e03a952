// Index progress → one 0–100 number for the bar. Phases take fixed shares of the bar, so the bar only
// ever moves forward even though each phase counts its own units. Since the pass streams the folder
// (list it, then read + parse + tokenize + store 100 files at a time), listing is a blink and the
// store phase is where the files are read: it gets most of the bar; with embeddings on, the embed
// phase gets the last fifth. (parse / tokenize are kept for older engines that still report them.)
export type ProgressPhase = 'scan' | 'parse' | 'tokenize' | 'store' | 'embed' | 'done';

const SPANS: Record<ProgressPhase, [number, number]> = {
  scan: [0, 3],
  parse: [3, 3],
  tokenize: [3, 3],
  store: [3, 80],
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
