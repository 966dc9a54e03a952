// The document rows, stored in the lexical snapshot beside the index, so a one-shot command (an
// `engram write` at 5,000 memories) does not list the whole documents table: it decodes the rows it
// touches, and what a write checks for every memory (title, workspace, archived, supersedes) is
// looked up column by column. Each row is its own JSON array, found by an offset table.
import { documentColumns, type DocumentRow } from '@engram/db';
import { normaliseTitle } from '../diary/parse.ts';
import { crc32 } from 'node:zlib';
import { Deferred, JsonList, JsonStrings, type DeferredSection, type SnapshotPart, type SnapshotSection } from '../lexical/snapshot.ts';
import { concatenated, TermTable, type PackedTerms } from '../lexical/terms.ts';

/**
 * What a write checks against every memory, stored column by column so that nothing is parsed for
 * it: the title key of each row in a hash table (is this title taken in this scope?), its workspace
 * and archived flag, and the pairs (new, old) of live memories that supersede another.
 * The title key is normaliseTitle's, computed when written (NFKC and friends over 5,000 titles was
 * a tenth of a one-shot write): a change to normaliseTitle needs a new SNAPSHOT_FORMAT.
 */
export function rowSections(docs: DocumentRow[]): [string, SnapshotPart][] {
  const columns = documentColumns();
  const encoded = docs.map((d) => Buffer.from(JSON.stringify(columns.map((c) => (d as unknown as Record<string, unknown>)[c])), 'utf8'));
  const { bytes: data, offsets } = concatenated(encoded);
  // The rows are read one at a time, after open, so each guards itself.
  const checks = Int32Array.from(encoded, (b) => (b.length > 0 ? crc32(b) : 0) | 0);
  const titles = TermTable.pack(docs.map((d) => normaliseTitle(d.title)));
  const workspaces = [...new Set(docs.map((d) => d.workspace))];
  const workspaceIndex = new Map(workspaces.map((w, i) => [w, i]));
  const supersedes: string[] = [];
  for (const d of docs) if (!d.archived) for (const old of d.supersedes) if (old !== d.id) supersedes.push(d.id, old);
  return [
    ['rows.columns', columns],
    ...packedSections('rows.ids', TermTable.pack(docs.map((d) => d.id))),
    ['rows.offsets', offsets],
    ['rows.data', new Deferred(data)],
    ['rows.crc', checks],
    ...packedSections('rows.titles', titles),
    ['rows.archived', Uint8Array.from(docs, (d) => (d.archived ? 1 : 0))],
    ['rows.workspaceOf', Int32Array.from(docs, (d) => workspaceIndex.get(d.workspace)!)],
    ['rows.workspaces', workspaces],
    ['rows.supersedes', supersedes],
    // The manifest check of an open (is each diary file as indexed?) without listing the table.
    ['rows.files', new Deferred(new JsonStrings(docs.length, (i) => `${docs[i]!.root}:${docs[i]!.path}`))],
    ['rows.sizes', Float64Array.from(docs, (d) => d.size)],
    ['rows.mtimes', Float64Array.from(docs, (d) => d.mtimeMs)],
  ];
}

const packedSections = (name: string, p: PackedTerms): [string, SnapshotPart][] => [
  [`${name}.text`, p.text],
  [`${name}.offsets`, p.offsets],
  [`${name}.slots`, p.slots],
];

/** A packed table from its three sections, or null when they are missing or do not hold together. */
function packedFrom(extra: Map<string, SnapshotSection | SnapshotPart>, name: string): TermTable | null {
  const [text, offsets, slots] = [extra.get(`${name}.text`), extra.get(`${name}.offsets`), extra.get(`${name}.slots`)];
  if (!(text instanceof Uint8Array) || !(offsets instanceof Int32Array) || !(slots instanceof Int32Array)) return null;
  try {
    return TermTable.fromPacked({ text, offsets, slots });
  } catch {
    return null;
  }
}

/** A list of strings as written (an array) or as read back (parsed on first use); null when it is neither. */
function stringsOf(v: SnapshotSection | SnapshotPart | undefined): (() => string[]) | null {
  if (Array.isArray(v)) return () => v;
  if (v instanceof JsonList) return () => v.list();
  if (v instanceof Deferred && v.json) return () => new JsonList(v.bytes, 'rows').list();
  return null;
}

/** A stored row that could not be read back (a damaged or vanished snapshot): its owner reloads from the database. */
export class StoredRowDamaged extends Error {}

const isDeferredSection = (v: unknown): v is DeferredSection =>
  typeof v === 'object' && v !== null && typeof (v as DeferredSection).read === 'function' && typeof (v as DeferredSection).byteLength === 'number';

/** Rows read back from a snapshot's sections, decoded one at a time on demand. */
export class StoredRows {
  /** Rows decoded so far (tests and benchmarks check that a one-shot command decodes a handful). */
  decoded = 0;

  private constructor(
    /** The rows' ids: a hash table, so finding a row builds nothing. */
    private readonly idTable: TermTable,
    private readonly columns: string[],
    private readonly offsets: Int32Array,
    private readonly data: Pick<DeferredSection, 'read'>,
    private readonly checks: Int32Array,
    private readonly titles: TermTable,
    private readonly archived: Uint8Array,
    private readonly workspaceOf: Int32Array,
    private readonly workspaces: string[],
    private readonly supersedes: string[],
    private readonly files: { keys: () => string[]; sizes: Float64Array; mtimes: Float64Array },
  ) {}

