// The shape every settings patch must have before anything walks it recursively: bounded depth and
// size (a patch nested 10,000 deep overflowed the stack; 1,000 deep was stored as junk), and only
// keys the schema knows (an unknown key was stored and could never be removed). Iterative on purpose.
import { EngramError } from '../errors.ts';
import { configSchema } from './schema.ts';

/** Deepest real setting is 4 levels (compaction.assist.mode); arrays of objects add two. */
export const MAX_PATCH_DEPTH = 8;
/** Values (objects, arrays, scalars) in one patch. */
export const MAX_PATCH_NODES = 100_000;
/** Characters of all strings and keys in one patch. */
export const MAX_PATCH_CHARS = 2_000_000;

type Obj = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
let defaults: Obj | undefined;
/** The config's default shape: a key is known when it is there (every setting has a default). */
export const configShape = (): Obj => (defaults ??= configSchema.parse({}) as unknown as Obj);

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Throws `bad-input` when the patch is too deep or too large. Never recurses. */
export function checkPatchSize(patch: unknown): void {
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: patch, depth: 0, path: '' }];
  let nodes = 0;
  let chars = 0;
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    nodes++;
    if (nodes > MAX_PATCH_NODES) throw new EngramError('bad-input', `settings patch has more than ${MAX_PATCH_NODES.toLocaleString('en')} values`);
    if (typeof v === 'string') chars += v.length;
    if (chars > MAX_PATCH_CHARS) throw new EngramError('bad-input', `settings patch is larger than ${MAX_PATCH_CHARS.toLocaleString('en')} characters`);
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_PATCH_DEPTH) throw new EngramError('bad-input', `settings patch is nested deeper than ${MAX_PATCH_DEPTH} levels (at ${path.slice(0, 200) || '(root)'})`);
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v as Obj);
    for (const [k, x] of entries) {
      chars += k.length;
      stack.push({ v: x, depth: depth + 1, path: path ? `${path}.${k}` : k });
    }
  }
}

/** Paths of keys in `patch` the schema does not know (objects walked only where the schema has objects). */
export function unknownPaths(patch: Obj, known: Obj = configShape()): string[] {
  const out: string[] = [];
  const stack: { p: Obj; k: Obj; prefix: string }[] = [{ p: patch, k: known, prefix: '' }];
  while (stack.length) {
    const { p, k, prefix } = stack.pop()!;
    for (const [key, value] of Object.entries(p)) {
      if (UNSAFE_KEYS.has(key)) continue; // skipped by every consumer
      const path = prefix ? `${prefix}.${key}` : key;
      if (!Object.hasOwn(k, key)) out.push(path);
      else if (isPlainObject(k[key]) && isPlainObject(value)) stack.push({ p: value, k: k[key] as Obj, prefix: path });
    }
  }
  return out.sort();
}

/** A copy of a stored overlay without the keys the schema does not know (junk saved by older builds). */
export function pruneUnknown(overlay: Obj, known: Obj = configShape()): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(overlay)) {
    if (UNSAFE_KEYS.has(key) || !Object.hasOwn(known, key)) continue;
    if (isPlainObject(known[key]) && isPlainObject(value)) {
      const inner = pruneUnknown(value, known[key] as Obj);
      if (Object.keys(inner).length) out[key] = inner;
    } else out[key] = value;
  }
  return out;
}

/**
 * Throws `bad-input` unless the patch has a sane size and only known keys. An unknown key whose value
 * is null names something to remove (junk an older build stored) and is allowed.
 */
export function checkPatchShape(patch: Obj): void {
  checkPatchSize(patch);
  const unknown = unknownPaths(patch).filter((p) => {
    let cur: unknown = patch;
    for (const part of p.split('.')) cur = isPlainObject(cur) ? cur[part] : undefined;
    return cur !== null;
  });
  if (unknown.length) {
    const shown = unknown.slice(0, 5).map((p) => p.slice(0, 120)).join(', ');
    throw new EngramError('bad-input', `unknown setting${unknown.length > 1 ? 's' : ''}: ${shown}${unknown.length > 5 ? ` (+${unknown.length - 5} more)` : ''}`);
  }
}
