// The document rows, stored in the lexical snapshot beside the index, so a one-shot command (an
// `engram write` at 5,000 memories) does not list the whole documents table: it decodes the rows it
// touches, and the few fields a write checks for every memory (title, workspace, archived, root,
// supersedes) come from one small list. Each row is its own JSON array, found by an offset table.
import { documentColumns, type DocumentRow } from '@engram/db';
import { normaliseTitle } from '../diary/parse.ts';
import type { SnapshotSection } from '../lexical/snapshot.ts';

/** What a write looks at for every memory: title uniqueness within a scope, what is superseded. */
export interface DocBrief {
  id: string;
  /**
   * The title as compared for uniqueness (normaliseTitle), stored: NFKC and friends over every title
   * was a tenth of a one-shot write at 5,000 memories. A change to normaliseTitle needs a new
   * SNAPSHOT_FORMAT.
   */
  titleKey: string;
  workspace: string;
  archived: boolean;
  root: DocumentRow['root'];
  supersedes: string[];
}

export const briefOf = (d: DocumentRow): DocBrief => ({ id: d.id, titleKey: normaliseTitle(d.title), workspace: d.workspace, archived: d.archived, root: d.root, supersedes: d.supersedes });

/** The snapshot sections holding `docs`. */
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
  const brief = Buffer.from(JSON.stringify(docs.map((d) => [normaliseTitle(d.title), d.workspace, d.archived ? 1 : 0, d.root, d.supersedes])), 'utf8');
  return [
    ['rows.columns', columns],
    ['rows.ids', docs.map((d) => d.id)],
    ['rows.offsets', offsets],
    ['rows.data', data],
    ['rows.brief', new Uint8Array(brief.buffer.slice(brief.byteOffset, brief.byteOffset + brief.length))],
  ];
}

/** Rows read back from a snapshot's sections, decoded one at a time on demand. */
export class StoredRows {
  private positions: Map<string, number> | null = null;
  private briefList: DocBrief[] | null = null;
  /** Rows decoded so far (tests and benchmarks check that a one-shot command decodes a handful). */
  decoded = 0;

  private constructor(
    readonly ids: string[],
    private readonly columns: string[],
    private readonly offsets: Int32Array,
    private readonly data: Uint8Array,
    private readonly brief: Uint8Array,
  ) {}

  /** The rows in `extra`, or null when there are none or they were stored with other columns (another schema). */
  static from(extra: Map<string, SnapshotSection>): StoredRows | null {
    const columns = extra.get('rows.columns');
    const ids = extra.get('rows.ids');
    const offsets = extra.get('rows.offsets');
    const data = extra.get('rows.data');
    const brief = extra.get('rows.brief');
    if (!Array.isArray(columns) || !Array.isArray(ids) || !(offsets instanceof Int32Array) || !(data instanceof Uint8Array) || !(brief instanceof Uint8Array)) return null;
    const ours = documentColumns();
    if (columns.length !== ours.length || columns.some((c, i) => c !== ours[i])) return null;
    if (offsets.length !== ids.length + 1 || offsets[0] !== 0 || offsets[ids.length] !== data.length) return null;
    for (let i = 0; i < ids.length; i++) if (offsets[i + 1]! < offsets[i]!) return null;
    return new StoredRows(ids, columns, offsets, data, brief);
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

  briefs(): DocBrief[] {
    if (this.briefList) return this.briefList;
    const list = JSON.parse(Buffer.from(this.brief.buffer, this.brief.byteOffset, this.brief.byteLength).toString('utf8')) as [string, string, number, DocumentRow['root'], string[]][];
    if (!Array.isArray(list) || list.length !== this.ids.length) throw new Error('stored row briefs are damaged');
    this.briefList = list.map(([titleKey, workspace, archived, root, supersedes], i) => ({ id: this.ids[i]!, titleKey, workspace, archived: archived === 1, root, supersedes }));
    return this.briefList;
  }
}