  /** The rows in `extra`, or null when there are none, they were stored with other columns (another schema), or a table does not fit. */
  static from(extra: Map<string, SnapshotSection | SnapshotPart>): StoredRows | null {
    const get = (name: string) => extra.get(`rows.${name}`);
    const stored = get('data');
    const data: (Pick<DeferredSection, 'read'> & { byteLength: number }) | null =
      stored instanceof Deferred ? { byteLength: stored.bytes.length, read: (o, l) => Buffer.from(stored.bytes.buffer, stored.bytes.byteOffset + o, l) } : isDeferredSection(stored) ? stored : null;
    const [offsets, checks, archived, workspaceOf, sizes, mtimes] = [get('offsets'), get('crc'), get('archived'), get('workspaceOf'), get('sizes'), get('mtimes')];
    const [columnsOf, workspacesOf, supersedesOf, keys] = [stringsOf(get('columns')), stringsOf(get('workspaces')), stringsOf(get('supersedes')), stringsOf(get('files'))];
    if (!data || !(offsets instanceof Int32Array) || !(checks instanceof Int32Array) || !(archived instanceof Uint8Array) || !(workspaceOf instanceof Int32Array)) return null;
    if (!(sizes instanceof Float64Array) || !(mtimes instanceof Float64Array) || !columnsOf || !workspacesOf || !supersedesOf || !keys) return null;
    const ids = packedFrom(extra, 'rows.ids');
    const titles = packedFrom(extra, 'rows.titles');
    if (!ids || !titles) return null;
    let columns: string[], workspaces: string[], supersedes: string[];
    try {
      [columns, workspaces, supersedes] = [columnsOf(), workspacesOf(), supersedesOf()];
    } catch {
      return null;
    }
    const ours = documentColumns();
    if (columns.length !== ours.length || columns.some((c, i) => c !== ours[i])) return null;
    const n = ids.size;
    if (offsets.length !== n + 1 || offsets[0] !== 0 || offsets[n] !== data.byteLength || checks.length !== n) return null;
    for (let i = 0; i < n; i++) if (offsets[i + 1]! < offsets[i]!) return null;
    if (archived.length !== n || workspaceOf.length !== n || titles.size !== n || supersedes.length % 2 !== 0 || sizes.length !== n || mtimes.length !== n) return null;
    for (let i = 0; i < n; i++) if (workspaceOf[i]! < 0 || workspaceOf[i]! >= workspaces.length) return null;
    return new StoredRows(ids, columns, offsets, data, checks, titles, archived, workspaceOf, workspaces, supersedes, { keys, sizes, mtimes });
  }

  get size(): number {
    return this.idTable.size;
  }

  /** The id of row `i`. */
  idAt(i: number): string {
    return this.idTable.termAt(i);
  }

  /** Every row's id, in order. */
  ids(): string[] {
    return this.idTable.list();
  }

  indexOf(id: string): number | undefined {
    return this.idTable.get(id);
  }

  /** Row `i`, read from the snapshot file; throws StoredRowDamaged when it cannot be read or does not check out. */
  row(i: number): DocumentRow {
    let bytes: Buffer;
    try {
      bytes = this.data.read(this.offsets[i]!, this.offsets[i + 1]! - this.offsets[i]!);
    } catch (e) {
      throw new StoredRowDamaged(`stored row ${i}: ${(e as Error).message}`);
    }
    return this.decode(i, bytes);
  }

  /** Every row, in one read of the section. */
  all(): DocumentRow[] {
    let bytes: Buffer;
    try {
      bytes = this.data.read(0, this.offsets[this.size]!);
    } catch (e) {
      throw new StoredRowDamaged(`stored rows: ${(e as Error).message}`);
    }
    const out: DocumentRow[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.decode(i, bytes.subarray(this.offsets[i]!, this.offsets[i + 1]!)));
    return out;
  }

  private decode(i: number, bytes: Buffer): DocumentRow {
    this.decoded++;
    let values: unknown;
    try {
      if (((bytes.length > 0 ? crc32(bytes) : 0) | 0) !== this.checks[i]) throw new Error('checksum mismatch');
      values = JSON.parse(bytes.toString('utf8'));
    } catch (e) {
      throw new StoredRowDamaged(`stored row ${i}: ${(e as Error).message}`);
    }
    if (!Array.isArray(values) || values.length !== this.columns.length) throw new StoredRowDamaged(`stored row ${i} has the wrong shape`);
    const out: Record<string, unknown> = {};
    for (let c = 0; c < this.columns.length; c++) out[this.columns[c]!] = values[c];
    return out as unknown as DocumentRow;
  }

  /** The rows (by position) of live memories titled `titleKey` (normalised) in a workspace `visible` accepts. */
  liveWithTitle(titleKey: string, visible: (workspace: string) => boolean): number[] {
    return this.titles.packedMatches(titleKey).filter((i) => this.archived[i] === 0 && visible(this.workspaces[this.workspaceOf[i]!]!));
  }

  /** Each row's file as indexed: `root:path` → (size, mtime), by position. */
  *indexedFiles(): Generator<[number, string, { size: number; mtimeMs: number }]> {
    const { sizes, mtimes } = this.files;
    const keys = this.files.keys();
    for (let i = 0; i < keys.length; i++) yield [i, keys[i]!, { size: sizes[i]!, mtimeMs: mtimes[i]! }];
  }

  /** (new, old) for every old memory a live one supersedes, in listing order. */
  *supersessions(): Generator<[string, string]> {
    for (let i = 0; i < this.supersedes.length; i += 2) yield [this.supersedes[i]!, this.supersedes[i + 1]!];
  }
}
