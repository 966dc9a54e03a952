// Anchored-edit search: the linear KMP occurrence count (diary/edit.ts) against the indexOf loop it
// replaced, on the input shape that made indexOf quadratic (a long target that matches everywhere
// except in its middle, over a diary of near-repeats). Prints a table with the ratio per size.
//   node --import tsx packages/engine/bench/anchored-search.ts [--full]
// --full also times indexOf at 100k (≈ a minute or more: that is the bug).
import { anchoredReplace, occurrences } from '../src/diary/edit.ts';

function indexOfOccurrences(hay: string, needle: string, limit = 1000): number {
  let n = 0;
  for (let from = 0; n < limit; n++) {
    const at = hay.indexOf(needle, from);
    if (at < 0) break;
    from = at + 1;
  }
  return n;
}

const time = (fn: () => unknown): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

const full = process.argv.includes('--full');
const hay = [...'a'.repeat(450_000)].join(''); // a flat string, as a file read gives
const rows: string[][] = [['target chars', 'diary chars', 'indexOf ms', 'KMP ms', 'ratio', 'anchoredReplace ms (3 levels)']];
for (const m of [2_000, 10_000, 20_000, 100_000]) {
  const target = `${'a'.repeat(m / 2)}b${'a'.repeat(m / 2 - 1)}`;
  const kmp = time(() => occurrences(hay, target));
  const native = m <= 20_000 || full ? time(() => indexOfOccurrences(hay, target)) : NaN;
  const whole = time(() => anchoredReplace(hay, target, 'x', 15));
  rows.push([String(m), String(hay.length), Number.isNaN(native) ? '(--full)' : native.toFixed(0), kmp.toFixed(1), Number.isNaN(native) ? '—' : `${(native / kmp).toFixed(0)}×`, whole.toFixed(0)]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padStart(widths[i]!)).join('  '));
