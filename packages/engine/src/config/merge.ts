// Pure helpers for the settings overlay: deep merge, deltas against the deploy base, secret masking.
import { displayUrl } from '@engram/db/reachability';
import { hasUrlCredentials, withoutUrlCredentials } from '../net/url-credentials.ts';
import { checkPatchShape, pruneUnknown } from './patch-shape.ts';

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

/**
 * The database URL as it may be shown (Settings, Index, status): libSQL reads an auth token from the
 * URL itself (?authToken=…, the form Turso hands out), so a server URL loses its userinfo and query; a
 * file URL is a path on this machine and stays.
 */
export const shownDatabaseUrl = (url: string): string => (url.startsWith('file:') ? url : displayUrl(url));

/**
 * `maskSecrets` with `secretPaths`, the database URL as shownDatabaseUrl and the endpoints' URLs without
 * a user name or password: a config as the browser may see it.
 */
export function maskForDisplay<T>(obj: T, paths: readonly (readonly string[])[]): T {
  let masked = maskSecrets(obj, paths);
  const url = getPath(masked, ['databaseUrl']);
  if (typeof url === 'string' && url.length > 0) masked = withPath(masked, ['databaseUrl'], shownDatabaseUrl(url));
  for (const section of KEYED_ENDPOINTS) {
    const baseUrl = getPath(masked, [section, 'baseUrl']);
    if (typeof baseUrl === 'string' && hasUrlCredentials(baseUrl)) masked = withPath(masked, [section, 'baseUrl'], withoutUrlCredentials(baseUrl));
  }
  return masked;
}

/** Drops masked secrets from an incoming patch so a masked echo never overwrites the real value. */
export function stripMaskedSecrets<T>(patch: T, paths: readonly (readonly string[])[]): T {
  let out = patch;
  for (const p of paths) if (isMasked(getPath(out, p))) out = withPath(out, p, undefined);
  return out;
}

/** Keys that would reach an object's prototype (JSON.parse makes `__proto__` an own key); never a setting. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Leaf paths of a patch (arrays and empty objects are leaves), skipping prototype keys. */
export function* leaves(obj: Record<string, unknown>, prefix: string[] = []): Generator<[string[], unknown]> {
  for (const [k, v] of Object.entries(obj)) {
    if (UNSAFE_KEYS.has(k)) continue;
    if (isPlainObject(v) && Object.keys(v).length > 0) yield* leaves(v, [...prefix, k]);
    else yield [[...prefix, k], v];
  }
}

/** Where the data lives is fixed by the deploy base: the overlay itself is stored there. */
const BASE_ONLY = new Set(['dataDir', 'databaseUrl', 'databaseAuthToken']);

/**
 * The overlay after saving `patch`: each leaf equal to the deploy base is removed from the overlay,
 * any other leaf is set in it, env-locked and base-only paths are left alone, and everything else
 * in the previous overlay is kept (so save A → restart → save B keeps A). Pure.
 */
export function overlayAfterSave(
  previous: Record<string, unknown>,
  patch: Record<string, unknown>,
  base: unknown,
  lockedByEnv: readonly string[],
): Record<string, unknown> {
  checkPatchShape(patch);
  let next = pruneUnknown(previous);
  for (const [path, value] of leaves(patch)) {
    const key = path.join('.');
    if (BASE_ONLY.has(key) || lockedByEnv.includes(key)) continue;
    next = JSON.stringify(getPath(base, path)) === JSON.stringify(value) ? withPath(next, path, undefined) : withPath(next, path, value);
  }
  // Pruned again: an unknown key sent as null (to remove junk) must not be stored as null.
  return dropKeysOfMovedEndpoints(previous, patch, pruneUnknown(next), base);
}

/** The endpoints whose key is a secret: [section, key field]. */
export const KEYED_ENDPOINTS = ['embedding', 'judge'] as const;

/** Where a key of `section` would be sent: `provider baseUrl` (the judge has no provider). */
export function endpointOf(section: unknown): string {
  const s = isPlainObject(section) ? section : {};
  return `${typeof s.provider === 'string' ? s.provider : ''} ${typeof s.baseUrl === 'string' ? s.baseUrl.trim() : ''}`;
}

/**
 * A key is reused only with the provider and base URL it was stored for: when a save moves an
 * endpoint and brings no new key, a key the overlay held for the old endpoint is removed (a key from
 * env or the config file is dropped by `applyOverlay` while the endpoint differs from the base).
 */
function dropKeysOfMovedEndpoints(previous: Record<string, unknown>, patch: Record<string, unknown>, next: Record<string, unknown>, base: unknown): Record<string, unknown> {
  let out = next;
  for (const section of KEYED_ENDPOINTS) {
    const before = endpointOf(deepMerge(getPath(base, [section]) ?? {}, getPath(previous, [section]) ?? {}));
    const after = endpointOf(deepMerge(getPath(base, [section]) ?? {}, getPath(next, [section]) ?? {}));
    const newKey = getPath(patch, [section, 'apiKey']);
    const bringsKey = typeof newKey === 'string' && newKey !== '' && !isMasked(newKey);
    if (before !== after && !bringsKey) out = withPath(out, [section, 'apiKey'], undefined);
  }
  return out;
}
