// Which of a few known words a mistyped one most likely means: a config key misspelt in a file
// (config/misspelt-keys.ts), a workspace id or name mistyped after --workspace (workspace/unknown.ts).
// One rule for both, so "did you mean" means the same everywhere. Pure.

/** Edits (insert, delete, substitute) between two short strings. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
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
