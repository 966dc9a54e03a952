// Keys of a config file that misspell a setting. The schema drops a key it does not know, so
// {"recall":{"kbase":5}} ran with the default kBase and said nothing. A key like no setting (one from
// another tool, or an option an older version had) is left alone: refusing it would break a config
// that worked. Pure.

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

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
 * Each key of `raw` the settings (`defaults`, the parsed defaults: every section and setting) do not
 * have but that likely means one of them, as [the path written, the path meant], section by section.
 */
export function misspeltKeys(raw: Record<string, unknown>, defaults: Record<string, unknown>, at: string[] = []): [string, string][] {
  const out: [string, string][] = [];
  const known = Object.keys(defaults);
  for (const [key, value] of Object.entries(raw)) {
    if (key in defaults) {
      const section = defaults[key];
      // A section with settings of its own (not a free-form map, whose defaults are empty).
      if (isPlainObject(value) && isPlainObject(section) && Object.keys(section).length > 0) out.push(...misspeltKeys(value, section, [...at, key]));
      continue;
    }
    const meant = meantKey(key, known);
    if (meant) out.push([[...at, key].join('.'), [...at, meant].join('.')]);
  }
  return out;
}
