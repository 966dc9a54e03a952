// Keys of a config file that misspell a setting. The schema drops a key it does not know, so
// {"recall":{"kbase":5}} ran with the default kBase and said nothing. A key like no setting (one from
// another tool, or an option an older version had) is left alone: refusing it would break a config
// that worked. Pure.
import { getPath, isPlainObject } from './merge.ts';
import { configShape, unknownPaths } from './patch-shape.ts';

/** Edits (insert, delete, substitute) between two short strings. */
function editDistance(a: string, b: string): number {
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

/** The known key `key` most likely means: the same but for case, or within two edits of a key of four letters or more. */
function meantKey(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  const sameButCase = known.find((k) => k.toLowerCase() === lower);
  if (sameButCase) return sameButCase;
  if (key.length < 4) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/**
 * Each key of `raw` the settings (`known`, the config's default shape: every section and setting) do
 * not have but that likely means a setting beside it, as [the path written, the path meant]. The keys
 * the settings lack are those patch-shape.ts unknownPaths finds (a free-form map has no settings to mean).
 */
export function misspeltKeys(raw: Record<string, unknown>, known: Record<string, unknown> = configShape()): [string, string][] {
  return unknownPaths(raw, known).flatMap((path): [string, string][] => {
    const section = path.split('.');
    const key = section.pop() as string;
    const siblings = getPath(known, section);
    const meant = isPlainObject(siblings) ? meantKey(key, Object.keys(siblings)) : null;
    return meant ? [[path, [...section, meant].join('.')]] : [];
  });
}
