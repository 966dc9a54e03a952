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

const IGNORED = /[\s\p{P}\p{S}]+/gu;

/** The set of hashed character shingles of a text (whitespace and punctuation ignored, case folded). */
export function shingles(text: string, size = SHINGLE_CHARS): Set<number> {
  const chars = [...text.toLowerCase().replace(IGNORED, '')];
  const out = new Set<number>();
  if (chars.length === 0) return out;
  if (chars.length <= size) {
    out.add(hash(chars.join('')));
    return out;
  }
  for (let i = 0; i + size <= chars.length; i++) out.add(hash(chars.slice(i, i + size).join('')));
  return out;
}

/** FNV-1a over UTF-16 units: collisions only merge two shingles, which a similarity of hundreds tolerates. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** True when `a` and `b` are near duplicates (see the module comment). */
export function nearDuplicate(a: Set<number>, b: Set<number>, minContainment = MIN_CONTAINMENT, minLengthRatio = MIN_LENGTH_RATIO): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0 || small.size < minLengthRatio * large.size) return false;
  const need = Math.ceil(minContainment * small.size);
  let shared = 0;
  let left = small.size;
  for (const s of small) {
    if (large.has(s)) shared++;
    left--;
    if (shared >= need) return true;
    if (shared + left < need) return false;
  }
  return false;
}

export interface DuplicateGroup {
  /** The members' ids in the order they were given (the first is the group's representative). */
  members: string[];
}

/**
 * Groups `items` into near-duplicate groups (single link: a copy that dropped one sentence and another
 * that dropped a different one are one group through the original). Only groups of two or more are
 * returned, each in input order; an item in no group is unique.
 */
export function nearDuplicateGroups(items: { id: string; text: string }[], opts: { minContainment?: number; minLengthRatio?: number } = {}): DuplicateGroup[] {
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
      if (root(i) === root(j)) continue;
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
