// Pure helpers for the settings overlay: deep merge, deltas against the deploy base, secret masking.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

export const isPlainObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Objects merge key by key; arrays and scalars from `patch` replace. `undefined` in patch is ignored. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    out[k] = isPlainObject(out[k]) && isPlainObject(v) ? deepMerge(out[k], v) : v;
  }
  return out as T;
}

/** The part of `next` that differs from `base` (objects recursed, arrays compared whole). */
export function deltaAgainst(base: unknown, next: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(next)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(next)) {
      const d = deltaAgainst(base[k], v);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return JSON.stringify(base) === JSON.stringify(next) ? undefined : next;
}

export const MASK = '••••••••';

export const isMasked = (v: unknown): boolean => typeof v === 'string' && v.length > 0 && /^•+$/.test(v);

export function getPath(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[p];
  }
  return cur;
}

/** Returns a copy with `path` set (creating objects on the way) or removed when value is undefined. */
export function withPath<T>(obj: T, path: readonly string[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path as [string, ...string[]];
  const src: Obj = isPlainObject(obj) ? obj : {};
  const out: Obj = { ...src };
  const child = withPath(src[head], rest, value);
  if (child === undefined || (isPlainObject(child) && Object.keys(child).length === 0 && rest.length > 0)) delete out[head];
  else out[head] = child;
  return out as T;
}

/** Replaces non-empty secrets with the mask, for anything sent to a browser or printed. */
export function maskSecrets<T>(obj: T, paths: readonly (readonly string[])[]): T {
  let out = obj;
  for (const p of paths) {
    const v = getPath(out, p);
    if (typeof v === 'string' && v.length > 0) out = withPath(out, p, MASK);
  }
  return out;
}

/** Drops masked secrets from an incoming patch so a masked echo never overwrites the real value. */
export function stripMaskedSecrets<T>(patch: T, paths: readonly (readonly string[])[]): T {
  let out = patch;
  for (const p of paths) if (isMasked(getPath(out, p))) out = withPath(out, p, undefined);
  return out;
}
