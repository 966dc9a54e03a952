// The document rows, stored in the lexical snapshot beside the index, so a one-shot command (an
// `engram write` at 5,000 memories) does not list the whole documents table: it decodes the rows it
// touches, and what a write checks for every memory (title, workspace, archived, supersedes) is
// looked up column by column. Each row is its own JSON array, found by an offset table.
import { documentColumns, type DocumentRow } from '@engram/db';
import { normaliseTitle } from '../diary/parse.ts';
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Deferred, JsonList, JsonStrings, type ByteSource, type DeferredSection, type SnapshotPart, type SnapshotSection } from '../lexical/snapshot.ts';
import { TermTable, type PackedTerms } from '../lexical/terms.ts';

/**
 * What a write checks against every memory, stored column by column so that nothing is parsed for
 * it: the title key of each row in a hash table (is this title taken in this scope?), its workspace
 * and archived flag, and the pairs (new, old) of live memories that supersede another.
 * The title key is normaliseTitle's, computed when written (NFKC and friends over 5,000 titles was
 * a tenth of a one-shot write): a change to normaliseTitle needs a new SNAPSHOT_FORMAT.
 */
export function rowSections(docs: readonly DocumentRow[]): [string, SnapshotPart][] {
  const rows = new StoredRowsBuilder();
  for (const d of docs) rows.add(d);
  return rows.sections();
}

/** What a stored row keeps until its sections are written, beside its encoded bytes: the columns looked up without decoding it. */
interface KeptRow {
  id: string;
  title: string;
  archived: boolean;
  workspace: string;
  supersedes: readonly string[];
  file: string;
  size: number;
  mtimeMs: number;
  pinned: boolean;
  /** The row's date as a number (dateNumber), -1 when it is not a plain YYYY-MM-DD. */
  date: number;
}

/** A plain YYYY-MM-DD date as the number YYYYMMDD (same order), -1 for anything else. */
export const dateNumber = (date: string): number => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? Number(date.replaceAll('-', '')) : -1);

/** The date dateNumber made the number from; null for -1. */
export const dateOfNumber = (n: number): string | null => (n < 0 ? null : `${String(Math.floor(n / 10000)).padStart(4, '0')}-${String(Math.floor(n / 100) % 100).padStart(2, '0')}-${String(n % 100).padStart(2, '0')}`);

/** Encoded rows are gathered into blocks of this size before they go to the spill file (or stay in memory). */
const BLOCK_BYTES = 1 << 20;

/**
 * The rows sections built a row at a time: a full index pass adds each document row as it stores it,
 * and its snapshot then carries the rows — the first command after the pass reads them instead of
 * listing the whole table. With a `spill` file the encoded rows wait there, not in memory (40 MB at
 * 50,000 notes, on top of the pass's peak); `dispose()` removes it. Rows keep the order they were
 * added in (a loaded index appends new rows too: nothing reads that order as a listing; the list sorts).
 */
export class StoredRowsBuilder {
  private readonly columns = documentColumns();
  private readonly kept: KeptRow[] = [];
  private readonly blocks: Uint8Array[] = [];
  private block: Uint8Array;
  private used = 0;
  private readonly ends: number[] = [];
  private readonly checks: number[] = [];
  private total = 0;
  private crc = 0;
  private fd: number | null = null;
  private spilled = 0;

  constructor(
    private readonly spill: string | null = null,
    private readonly blockBytes = BLOCK_BYTES,
  ) {
    this.block = new Uint8Array(blockBytes);
  }

  get size(): number {
    return this.kept.length;
  }

  /** A row as the documents table reads it back (an undefined nullable column is stored as null, as the table holds it). */
  add(row: DocumentRow): void {
    const record = row as unknown as Record<string, unknown>;
    const json = JSON.stringify(this.columns.map((c) => record[c] ?? null));
    // Encoded straight into the block (no buffer per row); 3 bytes per UTF-16 unit is UTF-8's most.
    if (this.used + json.length * 3 > this.block.length) this.flushBlock(json.length * 3);
    const { written } = ENCODER.encodeInto(json, this.block.subarray(this.used));
    const bytes = this.block.subarray(this.used, this.used + written);
    this.used += bytes.length;
    this.total += bytes.length;
    this.ends.push(this.total);
    // The rows are read one at a time, after open, so each guards itself.
    const check = bytes.length > 0 ? crc32(bytes) : 0;
    this.checks.push(check | 0);
    if (bytes.length > 0) this.crc = crc32(bytes, this.crc);
    this.kept.push({
      // An id is made whole (hex of a digest, or read from the table), never a slice: the pass's list of
      // documents holds the same string, so it is not copied (1.6 MB at 50,000 notes).
      id: row.id,
      title: detached(normaliseTitle(row.title)),
      archived: row.archived,
      workspace: detached(row.workspace),
      supersedes: row.archived || row.supersedes.length === 0 ? NONE : row.supersedes.filter((old) => old !== row.id).map(detached),
      file: detached(`${row.root}:${row.path}`),
      size: row.size,
      mtimeMs: row.mtimeMs,
      pinned: row.pinned === true,
      date: dateNumber(row.date),
    });
  }

  /** The full block goes to the spill file (or is kept), and a new one of at least `room` bytes starts. */
  private flushBlock(room: number): void {
    const full = this.block.subarray(0, this.used);
    if (this.spill === null) this.blocks.push(full);
    else if (full.length > 0) {
      this.fd ??= openSync(this.spill, 'w+');
      writeSync(this.fd, full);
      this.spilled += full.length;
    }
    this.block = this.spill === null || this.block.length < room ? new Uint8Array(Math.max(this.blockBytes, room)) : this.block;
    this.used = 0;
  }

