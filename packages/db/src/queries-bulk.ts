// The bulk write of an index pass: many documents and their chunks replaced in one write
// transaction, as multi-row statements built once per batch. Same rows and same atomicity as
// replaceDocuments (queries.ts); what it saves is drizzle's query builder, which walks every value
// of every row (a third of a full pass's database time over CMRC's 848 documents).
import { getTableColumns, type Column } from 'drizzle-orm';
import { clientOf } from './batch.ts';
import type { EngramDb } from './client.ts';
import type { NewChunkRow, NewDocumentRow } from './queries.ts';
import { chunks, documents } from './schema.ts';

/** Rows per INSERT: 25 document columns × 200 rows stays far below SQLite's 32,766 parameters. */
const ROWS_PER_STATEMENT = 200;

interface Statement {
  sql: string;
  args: (string | number | null)[];
}

interface TableShape {
  keys: string[];
  columns: Column[];
  insertHead: string;
  rowPlaceholders: string;
}

function shapeOf(table: typeof documents | typeof chunks, name: string): TableShape {
  const byKey = getTableColumns(table) as Record<string, Column>;
  const keys = Object.keys(byKey);
  const columns = keys.map((k) => byKey[k]!);
  return {
    keys,
    columns,
    insertHead: `INSERT INTO "${name}" (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES `,
    rowPlaceholders: `(${columns.map(() => '?').join(', ')})`,
  };
}

let shapes: { documents: TableShape; chunks: TableShape } | null = null;
const tableShapes = () => (shapes ??= { documents: shapeOf(documents, 'documents'), chunks: shapeOf(chunks, 'chunks') });

/**
 * A row's values in column order, encoded as drizzle encodes them (JSON columns, booleans as 0/1).
 * A column left out takes its default when it has one that is a plain value; a row that leaves out
 * a column with an SQL default (or none) is refused, so nothing is written that the drizzle insert
 * would have written otherwise.
 */
function encodeRow(shape: TableShape, row: Record<string, unknown>, out: Statement['args']): void {
  for (let i = 0; i < shape.keys.length; i++) {
    const column = shape.columns[i]!;
    let value = row[shape.keys[i]!];
    if (value === undefined) {
      if (column.hasDefault && column.default !== undefined && (column.default === null || typeof column.default !== 'object' || Array.isArray(column.default))) value = column.default;
      else if (!column.notNull && !column.hasDefault) value = null;
      else throw new Error(`bulk write: ${column.name} is missing and has no plain default`);
    }
    out.push(value === null ? null : (column.mapToDriverValue(value) as string | number | null));
  }
}

function inserts(shape: TableShape, rows: readonly Record<string, unknown>[]): Statement[] {
  const out: Statement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const slice = rows.slice(i, i + ROWS_PER_STATEMENT);
    const args: Statement['args'] = [];
    for (const row of slice) encodeRow(shape, row, args);
    out.push({ sql: shape.insertHead + Array.from(slice, () => shape.rowPlaceholders).join(', '), args });
  }
  return out;
}

/**
 * Replaces these documents and all their chunks in one write transaction (BEGIN IMMEDIATE): the
 * same result as replaceDocuments, with statements built without drizzle's per-value walk.
 */
export async function replaceDocumentsBulk(db: EngramDb, items: readonly { doc: NewDocumentRow; chunks: NewChunkRow[] }[]): Promise<void> {
  if (items.length === 0) return;
  const shape = tableShapes();
  const statements: Statement[] = [];
  const ids = items.map((i) => i.doc.id);
  for (let i = 0; i < ids.length; i += ROWS_PER_STATEMENT) {
    const slice = ids.slice(i, i + ROWS_PER_STATEMENT);
    const marks = slice.map(() => '?').join(', ');
    statements.push({ sql: `DELETE FROM "chunks" WHERE "doc_id" IN (${marks})`, args: slice });
    statements.push({ sql: `DELETE FROM "documents" WHERE "id" IN (${marks})`, args: slice });
  }
  statements.push(...inserts(shape.documents, items.map((i) => i.doc as unknown as Record<string, unknown>)));
  statements.push(...inserts(shape.chunks, items.flatMap((i) => i.chunks as unknown as Record<string, unknown>[])));
  await clientOf(db).batch(statements, 'write');
}

/** Pages the WAL holds before a commit copies them into the database file (SQLite's default). */
export const WAL_AUTOCHECKPOINT_PAGES = 1000;
/** The same during a bulk write (~80 MB of 4 KB pages). */
export const BULK_WAL_AUTOCHECKPOINT_PAGES = 20_000;

/**
 * For a bulk write into an embedded database: lets the WAL grow to BULK_WAL_AUTOCHECKPOINT_PAGES
 * before its pages are copied into the file. Each copy also copies again the pages every batch
 * changes anyway (the b-trees' upper levels, the indexes): 50,000 notes' rows were written in 0.85×
 * the CPU and 0.7× the wall time, the last copy included. Returns the undo; the next commit after it
 * copies the WAL as usual. A remote database has its own WAL: nothing to set there.
 */
export async function bulkWriteMode(db: EngramDb): Promise<() => Promise<void>> {
  const client = clientOf(db);
  if (client.protocol !== 'file') return async () => {};
  await client.execute(`PRAGMA wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT_PAGES}`);
  return async () => {
    await client.execute(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  };
}
