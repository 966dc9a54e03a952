// The document rows, stored in the lexical snapshot beside the index, so a one-shot command (an
// `engram write` at 5,000 memories) does not list the whole documents table: it decodes the rows it
// touches, and what a write checks for every memory (title, workspace, archived, supersedes) is
// looked up column by column. Each row is its own JSON array, found by an offset table.
import { documentColumns, type DocumentRow } from '@engram/db';
import { normaliseTitle } from '../diary/parse.ts';
import type { SnapshotSection } from '../lexical/snapshot.ts';
import { TermTable } from '../lexical/terms.ts';

/**
 * What a write checks against every memory, stored column by column so that nothing is parsed for
 * it: the title key of each row in a hash table (is this title taken in this scope?), its workspace
 * and archived flag, and the pairs (new, old) of live memories that supersede another.
 * The title key is normaliseTitle's, computed when written (NFKC and friends over 5,000 titles was
 * a tenth of a one-shot write): a change to normaliseTitle needs a new SNAPSHOT_FORMAT.
 */
export function rowSections(docs: DocumentRow[]): [string, SnapshotSection][] {
  const columns = documentColumns();
  const encoded = docs.map((d) => Buffer.from(JSON.stringify(columns.map((c) => (d as unknown as Record<string, unknown>)[c])), 'utf8'));
  const offsets = new Int32Array(docs.length + 1);
  let total = 0;
  encoded.forEach((b, i) => {
    total += b.length;
    offsets[i + 1] = total;
  });
  const data = new Uint8Array(total);
  encoded.forEach((b, i) => data.set(b, offsets[i]!));
  const titles = TermTable.pack(docs.map((d) => normaliseTitle(d.title)));
  const workspaces = [...new Set(docs.map((d) => d.workspace))];
  const workspaceIndex = new Map(workspaces.map((w, i) => [w, i]));
  const supersedes: string[] = [];
  for (const d of docs) if (!d.archived) for (const old of d.supersedes) if (old !== d.id) supersedes.push(d.id, old);
  return [
    ['rows.columns', columns],
    ['rows.ids', docs.map((d) => d.id)],
    ['rows.offsets', offsets],
    ['rows.data', data],
    ['rows.titles.text', titles.text],
    ['rows.titles.offsets', titles.offsets],
    ['rows.titles.slots', titles.slots],
    ['rows.archived', Uint8Array.from(docs, (d) => (d.archived ? 1 : 0))],
    ['rows.workspaceOf', Int32Array.from(docs, (d) => workspaceIndex.get(d.workspace)!)],
    ['rows.workspaces', workspaces],
    ['rows.supersedes', supersedes],
  ];
}

/** Rows read back from a snapshot's sections, decoded one at a time on demand. */
export class StoredRows {
  private positions: Map<string, number> | null = null;
  /** Rows decoded so far (tests and benchmarks check that a one-shot command decodes a handful). */
  decoded = 0;

  private constructor(
    readonly ids: string[],
    private readonly columns: string[],
    private readonly offsets: Int32Array,
    private readonly data: Uint8Array,
    private readonly titles: TermTable,
    private readonly archived: Uint8Array,
    private readonly workspaceOf: Int32Array,
    private readonly workspaces: string[],
    private readonly supersedes: string[],
  ) {}

  /** The rows in `extra`, or null when there are none, they were stored with other columns (another schema), or a table does not fit. */
  static from(extra: Map<string, SnapshotSection>): StoredRows | null {
    const get = (name: string) => extra.get(`rows.${name}`);
    const columns = get('columns');
    const ids = get('ids');
    const offsets = get('offsets');
    const data = get('data');
    const [text, titleOffsets, slots] = [get('titles.text'), get('titles.offsets'), get('titles.slots')];
    const archived = get('archived');
    const workspaceOf = get('workspaceOf');
    const workspaces = get('workspaces');
    const supersedes = get('supersedes');
    if (!Array.isArray(columns) || !Array.isArray(ids) || !(offsets instanceof Int32Array) || !(data instanceof Uint8Array)) return null;
    if (!(text instanceof Uint8Array) || !(titleOffsets instanceof Int32Array) || !(slots instanceof Int32Array)) return null;
    if (!(archived instanceof Uint8Array) || !(workspaceOf instanceof Int32Array) || !Array.isArray(workspaces) || !Array.isArray(supersedes)) return null;
    const ours = documentColumns();
    if (columns.length !== ours.length || columns.some((c, i) => c !== ours[i])) return null;
    const n = ids.length;
    if (offsets.length !== n + 1 || offsets[0] !== 0 || offsets[n] !== data.length) return null;
    for (let i = 0; i < n; i++) if (offsets[i + 1]! < offsets[i]!) return null;
    if (archived.length !== n || workspaceOf.length !== n || titleOffsets.length !== n + 1 || supersedes.length % 2 !== 0) return null;
    for (let i = 0; i < n; i++) if (workspaceOf[i]! < 0 || workspaceOf[i]! >= workspaces.length) return null;
    let titles: TermTable;
    try {
      titles = TermTable.fromPacked({ text, offsets: titleOffsets, slots });
    } catch {
      return null;
    }
    return new StoredRows(ids, columns, offsets, data, titles, archived, workspaceOf, workspaces, supersedes);
  }

  get size(): number {
    return this.ids.length;
  }

  indexOf(id: string): number | undefined {
    if (!this.positions) this.positions = new Map(this.ids.map((d, i) => [d, i]));
    return this.positions.get(id);
  }

  row(i: number): DocumentRow {
    this.decoded++;
    const values = JSON.parse(Buffer.from(this.data.buffer, this.data.byteOffset + this.offsets[i]!, this.offsets[i + 1]! - this.offsets[i]!).toString('utf8')) as unknown[];
    if (!Array.isArray(values) || values.length !== this.columns.length) throw new Error(`stored row ${i} is damaged`);
    const out: Record<string, unknown> = {};
    for (let c = 0; c < this.columns.length; c++) out[this.columns[c]!] = values[c];
    return out as unknown as DocumentRow;
  }

  /** The rows (by position) of live memories titled `titleKey` (normalised) in a workspace `visible` accepts. */
  liveWithTitle(titleKey: string, visible: (workspace: string) => boolean): number[] {
    return this.titles.packedMatches(titleKey).filter((i) => this.archived[i] === 0 && visible(this.workspaces[this.workspaceOf[i]!]!));
  }

  /** (new, old) for every old memory a live one supersedes, in listing order. */
  *supersessions(): Generator<[string, string]> {
    for (let i = 0; i < this.supersedes.length; i += 2) yield [this.supersedes[i]!, this.supersedes[i + 1]!];
  }
}