  /** The encoded rows as the snapshot writer reads them: the spilled part from the file, a block at a time, then the block in memory. */
  private data(): ByteSource {
    const { fd, spilled, blocks } = this;
    const last = this.block.subarray(0, this.used);
    return {
      byteLength: this.total,
      crc: this.crc >>> 0,
      *pieces() {
        // One buffer, filled again for each piece: a reader takes each piece before it asks for the next.
        const buffer = Buffer.allocUnsafe(Math.min(BLOCK_BYTES, spilled));
        for (let at = 0; fd !== null && at < spilled; ) {
          const piece = buffer.subarray(0, Math.min(buffer.length, spilled - at));
          const n = readSync(fd, piece, 0, piece.length, at);
          if (n <= 0) throw new Error('the spilled rows ended early');
          yield piece.subarray(0, n);
          at += n;
        }
        yield* blocks;
        yield last;
      },
    };
  }

  sections(): [string, SnapshotPart][] {
    const rows = this.kept;
    const offsets = new Int32Array(rows.length + 1);
    offsets.set(this.ends, 1);
    const workspaces = [...new Set(rows.map((r) => r.workspace))];
    const workspaceIndex = new Map(workspaces.map((w, i) => [w, i]));
    const supersedes: string[] = [];
    for (const r of rows) for (const old of r.supersedes) supersedes.push(r.id, old);
    return [
      ['rows.columns', this.columns],
      ...packedSections('rows.ids', TermTable.pack(rows.map((r) => r.id))),
      ['rows.offsets', offsets],
      ['rows.data', new Deferred(this.data())],
      ['rows.crc', Int32Array.from(this.checks)],
      ...packedSections('rows.titles', TermTable.pack(rows.map((r) => r.title))),
      ['rows.archived', Uint8Array.from(rows, (r) => (r.archived ? 1 : 0))],
      ['rows.workspaceOf', Int32Array.from(rows, (r) => workspaceIndex.get(r.workspace)!)],
      ['rows.workspaces', workspaces],
      ['rows.supersedes', supersedes],
      // The manifest check of an open (is each diary file as indexed?) without listing the table.
      ['rows.files', new Deferred(new JsonStrings(rows.length, (i) => rows[i]!.file))],
      ['rows.sizes', Float64Array.from(rows, (r) => r.size)],
      ['rows.mtimes', Float64Array.from(rows, (r) => r.mtimeMs)],
      // The memory index's order (pinned first, then the latest change) without decoding the rows.
      ['rows.pinned', Uint8Array.from(rows, (r) => (r.pinned ? 1 : 0))],
      // The list's order (newest date first) without decoding the rows.
      ['rows.dates', Int32Array.from(rows, (r) => r.date)],
    ];
  }

  /** Removes the spill file (best effort: a leftover of a killed pass is swept by the next snapshot write). */
  dispose(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.spill !== null) rmSync(this.spill, { force: true });
  }
}

const NONE: readonly string[] = [];
const ENCODER = new TextEncoder();

/**
 * A copy of `s` that holds nothing else alive: a parsed title or workspace is often a slice of the
 * whole file's text, and keeping 50,000 such slices kept every file's text (+86 MB at the peak of a
 * 50,000-note pass).
 */
function detached(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
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

/** What the memory index orders and filters a row by. */
export interface IndexFact {
  id: string;
  archived: boolean;
  workspace: string;
  pinned: boolean;
  mtimeMs: number;
  /** The row's date (YYYY-MM-DD); null when the snapshot does not hold it or it is not a plain date. */
  date: string | null;
  /** The diary root ('diary' or 'legacy') and the path within it. */
  root: string;
  path: string;
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
    /** Absent in snapshots written before it was stored (then the memory index decodes the rows). */
    private readonly pinned: Uint8Array | null = null,
    /** Each row's dateNumber; absent in snapshots written before it was stored (then the list decodes the rows). */
    private readonly dates: Int32Array | null = null,
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
    const pinned = get('pinned');
    const dates = get('dates');
    return new StoredRows(ids, columns, offsets, data, checks, titles, archived, workspaceOf, workspaces, supersedes, { keys, sizes, mtimes }, pinned instanceof Uint8Array && pinned.length === n ? pinned : null, dates instanceof Int32Array && dates.length === n ? dates : null);
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
  /** Each row's file (`root:path`) with the size and mtime it was indexed at, by row number. */
  indexedFiles(): { keys: readonly string[]; sizes: Float64Array; mtimes: Float64Array } {
    return { keys: this.files.keys(), sizes: this.files.sizes, mtimes: this.files.mtimes };
  }

  /** Whether the rows carry the memory index's facts (snapshots written before the pinned column do not). */
  get hasIndexFacts(): boolean {
    return this.pinned !== null;
  }

  /**
   * What the memory index orders and filters by, for every row, without decoding one: null when the
   * snapshot predates the pinned column.
   */
  indexFacts(): IndexFact[] | null {
    if (!this.pinned) return null;
    const keys = this.files.keys();
    const ids = this.ids();
    const out: IndexFact[] = [];
    for (let i = 0; i < ids.length; i++) {
      const key = keys[i]!;
      const colon = key.indexOf(':');
      const date = this.dates ? dateOfNumber(this.dates[i]!) : null;
      out.push({ id: ids[i]!, archived: this.archived[i] === 1, workspace: this.workspaces[this.workspaceOf[i]!]!, pinned: this.pinned[i] === 1, mtimeMs: this.files.mtimes[i]!, date, root: key.slice(0, colon), path: key.slice(colon + 1) });
    }
    return out;
  }

  /** (new, old) for every old memory a live one supersedes, in listing order. */
  *supersessions(): Generator<[string, string]> {
    for (let i = 0; i < this.supersedes.length; i += 2) yield [this.supersedes[i]!, this.supersedes[i + 1]!];
  }
}
