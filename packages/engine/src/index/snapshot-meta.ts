// The lexical snapshot's bookkeeping: what a snapshot was built from (the generation and each
// document's version), reading that back lazily, which documents changed since, where the file lives,
// and saving the index a full pass built.
import { filePathOfUrl } from '@engram/db';
import type { LexicalIndex, LexicalOptions } from '../lexical/bm25.ts';
import { Deferred, JsonList, JsonStrings, writeLexicalSnapshot, type SnapshotPart, type SnapshotSection } from '../lexical/snapshot.ts';
import type { StoredRowsBuilder } from './stored-rows.ts';

/** What a lexical snapshot was built from: the generation and each document's version. */
export interface SnapshotMeta {
  generation: number;
  /** docId → documentVersion() of the rows the index holds. */
  versions: Record<string, string>;
}

export type VersionedDoc = { id: string; contentHash: string; indexedAt: string; archived: boolean };

/** A document's indexed version: a re-index, an edit or an archive changes it. */
export const documentVersion = (d: { contentHash: string; indexedAt: string; archived: boolean }) => `${d.contentHash}|${d.indexedAt}|${d.archived ? 1 : 0}`;

/**
 * The versions ride in two deferred sections, not in the header: at 50,000 documents they are
 * 4 MB of JSON, which as one header string sat on the peak of a full build, and an open at the same
 * generation or a few writes behind never reads them.
 */
export function versionSections(docs: readonly VersionedDoc[]): [string, SnapshotPart][] {
  return [
    ['versions.ids', new Deferred(new JsonStrings(docs.length, (i) => docs[i]!.id))],
    ['versions.values', new Deferred(new JsonStrings(docs.length, (i) => documentVersion(docs[i]!)))],
  ];
}

/**
 * A snapshot's header: the generation and count its versions are read with, and the terms its index
 * holds — the tokenizer key (text/tokenizer-check.ts) of the rows it was built from, as the index
 * manifest records it (null before any index pass).
 */
export const snapshotHeader = (generation: number, count: number, terms: string | null) => ({ generation, count, terms });

/**
 * Why a snapshot's index cannot serve, or null: it holds other terms than the rows now do. Its
 * documents' versions do not show that — a re-tokenising pass run with a fixed clock leaves every
 * version as it was — so an index of an older tokenizer's terms would be patched and trusted, and
 * queries tokenized anew would miss whatever it spells differently. `rowsTerms`: the manifest's key.
 */
export function snapshotTermsProblem(header: unknown, rowsTerms: string | null): string | null {
  const { terms } = (header ?? {}) as { terms?: unknown };
  if ((terms ?? null) === rowsTerms) return null;
  return `unusable: it holds the terms of ${typeof terms === 'string' ? terms : 'an unrecorded tokenizer'}, the rows those of ${rowsTerms ?? 'none yet'}`;
}

/**
 * The header's generation with the version sections, or null when they are missing or do not pair
 * up. The id → version record is built on first use: an open at the same generation, or a few
 * writes behind (the change log), never looks at it.
 */
export function snapshotMetaOf(header: unknown, extra: Map<string, SnapshotSection>): (SnapshotMeta & { count: number }) | null {
  const { generation, count } = (header ?? {}) as { generation?: unknown; count?: unknown };
  const ids = extra.get('versions.ids');
  const values = extra.get('versions.values');
  if (typeof generation !== 'number' || typeof count !== 'number' || !(ids instanceof JsonList) || !(values instanceof JsonList)) return null;
  let versions: Record<string, string> | null = null;
  return {
    generation,
    count,
    get versions() {
      if (versions) return versions;
      let keys: string[], list: string[];
      try {
        [keys, list] = [ids.list(), values.list()];
      } catch {
        return (versions = {}); // a damaged section: every document then reads as changed, and the load rebuilds
      }
      versions = {};
      if (keys.length !== count || list.length !== count) return versions; // every document then reads as changed
      for (let i = 0; i < keys.length; i++) versions[keys[i]!] = list[i]!;
      return versions;
    },
  };
}

/**
 * Whether the index holds only live documents of `docs`: checked before a snapshot is written, so
 * an index that disagrees with its rows (a faulty build) is never saved for others to trust.
 */
export function holdsOnlyLive(index: LexicalIndex, docs: readonly VersionedDoc[]): boolean {
  // Counted, not compared as two sets: the check runs at the top of a full pass's peak, where two
  // sets of 50,000 ids were a few MB. With ids unique in `docs`, the index holds only live documents
  // exactly when every document it holds is one of the live ones it finds.
  let heldLive = 0;
  for (const d of docs) if (!d.archived && index.chunkCountOf(d.id) > 0) heldLive++;
  return heldLive === index.liveDocCount();
}

/**
 * The documents of `current` whose version differs from the held one (or that are not held), then
 * the held ones `current` no longer has: what a load or a refresh must read again.
 */
export function changedDocuments(current: Iterable<{ id: string; contentHash: string; indexedAt: string; archived: boolean }>, heldVersion: (id: string) => string | undefined, heldIds: Iterable<string>): string[] {
  const seen = new Set<string>();
  const changed: string[] = [];
  for (const d of current) {
    seen.add(d.id);
    if (heldVersion(d.id) !== documentVersion(d)) changed.push(d.id);
  }
  for (const id of heldIds) if (!seen.has(id)) changed.push(id);
  return changed;
}

/** How the last load got its lexical index (tests and benchmarks read it). */
export type LoadSource = { kind: 'rebuilt'; reason: string } | { kind: 'snapshot'; patched: number };

/** The lexical snapshot of a database: next to an embedded database file; none for a remote or in-memory one. */
export function snapshotPathOf(databaseUrl: string): string | null {
  const file = filePathOfUrl(databaseUrl);
  return file === null ? null : `${file}.lexical`;
}

/**
 * Saves a lexical index built by a full index pass as the snapshot, so the load that follows the
 * pass maps it instead of reading every row back (best effort, like every snapshot write).
 */
export function saveBuiltSnapshot(databaseUrl: string, lexical: LexicalIndex, options: LexicalOptions, docs: VersionedDoc[], generation: number, terms: string | null, rows?: StoredRowsBuilder): void {
  const path = snapshotPathOf(databaseUrl);
  if (path === null) return;
  if (!holdsOnlyLive(lexical, docs)) return;
  try {
    // With the rows, the first command after the pass opens like any later one.
    const rowParts = rows && rows.size === docs.length ? rows.sections() : [];
    writeLexicalSnapshot(path, lexical, options, snapshotHeader(generation, docs.length, terms), [...versionSections(docs), ...rowParts]);
  } catch {
    // The load after the pass rebuilds instead.
  }
}
