// Which of a few known words a mistyped one most likely means: a config key misspelt in a file
// (config/misspelt-keys.ts), a workspace id or name mistyped after --workspace (workspace/unknown.ts),
// a command mistyped after engram (cli/main.ts).
// One rule for both, so "did you mean" means the same everywhere. Pure.

/**
 * Edits between two short strings: insert, delete, substitute, or swap two neighbouring letters (the
 * commonest slip: lsit for list is one edit, not two, so it is not taken for edit). Pure.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the optimal-string-alignment table: the one two back is needed for a swap.
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (twoBack[j - 2] as number) + 1);
      current.push(d);
    }
    [twoBack, previous] = [previous, current];
  }
  return previous[b.length] as number;
}

/**
 * The known word `word` most likely means: the same but for case, or within two edits of a word of
 * four letters or more (a shorter one is too near too many others to guess); null when none is.
 */
export function nearestSpelling(word: string, known: readonly string[]): string | null {
  const lower = word.toLowerCase();
  const sameButCase = known.find((k) => k.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  if (word.length < 4) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}
