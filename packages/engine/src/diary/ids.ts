// One document, one docId — but the outside world reaches documents by several identities (the
// docId, the relative path, the id embedded in the file name or front matter, its 8-char prefix).
// Every read path resolves through `resolveDocId` so that no caller compares ids its own way.
import { createHash } from 'node:crypto';

export type DocRoot = 'diary' | 'legacy';

export interface DocIdentity {
  id: string;
  root: string;
  path: string;
  embeddedId: string | null;
}

/** Stable id of a document: first 16 hex of sha1("root:path"), path with forward slashes. */
export function docIdFor(root: DocRoot | string, path: string): string {
  // The first 8 bytes as hex, not the 40-character hex sliced: a slice keeps its whole parent alive
  // (2.8 MB for 50,000 ids held by an index pass).
  return createHash('sha1').update(`${root}:${normalisePath(path)}`).digest().toString('hex', 0, 8);
}

/** Forward slashes, no leading "./" or "/". */
export function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/^\/+/, '');
}

/** Shortest prefix of an embedded id that is accepted as a reference (the file-name form). */
export const SHORT_ID_LENGTH = 8;

export type DocIdResolution =
  | { ok: true; id: string; via: 'docId' | 'path' | 'embeddedId' | 'fileName' }
  | { ok: false; reason: 'unknown' | 'ambiguous'; candidates: string[] };

/**
 * Resolves any identity of a document to its docId. Tried in order, each level must be unique:
 * docId → `root:path` or path → embedded id (exact, or one being an ≥8-char prefix of the other) →
 * bare file name. Several documents at one level is `ambiguous`, never a guess.
 */
export function resolveDocIdDetailed(query: string, docs: readonly DocIdentity[]): DocIdResolution {
  const q = typeof query === 'string' ? query.trim() : '';
  if (q === '') return { ok: false, reason: 'unknown', candidates: [] };

  const levels: [Exclude<DocIdResolution, { ok: false }>['via'], (d: DocIdentity) => boolean][] = [];
  const lower = q.toLowerCase();
  levels.push(['docId', (d) => d.id.toLowerCase() === lower]);

  const qualified = /^(diary|legacy):(.+)$/.exec(q);
  if (qualified) {
    const p = normalisePath(qualified[2]!);
    levels.push(['path', (d) => d.root === qualified[1] && normalisePath(d.path) === p]);
  } else {
    const p = normalisePath(q);
    levels.push(['path', (d) => normalisePath(d.path) === p]);
  }

  levels.push(['embeddedId', (d) => embeddedMatches(d.embeddedId, lower)]);
  if (!q.includes('/') && !q.includes('\\')) {
    levels.push(['fileName', (d) => baseName(d.path) === q]);
  }

  for (const [via, test] of levels) {
    const hits = unique(docs.filter(test).map((d) => d.id));
    if (hits.length === 1) return { ok: true, id: hits[0]!, via };
    if (hits.length > 1) return { ok: false, reason: 'ambiguous', candidates: hits };
  }
  return { ok: false, reason: 'unknown', candidates: [] };
}

/** The docId reachable by `query`, or null when unknown or ambiguous. */
export function resolveDocId(query: string, docs: readonly DocIdentity[]): string | null {
  const r = resolveDocIdDetailed(query, docs);
  return r.ok ? r.id : null;
}

function embeddedMatches(embedded: string | null, q: string): boolean {
  if (!embedded) return false;
  const e = embedded.toLowerCase();
  if (e === q) return true;
  // A full UUID query against the 8-char id in a file name, or an 8-char query against a full id.
  const eCompact = e.replace(/-/g, '');
  const qCompact = q.replace(/-/g, '');
  if (qCompact.length >= SHORT_ID_LENGTH && eCompact.startsWith(qCompact)) return true;
  // Only a full UUID may reach a shorter embedded id, so an unknown short id never matches by chance.
  if (/^[0-9a-f]{32}$/.test(qCompact) && eCompact.length >= SHORT_ID_LENGTH && qCompact.startsWith(eCompact)) return true;
  return false;
}

const baseName = (p: string): string => normalisePath(p).split('/').pop() ?? '';
const unique = (xs: string[]): string[] => [...new Set(xs)];
