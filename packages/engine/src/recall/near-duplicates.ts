// Near-duplicate notes among a recall's candidates. A memory store repeats itself (daily notes, re-
// imports, the agent noting the same preference again): copies of one fact must count once when the
// gates ask how rare a word is, and show once in the top-k ("also noted N times"). Two texts are near
// duplicates when most of the shorter one's character shingles are in the longer one and the two are
// of comparable length (a copy with a sentence dropped is; a one-line note inside a long diary is
// not). Over a recall's candidate pool (tens of chunks) exact shingle sets are cheap. Pure.

/** Characters per shingle: three CJK characters are about a word and a half; Latin text is folded to lower case. */
export const SHINGLE_CHARS = 3;
/** Share of the shorter text's shingles the longer one must hold. */
export const MIN_CONTAINMENT = 0.8;
/** The shorter text's shingles must be at least this share of the longer one's. */
export const MIN_LENGTH_RATIO = 0.5;

/** Whitespace, ASCII and CJK/full-width punctuation: not part of a shingle. */
function ignored(c: number): boolean {
  if (c < 0x80) return !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a));
  return (c >= 0x2000 && c <= 0x206f) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || (c >= 0xff5b && c <= 0xff65) || c === 0xa0;
}

/**
 * The sorted, distinct hashed character shingles of a text (whitespace and punctuation ignored, Latin
 * case folded). Hashes are kept to 30 bits so they stay small integers; a collision only merges two
 * shingles, which a similarity over hundreds of them tolerates.
 */
export function shingles(text: string, size = SHINGLE_CHARS): Int32Array {
  const cps: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let c = text.codePointAt(i) as number;
    if (c > 0xffff) i++;
    if (ignored(c)) continue;
    if (c >= 0x41 && c <= 0x5a) c += 32;
    cps.push(c);
  }
  if (cps.length === 0) return new Int32Array(0);
  const n = Math.max(1, cps.length - size + 1);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < Math.min(cps.length, i + size); j++) h = Math.imul(h ^ (cps[j] as number), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    out[i] = h & 0x3fffffff;
  }
  out.sort();
  let w = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[w - 1]) out[w++] = out[i] as number;
  return out.subarray(0, w);
}

/** True when `a` and `b` (from shingles()) are near duplicates (see the module comment). */
export function nearDuplicate(a: Int32Array, b: Int32Array, minContainment = MIN_CONTAINMENT, minLengthRatio = MIN_LENGTH_RATIO): boolean {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  if (small.length === 0 || small.length < minLengthRatio * large.length) return false;
  const need = Math.ceil(minContainment * small.length);
  const allowedMisses = small.length - need;
  let shared = 0;
  let misses = 0;
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    const x = small[i] as number;
    while (j < large.length && (large[j] as number) < x) j++;
    if (j < large.length && large[j] === x) {
      shared++;
      j++;
      if (shared >= need) return true;
    } else if (++misses > allowedMisses) return false;
  }
  return shared >= need;
}

export interface DuplicateGroup {
  /** The members' ids in the order they were given (the first is the group's representative). */
  members: string[];
}

/**
 * Groups `items` into near-duplicate groups (single link: a copy that dropped one sentence and another
 * that dropped a different one are one group through the original). Only groups of two or more are
 * returned, each in input order; an item in no group is unique. Items of different `layer`s (a
 * workspace's memory and a global one) are never grouped: each layer keeps its own note.
 */
export function nearDuplicateGroups(items: { id: string; text: string; layer?: string }[], opts: { minContainment?: number; minLengthRatio?: number } = {}): DuplicateGroup[] {
  const sets = items.map((x) => shingles(x.text));
  const parent = items.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) {
      if (root(i) === root(j) || items[i]!.layer !== items[j]!.layer) continue;
      if (nearDuplicate(sets[i]!, sets[j]!, opts.minContainment, opts.minLengthRatio)) parent[Math.max(root(i), root(j))] = Math.min(root(i), root(j));
    }
  const byRoot = new Map<number, string[]>();
  items.forEach((x, i) => {
    const r = root(i);
    const list = byRoot.get(r);
    if (list) list.push(x.id);
    else byRoot.set(r, [x.id]);
  });
  return [...byRoot.values()].filter((m) => m.length > 1).map((members) => ({ members }));
}

/** Each grouped id's group, by its index in `groups` (nearDuplicateGroups' members); ids in no group are absent. */
export function groupIndexOf(groups: readonly (readonly string[])[]): Map<string, number> {
  const index = new Map<string, number>();
  groups.forEach((g, i) => g.forEach((id) => index.set(id, i)));
  return index;
}

/** Whether two ids are in one of `groups`; an id is in its own group. */
export function sameGroupOf(groups: readonly (readonly string[])[]): (a: string, b: string) => boolean {
  const index = groupIndexOf(groups);
  return (a, b) => a === b || (index.has(a) && index.get(a) === index.get(b));
}
