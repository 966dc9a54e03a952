// Pure helpers for the settings draft: read/write dotted paths, find what changed, build the patch.
// The patch carries only changed leaves; the engine computes the delta against the deploy base.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function getAt(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const key of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export function setAt<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const src: Obj = isObj(obj) ? obj : {};
  return { ...src, [head]: rest.length ? setAt(src[head], rest.join('.'), value) : value } as T;
}

export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function changedPaths(draft: unknown, original: unknown, paths: readonly string[]): string[] {
  return paths.filter((p) => !sameValue(getAt(draft, p), getAt(original, p)));
}

export function buildPatch(draft: unknown, paths: readonly string[]): Obj {
  let patch: Obj = {};
  for (const p of paths) patch = setAt(patch, p, getAt(draft, p));
  return patch;
}

/** Lines editor ⇄ string[]: blank lines dropped, each line trimmed. */
export const linesToList = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Alias group editor ⇄ string[]: comma (ASCII or CJK) separated. */
export const groupToList = (text: string): string[] =>
  text
    .split(/[,，、]/)
    .map((s) => s.trim())
    .filter(Boolean);
